//! Signal numbers for [`Command::pdeathsig`](crate::Command::pdeathsig),
//! [`Command::signal_mask`](crate::Command::signal_mask),
//! [`Child::send_signal`](crate::Child::send_signal) and
//! [`ExitStatus::signal`](crate::ExitStatus::signal), so that a program using
//! fastspawn needs no `libc` dependency of its own.
//!
//! They are plain `i32`s, the values of Linux's `<signal.h>` on this target
//! (the same as `libc::SIGTERM` and friends), because every call that takes
//! a signal also takes one that is not listed here (a real-time signal,
//! `SIGRTMIN() + n`).
//!
//! ```
//! use fastspawn::{Command, signal};
//!
//! let mut child = Command::new("sleep").arg("10").pdeathsig(signal::SIGTERM).spawn()?;
//! child.send_signal(signal::SIGTERM)?;
//! let status = child.wait()?;
//! assert_eq!(status.signal(), Some(signal::SIGTERM));
//! assert_eq!(signal::name(signal::SIGTERM), Some("SIGTERM"));
//! # Ok::<(), fastspawn::Error>(())
//! ```

macro_rules! signals {
    ($($name:ident: $doc:literal,)*) => {
        $(
            #[doc = $doc]
            pub const $name: i32 = libc::$name;
        )*

        /// The name of a standard signal (`"SIGTERM"`), or `None` for a
        /// number that is not one of the constants of this module.
        pub fn name(signal: i32) -> Option<&'static str> {
            match signal {
                $($name => Some(stringify!($name)),)*
                _ => None,
            }
        }
    };
}

signals! {
    SIGHUP: "Hangup: the controlling terminal or the parent went away.",
    SIGINT: "Interrupt from the keyboard (Ctrl-C).",
    SIGQUIT: "Quit from the keyboard (Ctrl-\\), with a core dump.",
    SIGILL: "Illegal instruction.",
    SIGTRAP: "Trace or breakpoint trap.",
    SIGABRT: "`abort()`.",
    SIGBUS: "Bus error (bad memory access).",
    SIGFPE: "Arithmetic exception.",
    SIGKILL: "Kill: cannot be caught, blocked or ignored.",
    SIGUSR1: "User-defined signal 1.",
    SIGSEGV: "Invalid memory reference.",
    SIGUSR2: "User-defined signal 2.",
    SIGPIPE: "Write to a pipe with no reader (reset to the default in every child).",
    SIGALRM: "Timer from `alarm()`.",
    SIGTERM: "Termination request: what a graceful shutdown sends.",
    SIGCHLD: "A child stopped or terminated.",
    SIGCONT: "Continue if stopped.",
    SIGSTOP: "Stop: cannot be caught, blocked or ignored.",
    SIGTSTP: "Stop typed at the terminal (Ctrl-Z).",
    SIGTTIN: "Terminal input for a background process.",
    SIGTTOU: "Terminal output for a background process.",
    SIGURG: "Urgent condition on a socket.",
    SIGXCPU: "CPU time limit (`RLIMIT_CPU`) exceeded.",
    SIGXFSZ: "File size limit (`RLIMIT_FSIZE`) exceeded.",
    SIGVTALRM: "Virtual alarm clock.",
    SIGPROF: "Profiling timer expired.",
    SIGWINCH: "Window resize.",
    SIGIO: "I/O now possible.",
    SIGPWR: "Power failure.",
    SIGSYS: "Bad system call (what a seccomp filter may send).",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_the_c_library_ones() {
        assert_eq!(SIGTERM, 15);
        assert_eq!(SIGKILL, 9);
        assert_eq!(name(SIGKILL), Some("SIGKILL"));
        assert_eq!(name(libc::SIGRTMIN()), None);
    }
}
