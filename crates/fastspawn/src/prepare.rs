//! What a command computes once and reuses for every spawn: argv, envp, the
//! resolved executable, the working directory as a C string, `/dev/null`,
//! and the credential and rlimit arrays in the kernel's shapes.
//!
//! A prepared command is rebuilt when the command changes (every builder
//! method drops it) and when it depends on the parent's environment (an
//! inherited PATH for a bare name, or variables merged into overrides) and
//! that environment changed since; the check is a pointer walk over
//! `environ`, not a string comparison.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::Arc;

use crate::command::Command;
use crate::environment::Environment;
use crate::error::{Error, Result, Step};
use crate::path;
use crate::sys::child::Rlimit64;
use crate::sys::cstr::CStringArray;
use crate::sys::env;

/// The child's environment.
#[derive(Debug)]
pub(crate) enum Envp {
    /// The parent's `environ`, read at spawn time.
    Inherit,
    /// A merged copy; its entries may point into `_base`, which it keeps.
    Built {
        array: CStringArray,
        _base: Option<Environment>,
    },
    /// A shared environment as it is ([`Command::environment`]).
    Shared(Environment),
}

#[derive(Debug)]
pub(crate) struct Prepared {
    /// The program's name, shared with every child (for error messages).
    pub program: Arc<OsStr>,
    pub argv: CStringArray,
    pub envp: Envp,
    /// The file to `execve`.
    pub exe: CString,
    /// Set when `exe` came from a PATH search (and so may be cached).
    pub searched_path: Option<Option<OsString>>,
    /// The credentials the search used (see `path::Creds`).
    pub creds: Option<path::Creds>,
    /// The PATH search's result, checked for newer programs ahead of it.
    resolved: Option<path::Resolved>,
    pub cwd: Option<CString>,
    pub groups: Option<Vec<u32>>,
    pub rlimits: Vec<(i32, Rlimit64)>,
    /// The parent environment's fingerprint this depends on, if any.
    pub parent_env: Option<u64>,
    devnull: Option<OwnedFd>,
}

impl Prepared {
    /// `/dev/null`, opened on first use and kept.
    pub(crate) fn devnull(&mut self) -> std::io::Result<BorrowedFd<'_>> {
        if self.devnull.is_none() {
            let fd = rustix::fs::open(
                c"/dev/null",
                rustix::fs::OFlags::RDWR | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            )?;
            self.devnull = Some(fd);
        }
        Ok(self
            .devnull
            .as_ref()
            .map(|fd| fd.as_fd())
            .expect("opened above"))
    }

    pub(crate) fn envp_ptr(&self) -> *const *const std::ffi::c_char {
        match &self.envp {
            Envp::Inherit => env::environ_ptr(),
            Envp::Built { array, .. } => array.as_ptr(),
            Envp::Shared(environment) => environment.array().as_ptr(),
        }
    }
}

fn cstring(program: &OsStr, what: &str, value: &OsStr) -> Result<CString> {
    CString::new(value.as_bytes())
        .map_err(|_| Error::invalid(program, format!("{what} {value:?} contains a NUL byte")))
}

/// Makes sure `cmd.prepared` is present and current.
pub(crate) fn refresh(cmd: &mut Command) -> Result<()> {
    if let Some(prepared) = &cmd.prepared {
        let env_changed = prepared
            .parent_env
            .is_some_and(|fingerprint| fingerprint != env::fingerprint());
        let path_changed = prepared
            .resolved
            .as_ref()
            .is_some_and(|resolved| !resolved.is_current());
        if !env_changed && !path_changed {
            return Ok(());
        }
    }
    // Keep /dev/null across rebuilds.
    let devnull = cmd.prepared.take().and_then(|p| p.devnull);
    let mut prepared = build(cmd)?;
    prepared.devnull = devnull;
    cmd.prepared = Some(prepared);
    Ok(())
}

