//! Running the load generator, `hey` (Debian's package; rakyll/hey), and
//! reading its summary.
//!
//! hey gives each of its `-c` workers `n / c` requests, so `-c 30 -n 10000`
//! sends 9,990: [`requests_sent`] says how many to expect.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// What one hey run reported.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Wall time of the whole run, seconds.
    pub total_s: f64,
    pub requests_per_s: f64,
    pub slowest_s: f64,
    pub fastest_s: f64,
    pub average_s: f64,
    /// Latency percentiles (10, 25, 50, 75, 90, 95, 99) in seconds.
    pub percentiles: BTreeMap<u32, f64>,
    /// Responses by status code.
    pub status: BTreeMap<u16, u64>,
    /// Failed requests by error message.
    pub errors: BTreeMap<String, u64>,
}

impl Summary {
    /// Fails unless exactly `expected` requests were answered, all with 200.
    pub fn check(&self, expected: u64) -> Result<()> {
        if !self.errors.is_empty() {
            let errors: Vec<String> = self
                .errors
                .iter()
                .map(|(e, n)| format!("{n} x {e}"))
                .collect();
            bail!("failed requests: {}", errors.join("; "));
        }
        let other: Vec<String> = self
            .status
            .iter()
            .filter(|(code, _)| **code != 200)
            .map(|(code, n)| format!("{n} x {code}"))
            .collect();
        if !other.is_empty() {
            bail!("responses other than 200: {}", other.join(", "));
        }
        let ok = self.status.get(&200).copied().unwrap_or(0);
        if ok != expected {
            bail!("{ok} responses with status 200, expected {expected}");
        }
        Ok(())
    }
}

/// The requests hey sends for `-n n -c c`.
pub fn requests_sent(n: u64, c: u64) -> u64 {
    n / c.max(1) * c
}

fn seconds(text: &str) -> Result<f64> {
    let value = text.trim().trim_end_matches("secs").trim();
    value
        .parse()
        .with_context(|| format!("not a number of seconds: {text:?}"))
}

/// Parses hey's default (summary) output.
pub fn parse(text: &str) -> Result<Summary> {
    #[derive(PartialEq)]
    enum Section {
        Other,
        Latency,
        Status,
        Errors,
    }
    let mut section = Section::Other;
    let mut fields: BTreeMap<String, f64> = BTreeMap::new();
    let mut percentiles = BTreeMap::new();
    let mut status = BTreeMap::new();
    let mut errors = BTreeMap::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if !line.starts_with(' ') && !line.starts_with('\t') {
            section = match trimmed {
                "Latency distribution:" => Section::Latency,
                "Status code distribution:" => Section::Status,
                "Error distribution:" => Section::Errors,
                _ => Section::Other,
            };
            continue;
        }
        match section {
            Section::Other => {
                if let Some((key, value)) = trimmed.split_once(':') {
                    let key = key.trim();
                    let value = match key {
                        "Requests/sec" => value
                            .trim()
                            .parse()
                            .with_context(|| format!("Requests/sec is not a number: {value:?}"))?,
                        "Total" | "Slowest" | "Fastest" | "Average" => seconds(value)?,
                        _ => continue,
                    };
                    fields.insert(key.to_string(), value);
                }
            }
            // "  99% in 0.0966 secs"
            Section::Latency => {
                let (pct, rest) = trimmed
                    .split_once("% in ")
                    .with_context(|| format!("unexpected latency line {trimmed:?}"))?;
                percentiles.insert(
                    pct.trim()
                        .parse()
                        .with_context(|| format!("bad percentile in {trimmed:?}"))?,
                    seconds(rest)?,
                );
            }
            // "  [200]	1980 responses"
            Section::Status => {
                let (code, rest) = trimmed
                    .trim_start_matches('[')
                    .split_once(']')
                    .with_context(|| format!("unexpected status line {trimmed:?}"))?;
                let count = rest.trim().trim_end_matches("responses").trim();
                status.insert(
                    code.parse()
                        .with_context(|| format!("bad status in {trimmed:?}"))?,
                    count
                        .parse()
                        .with_context(|| format!("bad count in {trimmed:?}"))?,
                );
            }
            // "  [12]	Get "http://...": dial tcp ...: connection refused"
            Section::Errors => {
                let (count, message) = trimmed
                    .trim_start_matches('[')
                    .split_once(']')
                    .with_context(|| format!("unexpected error line {trimmed:?}"))?;
                errors.insert(
                    message.trim().to_string(),
                    count
                        .parse()
                        .with_context(|| format!("bad count in {trimmed:?}"))?,
                );
            }
        }
    }
    let field = |key: &str| {
        fields
            .get(key)
            .copied()
            .with_context(|| format!("hey printed no {key:?}: {text:?}"))
    };
    Ok(Summary {
        total_s: field("Total")?,
        requests_per_s: field("Requests/sec")?,
        slowest_s: fields.get("Slowest").copied().unwrap_or(f64::NAN),
        fastest_s: fields.get("Fastest").copied().unwrap_or(f64::NAN),
        average_s: fields.get("Average").copied().unwrap_or(f64::NAN),
        percentiles,
        status,
        errors,
    })
}

