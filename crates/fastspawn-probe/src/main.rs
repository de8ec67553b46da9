//! `fastspawn-probe`: the child program of fastspawn's tests.
//!
//! It reports what it inherited (`state`) or does one simple thing (exit,
//! die by a signal, copy stdin, print its environment, ...), so a test can
//! assert what the child really saw.
//!
//! The binary has no Rust `main`: the standard runtime would set `SIGPIPE`
//! to ignored and reopen closed standard fds before `main`, hiding exactly
//! what the tests look at. `std::env::args` still works on Linux (glibc hands
//! argv to an init-array function), and everything printed is flushed
//! explicitly because no runtime cleanup runs at exit.

#![no_main]

use std::ffi::{CStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::process::exit;

const USAGE: &str = "usage: fastspawn-probe SUBCOMMAND [ARGS]
  state                     print key=value lines about this process
  state-to PATH             write them to the file PATH instead (for a
                            child whose stdout is not a pipe of the test)
  exit N                    exit with code N
  signal SIG                die by signal SIG (a number or a name: TERM, SIGTERM)
  spew OUT_BYTES ERR_BYTES  write that many bytes to stdout and stderr, interleaved
  cat                       copy stdin to stdout
  env                       print the environment, one K=V a line, sorted
  args                      print argv, one argument a line
  sleep SECS                sleep (SECS may have a fraction)
  write-fd FD TEXT          write TEXT to fd FD
  read-fd FD                read fd FD to its end and print it
";

/// Exit code for a usage error or a failed operation of the probe itself.
const FAILED: i32 = 111;

#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    let args: Vec<OsString> = std::env::args_os().collect();
    let sub = args
        .get(1)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rest: Vec<String> = args
        .iter()
        .skip(2)
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let result = match (sub.as_str(), rest.as_slice()) {
        ("state", []) => state(&args, None),
        ("state-to", [path]) => state(&args, Some(path)),
        ("exit", [code]) => exit(parse::<i32>(code, "exit code")),
        ("signal", [sig]) => die_by_signal(parse_signal(sig)),
        ("spew", [out, err]) => spew(parse(out, "byte count"), parse(err, "byte count")),
        ("cat", []) => cat(),
        ("env", []) => env(),
        ("args", _) => print_args(&args),
        ("sleep", [secs]) => {
            std::thread::sleep(std::time::Duration::from_secs_f64(parse(secs, "seconds")));
            Ok(())
        }
        // The text is passed on as raw bytes, not as the lossy string.
        ("write-fd", [fd, _]) => write_fd(parse(fd, "fd"), args[3].as_bytes()),
        ("read-fd", [fd]) => read_fd(parse(fd, "fd")),
        _ => usage(&format!("bad arguments: {:?}", &args[1.min(args.len())..])),
    };
    match result {
        Ok(()) => 0,
        Err(err) => {
            let _ = writeln!(io::stderr(), "fastspawn-probe {sub}: {err}");
            FAILED
        }
    }
}

fn usage(problem: &str) -> ! {
    let _ = write!(io::stderr(), "fastspawn-probe: {problem}\n{USAGE}");
    exit(FAILED)
}

fn parse<T: std::str::FromStr>(text: &str, what: &str) -> T {
    text.parse()
        .unwrap_or_else(|_| usage(&format!("{text:?} is not a valid {what}")))
}

const SIGNALS: &[(&str, i32)] = &[
    ("HUP", libc::SIGHUP),
    ("INT", libc::SIGINT),
    ("QUIT", libc::SIGQUIT),
    ("ILL", libc::SIGILL),
    ("TRAP", libc::SIGTRAP),
    ("ABRT", libc::SIGABRT),
    ("BUS", libc::SIGBUS),
    ("FPE", libc::SIGFPE),
    ("KILL", libc::SIGKILL),
    ("USR1", libc::SIGUSR1),
    ("SEGV", libc::SIGSEGV),
    ("USR2", libc::SIGUSR2),
    ("PIPE", libc::SIGPIPE),
    ("ALRM", libc::SIGALRM),
    ("TERM", libc::SIGTERM),
    ("CHLD", libc::SIGCHLD),
    ("CONT", libc::SIGCONT),
    ("STOP", libc::SIGSTOP),
    ("TSTP", libc::SIGTSTP),
    ("TTIN", libc::SIGTTIN),
    ("TTOU", libc::SIGTTOU),
    ("URG", libc::SIGURG),
    ("XCPU", libc::SIGXCPU),
    ("XFSZ", libc::SIGXFSZ),
    ("VTALRM", libc::SIGVTALRM),
    ("PROF", libc::SIGPROF),
    ("WINCH", libc::SIGWINCH),
    ("IO", libc::SIGIO),
    ("PWR", libc::SIGPWR),
    ("SYS", libc::SIGSYS),
];

