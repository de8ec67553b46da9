//! The machine description that goes with every run (`SETUP.md`): figures
//! from different machines are not comparable, so each run says where it
//! was measured.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

fn first_line(program: &str, args: &[&str]) -> Option<String> {
    let out = fastspawn::Command::new(program).args(args).output().ok()?;
    let text = if out.stdout.is_empty() {
        out.stderr
    } else {
        out.stdout
    };
    String::from_utf8_lossy(&text)
        .lines()
        .next()
        .map(|l| l.trim().to_string())
}

fn cpuinfo_model() -> Option<String> {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()?
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map(|s| s.trim().to_string())
}

fn meminfo_total() -> Option<String> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = text
        .lines()
        .find(|l| l.starts_with("MemTotal:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(format!("{:.1} GiB", kib as f64 / 1024.0 / 1024.0))
}

/// Everything known about this machine and its toolchains.
pub fn describe() -> BTreeMap<String, String> {
    let mut setup = BTreeMap::new();
    let mut put = |key: &str, value: Option<String>| {
        setup.insert(
            key.to_string(),
            value.unwrap_or_else(|| "unknown".to_string()),
        );
    };
    put("cpu", cpuinfo_model());
    put(
        "cores",
        std::thread::available_parallelism()
            .ok()
            .map(|n| n.to_string()),
    );
    put("memory", meminfo_total());
    put("kernel", first_line("uname", &["-rv"]));
    put("glibc", first_line("ldd", &["--version"]));
    put(
        "pid_max",
        std::fs::read_to_string("/proc/sys/kernel/pid_max")
            .ok()
            .map(|s| s.trim().to_string()),
    );
    put("rustc", first_line("rustc", &["--version"]));
    put("gcc", first_line("gcc", &["--version"]));
    put("go", first_line("go", &["version"]));
    put("python", first_line("python3", &["--version"]));
    put("node", first_line("node", &["--version"]));
    put("fastspawn", Some(env!("CARGO_PKG_VERSION").to_string()));
    setup
}

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

fn seconds() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// `YYYY-MM-DD` (UTC).
pub fn today() -> String {
    let (y, m, d) = civil(seconds().div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = seconds();
    let rem = secs.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        today(),
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(19_723), (2024, 1, 1));
        assert_eq!(civil(20_513), (2026, 3, 1));
    }
}
