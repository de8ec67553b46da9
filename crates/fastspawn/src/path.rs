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
//!
//! A command that runs as another user ([`Command::uid`](crate::Command::uid),
//! `gid`, `groups`) is resolved with that user's rights, as the child's own
//! `execvp` would (std's behaviour): a match the user may not execute, or
//! that lies in a directory the user may not search, is skipped. The check
//! reads the mode bits (ACLs and capabilities other than root's are not
//! consulted), and the cache is keyed by those credentials too.
//!
//! A cached resolution is checked before every use: the PATH directories
//! searched before the match are watched with inotify (one fd per process,
//! one non-blocking `read` per check, whatever the length of PATH), so a
//! program that appears in one of them is found by the next spawn, as std
//! finds it. A directory that cannot be watched is checked with `stat`.

use std::collections::HashMap;
use std::ffi::{CStr, CString, OsStr, OsString};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rustix::fs::inotify;

use rustix::fs::Access;

use crate::per_process::PerProcess;

/// glibc's `execvp` default when the environment has no `PATH`.
pub(crate) const DEFAULT_PATH: &str = "/bin:/usr/bin";

/// Entries beyond this make the cache start over (it only holds names that
/// a program really spawns, so it stays small).
const CACHE_LIMIT: usize = 4096;

/// The credentials a child runs with, when they differ from the parent's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Creds {
    pub uid: u32,
    pub gid: u32,
    pub groups: Vec<u32>,
}

impl Creds {
    /// Whether these credentials may execute (a file) or search (a
    /// directory) what `meta` describes, by its mode bits.
    fn may_execute(&self, meta: &std::fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt;
        let mode = meta.mode();
        if self.uid == 0 {
            // Root may search any directory and run a file any x bit allows.
            return meta.is_dir() || mode & 0o111 != 0;
        }
        let bits = if meta.uid() == self.uid {
            mode >> 6
        } else if meta.gid() == self.gid || self.groups.contains(&meta.gid()) {
            mode >> 3
        } else {
            mode
        };
        bits & 1 != 0
    }

    /// Whether every directory above `path` may be searched.
    fn may_reach(&self, path: &Path) -> bool {
        path.ancestors()
            .skip(1)
            .filter(|dir| !dir.as_os_str().is_empty())
            .all(|dir| std::fs::metadata(dir).is_ok_and(|meta| self.may_execute(&meta)))
    }
}

type Key = (OsString, OsString, Option<Creds>);

/// Per process: a forked child starts with an empty cache (a lock held by
/// another thread at the fork would never be released in the child).
static CACHE: PerProcess<Mutex<Option<HashMap<Key, Resolved>>>> = PerProcess::new();

fn cache() -> &'static Mutex<Option<HashMap<Key, Resolved>>> {
    CACHE.get_or_init(Mutex::default)
}

/// The identity and modification time of a PATH directory, or `None` when
/// it could not be read.
type DirState = Option<(u64, u64, i64, u64)>;

// The field types differ between architectures.
#[allow(clippy::unnecessary_cast)]
fn dir_state(dir: &CStr) -> DirState {
    rustix::fs::stat(dir).ok().map(|st| {
        (
            st.st_dev,
            st.st_ino,
            st.st_mtime as i64,
            st.st_mtime_nsec as u64,
        )
    })
}

/// Watches the PATH directories searched before a match, so that checking
/// a cached resolution costs one non-blocking `read` of an inotify fd
/// however long PATH is. Any event (a file created, moved in, deleted or
/// changed in mode, the directory itself moved or deleted, a queue
/// overflow) bumps the generation, which makes every resolution made
/// before it stale. One inotify instance per process, made on the first
/// successful PATH search that has directories ahead of its match.
struct DirWatch {
    fd: OwnedFd,
}

/// Per process: a forked child shares its parent's inotify instance, whose
/// events either could take, so it makes its own.
static WATCH: PerProcess<Option<DirWatch>> = PerProcess::new();
static GENERATION: AtomicU64 = AtomicU64::new(0);

