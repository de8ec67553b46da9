//! Spawns and waits for a child in a loop, for each engine, and prints how
//! many spawns per second each managed.
//!
//! ```text
//! cargo run --release --example spawn_rate [-- [--seconds S] [CHILD [ARGS...]]]
//! ```
//!
//! The child defaults to `/bin/true`. Each engine runs for `S` seconds
//! (default 1) with one prepared command, so the loop measures what a
//! repeated spawn costs. The last column compares each engine with `Auto`.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use fastspawn::{Command, Engine};

struct Options {
    seconds: f64,
    child: Vec<String>,
}

const USAGE: &str = "usage: spawn_rate [--seconds S] [CHILD [ARGS...]]";

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        seconds: 1.0,
        child: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" | "-s" => {
                let value = args.next().ok_or("--seconds needs a value")?;
                options.seconds = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| format!("--seconds: {value:?} is not a positive number"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            _ if arg.starts_with("--seconds=") => {
                let value = &arg["--seconds=".len()..];
                options.seconds = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| format!("--seconds: {value:?} is not a positive number"))?;
            }
            _ if arg.starts_with('-') && options.child.is_empty() => {
                return Err(format!("unknown option {arg:?}"));
            }
            _ => {
                options.child.push(arg);
                options.child.extend(args.by_ref());
            }
        }
    }
    if options.child.is_empty() {
        options.child.push("/bin/true".to_owned());
    }
    Ok(options)
}

struct Row {
    engine: Engine,
    spawns: u64,
    elapsed: Duration,
    note: Option<String>,
}

impl Row {
    fn rate(&self) -> f64 {
        if self.elapsed.is_zero() {
            0.0
        } else {
            self.spawns as f64 / self.elapsed.as_secs_f64()
        }
    }
}

fn measure(engine: Engine, child: &[String], seconds: f64) -> Row {
    let mut cmd = Command::new(&child[0]);
    cmd.args(&child[1..]).engine(engine);
    let budget = Duration::from_secs_f64(seconds);
    let mut spawns = 0;
    let mut used = None;
    let start = Instant::now();
    while start.elapsed() < budget {
        let mut running = match cmd.spawn() {
            Ok(running) => running,
            Err(err) => {
                return Row {
                    engine,
                    spawns,
                    elapsed: start.elapsed(),
                    note: Some(err.to_string()),
                };
            }
        };
        used.get_or_insert(running.engine());
        match running.wait() {
            Ok(status) if status.success() => {}
            Ok(status) => {
                return Row {
                    engine,
                    spawns,
                    elapsed: start.elapsed(),
                    note: Some(format!("the child ended {status}")),
                };
            }
            Err(err) => {
                return Row {
                    engine,
                    spawns,
                    elapsed: start.elapsed(),
                    note: Some(err.to_string()),
                };
            }
        }
        spawns += 1;
    }
    let note = match used {
        Some(used) if engine == Engine::Auto => Some(format!("used {used}")),
        _ => None,
    };
    Row {
        engine,
        spawns,
        elapsed: start.elapsed(),
        note,
    }
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("spawn_rate: {problem}");
            }
            eprintln!("{USAGE}");
            return if problem.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };
    println!(
        "child: {}   {} s per engine",
        options.child.join(" "),
        options.seconds
    );

    let mut rows = Vec::new();
    for engine in [Engine::Auto].into_iter().chain(Engine::ALL) {
        if !engine.is_available() {
            rows.push(Row {
                engine,
                spawns: 0,
                elapsed: Duration::ZERO,
                note: Some("not available here".to_owned()),
            });
            continue;
        }
        rows.push(measure(engine, &options.child, options.seconds));
    }

    let auto = rows
        .iter()
        .find(|r| r.engine == Engine::Auto)
        .map(Row::rate)
        .unwrap_or(0.0);
    println!(
        "{:<12} {:>8} {:>9} {:>12} {:>8}  note",
        "engine", "spawns", "seconds", "spawns/s", "vs auto"
    );
    let mut failed = false;
    for row in &rows {
        let ratio = if auto > 0.0 && row.spawns > 0 {
            format!("{:.2}x", row.rate() / auto)
        } else {
            "-".to_owned()
        };
        let note = row.note.as_deref().unwrap_or("");
        failed |= row.spawns == 0 && row.note.as_deref() != Some("not available here");
        let line = format!(
            "{:<12} {:>8} {:>9.3} {:>12.0} {:>8}  {}",
            row.engine.name(),
            row.spawns,
            row.elapsed.as_secs_f64(),
            row.rate(),
            ratio,
            note
        );
        println!("{}", line.trim_end());
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
