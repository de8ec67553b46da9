//! Tables for the terminal: aligned columns, no markup.

use super::Table;

/// Printed before a `--quick` run's tables.
pub const QUICK_BANNER: &str = "Quick run: one repetition of tiny counts, to check that every peer runs. \
Its figures and ratios mean nothing; run `make bench` for results.";

/// The headline lines after the tables. A quick run's are labelled as
/// what they are: ratios of one tiny repetition, not findings.
pub fn headline(lines: &[String], quick: bool) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    if quick {
        out.push_str("\nHeadline of this quick run (one tiny repetition: these ratios mean nothing, not findings):\n");
        for line in lines {
            out.push_str(&format!("  (quick) {line}\n"));
        }
    } else {
        for line in lines {
            out.push_str(&format!("{line}\n"));
        }
    }
    out
}

/// Renders a table with columns padded to their widest cell.
pub fn render(table: &Table) -> String {
    let clean = |s: &str| s.replace("**", "");
    let cols = table.header.len();
    let mut widths: Vec<usize> = table.header.iter().map(|h| h.chars().count()).collect();
    for row in &table.rows {
        for (i, cell) in row.iter().enumerate().take(cols) {
            widths[i] = widths[i].max(clean(cell).chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let c = clean(c);
                let pad = widths
                    .get(i)
                    .copied()
                    .unwrap_or(0)
                    .saturating_sub(c.chars().count());
                if i == 0 {
                    format!("{c}{}", " ".repeat(pad))
                } else {
                    format!("{}{c}", " ".repeat(pad))
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    let mut out = format!("\n== {}\n", table.title);
    out.push_str(&line(&table.header));
    out.push('\n');
    out.push_str(
        &widths
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .join("  "),
    );
    out.push('\n');
    for row in &table.rows {
        out.push_str(&line(row));
        out.push('\n');
    }
    for note in &table.notes {
        out.push_str(&format!("  {note}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_headline_says_its_ratios_mean_nothing() {
        let lines = vec!["fastspawn-auto vs Rust std (spawn+wait): 1.25x faster".to_string()];
        assert_eq!(
            headline(&lines, false),
            "fastspawn-auto vs Rust std (spawn+wait): 1.25x faster\n"
        );
        let quick = headline(&lines, true);
        assert!(quick.contains("quick run"), "{quick}");
        assert!(quick.contains("mean nothing"), "{quick}");
        assert!(
            quick.ends_with("  (quick) fastspawn-auto vs Rust std (spawn+wait): 1.25x faster\n")
        );
        assert_eq!(headline(&[], true), "");
        assert!(QUICK_BANNER.contains("mean nothing"));
    }

    #[test]
    fn columns_line_up() {
        let table = Table {
            title: "t".into(),
            header: vec!["runner".into(), "µs".into()],
            rows: vec![
                vec!["c".into(), "**1.5**".into()],
                vec!["fastspawn".into(), "10.25".into()],
            ],
            notes: vec!["note".into()],
            ..Table::default()
        };
        let text = render(&table);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "== t");
        assert_eq!(lines[2], "runner        µs");
        assert_eq!(lines[4], "c            1.5");
        assert_eq!(lines[5], "fastspawn  10.25");
        assert_eq!(lines[6], "  note");
    }
}
