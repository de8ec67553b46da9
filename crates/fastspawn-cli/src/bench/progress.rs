//! The progress bar: steps done, and an estimate of the time left.
//!
//! Steps differ a lot in length (a pilot takes milliseconds, one HTTP load
//! half a minute), so the estimate weighs each step by its expected
//! seconds (`Experiment::expected_s`) and scales the weights by how fast
//! the weighted steps done so far actually went on this machine.

use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// A bar over steps with the given expected seconds each, in order.
pub fn bar(weights: Vec<f64>, hidden: bool) -> ProgressBar {
    let bar = if hidden {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(weights.len() as u64)
    };
    let mut cumulative = Vec::with_capacity(weights.len() + 1);
    cumulative.push(0.0);
    for w in weights {
        cumulative.push(cumulative.last().copied().unwrap_or(0.0) + w.max(0.0));
    }
    let cumulative = Arc::new(cumulative);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {left} {msg}")
            .expect("valid template")
            .with_key(
                "left",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let left = time_left(&cumulative, state.pos(), state.elapsed());
                    let _ = write!(w, "{}", fmt_left(left));
                },
            )
            .progress_chars("=> "),
    );
    if !hidden {
        // Redraw every second, so the clock and the estimate move during a
        // long step.
        bar.enable_steady_tick(Duration::from_secs(1));
    }
    bar
}

/// The time left after `pos` steps done in `elapsed`, from the steps'
/// cumulative expected seconds (`cumulative[i]`: the first `i` steps).
/// None until some expected time has passed.
pub fn time_left(cumulative: &[f64], pos: u64, elapsed: Duration) -> Option<Duration> {
    let total = *cumulative.last()?;
    let done = *cumulative.get(pos as usize).unwrap_or(&total);
    if done <= 0.0 || elapsed.is_zero() {
        return None;
    }
    let pace = elapsed.as_secs_f64() / done;
    Some(Duration::from_secs_f64((total - done).max(0.0) * pace))
}

/// `~3m 05s left`, `~40s left`, or `(estimating time left)`.
pub fn fmt_left(left: Option<Duration>) -> String {
    match left.map(|d| d.as_secs()) {
        None => "(estimating time left)".into(),
        Some(s) if s >= 3600 => format!("~{}h {:02}m left", s / 3600, s % 3600 / 60),
        Some(s) if s >= 60 => format!("~{}m {:02}s left", s / 60, s % 60),
        Some(s) => format!("~{s}s left"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_weighs_steps_by_their_expected_time() {
        // Three steps expected to take 1 s, 1 s and 8 s.
        let cumulative = [0.0, 1.0, 2.0, 10.0];
        assert_eq!(time_left(&cumulative, 0, Duration::from_secs(3)), None);
        // Two short steps done in 4 s: this machine runs at half speed, so
        // the long one should take 16 s.
        assert_eq!(
            time_left(&cumulative, 2, Duration::from_secs(4)),
            Some(Duration::from_secs(16))
        );
        assert_eq!(
            time_left(&cumulative, 3, Duration::from_secs(30)),
            Some(Duration::ZERO)
        );
        assert_eq!(time_left(&[0.0], 0, Duration::from_secs(1)), None);
    }

    #[test]
    fn time_left_reads_well() {
        assert_eq!(fmt_left(None), "(estimating time left)");
        assert_eq!(fmt_left(Some(Duration::from_secs(42))), "~42s left");
        assert_eq!(fmt_left(Some(Duration::from_secs(185))), "~3m 05s left");
        assert_eq!(fmt_left(Some(Duration::from_secs(3720))), "~1h 02m left");
    }
}
