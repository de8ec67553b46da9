//! SVG charts, drawn with charts-rs (which carries its own font for text
//! layout, so no system font is needed).

use anyhow::{Result, anyhow};
use charts_rs::{BarChart, LineChart, Series};

use super::{Chart, ChartKind};

pub fn render(chart: &Chart) -> Result<String> {
    let series: Vec<Series> = chart
        .series
        .iter()
        .map(|(name, ys)| Series::new(name.clone(), ys.iter().map(|&y| y as f32).collect()))
        .collect();
    let title = format!("{} [{}]", chart.title, chart.y_unit);
    let svg = match chart.kind {
        ChartKind::Bar => {
            let mut bar = BarChart::new(series, chart.x.clone());
            bar.title.text = title;
            bar.base.width = 900.0;
            bar.base.height = 500.0;
            bar.svg()
        }
        ChartKind::Line => {
            let mut line = LineChart::new(series, chart.x.clone());
            line.title.text = title;
            line.base.width = 900.0;
            line.base.height = 500.0;
            line.svg()
        }
    };
    svg.map_err(|e| anyhow!("drawing {:?}: {e:?}", chart.title))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_both_kinds_with_the_labels() {
        for kind in [ChartKind::Bar, ChartKind::Line] {
            let chart = Chart {
                title: "Spawn".into(),
                kind,
                x: vec!["0 GiB".into(), "4 GiB".into()],
                series: vec![
                    ("fork".into(), vec![0.2, 146.0]),
                    ("fastspawn".into(), vec![0.1, 0.1]),
                ],
                y_unit: "ms".into(),
            };
            let svg = render(&chart).unwrap();
            assert!(svg.starts_with("<svg"));
            for text in ["Spawn [ms]", "4 GiB", "fastspawn"] {
                assert!(svg.contains(text), "{kind:?} chart lacks {text:?}");
            }
        }
    }
}
