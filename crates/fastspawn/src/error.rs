//! The library's one error type.
//!
//! Every failure of a spawn names the program and the step that failed, so a
//! message read in a log says what to fix: `spawning "ls": chdir to "/nope"
//! failed: No such file or directory (os error 2)`. The [`io::ErrorKind`] of
//! an [`Error`] is the one `std::process::Command` would report for the same
//! failure, and an `Error` converts into an [`io::Error`] without losing the
//! message, so code written against std keeps working with `?`.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::PathBuf;

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// The step of a spawn that failed.
///
/// Steps before the clone run in the parent; the ones from [`Step::Setsid`]
/// to [`Step::Exec`] run in the child and are reported back through memory
/// shared with the parent (or a pipe for [`Engine::Fork`](crate::Engine::Fork)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// Checking the command before anything is started (NUL bytes,
    /// conflicting fd mappings, options an engine cannot apply).
    Validate,
    /// Looking the program up in `PATH`.
    Resolve,
    /// Creating the pipes or opening `/dev/null` for stdio.
    Stdio,
    /// Creating the child process (`clone3`, `clone`, `fork`, `posix_spawn`).
    Clone,
    /// `setsid()` in the child.
    Setsid,
    /// `setpgid()` in the child.
    Setpgid,
    /// `setgroups()` in the child.
    Setgroups,
    /// `setgid()` in the child.
    Setgid,
    /// `setuid()` in the child.
    Setuid,
    /// `chdir()` to the command's working directory.
    Chdir(PathBuf),
    /// `prlimit()` of one resource.
    Rlimit,
    /// Moving the mapped fds into place (`dup3`, `fcntl`).
    Fds,
    /// Closing every fd that was not mapped.
    CloseFds,
    /// Joining the cgroup (when the kernel could not place the child at clone time).
    Cgroup,
    /// `prctl(PR_SET_PDEATHSIG)`, or the parent was already gone.
    Pdeathsig,
    /// Resetting signal dispositions or the signal mask.
    Signals,
    /// A closure given to `Command::pre_exec`.
    PreExec,
    /// `execve()` of the program.
    Exec,
    /// Waiting for the child.
    Wait,
    /// Sending a signal to the child.
    Signal,
    /// Reading the child's output.
    Output,
    /// Writing the child's input ([`Child::communicate`](crate::Child::communicate)).
    Input,
    /// Setting up the child's containment before the clone (creating its
    /// cgroup, applying limits, the session fallback); says which file or
    /// directory.
    Contain(String),
    /// An operation on a contained child's process tree after the spawn
    /// (`kill_tree`, `wait_tree`, `freeze`...); says which file.
    Tree(String),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Validate => f.write_str("checking the command"),
            Step::Resolve => f.write_str("looking it up in PATH"),
            Step::Stdio => f.write_str("setting up stdio"),
            Step::Clone => f.write_str("creating the process"),
            Step::Setsid => f.write_str("setsid"),
            Step::Setpgid => f.write_str("setpgid"),
            Step::Setgroups => f.write_str("setgroups"),
            Step::Setgid => f.write_str("setgid"),
            Step::Setuid => f.write_str("setuid"),
            Step::Chdir(dir) => write!(f, "chdir to {:?}", dir),
            Step::Rlimit => f.write_str("setting an rlimit"),
            Step::Fds => f.write_str("mapping fds"),
            Step::CloseFds => f.write_str("closing inherited fds"),
            Step::Cgroup => f.write_str("joining the cgroup"),
            Step::Pdeathsig => f.write_str("setting the parent-death signal"),
            Step::Signals => f.write_str("resetting signals"),
            Step::PreExec => f.write_str("the pre_exec closure"),
            Step::Exec => f.write_str("execve"),
            Step::Wait => f.write_str("waiting"),
            Step::Signal => f.write_str("sending a signal"),
            Step::Output => f.write_str("reading its output"),
            Step::Input => f.write_str("writing its input"),
            Step::Contain(what) | Step::Tree(what) => f.write_str(what),
        }
    }
}

/// An error from spawning or managing a child process.
#[derive(Clone)]
pub struct Error {
    program: OsString,
    step: Step,
    kind: io::ErrorKind,
    errno: Option<i32>,
    detail: Option<String>,
}

impl Error {
    pub(crate) fn os(program: &OsStr, step: Step, errno: i32) -> Error {
        let kind = io::Error::from_raw_os_error(errno).kind();
        Error {
            program: program.to_owned(),
            step,
            kind,
            errno: Some(errno),
            detail: None,
        }
    }

    pub(crate) fn io(program: &OsStr, step: Step, err: io::Error) -> Error {
        match err.raw_os_error() {
            Some(errno) => Error::os(program, step, errno),
            None => Error {
                program: program.to_owned(),
                step,
                kind: err.kind(),
                errno: None,
                detail: Some(err.to_string()),
            },
        }
    }

