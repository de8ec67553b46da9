//! Medians, percentiles and spreads. Figures are medians over repetitions;
//! the spread is the half-range around it, as a percentage, so a reader sees
//! at once whether a 3% difference means anything.

/// The value at quantile `q` (0..=1) by linear interpolation.
pub fn quantile(values: &[f64], q: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    Some(sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64))
}

pub fn median(values: &[f64]) -> Option<f64> {
    quantile(values, 0.5)
}

/// Half of (max - min), relative to the median, in percent.
pub fn spread_pct(values: &[f64]) -> Option<f64> {
    let med = median(values)?;
    let max = values.iter().copied().fold(f64::MIN, f64::max);
    let min = values.iter().copied().fold(f64::MAX, f64::min);
    (med > 0.0).then(|| (max - min) / 2.0 / med * 100.0)
}

/// A median with its spread.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub median: f64,
    pub spread_pct: f64,
    pub count: usize,
}

pub fn summarize(values: &[f64]) -> Option<Summary> {
    Some(Summary {
        median: median(values)?,
        spread_pct: spread_pct(values)?,
        count: values.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate() {
        let v = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(median(&v), Some(2.5));
        assert_eq!(quantile(&v, 0.0), Some(1.0));
        assert_eq!(quantile(&v, 1.0), Some(4.0));
        assert!((quantile(&[10.0, 20.0, 30.0, 40.0, 50.0], 0.1).unwrap() - 14.0).abs() < 1e-9);
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn spread_is_half_range_over_median() {
        let s = summarize(&[90.0, 100.0, 110.0]).unwrap();
        assert_eq!(s.median, 100.0);
        assert!((s.spread_pct - 10.0).abs() < 1e-9);
        assert_eq!(s.count, 3);
        assert_eq!(summarize(&[0.0]).map(|s| s.median), None);
    }
}
