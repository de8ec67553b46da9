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
        out.push_str("## Headline\n\n");
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
}
