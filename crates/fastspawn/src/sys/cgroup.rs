//! The cgroup v2 interface a contained child needs: finding the caller's own
//! cgroup, creating and removing a child's cgroup, its interface files, and
//! waiting for a change of `cgroup.events` without a busy loop.
//!
//! # Safety
//!
//! Every call goes through rustix's typed wrappers and fds are
//! `OwnedFd`/`BorrowedFd`; the one unsafe call is `atexit` ([`at_exit`]),
//! whose handler must not unwind (it is an `extern "C" fn`, so a panic in
//! it aborts instead).
//!
//! Kernel history: cgroup v2 and `cgroup.events` (`populated`) 4.5;
//! `cpu.stat` in every cgroup, without the cpu controller, 4.15;
//! `cgroup.freeze` and `frozen` in `cgroup.events` 5.2; `CLONE_INTO_CGROUP`
//! 5.7; `cgroup.kill` 5.14; `memory.peak` 5.19; `pids.peak` 6.13.
//!
//! A file of cgroupfs reports a change through `poll` as `POLLPRI`: the
//! kernel compares an event counter with the value it had when the open
//! file was last read, so "read, then poll" never misses a change that
//! happens between the two.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::event::{PollFd, PollFlags, poll};
use rustix::fs::{AtFlags, Mode, OFlags};

/// `CGROUP2_SUPER_MAGIC`, the `f_type` of a cgroup2 file system.
const CGROUP2_SUPER_MAGIC: u64 = 0x6367_7270;

/// The directory of the calling process's own cgroup v2, found through
/// `/proc/self/cgroup` (the `0::` line) and `/proc/self/mountinfo` (the
/// mounts of type `cgroup2`).
pub(crate) fn own_cgroup() -> io::Result<PathBuf> {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup")?;
    let own = parse_own_cgroup(&cgroup).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            "/proc/self/cgroup has no cgroup v2 line (0::): this system only has cgroup v1",
        )
    })?;
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo")?;
    resolve(own, &cgroup2_mounts(&mountinfo)).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("no cgroup2 mount in /proc/self/mountinfo shows this process's cgroup {own:?}"),
        )
    })
}

/// The path of the `0::` line of a `/proc/<pid>/cgroup`.
pub(crate) fn parse_own_cgroup(text: &str) -> Option<&str> {
    text.lines().find_map(|line| line.strip_prefix("0::"))
}

/// `(root inside the hierarchy, mount point)` of every cgroup2 mount.
fn cgroup2_mounts(mountinfo: &str) -> Vec<(String, PathBuf)> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            if right.split(' ').next()? != "cgroup2" {
                return None;
            }
            let mut fields = left.split(' ');
            let root = fields.nth(3)?;
            let point = fields.next()?;
            Some((unescape(root), PathBuf::from(unescape(point))))
        })
        .collect()
}

/// mountinfo escapes space, tab, newline and backslash as `\ooo`.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| bytes[i] == b'\\' && d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match octal {
            Some(d) => {
                out.push((d[0] - b'0') * 64 + (d[1] - b'0') * 8 + (d[2] - b'0'));
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where cgroup `path` (as `/proc/self/cgroup` names it) is visible.
fn resolve(path: &str, mounts: &[(String, PathBuf)]) -> Option<PathBuf> {
    mounts.iter().find_map(|(root, point)| {
        let rest = if root == "/" {
            path
        } else {
            path.strip_prefix(root.as_str())
                .filter(|rest| rest.is_empty() || rest.starts_with('/'))?
        };
        let rest = rest.trim_start_matches('/');
        Some(if rest.is_empty() {
            point.clone()
        } else {
            point.join(rest)
        })
    })
}

/// Opens a directory (`O_RDONLY|O_DIRECTORY|O_CLOEXEC`), relative to `at`.
pub(crate) fn open_dir(at: Option<BorrowedFd<'_>>, path: &Path) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let fd = match at {
        Some(dir) => rustix::fs::openat(dir, path, flags, Mode::empty()),
        None => rustix::fs::open(path, flags, Mode::empty()),
    };
    Ok(fd?)
}

/// Whether `dir` is on a cgroup2 file system.
pub(crate) fn is_cgroup2(dir: BorrowedFd<'_>) -> io::Result<bool> {
    let stat = rustix::fs::fstatfs(dir)?;
    #[allow(clippy::unnecessary_cast)]
    Ok(stat.f_type as u64 == CGROUP2_SUPER_MAGIC)
}

/// `mkdirat(parent, name, 0755)`.
pub(crate) fn mkdir(parent: BorrowedFd<'_>, name: &str) -> io::Result<()> {
    Ok(rustix::fs::mkdirat(
        parent,
        name,
        Mode::from_raw_mode(0o755),
    )?)
}

/// `unlinkat(parent, name, AT_REMOVEDIR)`: fails with `EBUSY` while the
/// cgroup has live processes or children.
pub(crate) fn rmdir(parent: BorrowedFd<'_>, name: &str) -> io::Result<()> {
    Ok(rustix::fs::unlinkat(parent, name, AtFlags::REMOVEDIR)?)
}