fn watch() -> Option<&'static DirWatch> {
    WATCH
        .get_or_init(|| {
            let flags = inotify::CreateFlags::CLOEXEC | inotify::CreateFlags::NONBLOCK;
            inotify::init(flags).ok().map(|fd| DirWatch { fd })
        })
        .as_ref()
}

impl DirWatch {
    /// Starts watching `dir`; false when it cannot be watched (missing, no
    /// watch left), in which case its state is checked with `stat`.
    fn add(&self, dir: &CStr) -> bool {
        let events = inotify::WatchFlags::CREATE
            | inotify::WatchFlags::MOVED_TO
            | inotify::WatchFlags::MOVED_FROM
            | inotify::WatchFlags::DELETE
            | inotify::WatchFlags::ATTRIB
            | inotify::WatchFlags::DELETE_SELF
            | inotify::WatchFlags::MOVE_SELF
            | inotify::WatchFlags::ONLYDIR;
        inotify::add_watch(&self.fd, dir, events).is_ok()
    }

    /// The generation after taking in every pending event: one `read`.
    fn generation(&self) -> u64 {
        let mut buf = [0u8; 4096];
        let mut changed = false;
        while let Ok(n) = rustix::io::read(&self.fd, &mut buf) {
            if n == 0 {
                break;
            }
            changed = true;
        }
        if changed {
            GENERATION.fetch_add(1, Ordering::AcqRel) + 1
        } else {
            GENERATION.load(Ordering::Acquire)
        }
    }
}

/// A name found in PATH, with what tells whether a program has appeared
/// since in a directory searched before the one it was found in (std, which
/// searches on every spawn, would run that program): the inotify
/// generation, and for directories that could not be watched their `stat`
/// state. A stale resolution is redone.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub exe: CString,
    /// Directories ahead of the match that are not watched, with their state.
    unwatched: Arc<[(CString, DirState)]>,
    /// The inotify generation the resolution is valid for.
    generation: Option<u64>,
}

impl Resolved {
    /// Whether no directory searched before the match changed since: one
    /// `read` of the inotify fd, plus one `stat` per directory that could
    /// not be watched; nothing when the match is in the first directory.
    pub(crate) fn is_current(&self) -> bool {
        if let Some(generation) = self.generation {
            match watch() {
                Some(watch) if watch.generation() == generation => {}
                _ => return false,
            }
        }
        self.unwatched
            .iter()
            .all(|(dir, state)| dir_state(dir) == *state)
    }

    /// Turns the directories ahead of a match, with the states read before
    /// the search, into a resolution: the ones that can be watched are
    /// watched from now on and read once more, which catches a change made
    /// between the first read and the watch.
    fn new(exe: CString, ahead: Vec<(CString, DirState)>) -> Resolved {
        if ahead.is_empty() {
            return Resolved {
                exe,
                unwatched: Arc::from([]),
                generation: None,
            };
        }
        let Some(watch) = watch() else {
            return Resolved {
                exe,
                unwatched: ahead.into(),
                generation: None,
            };
        };
        let generation = watch.generation();
        let mut unwatched = Vec::new();
        let mut stale = false;
        for (dir, state) in ahead {
            if watch.add(&dir) {
                stale |= dir_state(&dir) != state;
            } else {
                unwatched.push((dir, state));
            }
        }
        Resolved {
            exe,
            unwatched: unwatched.into(),
            // A generation that never comes makes it re-resolve at once.
            generation: Some(if stale { u64::MAX } else { generation }),
        }
    }
}

/// Resolves `name` (no `/` in it) in `path`, relative entries against `cwd`,
/// as a process with `creds` (the parent's own when `None`) would.
/// Returns the errno `execvp` would report on failure.
pub(crate) fn resolve(
    name: &OsStr,
    path: Option<&OsStr>,
    cwd: Option<&Path>,
    creds: Option<&Creds>,
) -> Result<Resolved, i32> {
    let path = path.unwrap_or(OsStr::new(DEFAULT_PATH));
    if name.is_empty() {
        return Err(libc::ENOENT);
    }
    let cacheable = path
        .as_bytes()
        .split(|&b| b == b':')
        .all(|dir| dir.starts_with(b"/"));
    let key = (name.to_owned(), path.to_owned(), creds.cloned());
    if cacheable {
        let cache = cache().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = cache.as_ref().and_then(|c| c.get(&key)) {
            if found.is_current() {
                return Ok(found.clone());
            }
        }
    }
    let found = search(name, path, cwd, creds)?;
    if cacheable {
        let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
        let cache = cache.get_or_insert_with(HashMap::new);
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, found.clone());
    }
    Ok(found)
}