fn parse_signal(text: &str) -> i32 {
    if let Ok(n) = text.parse::<i32>() {
        return n;
    }
    let name = text.strip_prefix("SIG").unwrap_or(text);
    SIGNALS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, sig)| sig)
        .unwrap_or_else(|| usage(&format!("{text:?} is not a signal")))
}

/// Raises `sig` with its default disposition and unblocked, so the probe dies
/// by it (for signals whose default action kills).
fn die_by_signal(sig: i32) -> io::Result<()> {
    // SAFETY: plain libc calls on zeroed, then initialised, local structs.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = libc::SIG_DFL;
        libc::sigemptyset(&mut action.sa_mask);
        // SIGKILL and SIGSTOP cannot be caught or ignored: no disposition to set.
        if sig != libc::SIGKILL
            && sig != libc::SIGSTOP
            && libc::sigaction(sig, &action, std::ptr::null_mut()) != 0
        {
            return Err(io::Error::last_os_error());
        }
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(sig);
    }
    Err(io::Error::other(format!(
        "still alive after raising signal {sig}"
    )))
}

/// The probe's stdout, written without buffering (the fd is not closed on drop).
fn stdout_fd() -> ManuallyDrop<File> {
    // SAFETY: fd 1 is only borrowed; ManuallyDrop keeps it open.
    ManuallyDrop::new(unsafe { File::from_raw_fd(1) })
}

fn print(bytes: &[u8]) -> io::Result<()> {
    stdout_fd().write_all(bytes)
}

/// Byte `i` of what `spew` writes to stdout (`out`) or stderr.
fn pattern(out: bool, i: u64) -> u8 {
    let base = if out { b'a' } else { b'A' };
    base + (i % 26) as u8
}

fn spew(out_bytes: u64, err_bytes: u64) -> io::Result<()> {
    const CHUNK: u64 = 64 * 1024;
    // SAFETY: fd 2 is only borrowed; ManuallyDrop keeps it open.
    let mut stderr = ManuallyDrop::new(unsafe { File::from_raw_fd(2) });
    let mut stdout = stdout_fd();
    let (mut out_done, mut err_done) = (0u64, 0u64);
    let mut buf = Vec::with_capacity(CHUNK as usize);
    while out_done < out_bytes || err_done < err_bytes {
        for (out, done, total) in [
            (true, &mut out_done, out_bytes),
            (false, &mut err_done, err_bytes),
        ] {
            let n = CHUNK.min(total - *done);
            if n == 0 {
                continue;
            }
            buf.clear();
            buf.extend((*done..*done + n).map(|i| pattern(out, i)));
            if out {
                stdout.write_all(&buf)?;
            } else {
                stderr.write_all(&buf)?;
            }
            *done += n;
        }
    }
    Ok(())
}

fn cat() -> io::Result<()> {
    // SAFETY: fd 0 is only borrowed; ManuallyDrop keeps it open.
    let mut stdin = ManuallyDrop::new(unsafe { File::from_raw_fd(0) });
    io::copy(&mut *stdin, &mut *stdout_fd())?;
    Ok(())
}

fn env() -> io::Result<()> {
    let mut vars: Vec<Vec<u8>> = std::env::vars_os()
        .map(|(k, v)| {
            let mut line = k.into_vec();
            line.push(b'=');
            line.extend(v.into_vec());
            line
        })
        .collect();
    vars.sort();
    let mut text = Vec::new();
    for var in vars {
        text.extend(var);
        text.push(b'\n');
    }
    print(&text)
}

fn print_args(args: &[OsString]) -> io::Result<()> {
    let mut text = Vec::new();
    for arg in args {
        text.extend(arg.as_bytes());
        text.push(b'\n');
    }
    print(&text)
}

fn write_fd(fd: i32, text: &[u8]) -> io::Result<()> {
    // SAFETY: the fd is only borrowed; ManuallyDrop keeps it open.
    let mut file = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
    file.write_all(text)
}

fn read_fd(fd: i32) -> io::Result<()> {
    // SAFETY: the fd is only borrowed; ManuallyDrop keeps it open.
    let mut file = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
    let mut data = Vec::new();
    file.read_to_end(&mut data)?;
    print(&data)
}

/// The value of `key:` in /proc/self/status, trimmed.
fn status_field(status: &str, key: &str) -> String {
    status
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
        .map(|v| v.trim().to_owned())
        .unwrap_or_else(|| "?".to_owned())
}

