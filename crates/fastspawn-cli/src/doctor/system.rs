//! The machine around the kernel: the C library's posix_spawn, cgroup v2,
//! pid and fd headroom, overcommit, and the process that would spawn.

use std::fs;

use fastspawn::Command;

use super::procfs::{self, human};
use super::{Finding, Section, Status};

pub fn check(pid: u32) -> Vec<Section> {
    let status = procfs::read(&format!("/proc/{pid}/status")).unwrap_or_default();
    let limits = procfs::read(&format!("/proc/{pid}/limits")).unwrap_or_default();
    vec![
        Section {
            name: "C library",
            findings: vec![glibc()],
        },
        Section {
            name: "limits",
            findings: vec![
                pids(),
                cgroup(),
                nproc(&status, &limits),
                nofile(pid, &limits),
            ],
        },
        Section {
            name: "memory",
            findings: vec![process_size(pid, &status), overcommit(&status)],
        },
    ]
}

/// glibc's version (`getconf GNU_LIBC_VERSION`) and what its posix_spawn can do.
fn glibc() -> Finding {
    let title = "glibc posix_spawn";
    let version = match Command::new("getconf").arg("GNU_LIBC_VERSION").output() {
        Ok(o) => o
            .status
            .success()
            .then(|| String::from_utf8_lossy(&o.stdout).trim().to_owned()),
        Err(e) => {
            return Finding::new("libc.glibc", title, Status::Unknown)
                .summary(format!("cannot ask the C library its version: {e}"))
                .advice(
                    "getconf (part of the C library's tools) is needed to tell glibc's version",
                );
        }
    };
    let Some(version) = version else {
        return Finding::new("libc.glibc", title, Status::Info)
            .summary("not glibc (getconf GNU_LIBC_VERSION failed): musl's posix_spawn also uses CLONE_VM|CLONE_VFORK")
            .advice("runtimes' fork/vfork paths below are what counts");
    };
    let number = version.trim_start_matches("glibc").trim();
    let Some(v) = procfs::major_minor(number) else {
        return Finding::new("libc.glibc", title, Status::Unknown)
            .summary(format!("unreadable version {version:?}"));
    };
    // What its posix_spawn offers, by version (glibc's NEWS; not observable
    // without calling each function).
    let has = |min: (u32, u32)| v >= min;
    let abilities = serde_json::json!({
        "version": number,
        "clone_vm_vfork": has((2, 24)),
        "addchdir_np": has((2, 29)),
        "addclosefrom_np": has((2, 34)),
        "pidfd_spawn": has((2, 39)),
        "setcgroup_np": has((2, 39)),
    });
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let summary = format!(
        "glibc {number}: vfork-style child {} (2.24), addchdir_np {} (2.29), addclosefrom_np {} (2.34), pidfd_spawn and setcgroup_np {} (2.39)",
        yes_no(has((2, 24))),
        yes_no(has((2, 29))),
        yes_no(has((2, 34))),
        yes_no(has((2, 39)))
    );
    let (status, advice) = if !has((2, 24)) {
        (
            Status::Bad,
            "posix_spawn forks here, so Rust std's and Python's 'fast' paths fork too: upgrade glibc or spawn with fastspawn",
        )
    } else if !has((2, 29)) {
        (
            Status::Warn,
            "without addchdir_np Rust std forks whenever current_dir is set: fastspawn keeps cwd on the vfork path",
        )
    } else if !has((2, 39)) {
        (
            Status::Info,
            "posix_spawn returns no pidfd and cannot place a child in a cgroup here; its child resets every signal handler one call at a time (see the Rust std line below): fastspawn does both in the kernel with clone3",
        )
    } else {
        (
            Status::Ok,
            "posix_spawn has pidfds and cgroups; its child still resets signal handlers one call at a time (clone3's CLONE_CLEAR_SIGHAND does it at once)",
        )
    };
    Finding::new("libc.glibc", title, status)
        .summary(summary)
        .advice(advice)
        .value(abilities)
}

/// pid_max against the tasks that exist, and the cgroup's pids.max.
fn pids() -> Finding {
    let title = "pids";
    let pid_max = procfs::read_u64("/proc/sys/kernel/pid_max");
    let tasks = procfs::read("/proc/loadavg").and_then(|l| procfs::total_tasks(&l));
    let (Some(pid_max), Some(tasks)) = (pid_max, tasks) else {
        return Finding::new("limits.pids", title, Status::Unknown)
            .summary("cannot read pid_max or /proc/loadavg");
    };
    let mut summary = format!("{tasks} tasks (threads) of pid_max {pid_max}");
    let mut headroom = pid_max.saturating_sub(tasks);
    let mut limit = pid_max;
    if let Some(dir) = super::kernel::own_cgroup_dir() {
        let max = procfs::read(&format!("{dir}/pids.max"));
        let current = procfs::read_u64(&format!("{dir}/pids.current"));
        if let (Some(max), Some(current)) = (max, current) {
            summary.push_str(&format!("; this cgroup: {current} of pids.max {max}"));
            if let Ok(max) = max.parse::<u64>() {
                if max.saturating_sub(current) < headroom {
                    headroom = max.saturating_sub(current);
                    limit = max;
                }
            }
        }
    }
    let value = serde_json::json!({ "pid_max": pid_max, "tasks": tasks, "headroom": headroom });
    if headroom < limit / 10 {
        Finding::new("limits.pids", title, Status::Warn)
            .summary(summary)
            .advice(format!("only {headroom} more tasks fit: spawns will fail with EAGAIN; raise kernel.pid_max or the cgroup's pids.max"))
            .value(value)
    } else {
        Finding::new("limits.pids", title, Status::Ok)
            .summary(summary)
            .advice(format!("room for {headroom} more processes or threads"))
            .value(value)
    }
}

