//! `report.md` and `SETUP.md`.

use super::Table;
use crate::bench::experiments;
use crate::bench::record::Run;

/// A Markdown table (cells may carry `**bold**`).
pub fn table(table: &Table) -> String {
    let mut out = String::new();
    out.push_str(&format!("| {} |\n", table.header.join(" | ")));
    out.push_str(&format!("|{}\n", " --- |".repeat(table.header.len())));
    for row in &table.rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

/// The whole report: headline, then one section per experiment.
pub fn report(run: &Run, charts: &[(String, String)]) -> String {
    let mut out = String::from("# fastspawn bench report\n\n");
    out.push_str(&format!(
        "Run {} on {} ({} cores, {}), kernel {}, {}. Machine details: [SETUP.md](SETUP.md). Raw data: [raw.json](raw.json).{}\n\n",
        run.started,
        run.setup.get("cpu").map(String::as_str).unwrap_or("?"),
        run.setup.get("cores").map(String::as_str).unwrap_or("?"),
        run.setup.get("memory").map(String::as_str).unwrap_or("?"),
        run.setup.get("kernel").map(String::as_str).unwrap_or("?"),
        run.setup.get("glibc").map(String::as_str).unwrap_or("?"),
        if run.quick { " **Quick run: one repetition, tiny counts; not for conclusions.**" } else { "" },
    ));
    let headline = super::headline(run);
    if !headline.is_empty() {
        out.push_str(if run.quick {
            "## Headline (quick run: these ratios mean nothing)\n\n"
        } else {
            "## Headline\n\n"
        });
        for line in headline {
            out.push_str(&format!("- {line}\n"));
        }
        out.push('\n');
    }
    for experiment in super::experiments_in(run) {
        let ms = run.of(&experiment);
        let tables = experiments::find(&experiment).map(|e| e.tables(&ms));
        for t in tables.into_iter().flatten() {
            out.push_str(&format!("## {}\n\n{}\n\n", t.title, t.about));
            out.push_str(&table(&t));
            out.push('\n');
            for note in &t.notes {
                out.push_str(&format!("- {note}\n"));
            }
            for (_, file) in charts.iter().filter(|(e, _)| *e == experiment) {
                out.push_str(&format!("\n![{experiment}]({file})\n"));
            }
            out.push('\n');
        }
        for note in run
            .notes
            .iter()
            .filter(|n| n.starts_with(&format!("{experiment}: ")))
        {
            out.push_str(&format!("- {}\n", &note[experiment.len() + 2..]));
        }
        out.push('\n');
    }
    let measured = super::experiments_in(run);
    let unmeasured: Vec<&str> = experiments::names()
        .into_iter()
        .filter(|name| !measured.iter().any(|m| m == name))
        .filter(|name| {
            run.notes
                .iter()
                .any(|n| n.starts_with(&format!("{name}: ")))
        })
        .collect();
    if !unmeasured.is_empty() {
        out.push_str("## Not measured\n\n");
        for name in unmeasured {
            for note in run
                .notes
                .iter()
                .filter(|n| n.starts_with(&format!("{name}: ")))
            {
                out.push_str(&format!("- {note}\n"));
            }
        }
        out.push('\n');
    }
    let failures: Vec<_> = run
        .notes
        .iter()
        .filter(|n| n.starts_with("FAILED"))
        .collect();
    if !failures.is_empty() {
        out.push_str("## Failures\n\n");
        for f in failures {
            out.push_str(&format!("- {f}\n"));
        }
    }
    out
}

/// The machine description.
pub fn setup(run: &Run) -> String {
    let mut out = String::from("# Setup\n\n| what | value |\n| --- | --- |\n");
    for (key, value) in &run.setup {
        out.push_str(&format!("| {key} | {} |\n", value.replace('|', "\\|")));
    }
    out.push_str(&format!(
        "\nStarted {}{}.\n",
        run.started,
        if run.quick { " (quick run)" } else { "" }
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_table_shape() {
        let t = Table {
            header: vec!["a".into(), "b".into()],
            rows: vec![vec!["1".into(), "**2**".into()]],
            ..Table::default()
        };
        assert_eq!(table(&t), "| a | b |\n| --- | --- |\n| 1 | **2** |\n");
    }

    /// A quick run whose langs experiment measured one cell and whose http
    /// experiment measured nothing: the headline says the ratios mean
    /// nothing, and http gets no empty table but its reason.
    #[test]
    fn a_quick_report_flags_its_headline_and_says_what_was_not_measured() {
        use crate::bench::record::{Measurement, Repetition};
        let rep = |total_ns| Repetition {
            total_ns,
            ..Repetition::default()
        };
        let cell = |runner: &str, total_ns| Measurement {
            experiment: "langs".into(),
            runner: runner.into(),
            params: Default::default(),
            mode: "wait".into(),
            n: 10,
            n_requested: 5_000,
            child: vec!["noop".into()],
            repetitions: vec![rep(total_ns)],
        };
        let run = Run {
            started: "2026-11-23 01:00 UTC".into(),
            quick: true,
            setup: Default::default(),
            notes: vec![
                "http: The post ran on 8 vCPUs.".into(),
                "http: nothing measured: hey is not installed".into(),
            ],
            measurements: vec![
                cell("c-clone", 1_000_000),
                cell("fastspawn-auto", 1_100_000),
            ],
        };
        let md = report(&run, &[]);
        assert!(md.contains("## Headline (quick run: these ratios mean nothing)\n\n- fastspawn-auto throughput vs raw C clone loop: 0.909x"), "{md}");
        assert!(
            md.contains("## langs: spawn+wait throughput by runtime"),
            "{md}"
        );
        assert!(!md.contains("## http"), "{md}");
        assert!(md.contains("## Not measured\n\n- http: The post ran on 8 vCPUs.\n- http: nothing measured: hey is not installed\n"), "{md}");
    }
}
