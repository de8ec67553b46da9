//! Small readers of `/proc` and `/sys` files, kept apart so that their
//! parsing is tested on fixed text.

use std::fs;

/// A file's contents without the trailing newline, or `None` if unreadable.
pub fn read(path: &str) -> Option<String> {
    fs::read_to_string(path)
        .ok()
        .map(|s| s.trim_end().to_owned())
}

/// A number from a one-value file such as `/proc/sys/kernel/pid_max`.
pub fn read_u64(path: &str) -> Option<u64> {
    read(path)?.trim().parse().ok()
}

/// The value of `Key:` in a `Key: value` file (`/proc/PID/status`, `/proc/meminfo`).
pub fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k == key).then(|| v.trim())
    })
}

/// A `kB` field of `/proc/PID/status` or `/proc/meminfo`, in bytes.
pub fn field_kib(text: &str, key: &str) -> Option<u64> {
    let value = field(text, key)?;
    let number = value.strip_suffix("kB").unwrap_or(value).trim();
    number.parse::<u64>().ok().map(|kib| kib * 1024)
}

/// The first (real) id of a `Uid:` line.
pub fn real_uid(status: &str) -> Option<u32> {
    field(status, "Uid")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Soft and hard limit of one row of `/proc/PID/limits` (`None` = unlimited).
pub fn limit(limits: &str, name: &str) -> Option<(Option<u64>, Option<u64>)> {
    let row = limits.lines().find(|l| l.starts_with(name))?;
    let mut values = row[name.len()..].split_whitespace();
    let parse = |v: Option<&str>| -> Option<Option<u64>> {
        match v? {
            "unlimited" => Some(None),
            n => n.parse().ok().map(Some),
        }
    };
    Some((parse(values.next())?, parse(values.next())?))
}

/// The total number of tasks (threads) on the machine: the fourth field of
/// `/proc/loadavg` is `running/total`.
pub fn total_tasks(loadavg: &str) -> Option<u64> {
    loadavg
        .split_whitespace()
        .nth(3)?
        .split_once('/')?
        .1
        .parse()
        .ok()
}

/// This process's cgroup v2 path (`0::/path` in `/proc/self/cgroup`).
pub fn cgroup2_path(cgroup: &str) -> Option<&str> {
    cgroup.lines().find_map(|l| l.strip_prefix("0::"))
}

/// `major.minor` of a version string such as `6.18.44-fc` or `2.36`.
pub fn major_minor(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.split(|c: char| !c.is_ascii_digit());
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// Bytes as `1.5 GiB`, `300 MiB` or `12 KiB`.
pub fn human(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b >= KIB * KIB * KIB {
        format!("{:.1} GiB", b / (KIB * KIB * KIB))
    } else if b >= KIB * KIB {
        format!("{:.0} MiB", b / (KIB * KIB))
    } else {
        format!("{:.0} KiB", b / KIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_status_limits_loadavg_and_cgroup() {
        let status =
            "Name:\tnode\nUid:\t1000\t1000\t1000\t1000\nVmRSS:\t  123456 kB\nSeccomp:\t2\n";
        assert_eq!(field(status, "Seccomp"), Some("2"));
        assert_eq!(field_kib(status, "VmRSS"), Some(123456 * 1024));
        assert_eq!(real_uid(status), Some(1000));
        assert_eq!(field(status, "Missing"), None);

        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max processes             95000                unlimited            processes \n\
                      Max open files            1024                 1048576              files     \n";
        assert_eq!(limit(limits, "Max processes"), Some((Some(95000), None)));
        assert_eq!(
            limit(limits, "Max open files"),
            Some((Some(1024), Some(1048576)))
        );

        assert_eq!(total_tasks("0.52 0.58 0.59 3/1234 56789"), Some(1234));
        assert_eq!(
            cgroup2_path("0::/user.slice/session-1.scope\n"),
            Some("/user.slice/session-1.scope")
        );
        assert_eq!(cgroup2_path("1:name=systemd:/\n"), None);
        assert_eq!(major_minor("6.18.44-fc-v657"), Some((6, 18)));
        assert_eq!(major_minor("2.36"), Some((2, 36)));
        assert_eq!(human(3 * 1024 * 1024 * 1024 / 2), "1.5 GiB");
    }
}