/// Finds `hey` in PATH.
pub fn find() -> Option<PathBuf> {
    super::which("hey")
}

/// Runs `hey -c c -n n url` and parses its summary.
pub fn run(hey: &Path, url: &str, n: u64, c: u64) -> Result<Summary> {
    let out = fastspawn::Command::new(hey)
        .args(["-c", &c.to_string(), "-n", &n.to_string(), "-t", "30", url])
        .stdin(fastspawn::Stdio::null())
        .output()
        .with_context(|| format!("running {}", hey.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "hey -c {c} -n {n} {url} failed ({}): {}{}",
            out.status,
            stdout.trim(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    parse(&stdout).context("reading hey's summary")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// hey 0.1.4's output for `hey -c 30 -n 2000` against the Node baseline.
    const SAMPLE: &str = "
Summary:
  Total:	2.4106 secs
  Slowest:	0.3222 secs
  Fastest:	0.0025 secs
  Average:	0.0353 secs
  Requests/sec:	821.3565
  

Response time histogram:
  0.002 [1]	|
  0.034 [1100]	|■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■
  0.066 [844]	|■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■
  0.322 [2]	|


Latency distribution:
  10% in 0.0224 secs
  25% in 0.0295 secs
  50% in 0.0337 secs
  75% in 0.0382 secs
  90% in 0.0455 secs
  95% in 0.0491 secs
  99% in 0.0966 secs

Details (average, fastest, slowest):
  DNS+dialup:	0.0000 secs, 0.0025 secs, 0.3222 secs
  DNS-lookup:	0.0000 secs, 0.0000 secs, 0.0000 secs
  req write:	0.0000 secs, 0.0000 secs, 0.0046 secs
  resp wait:	0.0352 secs, 0.0024 secs, 0.3187 secs
  resp read:	0.0000 secs, 0.0000 secs, 0.0047 secs

Status code distribution:
  [200]	1980 responses


";

    #[test]
    fn reads_the_summary() {
        let s = parse(SAMPLE).unwrap();
        assert_eq!(s.total_s, 2.4106);
        assert_eq!(s.requests_per_s, 821.3565);
        assert_eq!(s.slowest_s, 0.3222);
        assert_eq!(s.fastest_s, 0.0025);
        assert_eq!(s.percentiles.get(&50), Some(&0.0337));
        assert_eq!(s.percentiles.get(&90), Some(&0.0455));
        assert_eq!(s.percentiles.get(&99), Some(&0.0966));
        assert_eq!(s.percentiles.len(), 7);
        assert_eq!(s.status, BTreeMap::from([(200, 1980)]));
        assert!(s.errors.is_empty());
        s.check(1980).unwrap();
        assert!(s.check(2000).is_err(), "20 requests missing");
    }

    #[test]
    fn errors_and_other_statuses_fail_the_check() {
        let text = SAMPLE.replace(
            "  [200]\t1980 responses\n",
            "  [200]\t1970 responses\n  [500]\t5 responses\n\nError distribution:\n  [5]\tGet \"http://127.0.0.1:9/\": EOF\n",
        );
        let s = parse(&text).unwrap();
        assert_eq!(s.status, BTreeMap::from([(200, 1970), (500, 5)]));
        assert_eq!(
            s.errors,
            BTreeMap::from([("Get \"http://127.0.0.1:9/\": EOF".to_string(), 5)])
        );
        let err = s.check(1980).unwrap_err().to_string();
        assert!(err.contains("5 x Get"), "{err}");
        let only_500 = parse(&SAMPLE.replace("[200]", "[500]")).unwrap();
        assert!(
            only_500
                .check(1980)
                .unwrap_err()
                .to_string()
                .contains("1980 x 500")
        );
    }

    #[test]
    fn output_without_a_summary_is_an_error() {
        assert!(parse("").is_err());
        assert!(parse("Summary:\n  Total:\tfast secs\n").is_err());
        assert!(parse(&SAMPLE.replace("  99% in 0.0966 secs", "  99% at noon")).is_err());
    }

    #[test]
    fn hey_rounds_the_count_down_to_whole_workers() {
        assert_eq!(requests_sent(10_000, 30), 9_990);
        assert_eq!(requests_sent(300, 30), 300);
        assert_eq!(requests_sent(1_000, 30), 990);
    }
}