    pub(crate) fn invalid(program: &OsStr, detail: impl Into<String>) -> Error {
        Error::new(program, Step::Validate, io::ErrorKind::InvalidInput, detail)
    }

    pub(crate) fn unsupported(program: &OsStr, detail: impl Into<String>) -> Error {
        Error::new(program, Step::Validate, io::ErrorKind::Unsupported, detail)
    }

    pub(crate) fn new(
        program: &OsStr,
        step: Step,
        kind: io::ErrorKind,
        detail: impl Into<String>,
    ) -> Error {
        Error {
            program: program.to_owned(),
            step,
            kind,
            errno: None,
            detail: Some(detail.into()),
        }
    }

    /// The same error with `detail` as its message (the errno is kept).
    #[cfg(feature = "tokio")]
    pub(crate) fn with_detail(mut self, detail: impl Into<String>) -> Error {
        self.detail = Some(detail.into());
        self
    }

    /// The program the command was going to run.
    pub fn program(&self) -> &OsStr {
        &self.program
    }

    /// The step that failed.
    pub fn step(&self) -> &Step {
        &self.step
    }

    /// The same kind `std::process::Command` reports for this failure.
    pub fn kind(&self) -> io::ErrorKind {
        self.kind
    }

    /// The errno, when a system call failed.
    pub fn raw_os_error(&self) -> Option<i32> {
        self.errno
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.step {
            // After the spawn: the error is about a running child.
            Step::Wait | Step::Signal | Step::Output | Step::Input | Step::Tree(_) => {
                write!(f, "child {:?}: {} failed: ", self.program, self.step)?
            }
            _ => write!(f, "spawning {:?}: {} failed: ", self.program, self.step)?,
        }
        match (&self.detail, self.errno) {
            (Some(detail), _) => f.write_str(detail),
            (None, Some(errno)) => write!(f, "{}", io::Error::from_raw_os_error(errno)),
            (None, None) => write!(f, "{}", self.kind),
        }
    }
}

/// `{:?}` prints the message, as `{}` does, so that a `main` returning
/// `Result<(), fastspawn::Error>` (or an `unwrap()`) shows
/// `Error: spawning "ls": chdir to "/nope" failed: No such file or directory (os error 2)`
/// rather than a dump of the fields (anyhow's errors behave the same way).
/// `{:#?}` prints the fields: program, step, kind, errno and message.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return fmt::Display::fmt(self, f);
        }
        f.debug_struct("Error")
            .field("program", &self.program)
            .field("step", &self.step)
            .field("kind", &self.kind)
            .field("errno", &self.errno)
            .field("message", &self.to_string())
            .finish()
    }
}

impl std::error::Error for Error {}

impl From<Error> for io::Error {
    /// With an errno, the `io::Error` std itself would return
    /// (`from_raw_os_error`, so `raw_os_error()` works as with std); the
    /// program and step stay in [`Error`]'s own message. Without one (bad
    /// input, an option an engine cannot apply), the kind and the message.
    fn from(err: Error) -> io::Error {
        match err.errno {
            Some(errno) => io::Error::from_raw_os_error(errno),
            None => io::Error::new(err.kind, err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_program_and_step() {
        let err = Error::os(OsStr::new("ls"), Step::Chdir("/nope".into()), libc::ENOENT);
        assert_eq!(
            err.to_string(),
            "spawning \"ls\": chdir to \"/nope\" failed: No such file or directory (os error 2)"
        );
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        let io: io::Error = err.into();
        assert_eq!(io.kind(), io::ErrorKind::NotFound);
        assert_eq!(io.raw_os_error(), Some(libc::ENOENT));
        let invalid: io::Error = Error::invalid(OsStr::new("ls"), "nul byte").into();
        assert_eq!(invalid.kind(), io::ErrorKind::InvalidInput);
        assert!(invalid.to_string().contains("nul byte"), "{invalid}");
    }

    #[test]
    fn debug_prints_the_message_and_alternate_the_fields() {
        let err = Error::os(OsStr::new("ls"), Step::Chdir("/nope".into()), libc::ENOENT);
        assert_eq!(format!("{err:?}"), err.to_string());
        let fields = format!("{err:#?}");
        assert!(fields.contains("step: Chdir("), "{fields}");
        assert!(
            fields.contains("errno: Some(\n        2,\n    )"),
            "{fields}"
        );
    }

    #[test]
    fn kinds_follow_errno_like_std() {
        let eacces = Error::os(OsStr::new("x"), Step::Exec, libc::EACCES);
        assert_eq!(eacces.kind(), io::ErrorKind::PermissionDenied);
        let invalid = Error::invalid(OsStr::new("x"), "nul byte in an argument");
        assert_eq!(invalid.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(invalid.raw_os_error(), None);
    }
}
