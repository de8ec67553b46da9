//! Finding a bare program name in `PATH`, once.
//!
//! `execvp` and `posix_spawnp` try `execve` in every PATH directory until
//! one works, so a program in the 10th directory costs nine failed
//! `execve`s on every spawn. fastspawn resolves the name in the parent with
//! `stat`-like checks, following `execvp`'s rules (empty entries mean the
//! current directory; a match that is not an executable regular file is
//! skipped and reported as `EACCES` if nothing else matches; no PATH means
//! `/bin:/usr/bin`), and caches the result per `(name, PATH)`. When the
//! cached file later fails to `execve` with `ENOENT`, `ENOTDIR` or
//! `EACCES`, the entry is dropped and the name resolved again.

use std::collections::HashMap;
use std::ffi::{CString, OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rustix::fs::Access;

/// glibc's `execvp` default when the environment has no `PATH`.
pub(crate) const DEFAULT_PATH: &str = "/bin:/usr/bin";

/// Entries beyond this make the cache start over (it only holds names that
/// a program really spawns, so it stays small).
const CACHE_LIMIT: usize = 4096;

type Key = (OsString, OsString);

static CACHE: Mutex<Option<HashMap<Key, CString>>> = Mutex::new(None);

/// Resolves `name` (no `/` in it) in `path`, relative entries against `cwd`.
/// Returns the errno `execvp` would report on failure.
pub(crate) fn resolve(
    name: &OsStr,
    path: Option<&OsStr>,
    cwd: Option<&Path>,
) -> Result<CString, i32> {
    let path = path.unwrap_or(OsStr::new(DEFAULT_PATH));
    if name.is_empty() {
        return Err(libc::ENOENT);
    }
    let cacheable = path
        .as_bytes()
        .split(|&b| b == b':')
        .all(|dir| dir.starts_with(b"/"));
    let key = (name.to_owned(), path.to_owned());
    if cacheable {
        let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = cache.as_ref().and_then(|c| c.get(&key)) {
            return Ok(found.clone());
        }
    }
    let found = search(name, path, cwd)?;
    if cacheable {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let cache = cache.get_or_insert_with(HashMap::new);
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, found.clone());
    }
    Ok(found)
}

/// Drops a cached resolution that turned out stale.
pub(crate) fn forget(name: &OsStr, path: Option<&OsStr>) {
    let path = path.unwrap_or(OsStr::new(DEFAULT_PATH));
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(cache) = cache.as_mut() {
        cache.remove(&(name.to_owned(), path.to_owned()));
    }
}

fn search(name: &OsStr, path: &OsStr, cwd: Option<&Path>) -> Result<CString, i32> {
    let mut denied = false;
    for dir in path.as_bytes().split(|&b| b == b':') {
        let dir = Path::new(OsStr::from_bytes(if dir.is_empty() { b"." } else { dir }));
        let candidate: PathBuf = match cwd {
            Some(cwd) if dir.is_relative() => cwd.join(dir).join(name),
            _ => dir.join(name),
        };
        match std::fs::metadata(&candidate) {
            Ok(meta) => {
                let executable = meta.is_file()
                    && meta.permissions().mode() & 0o111 != 0
                    && rustix::fs::access(&candidate, Access::EXEC_OK).is_ok();
                if executable {
                    // Relative PATH entries resolve against the parent's cwd
                    // here only when the command sets none: keep them relative
                    // so the child (after its chdir) sees the same file.
                    let resolved = if cwd.is_some() && dir.is_relative() {
                        dir.join(name)
                    } else {
                        candidate
                    };
                    return CString::new(resolved.into_os_string().into_vec())
                        .map_err(|_| libc::EINVAL);
                }
                denied = true;
            }
            Err(err) => match err.raw_os_error() {
                Some(libc::ENOENT | libc::ENOTDIR | libc::ENAMETOOLONG | libc::ELOOP) | None => {}
                Some(libc::EACCES) => denied = true,
                Some(errno) => return Err(errno),
            },
        }
    }
    Err(if denied { libc::EACCES } else { libc::ENOENT })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn finds_the_first_executable_and_skips_the_rest() {
        let root = std::env::temp_dir().join(format!("fastspawn-path-{}", std::process::id()));
        let (a, b) = (root.join("a"), root.join("b"));
        fs::create_dir_all(&a).unwrap();
        fs::create_dir_all(&b).unwrap();
        fs::write(a.join("tool"), "not executable").unwrap();
        fs::write(b.join("tool"), "#!/bin/sh\n").unwrap();
        fs::set_permissions(b.join("tool"), fs::Permissions::from_mode(0o755)).unwrap();
        let path = OsString::from(format!("{}:{}", a.display(), b.display()));
        let found = resolve(OsStr::new("tool"), Some(&path), None).unwrap();
        assert_eq!(found.to_bytes(), b.join("tool").as_os_str().as_bytes());
        let only_a = OsString::from(a.display().to_string());
        assert_eq!(
            resolve(OsStr::new("tool"), Some(&only_a), None),
            Err(libc::EACCES)
        );
        assert_eq!(
            resolve(OsStr::new("nope"), Some(&path), None),
            Err(libc::ENOENT)
        );
        // The cache answers even after the file is gone; forget() drops it.
        fs::remove_file(b.join("tool")).unwrap();
        assert!(resolve(OsStr::new("tool"), Some(&path), None).is_ok());
        forget(OsStr::new("tool"), Some(&path));
        assert_eq!(
            resolve(OsStr::new("tool"), Some(&path), None),
            Err(libc::EACCES)
        );
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn no_path_means_bin_and_usr_bin() {
        let found = resolve(OsStr::new("sh"), None, None).unwrap();
        assert!(found.to_bytes() == b"/bin/sh" || found.to_bytes() == b"/usr/bin/sh");
        assert_eq!(resolve(OsStr::new(""), None, None), Err(libc::ENOENT));
    }
}