fn build(cmd: &Command) -> Result<Prepared> {
    let program = cmd.program.as_os_str();
    let exe_given = cstring(program, "the program", program)?;

    let mut argv = CStringArray::with_capacity(cmd.args.len());
    for arg in &cmd.args {
        argv.push(cstring(program, "argument", arg)?);
    }

    let fingerprint = env::fingerprint();
    let envp = if cmd.env.is_inherited() {
        Envp::Inherit
    } else if let (Some(base), true) = (&cmd.env.base, cmd.env.vars.is_empty()) {
        Envp::Shared(base.clone())
    } else {
        Envp::Built {
            array: merge_env(cmd)?,
            _base: cmd.env.base.clone(),
        }
    };

    let cwd = match &cmd.cwd {
        Some(dir) => Some(cstring(program, "the working directory", dir.as_os_str())?),
        None => None,
    };

    let bare = !program.as_bytes().contains(&b'/');
    let creds = child_creds(cmd);
    let (exe, searched_path, resolved) = if bare {
        let path_var = match cmd.env.path() {
            Some(decided) => decided.map(OsStr::to_owned),
            None => env::path_var(),
        };
        let resolved = path::resolve(
            program,
            path_var.as_deref(),
            cmd.cwd.as_deref(),
            creds.as_ref(),
        )
        .map_err(|errno| Error::os(program, Step::Resolve, errno))?;
        (resolved.exe.clone(), Some(path_var), Some(resolved))
    } else {
        (exe_given, None, None)
    };

    let depends_on_parent =
        !cmd.env.clear && (!cmd.env.is_inherited() || (bare && cmd.env.path().is_none()));

    Ok(Prepared {
        program: Arc::from(program),
        argv,
        envp,
        exe,
        searched_path,
        creds,
        resolved,
        cwd,
        groups: cmd.opts.groups.clone(),
        rlimits: cmd
            .opts
            .rlimits
            .iter()
            .map(|&(resource, cur, max)| (resource.raw(), Rlimit64 { cur, max }))
            .collect(),
        parent_env: depends_on_parent.then_some(fingerprint),
        devnull: None,
    })
}

/// The credentials the child runs with, when the command changes them.
fn child_creds(cmd: &Command) -> Option<path::Creds> {
    let opts = &cmd.opts;
    if opts.uid.is_none() && opts.gid.is_none() && opts.groups.is_none() {
        return None;
    }
    let groups = match (&opts.groups, opts.uid) {
        (Some(groups), _) => groups.clone(),
        // setuid drops the supplementary groups first (where permitted).
        (None, Some(_)) if rustix::process::geteuid().is_root() => Vec::new(),
        (None, _) => rustix::process::getgroups()
            .map(|groups| groups.into_iter().map(|g| g.as_raw()).collect())
            .unwrap_or_default(),
    };
    Some(path::Creds {
        uid: opts
            .uid
            .unwrap_or_else(|| rustix::process::geteuid().as_raw()),
        gid: opts
            .gid
            .unwrap_or_else(|| rustix::process::getegid().as_raw()),
        groups,
    })
}

