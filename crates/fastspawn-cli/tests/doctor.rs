//! `fastspawn doctor`, run as a user runs it: every check is reported, the
//! kernel findings agree with what the library probed in this process, and
//! the observed fork/vfork paths are the ones the runtimes' sources say
//! (Rust std forks with a uid, not without; CPython forks with `user=`).

use std::process::Command;

use serde_json::Value;

fn doctor(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fastspawn"))
        .arg("doctor")
        .args(args)
        .output()
        .expect("run fastspawn doctor")
}

fn doctor_json(args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = doctor(&all);
    assert!(
        out.status.success(),
        "doctor failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("doctor --json prints JSON")
}

fn findings(report: &Value) -> Vec<&Value> {
    report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["findings"].as_array().unwrap())
        .collect()
}

fn finding<'a>(report: &'a Value, id: &str) -> &'a Value {
    findings(report)
        .into_iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no finding {id} in {report:#}"))
}

/// The fork/vfork verdict of a runtime finding, or `None` (with the reason
/// printed) when this machine cannot observe it (no strace, ptrace refused).
fn path_of(report: &Value, id: &str) -> Option<String> {
    let f = finding(report, id);
    if f["status"] == "unknown" {
        println!("skipped {id}: {}", f["summary"]);
        return None;
    }
    Some(f["value"]["path"].as_str().unwrap_or("none").to_owned())
}