/// cgroup v2 and whether this process may create sub-cgroups for its children.
fn cgroup() -> Finding {
    let title = "cgroup v2";
    let Some(dir) = super::kernel::own_cgroup_dir() else {
        return Finding::new("limits.cgroup", title, Status::Info)
            .summary("no cgroup v2 hierarchy at /sys/fs/cgroup (v1 or none)")
            .advice("Command::cgroup and cgroup.kill need cgroup v2");
    };
    let writable = rustix::fs::access(dir.as_str(), rustix::fs::Access::WRITE_OK).is_ok();
    let controllers = procfs::read(&format!("{dir}/cgroup.controllers")).unwrap_or_default();
    let value =
        serde_json::json!({ "path": dir, "writable": writable, "controllers": controllers });
    if writable {
        Finding::new("limits.cgroup", title, Status::Ok)
            .summary(format!("this process is in {dir}, writable (controllers: {controllers})"))
            .advice("children can get cgroups of their own (mkdir there, Command::cgroup): limits, and cgroup.kill for whole trees")
            .value(value)
    } else {
        Finding::new("limits.cgroup", title, Status::Info)
            .summary(format!("this process is in {dir}, not writable by it"))
            .advice("to put children in cgroups, ask for a delegated cgroup (systemd: Delegate=yes, or systemd-run --user --scope -p Delegate=yes)")
            .value(value)
    }
}

/// RLIMIT_NPROC of the inspected process against the tasks of its real uid.
fn nproc(status: &str, limits: &str) -> Finding {
    let title = "RLIMIT_NPROC";
    let Some((soft, _hard)) = procfs::limit(limits, "Max processes") else {
        return Finding::new("limits.nproc", title, Status::Unknown)
            .summary("cannot read the process's limits");
    };
    let uid = procfs::real_uid(status);
    let Some(soft) = soft else {
        return Finding::new("limits.nproc", title, Status::Ok)
            .summary("unlimited")
            .advice("nothing to do")
            .value(serde_json::Value::Null);
    };
    let tasks = uid.map(tasks_of_uid).unwrap_or(0);
    let value = serde_json::json!({ "soft": soft, "uid": uid, "tasks": tasks });
    let summary = format!(
        "{tasks} tasks of uid {} against a soft limit of {soft}",
        uid.unwrap_or(0)
    );
    if uid == Some(0) {
        Finding::new("limits.nproc", title, Status::Ok)
            .summary(summary)
            .advice("root is not held to it")
            .value(value)
    } else if tasks * 10 > soft * 8 {
        Finding::new("limits.nproc", title, Status::Warn)
            .summary(summary)
            .advice(
                "spawns will soon fail with EAGAIN: raise the soft limit (ulimit -u, LimitNPROC=)",
            )
            .value(value)
    } else {
        Finding::new("limits.nproc", title, Status::Ok)
            .summary(summary)
            .advice(format!("room for {} more", soft - tasks))
            .value(value)
    }
}

/// Threads whose real uid is `uid` (RLIMIT_NPROC counts threads).
fn tasks_of_uid(uid: u32) -> u64 {
    let Ok(dir) = fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| fs::read_to_string(e.path().join("status")).ok())
        .filter(|s| procfs::real_uid(s) == Some(uid))
        .map(|s| {
            procfs::field(&s, "Threads")
                .and_then(|t| t.parse().ok())
                .unwrap_or(1)
        })
        .sum()
}

fn fd_count(pid: u32) -> Option<u64> {
    Some(fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count() as u64)
}

/// RLIMIT_NOFILE of the inspected process against its open fds.
fn nofile(pid: u32, limits: &str) -> Finding {
    let title = "RLIMIT_NOFILE";
    let (Some((soft, hard)), Some(fds)) = (procfs::limit(limits, "Max open files"), fd_count(pid))
    else {
        return Finding::new("limits.nofile", title, Status::Unknown)
            .summary("cannot read the process's fds or limits");
    };
    let show = |v: Option<u64>| v.map_or("unlimited".to_owned(), |v| v.to_string());
    let value = serde_json::json!({ "soft": soft, "hard": hard, "open": fds });
    let summary = format!(
        "process {pid}: {fds} fds open, soft limit {}, hard {}",
        show(soft),
        show(hard)
    );
    match soft {
        Some(soft) if fds * 10 > soft * 8 => Finding::new("limits.nofile", title, Status::Warn)
            .summary(summary)
            .advice("each running child holds a pidfd and its pipes in the parent: spawns will fail with EMFILE; raise the soft limit to the hard one")
            .value(value),
        Some(soft) if soft < 4096 && hard.is_none_or(|h| h > soft) => Finding::new("limits.nofile", title, Status::Info)
            .summary(summary)
            .advice(format!("{soft} fds allow ~{} children with three pipes each in flight; a server raises its soft limit to the hard one at start (Go does it by itself)", soft / 4))
            .value(value),
        _ => Finding::new("limits.nofile", title, Status::Ok)
            .summary(summary)
            .advice("nothing to do")
            .value(value),
    }
}

