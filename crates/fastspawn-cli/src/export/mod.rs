//! One exporter per output: terminal tables, `report.md`, `raw.json`, SVG
//! charts, `SETUP.md`. All of them read the one [`Run`] record.

pub mod markdown;
pub mod svg;
pub mod terminal;

use std::path::Path;

use anyhow::{Context, Result};

use crate::bench::experiments;
use crate::bench::record::Run;

/// A table: a header row and rows of already formatted cells.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub title: String,
    /// What the table reproduces.
    pub about: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChartKind {
    Bar,
    Line,
}

/// A chart: named series over shared x labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub title: String,
    pub kind: ChartKind,
    pub x: Vec<String>,
    pub series: Vec<(String, Vec<f64>)>,
    pub y_unit: String,
}

/// Writes every file of the report into `dir`.
pub fn write_all(run: &Run, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    };
    write("raw.json", serde_json::to_string_pretty(run)?)?;
    write("SETUP.md", markdown::setup(run))?;
    let mut charts = Vec::new();
    for experiment in experiments_in(run) {
        let ms = run.of(&experiment);
        let charts_of = experiments::find(&experiment).map(|e| e.charts(&ms));
        for (i, chart) in charts_of.iter().flatten().enumerate() {
            let name = if i == 0 {
                format!("{experiment}.svg")
            } else {
                format!("{experiment}-{i}.svg")
            };
            write(&name, svg::render(chart)?)?;
            charts.push((experiment.clone(), name));
        }
    }
    write("report.md", markdown::report(run, &charts))?;
    Ok(())
}

/// Redraws a run's report, setup notes and charts from the `raw.json` in
/// `dir`, in place, with this build's layout; prints where.
pub fn redraw(dir: &Path) -> Result<()> {
    let path = dir.join("raw.json");
    let raw = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "reading {}: --redraw needs a run's directory",
            path.display()
        )
    })?;
    let run: Run =
        serde_json::from_str(&raw).with_context(|| format!("parsing {}", path.display()))?;
    write_all(&run, dir)?;
    println!("report: {}", dir.join("report.md").display());
    Ok(())
}

/// One line per goal of the project, from the measurements of this run:
/// every experiment's headline lines, in the list's headline order.
pub fn headline(run: &Run) -> Vec<String> {
    experiments::headline_order()
        .flat_map(|e| e.headline(&run.of(e.name())))
        .collect()
}

/// Experiment names in the order they ran.
pub fn experiments_in(run: &Run) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for m in &run.measurements {
        if !names.contains(&m.experiment) {
            names.push(m.experiment.clone());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The run committed with its report: every file the exporters write
    /// from its raw.json must match the committed one.
    const COMMITTED: &str = "../../bench/results/2026-11-21-6.18.44-fc-v657";

    /// Whether two JSON documents have the same shape and values (numbers
    /// equal to 1e-12 relative: a float read and written again may move in
    /// its last digit).
    fn same_json(a: &Value, b: &Value, at: &str) -> Result<(), String> {
        match (a, b) {
            (Value::Object(a), Value::Object(b)) => {
                let (ka, kb): (Vec<_>, Vec<_>) = (a.keys().collect(), b.keys().collect());
                if ka != kb {
                    return Err(format!("{at}: keys {ka:?} vs {kb:?}"));
                }
                a.iter()
                    .try_for_each(|(k, v)| same_json(v, &b[k], &format!("{at}.{k}")))
            }
            (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
                .iter()
                .zip(b)
                .enumerate()
                .try_for_each(|(i, (x, y))| same_json(x, y, &format!("{at}[{i}]"))),
            (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                if (x - y).abs() <= 1e-12 * x.abs().max(y.abs()) {
                    Ok(())
                } else {
                    Err(format!("{at}: {x} vs {y}"))
                }
            }
            _ if a == b => Ok(()),
            _ => Err(format!("{at}: {a} vs {b}")),
        }
    }

    /// The layout of every experiment (sections, tables, notes, headline,
    /// charts) did not change: the committed run's raw.json redraws its
    /// committed report.md, SETUP.md and charts byte for byte, and raw.json
    /// itself survives a read and a write.
    #[test]
    fn committed_run_redraws_its_report_byte_for_byte() {
        let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(COMMITTED);
        let raw = std::fs::read_to_string(committed.join("raw.json")).unwrap();
        let run: Run = serde_json::from_str(&raw).unwrap();
        let out = std::env::temp_dir().join(format!("fastspawn-redraw-{}", std::process::id()));
        write_all(&run, &out).unwrap();
        // Compared first, removed next, asserted last: a failing run leaves
        // no directory behind either.
        let differs = redrawn_differs(&committed, &out, &raw);
        std::fs::remove_dir_all(&out).unwrap();
        if let Some(why) = differs {
            panic!("{why}");
        }
    }

    /// Why the run redrawn into `out` differs from the committed one, if it does.
    fn redrawn_differs(
        committed: &std::path::Path,
        out: &std::path::Path,
        raw: &str,
    ) -> Option<String> {
        let mut files: Vec<String> = std::fs::read_dir(out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let want_files = [
            "SETUP.md",
            "async.svg",
            "count.svg",
            "env.svg",
            "fds.svg",
            "http.svg",
            "langs.svg",
            "parallel.svg",
            "path.svg",
            "raw.json",
            "report.md",
            "rss.svg",
            "tlpi.svg",
        ];
        if files != want_files {
            return Some(format!("the redrawn files {files:?}, want {want_files:?}"));
        }
        for file in files.iter().filter(|f| *f != "raw.json") {
            let want = std::fs::read_to_string(committed.join(file)).unwrap();
            let got = std::fs::read_to_string(out.join(file)).unwrap();
            if got != want {
                let line = got
                    .lines()
                    .zip(want.lines())
                    .position(|(g, w)| g != w)
                    .unwrap_or(got.lines().count().min(want.lines().count()));
                return Some(format!(
                    "{file} differs from the committed one at line {}:\n got: {:?}\nwant: {:?}",
                    line + 1,
                    got.lines().nth(line),
                    want.lines().nth(line)
                ));
            }
        }
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("raw.json")).unwrap()).unwrap();
        let original: Value = serde_json::from_str(raw).unwrap();
        same_json(&written, &original, "raw.json").err()
    }
}