#[test]
fn json_has_every_check_with_a_summary_and_a_status() {
    let report = doctor_json(&["--runtimes", "rust"]);
    let ids: Vec<&str> = findings(&report)
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    for id in [
        "kernel.version",
        "kernel.clone3",
        "kernel.clone_pidfd",
        "kernel.pidfd_wait",
        "kernel.pidfd_poll",
        "kernel.close_range",
        "kernel.clone_into_cgroup",
        "kernel.seccomp",
        "libc.glibc",
        "limits.pids",
        "limits.cgroup",
        "limits.nproc",
        "limits.nofile",
        "memory.process",
        "memory.overcommit",
        "runtime.rust.plain",
        "runtime.rust.options",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    // --runtimes is honoured: nothing else was observed.
    assert!(
        !ids.iter()
            .any(|id| id.starts_with("runtime.node") || id.starts_with("runtime.go")),
        "{ids:?}"
    );
    for f in findings(&report) {
        assert!(
            ["ok", "warn", "bad", "info", "unknown"].contains(&f["status"].as_str().unwrap()),
            "{f}"
        );
        assert!(!f["summary"].as_str().unwrap().is_empty(), "{f}");
    }
    assert_eq!(
        report["kernel"].as_str().unwrap(),
        std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .unwrap()
            .trim()
    );
}

#[test]
fn kernel_findings_agree_with_the_library_and_proc() {
    let report = doctor_json(&["--runtimes", "fastspawn"]);
    let probed = fastspawn::features();
    assert_eq!(
        finding(&report, "kernel.close_range")["value"],
        probed.close_range
    );
    assert_eq!(finding(&report, "kernel.pidfd_wait")["value"], probed.pidfd);
    // clone3 is reported working exactly when this process can spawn with it.
    let clone3_works = fastspawn::Command::new("true")
        .engine(fastspawn::Engine::Clone3)
        .status()
        .is_ok();
    assert_eq!(finding(&report, "kernel.clone3")["value"], clone3_works);
    // The doctor inherits this process's seccomp mode.
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let mode = status
        .lines()
        .find_map(|l| l.strip_prefix("Seccomp:"))
        .unwrap()
        .trim();
    assert_eq!(finding(&report, "kernel.seccomp")["value"]["mode"], mode);
    let pid_max: u64 = std::fs::read_to_string("/proc/sys/kernel/pid_max")
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(finding(&report, "limits.pids")["value"]["pid_max"], pid_max);
    // fastspawn itself stays on the vfork path, options included.
    if let Some(path) = path_of(&report, "runtime.fastspawn.plain") {
        assert_eq!(path, "vfork");
        assert_eq!(
            path_of(&report, "runtime.fastspawn.options").unwrap(),
            "vfork"
        );
    }
}

#[test]
fn observes_rust_std_forking_with_a_uid_and_not_without() {
    let report = doctor_json(&["--runtimes", "rust"]);
    if let Some(plain) = path_of(&report, "runtime.rust.plain") {
        // std uses posix_spawn (glibc >= 2.24: CLONE_VM|CLONE_VFORK) for a plain spawn.
        assert_eq!(
            plain,
            "vfork",
            "{:#}",
            finding(&report, "runtime.rust.plain")
        );
        let options = finding(&report, "runtime.rust.options");
        assert_eq!(options["value"]["path"], "fork", "{options:#}");
        assert_eq!(options["status"], "warn");
        assert!(
            options["advice"]
                .as_str()
                .unwrap()
                .contains("fastspawn::Command")
        );
    }
}

#[test]
fn observes_python_forking_with_user() {
    let Ok(out) = Command::new("python3")
        .args(["-c", "import sys; print(sys.version_info[1])"])
        .output()
    else {
        println!("skipped: python3 is not in PATH");
        return;
    };
    let minor: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let report = doctor_json(&["--runtimes", "python"]);
    if let Some(plain) = path_of(&report, "runtime.python.plain") {
        // CPython vforks since 3.10 when no preexec_fn/user/group is set.
        assert_eq!(plain, if minor >= 10 { "vfork" } else { "fork" });
        assert_eq!(path_of(&report, "runtime.python.options").unwrap(), "fork");
    }
}

#[test]
fn pid_selects_the_process_reported() {
    // A child whose fds do not move (this test process's do: the other
    // tests run beside it and open pipes, a CI flake), with two more than
    // stdio.
    let mut child = std::process::Command::new("sh")
        .args(["-c", "exec 3</dev/null 4</dev/null; exec sleep 60"])
        .spawn()
        .unwrap();
    let pid = child.id();
    // Past the shell's redirections: the fds are in place once it is sleep.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap() != "sleep\n" {
        assert!(
            std::time::Instant::now() < deadline,
            "the child never ran sleep"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let report = doctor_json(&["--runtimes", "rust", "--pid", &pid.to_string()]);
    // Counted after the report, when the exec has long finished: a count
    // taken as soon as the name read `sleep` was once one fd above the
    // report's (the exec still closing the close-on-exec fds, it seems).
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count() as u64;
    child.kill().unwrap();
    child.wait().unwrap();
    let process = finding(&report, "memory.process");
    assert_eq!(process["value"]["pid"], pid);
    // stdio, 3 and 4, and whatever the harness leaves inheritable (cargo's
    // jobserver pipe).
    assert!(fds >= 5, "the child has {fds} fds");
    assert_eq!(process["value"]["fds"].as_u64().unwrap(), fds);
    assert_eq!(
        finding(&report, "limits.nofile")["value"]["open"]
            .as_u64()
            .unwrap(),
        fds
    );
}

#[test]
fn bad_arguments_are_named() {
    let out = doctor(&["--pid", "4000000000"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--pid 4000000000: no such process"));
    let out = doctor(&["--runtimes", "ruby"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown runtime \"ruby\""));
}

#[test]
fn terminal_report_has_sections_and_advice() {
    let out = doctor(&["--runtimes", "rust"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for heading in [
        "\nkernel\n",
        "\nC library\n",
        "\nlimits\n",
        "\nmemory\n",
        "\nruntimes",
    ] {
        assert!(text.contains(heading), "no {heading:?} in:\n{text}");
    }
    assert!(text.contains("clone3"), "{text}");
    assert!(
        text.lines()
            .filter(|l| l.trim_start().starts_with("->"))
            .count()
            >= 10,
        "{text}"
    );
}

#[test]
fn without_strace_the_runtime_lines_say_why() {
    // A PATH holding only `true`: no strace, so nothing can be observed.
    let dir = std::env::temp_dir().join(format!("fastspawn-doctor-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let real_true = ["/usr/bin/true", "/bin/true"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .unwrap();
    let _ = std::os::unix::fs::symlink(real_true, dir.join("true"));
    let out = Command::new(env!("CARGO_BIN_EXE_fastspawn"))
        .args(["doctor", "--json", "--runtimes", "rust"])
        .env("PATH", &dir)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    for id in ["runtime.rust.plain", "runtime.rust.options"] {
        let f = finding(&report, id);
        assert_eq!(f["status"], "unknown", "{f:#}");
        assert!(
            f["summary"].as_str().unwrap().contains("strace is missing"),
            "{f:#}"
        );
        assert!(
            f["advice"]
                .as_str()
                .unwrap()
                .contains("apt-get install strace"),
            "{f:#}"
        );
    }
}