/// The inspected process's RSS, page tables and fds: what a fork would copy.
fn process_size(pid: u32, status: &str) -> Finding {
    let title = "spawning process";
    let name = procfs::field(status, "Name").unwrap_or("?").to_owned();
    let rss = procfs::field_kib(status, "VmRSS").unwrap_or(0);
    let pte = procfs::field_kib(status, "VmPTE").unwrap_or(0);
    let threads = procfs::field(status, "Threads").unwrap_or("?").to_owned();
    let fds = fd_count(pid).unwrap_or(0);
    let value = serde_json::json!({ "pid": pid, "name": name, "rss": rss, "page_tables": pte, "fds": fds, "threads": threads });
    let summary = format!(
        "process {pid} ({name}): RSS {}, page tables {}, threads {threads}, fds {fds}",
        human(rss),
        human(pte)
    );
    let status = if rss >= 1 << 30 {
        Status::Warn
    } else {
        Status::Info
    };
    let advice = if rss >= 1 << 30 {
        "a fork from this process copies its page tables: tens of ms per spawn at this size (fastspawn's bench measured ~13-36 ms per GiB); keep its spawns on the vfork path"
    } else {
        "small enough that fork costs little here; fork's cost grows with RSS (`--pid` inspects another process, e.g. your server)"
    };
    Finding::new("memory.process", title, status)
        .summary(summary)
        .advice(advice)
        .value(value)
}

/// vm.overcommit_memory: whether a fork of the inspected process could fail
/// with ENOMEM (the kernel charges a fork for the parent's private writable
/// memory; a vfork-path spawn is charged nothing).
fn overcommit(status: &str) -> Finding {
    let title = "vm.overcommit_memory";
    let meminfo = procfs::read("/proc/meminfo").unwrap_or_default();
    let (Some(mode), Some(limit), Some(committed)) = (
        procfs::read_u64("/proc/sys/vm/overcommit_memory"),
        procfs::field_kib(&meminfo, "CommitLimit"),
        procfs::field_kib(&meminfo, "Committed_AS"),
    ) else {
        return Finding::new("memory.overcommit", title, Status::Unknown)
            .summary("cannot read /proc/sys/vm/overcommit_memory or /proc/meminfo");
    };
    let ram_swap = procfs::field_kib(&meminfo, "MemTotal").unwrap_or(0)
        + procfs::field_kib(&meminfo, "SwapTotal").unwrap_or(0);
    // Private writable memory, which a fork is charged for (an estimate).
    let data = procfs::field_kib(status, "VmData").unwrap_or(0)
        + procfs::field_kib(status, "VmStk").unwrap_or(0);
    let ratio = procfs::read_u64("/proc/sys/vm/overcommit_ratio");
    let value = serde_json::json!({
        "mode": mode, "ratio": ratio, "commit_limit": limit, "committed": committed,
        "ram_plus_swap": ram_swap, "fork_charge_estimate": data,
    });
    let headroom = limit.saturating_sub(committed);
    match mode {
        2 => {
            let summary = format!(
                "2 (never overcommit): {} committed of {}, so {} left; a fork of the process above is charged ~{}",
                human(committed),
                human(limit),
                human(headroom),
                human(data)
            );
            let status = if data > headroom {
                Status::Bad
            } else {
                Status::Warn
            };
            Finding::new("memory.overcommit", title, status)
                .summary(summary)
                .advice("every fork is charged the parent's private writable memory: big processes fail to fork with ENOMEM; vfork-path spawns (fastspawn, posix_spawn) are not charged")
                .value(value)
        }
        1 => Finding::new("memory.overcommit", title, Status::Ok)
            .summary("1 (always overcommit): fork is never refused for memory")
            .advice("nothing to do")
            .value(value),
        _ => {
            let status = if data > ram_swap {
                Status::Bad
            } else {
                Status::Ok
            };
            Finding::new("memory.overcommit", title, status)
                .summary(format!(
                    "{mode} (heuristic): a fork fails with ENOMEM only when the parent's private writable memory (~{} here) exceeds RAM + swap ({})",
                    human(data),
                    human(ram_swap)
                ))
                .advice(if data > ram_swap {
                    "this process cannot fork: spawn on the vfork path (fastspawn)"
                } else {
                    "nothing to do"
                })
                .value(value)
        }
    }
}