/// The parent's environment (or the command's shared [`Environment`])
/// minus overridden or removed keys, then the overrides: one pass, in the
/// parent's order, no sorting. The parent's entries are referenced, not
/// copied (see `CStringArray::push_environ`); so are the shared
/// environment's, which the caller keeps alive beside the array.
fn merge_env(cmd: &Command) -> Result<CStringArray> {
    let program = cmd.program.as_os_str();
    let vars = &cmd.env.vars;
    let mut out = CStringArray::with_capacity(64 + vars.len());
    let push_override = |out: &mut CStringArray, key: &OsStr, value: &OsStr| -> Result<()> {
        let key_c = cstring(program, "environment variable", key)?;
        let value_c = cstring(program, "the value of environment variable", value)?;
        let mut entry = Vec::with_capacity(key.len() + value.len() + 2);
        entry.extend_from_slice(key_c.as_bytes());
        entry.push(b'=');
        entry.extend_from_slice(value_c.as_bytes_with_nul());
        out.push(CString::from_vec_with_nul(entry).expect("checked for NUL above"));
        Ok(())
    };
    if let Some(base) = &cmd.env.base {
        // Both are sorted by key: merged in order, as std's env_clear() +
        // envs() would give them.
        let mut overrides = vars.iter().peekable();
        for entry in base.entries() {
            let key = crate::environment::split_entry(entry).0;
            while let Some((k, v)) = overrides.next_if(|(k, _)| k.as_os_str() <= key) {
                if let Some(v) = v {
                    push_override(&mut out, k, v)?;
                }
            }
            if !vars.contains_key(key) {
                out.push_environ(entry);
            }
        }
        for (k, v) in overrides {
            if let Some(v) = v {
                push_override(&mut out, k, v)?;
            }
        }
        return Ok(out);
    }
    if !cmd.env.clear {
        env::for_each(|entry: &CStr| {
            // A leading '=' belongs to the key (as glibc's getenv reads it).
            let (key, _) = crate::environment::split_entry(entry);
            if !vars.contains_key(key) {
                out.push_environ(entry);
            }
        });
    }
    for (key, value) in vars {
        if let Some(value) = value {
            push_override(&mut out, key, value)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(cmd: &mut Command) -> Vec<String> {
        refresh(cmd).unwrap();
        match &cmd.prepared.as_ref().unwrap().envp {
            Envp::Inherit => panic!("expected a built environment"),
            Envp::Shared(environment) => environment
                .entries()
                .map(|s| s.to_string_lossy().into_owned())
                .collect(),
            Envp::Built { array, .. } => array
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect(),
        }
    }

    #[test]
    fn overrides_replace_and_remove_in_one_pass() {
        let mut cmd = Command::new("/bin/true");
        cmd.env("PATH", "/x")
            .env_remove("HOME")
            .env("FASTSPAWN_NEW", "1");
        let env = env_of(&mut cmd);
        assert_eq!(env.iter().filter(|e| e.starts_with("PATH=")).count(), 1);
        assert!(env.contains(&"PATH=/x".to_string()));
        assert!(env.contains(&"FASTSPAWN_NEW=1".to_string()));
        assert!(!env.iter().any(|e| e.starts_with("HOME=")));
        let parent_count = std::env::vars_os()
            .filter(|(k, _)| k != "PATH" && k != "HOME")
            .count();
        assert_eq!(env.len(), parent_count + 2);
    }

    #[test]
    fn a_shared_environment_is_used_as_it_is_and_does_not_watch_the_parent() {
        let environment = Environment::new([("B", "2"), ("A", "1")]).unwrap();
        let mut cmd = Command::new("/bin/true");
        cmd.environment(&environment);
        assert_eq!(env_of(&mut cmd), vec!["A=1".to_string(), "B=2".to_string()]);
        let prepared = cmd.prepared.as_ref().unwrap();
        assert!(matches!(&prepared.envp, Envp::Shared(_)));
        assert_eq!(prepared.envp_ptr(), environment.array().as_ptr());
        assert_eq!(prepared.parent_env, None);
        cmd.env("AA", "3").env_remove("B");
        assert_eq!(
            env_of(&mut cmd),
            vec!["A=1".to_string(), "AA=3".to_string()]
        );
        cmd.env_clear();
        assert!(env_of(&mut cmd).is_empty());
    }

    #[test]
    fn env_clear_keeps_only_overrides_and_does_not_watch_the_parent() {
        let mut cmd = Command::new("/bin/true");
        cmd.env_clear().env("A", "1");
        assert_eq!(env_of(&mut cmd), vec!["A=1".to_string()]);
        assert_eq!(cmd.prepared.as_ref().unwrap().parent_env, None);
    }

    #[test]
    fn prepared_state_is_reused_until_the_command_changes() {
        let mut cmd = Command::new("sh");
        refresh(&mut cmd).unwrap();
        let first = cmd.prepared.as_ref().unwrap().argv.as_ptr();
        refresh(&mut cmd).unwrap();
        assert_eq!(cmd.prepared.as_ref().unwrap().argv.as_ptr(), first);
        cmd.arg("-c");
        assert!(cmd.prepared.is_none());
    }

    #[test]
    fn nul_bytes_are_invalid_input() {
        let mut cmd = Command::new("/bin/true");
        cmd.arg("a\0b");
        let err = refresh(&mut cmd).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("NUL"), "{err}");
    }
}