/// The open fds, sorted, without the one used to read /proc/self/fd.
fn open_fds() -> io::Result<Vec<i32>> {
    let mut fds = Vec::new();
    // SAFETY: opendir/readdir/closedir on a directory stream we own; entry
    // names are NUL-terminated C strings valid until the next readdir.
    unsafe {
        let dir = libc::opendir(c"/proc/self/fd".as_ptr());
        if dir.is_null() {
            return Err(io::Error::last_os_error());
        }
        let own = libc::dirfd(dir);
        loop {
            let entry = libc::readdir(dir);
            if entry.is_null() {
                break;
            }
            let name = CStr::from_ptr((*entry).d_name.as_ptr());
            if let Ok(fd) = name.to_string_lossy().parse::<i32>() {
                if fd != own {
                    fds.push(fd);
                }
            }
        }
        libc::closedir(dir);
    }
    fds.sort_unstable();
    Ok(fds)
}

fn rlimit(resource: libc::__rlimit_resource_t) -> String {
    // SAFETY: getrlimit fills the local struct.
    let mut lim: libc::rlimit = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrlimit(resource, &mut lim) } != 0 {
        return "?".to_owned();
    }
    let show = |v: libc::rlim_t| {
        if v == libc::RLIM_INFINITY {
            "inf".to_owned()
        } else {
            v.to_string()
        }
    };
    format!("{},{}", show(lim.rlim_cur), show(lim.rlim_max))
}

fn groups() -> Vec<u32> {
    // SAFETY: getgroups with a buffer of the size it reported.
    unsafe {
        let n = libc::getgroups(0, std::ptr::null_mut());
        if n < 0 {
            return Vec::new();
        }
        let mut list = vec![0 as libc::gid_t; n as usize];
        let n = libc::getgroups(n, list.as_mut_ptr());
        list.truncate(n.max(0) as usize);
        list.sort_unstable();
        list.dedup();
        list
    }
}

fn join<T: ToString>(items: &[T]) -> String {
    items.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

fn state(args: &[OsString], to: Option<&str>) -> io::Result<()> {
    // Read the fds first: nothing else is open yet.
    let fds = open_fds()?;
    let links: Vec<(i32, String)> = fds
        .iter()
        .map(|&fd| {
            let link = std::fs::read_link(format!("/proc/self/fd/{fd}"))
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_else(|e| format!("?{e}"));
            (fd, link)
        })
        .collect();
    let status = std::fs::read_to_string("/proc/self/status")?;
    let cgroup = std::fs::read_to_string("/proc/self/cgroup")?
        .lines()
        .find_map(|line| line.strip_prefix("0::").map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned());
    let mut pdeathsig: libc::c_int = -1;
    // SAFETY: PR_GET_PDEATHSIG stores an int through the pointer.
    unsafe { libc::prctl(libc::PR_GET_PDEATHSIG, &mut pdeathsig as *mut libc::c_int) };
    let cwd = std::env::current_dir()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|e| format!("?{e}"));

    let mut lines: Vec<(String, String)> = Vec::new();
    let mut put = |key: &str, value: String| lines.push((key.to_owned(), value));
    // SAFETY: these calls only return ids of the calling process.
    unsafe {
        put("pid", libc::getpid().to_string());
        put("ppid", libc::getppid().to_string());
        put("pgid", libc::getpgid(0).to_string());
        put("sid", libc::getsid(0).to_string());
        put("uid", libc::getuid().to_string());
        put("euid", libc::geteuid().to_string());
        put("gid", libc::getgid().to_string());
        put("egid", libc::getegid().to_string());
    }
    put("groups", join(&groups()));
    put("umask", status_field(&status, "Umask"));
    put("cwd", cwd);
    put("pdeathsig", pdeathsig.to_string());
    put("fds", join(&fds));
    for (name, resource) in [
        ("nofile", libc::RLIMIT_NOFILE),
        ("nproc", libc::RLIMIT_NPROC),
        ("core", libc::RLIMIT_CORE),
        ("cpu", libc::RLIMIT_CPU),
        ("fsize", libc::RLIMIT_FSIZE),
        ("stack", libc::RLIMIT_STACK),
    ] {
        put(&format!("rlimit_{name}"), rlimit(resource));
    }
    put("cgroup", cgroup);
    put("sigblk", status_field(&status, "SigBlk"));
    put("sigign", status_field(&status, "SigIgn"));
    put(
        "argv0",
        args.first()
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default(),
    );
    for (fd, link) in links {
        put(&format!("fdlink_{fd}"), link);
    }

    let mut text = String::new();
    for (key, value) in lines {
        text.push_str(&key);
        text.push('=');
        text.push_str(&value);
        text.push('\n');
    }
    match to {
        Some(path) => std::fs::write(path, text),
        None => print(text.as_bytes()),
    }
}
