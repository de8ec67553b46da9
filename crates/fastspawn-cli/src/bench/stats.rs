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

/// A distribution-free interval for the median of `values` (the sign
/// test's): the k-th smallest and the k-th largest value, for the largest
/// k whose coverage, 1 - 2 P(Binomial(n, 1/2) < k), is at least `level`;
/// with the coverage. None when even the whole range covers less.
pub fn median_interval(values: &[f64], level: f64) -> Option<(f64, f64, f64)> {
    let n = values.len();
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    // P(Binomial(n, 1/2) <= j), term by term.
    let cdf = |j: usize| {
        let (mut term, mut sum) = (1.0f64, 0.0f64);
        for i in 0..=j {
            if i > 0 {
                term *= (n + 1 - i) as f64 / i as f64;
            }
            sum += term;
        }
        sum / 2f64.powi(n as i32)
    };
    let mut best = None;
    for k in 1..=n / 2 {
        let coverage = 1.0 - 2.0 * cdf(k - 1);
        if coverage < level {
            break;
        }
        best = Some((sorted[k - 1], sorted[n - k], coverage));
    }
    best
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
