//! One exporter per output: terminal tables, `report.md`, `raw.json`, SVG
//! charts, `SETUP.md`. All of them read the one [`Run`] record.

pub mod markdown;
pub mod svg;
pub mod terminal;

use std::path::Path;

use anyhow::{Context, Result};

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
        for (i, chart) in crate::bench::report::charts(&experiment, &ms)
            .iter()
            .enumerate()
        {
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