/// Drops a cached resolution that turned out stale.
pub(crate) fn forget(name: &OsStr, path: Option<&OsStr>, creds: Option<&Creds>) {
    let path = path.unwrap_or(OsStr::new(DEFAULT_PATH));
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(cache) = cache.as_mut() {
        cache.remove(&(name.to_owned(), path.to_owned(), creds.cloned()));
    }
}

fn search(
    name: &OsStr,
    path: &OsStr,
    cwd: Option<&Path>,
    creds: Option<&Creds>,
) -> Result<Resolved, i32> {
    let mut denied = false;
    let mut ahead = Vec::new();
    for dir in path.as_bytes().split(|&b| b == b':') {
        // Read before the search, so a program that appears during it
        // changes the state seen by the next check.
        let state = CString::new(dir).ok().map(|c| {
            let state = dir_state(&c);
            (c, state)
        });
        let dir = Path::new(OsStr::from_bytes(if dir.is_empty() { b"." } else { dir }));
        let candidate: PathBuf = match cwd {
            Some(cwd) if dir.is_relative() => cwd.join(dir).join(name),
            _ => dir.join(name),
        };
        match std::fs::metadata(&candidate) {
            Ok(meta) => {
                let executable = meta.is_file()
                    && meta.permissions().mode() & 0o111 != 0
                    && match creds {
                        None => rustix::fs::access(&candidate, Access::EXEC_OK).is_ok(),
                        Some(creds) => creds.may_execute(&meta) && creds.may_reach(&candidate),
                    };
                if executable {
                    // Relative PATH entries resolve against the parent's cwd
                    // here only when the command sets none: keep them relative
                    // so the child (after its chdir) sees the same file.
                    let resolved = if cwd.is_some() && dir.is_relative() {
                        dir.join(name)
                    } else {
                        candidate
                    };
                    let exe = CString::new(resolved.into_os_string().into_vec())
                        .map_err(|_| libc::EINVAL)?;
                    return Ok(Resolved::new(exe, ahead));
                }
                denied = true;
            }
            Err(err) => match err.raw_os_error() {
                Some(libc::ENOENT | libc::ENOTDIR | libc::ENAMETOOLONG | libc::ELOOP) | None => {}
                Some(libc::EACCES) => denied = true,
                Some(errno) => return Err(errno),
            },
        }
        ahead.extend(state);
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
        let found = resolve(OsStr::new("tool"), Some(&path), None, None)
            .unwrap()
            .exe;
        assert_eq!(found.to_bytes(), b.join("tool").as_os_str().as_bytes());
        let only_a = OsString::from(a.display().to_string());
        assert_eq!(
            resolve(OsStr::new("tool"), Some(&only_a), None, None).unwrap_err(),
            libc::EACCES
        );
        assert_eq!(
            resolve(OsStr::new("nope"), Some(&path), None, None).unwrap_err(),
            libc::ENOENT
        );
        // The cache answers even after the file is gone; forget() drops it.
        fs::remove_file(b.join("tool")).unwrap();
        assert!(resolve(OsStr::new("tool"), Some(&path), None, None).is_ok());
        forget(OsStr::new("tool"), Some(&path), None);
        assert_eq!(
            resolve(OsStr::new("tool"), Some(&path), None, None).unwrap_err(),
            libc::EACCES
        );
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn no_path_means_bin_and_usr_bin() {
        let found = resolve(OsStr::new("sh"), None, None, None).unwrap().exe;
        assert!(found.to_bytes() == b"/bin/sh" || found.to_bytes() == b"/usr/bin/sh");
        assert_eq!(
            resolve(OsStr::new(""), None, None, None).unwrap_err(),
            libc::ENOENT
        );
    }
}
