//! Reading `strace -f -e trace=clone,clone3,vfork,fork` output: which kind of
//! process creation a program made. Threads (`CLONE_THREAD`) are not
//! processes and are left out.

use serde::Serialize;

/// How one new process was created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Path {
    /// The child shared the parent's memory until its exec (`vfork`, or
    /// `clone`/`clone3` with `CLONE_VM|CLONE_VFORK`): the cost does not grow
    /// with the parent's size.
    Vfork,
    /// The child got a copy of the parent's page tables (`fork`, or `clone`
    /// without `CLONE_VM`): the cost grows with the parent's memory.
    Fork,
}

/// One process creation seen in a trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Creation {
    pub pid: u32,
    pub path: Path,
    /// The call as strace showed it, shortened: `clone3(CLONE_VM|CLONE_VFORK|...)`.
    pub call: String,
}

/// The process creations of a trace written with `strace -f -o FILE`
/// (each line starts with the pid), in order. Lines of other calls, thread
/// creations, failed calls and `<... resumed>` halves are skipped.
pub fn creations(trace: &str) -> Vec<Creation> {
    trace.lines().filter_map(creation).collect()
}

fn creation(line: &str) -> Option<Creation> {
    let (pid, rest) = line.trim_start().split_once(char::is_whitespace)?;
    let pid: u32 = pid.parse().ok()?;
    let rest = rest.trim_start();
    let (name, args) = rest.split_once('(')?;
    if !matches!(name, "clone" | "clone3" | "vfork" | "fork") {
        return None;
    }
    // A failed call created nothing ("= -1 EPERM ..."); an unfinished one is
    // judged by its first half (its flags are there) and its resumed half
    // never starts with the call's name.
    if let Some((_, ret)) = args.rsplit_once(" = ") {
        if ret.trim_start().starts_with('-') {
            return None;
        }
    }
    let flags = flags_of(args);
    if flags.contains(&"CLONE_THREAD") {
        return None;
    }
    let shares_memory = flags.contains(&"CLONE_VM");
    let path = match name {
        "vfork" => Path::Vfork,
        "fork" => Path::Fork,
        _ if shares_memory => Path::Vfork,
        _ => Path::Fork,
    };
    let call = if flags.is_empty() {
        format!("{name}()")
    } else {
        format!("{name}({})", flags.join("|"))
    };
    Some(Creation { pid, path, call })
}

/// The `CLONE_*` flags of a clone/clone3 argument list (`flags=A|B|SIGCHLD`).
fn flags_of(args: &str) -> Vec<&str> {
    let Some(start) = args.find("flags=") else {
        return Vec::new();
    };
    args[start + "flags=".len()..]
        .split([',', ' ', '}', ')'])
        .next()
        .unwrap_or("")
        .split('|')
        .filter(|f| f.starts_with("CLONE_"))
        .collect()
}

/// What a program's creations say about its spawn: fork if any creation
/// forked, vfork if all shared memory, `None` if it created no process.
pub fn verdict(creations: &[Creation]) -> Option<Path> {
    if creations.is_empty() {
        None
    } else if creations.iter().any(|c| c.path == Path::Fork) {
        Some(Path::Fork)
    } else {
        Some(Path::Vfork)
    }
}

/// How many `syscall` calls the process that exec'd `program` made before
/// its first `execve` of it (a PATH search's failed attempts included), or
/// `None` if no process exec'd it. The trace must include `execve`.
pub fn calls_before_exec(trace: &str, syscall: &str, program: &str) -> Option<usize> {
    let needle = format!("/{program}\"");
    let exec_pid = trace.lines().find_map(|line| {
        let (pid, rest) = line.trim_start().split_once(char::is_whitespace)?;
        let rest = rest.trim_start();
        (rest.starts_with("execve(") && rest.contains(&needle)).then_some(pid)
    })?;
    let mut count = 0;
    for line in trace.lines() {
        let Some((pid, rest)) = line.trim_start().split_once(char::is_whitespace) else {
            continue;
        };
        if pid != exec_pid {
            continue;
        }
        let rest = rest.trim_start();
        if rest.starts_with("execve(") {
            break;
        }
        if rest.starts_with(syscall) && rest[syscall.len()..].starts_with('(') {
            count += 1;
        }
    }
    Some(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_kind_of_creation_and_skips_threads() {
        let trace = "\
4100  clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f, parent_tid=0x7f, exit_signal=0, stack=0x7f, stack_size=0x1fff00, tls=0x7f} => {parent_tid=[4101]}, 88) = 4101
4100  clone3({flags=CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND, exit_signal=SIGCHLD, stack=0x7f, stack_size=0x9000}, 88 <unfinished ...>
4102  +++ exited with 0 +++
4100  <... clone3 resumed>) = 4102
4100  vfork()                           = 4103
4100  clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 4104
4100  clone3({flags=CLONE_VM|CLONE_VFORK|CLONE_PIDFD, exit_signal=SIGCHLD}, 88) = -1 EPERM (Operation not permitted)
4100  fork()                            = 4105
";
        let found = creations(trace);
        let paths: Vec<(u32, Path)> = found.iter().map(|c| (c.pid, c.path)).collect();
        assert_eq!(
            paths,
            [
                (4100, Path::Vfork),
                (4100, Path::Vfork),
                (4100, Path::Fork),
                (4100, Path::Fork)
            ]
        );
        assert_eq!(
            found[0].call,
            "clone3(CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND)"
        );
        assert_eq!(found[1].call, "vfork()");
        assert_eq!(
            found[2].call,
            "clone(CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID)"
        );
        assert_eq!(verdict(&found), Some(Path::Fork));
        assert_eq!(verdict(&found[..2]), Some(Path::Vfork));
        assert_eq!(verdict(&[]), None);
    }

    #[test]
    fn counts_the_child_calls_before_its_exec() {
        let trace = "\
200   rt_sigaction(SIGINT, {sa_handler=0x1}, NULL, 8) = 0
200   vfork( <unfinished ...>
201   rt_sigaction(SIGHUP, {sa_handler=SIG_DFL}, NULL, 8) = 0
201   rt_sigaction(SIGINT, {sa_handler=SIG_DFL}, NULL, 8) = 0
201   execve(\"/usr/local/bin/true\", [\"true\"], 0x7f /* 3 vars */) = -1 ENOENT (No such file or directory)
201   rt_sigaction(SIGQUIT, {sa_handler=SIG_DFL}, NULL, 8) = 0
200   <... vfork resumed>) = 201
";
        assert_eq!(calls_before_exec(trace, "rt_sigaction", "true"), Some(2));
        assert_eq!(calls_before_exec(trace, "rt_sigaction", "false"), None);
    }

    #[test]
    fn ignores_other_lines() {
        assert!(
            creations(
                "4100  execve(\"/bin/true\", [\"true\"], 0x7f /* 3 vars */) = 0\n--- SIGCHLD ---\n"
            )
            .is_empty()
        );
    }
}