/// Reads interface file `file` of `dir` (they are small).
pub(crate) fn read(dir: BorrowedFd<'_>, file: &str) -> io::Result<String> {
    let fd = rustix::fs::openat(dir, file, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty())?;
    read_fd(fd.as_fd())
}

/// Opens interface file `file` of `dir` for reading again and again
/// (cgroupfs files answer each `pread` at offset 0 with their state now).
pub(crate) fn open_file(dir: BorrowedFd<'_>, file: &str) -> io::Result<OwnedFd> {
    Ok(rustix::fs::openat(
        dir,
        file,
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// Holds the `cgroup.procs` file of `dir` (an `O_PATH` fd: no read, no
/// write, it only pins the file's inode).
///
/// Every `CLONE_INTO_CGROUP` checks write permission on `cgroup.procs` of
/// the destination cgroup and of its common ancestor with the caller's
/// cgroup, through the file's inode. kernfs frees an inode as soon as
/// nothing references it, so without a holder each of those checks
/// allocates, initialises and frees one inode: in a raw C clone loop
/// into one cgroup, `perf` put 6.0% of all samples in `cgroup_can_fork`
/// without a holder and 1.9% with one (~3.5 µs per spawn on the test VM).
pub(crate) fn hold_procs(dir: BorrowedFd<'_>) -> io::Result<OwnedFd> {
    Ok(rustix::fs::openat(
        dir,
        "cgroup.procs",
        OFlags::PATH | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// The deepest directory that holds both `a` and `b` (paths of one
/// cgroup2 mount): where the kernel checks write permission for a move
/// from `a` to `b`.
pub(crate) fn common_ancestor(a: &Path, b: &Path) -> PathBuf {
    a.components()
        .zip(b.components())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x)
        .collect()
}

/// Reads an open interface file from its start. cgroupfs makes a file's
/// whole text at once and hands out as much as the buffer takes, so a read
/// that leaves room in the buffer has reached the end: no second `pread`
/// to see 0. (The two files read after each contained spawn+wait go
/// through [`read_small`], which falls back to this for a longer text.)
pub(crate) fn read_fd(fd: BorrowedFd<'_>) -> io::Result<String> {
    let mut buf = vec![0u8; 4096];
    let mut len = 0;
    loop {
        if len == buf.len() {
            buf.resize(len * 2, 0);
        }
        match rustix::io::pread(fd, &mut buf[len..], len as u64) {
            Ok(0) => break,
            Ok(n) if len + n < buf.len() => {
                len += n;
                break;
            }
            Ok(n) => len += n,
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    buf.truncate(len);
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// Reads a small open interface file (`cgroup.events`, `cpu.stat`) from its
/// start into a buffer on the stack and hands its text to `parse`; one that
/// fills the buffer is read again by [`read_fd`]. (Read twice per contained
/// spawn+wait: no allocation.)
pub(crate) fn read_small<R>(fd: BorrowedFd<'_>, parse: impl FnOnce(&str) -> R) -> io::Result<R> {
    let mut buf = [0u8; 512];
    let n = loop {
        match rustix::io::pread(fd, &mut buf, 0) {
            Ok(n) => break n,
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    };
    match std::str::from_utf8(&buf[..n]) {
        Ok(text) if n < buf.len() => Ok(parse(text)),
        _ => Ok(parse(&read_fd(fd)?)),
    }
}

/// Writes `value` to interface file `file` of `dir` in one `write`, as the
/// kernel expects.
pub(crate) fn write(dir: BorrowedFd<'_>, file: &str, value: &str) -> io::Result<()> {
    let fd = rustix::fs::openat(dir, file, OFlags::WRONLY | OFlags::CLOEXEC, Mode::empty())?;
    loop {
        match rustix::io::write(&fd, value.as_bytes()) {
            Ok(_) => return Ok(()),
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// Runs `handler` when the process exits normally (`atexit`).
pub(crate) fn at_exit(handler: extern "C" fn()) {
    // SAFETY: registering a function pointer that lives for the whole
    // program; the C library calls it once, at exit, on the exiting thread.
    unsafe { libc::atexit(handler) };
}

/// The value of `key` in a flat-keyed file (`cgroup.events`, `cpu.stat`).
pub(crate) fn key(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

/// The pids listed in `cgroup.procs`.
pub(crate) fn procs(dir: BorrowedFd<'_>) -> io::Result<Vec<i32>> {
    Ok(read(dir, "cgroup.procs")?
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect())
}

/// The names of the cgroups directly below `dir` (made by a member of the
/// tree, which may have the right to).
pub(crate) fn subdirs(dir: BorrowedFd<'_>) -> io::Result<Vec<String>> {
    let fd = rustix::fs::openat(
        dir,
        ".",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let mut names = Vec::new();
    for entry in rustix::fs::Dir::read_from(&fd)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy();
        if entry.file_type() == rustix::fs::FileType::Directory && name != "." && name != ".." {
            names.push(name.into_owned());
        }
    }
    Ok(names)
}

/// The pids of `cgroup.procs` of `dir` and of every cgroup below it.
pub(crate) fn procs_recursive(dir: BorrowedFd<'_>) -> io::Result<Vec<i32>> {
    let mut pids = procs(dir)?;
    for name in subdirs(dir)? {
        if let Ok(sub) = open_dir(Some(dir), Path::new(&name)) {
            pids.extend(procs_recursive(sub.as_fd()).unwrap_or_default());
        }
    }
    Ok(pids)
}

/// An open `cgroup.events`, to read and to wait on.
pub(crate) struct Events {
    fd: OwnedFd,
}

/// What `cgroup.events` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EventState {
    pub populated: bool,
    pub frozen: bool,
}

impl Events {
    pub(crate) fn open(dir: BorrowedFd<'_>) -> io::Result<Events> {
        let fd = rustix::fs::openat(
            dir,
            "cgroup.events",
            OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Events { fd })
    }

    /// Reads the current state (and re-arms the change notification).
    pub(crate) fn read(&self) -> io::Result<EventState> {
        read_small(self.fd.as_fd(), |text| EventState {
            populated: key(text, "populated") == Some(1),
            frozen: key(text, "frozen") == Some(1),
        })
    }

    /// Blocks until the file changed since the last [`read`](Self::read).
    pub(crate) fn wait_change(&self, timeout: Option<&rustix::event::Timespec>) -> io::Result<()> {
        let mut fds = [PollFd::new(&self.fd, PollFlags::PRI)];
        loop {
            match poll(&mut fds, timeout) {
                Ok(_) => return Ok(()),
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Reads until `done` holds, sleeping on change notifications. The
    /// kernel sends at most one notification per file every 10 ms and
    /// holds back a change that comes sooner (a freeze right after the
    /// spawn waited ~12 ms for it where it took ~0.1 ms), so the first
    /// sleeps are also bounded, 0.1 ms doubling to 6.4 ms: seven extra
    /// reads at most, then notifications alone.
    pub(crate) fn wait_until(&self, done: impl Fn(EventState) -> bool) -> io::Result<()> {
        let mut bound_us: i64 = 100;
        while !done(self.read()?) {
            if bound_us <= 6_400 {
                let timeout = rustix::event::Timespec {
                    tv_sec: 0,
                    tv_nsec: bound_us * 1_000,
                };
                bound_us *= 2;
                self.wait_change(Some(&timeout))?;
            } else {
                self.wait_change(None)?;
            }
        }
        Ok(())
    }
}

impl AsFd for Events {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

impl std::os::fd::AsRawFd for Events {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.fd.as_raw_fd()
    }
}

impl From<Events> for OwnedFd {
    fn from(events: Events) -> OwnedFd {
        events.fd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_v2_line_and_the_mount() {
        let cgroup = "9:name=systemd:/\n4:memory:/x\n0::/user.slice/job\n";
        assert_eq!(parse_own_cgroup(cgroup), Some("/user.slice/job"));
        assert_eq!(parse_own_cgroup("4:memory:/x\n"), None);
        let mountinfo = "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw\n\
            35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n\
            41 31 0:38 / /sys/fs/cgroup/uni\\040fied rw,relatime - cgroup2 cgroup2 rw\n";
        let mounts = cgroup2_mounts(mountinfo);
        assert_eq!(
            mounts,
            vec![("/".to_string(), PathBuf::from("/sys/fs/cgroup/uni fied"))]
        );
        assert_eq!(
            resolve("/user.slice/job", &mounts),
            Some(PathBuf::from("/sys/fs/cgroup/uni fied/user.slice/job"))
        );
        assert_eq!(
            resolve("/", &mounts),
            Some(PathBuf::from("/sys/fs/cgroup/uni fied"))
        );
        // A container that sees only its own subtree mounted.
        let nested = vec![("/box".to_string(), PathBuf::from("/sys/fs/cgroup"))];
        assert_eq!(
            resolve("/box/job", &nested),
            Some(PathBuf::from("/sys/fs/cgroup/job"))
        );
        assert_eq!(resolve("/boxer", &nested), None);
    }

    #[test]
    fn the_common_ancestor_is_by_whole_components() {
        let root = Path::new("/sys/fs/cgroup");
        assert_eq!(
            common_ancestor(&root.join("a/b"), &root.join("a/c/d")),
            root.join("a")
        );
        assert_eq!(
            common_ancestor(&root.join("a"), &root.join("a/x")),
            root.join("a")
        );
        assert_eq!(common_ancestor(&root.join("ab"), &root.join("a")), root);
        assert_eq!(common_ancestor(root, root), root);
    }

    #[test]
    fn flat_keys() {
        let stat = "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n";
        assert_eq!(key(stat, "user_usec"), Some(1000));
        assert_eq!(key(stat, "usage"), None);
    }
}
