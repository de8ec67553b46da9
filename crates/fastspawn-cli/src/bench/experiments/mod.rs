//! The experiments, one module each. To add one: write
//! `experiments/<name>.rs` with a type implementing
//! [`Experiment`](super::experiment::Experiment) (its plan, tables, charts
//! and headline lines), declare the module here and add it to [`ALL`].

mod r#async;
mod count;
mod distributed;
mod env;
mod fds;
mod http;
mod langs;
mod node;
mod parallel;
mod path;
mod python_async;
mod rss;
mod task_runtime;
mod tlpi;
mod tree;

use super::experiment::Experiment;

/// Every experiment, in the order a plain `fastspawn bench` runs them and
/// the report shows them.
pub static ALL: &[&dyn Experiment] = &[
    &count::Count,
    &rss::Rss,
    &tlpi::Tlpi,
    &env::Env,
    &path::Path,
    &fds::Fds,
    &r#async::Async,
    &python_async::PythonAsync,
    &parallel::Parallel,
    &langs::Langs,
    &node::Node,
    &http::Http,
    &distributed::Distributed,
    &tree::Tree,
    &task_runtime::TaskRuntime,
];

/// The experiment that leads the headline: its first line is the
/// project's first goal (throughput against the raw C clone loop).
const HEADLINE_FIRST: &str = "langs";

/// The experiment called `name`.
pub fn find(name: &str) -> Option<&'static dyn Experiment> {
    ALL.iter().copied().find(|e| e.name() == name)
}

/// The names of every experiment, in run order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|e| e.name()).collect()
}

/// The experiments in the order their headline lines appear.
pub fn headline_order() -> impl Iterator<Item = &'static dyn Experiment> {
    let first = ALL.iter().filter(|e| e.name() == HEADLINE_FIRST);
    let rest = ALL.iter().filter(|e| e.name() != HEADLINE_FIRST);
    first.chain(rest).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::experiment::Options;
    use crate::bench::peer::Peers;

    /// Regression: `parallel` was planned but missing from the default
    /// list, so a plain `fastspawn bench` skipped it.
    #[test]
    fn every_experiment_runs_by_default_and_says_what_it_reproduces() {
        let peers = Peers {
            dir: "/nonexistent".into(),
        };
        let opts = Options {
            quick: true,
            full: false,
            max_rss_gib: 4,
        };
        let names = names();
        for name in [
            "count",
            "rss",
            "tlpi",
            "env",
            "path",
            "fds",
            "async",
            "python-async",
            "parallel",
            "langs",
            "node",
            "http",
            "distributed",
            "tree",
            "task-runtime",
        ] {
            assert!(names.contains(&name), "{name} is not run by default");
        }
        for (i, exp) in ALL.iter().enumerate() {
            assert!(!exp.about().is_empty(), "{} has no description", exp.name());
            assert!(
                !names[..i].contains(&exp.name()),
                "{} is listed twice",
                exp.name()
            );
            let plan = exp.plan(&opts, &peers);
            assert!(!plan.cells.is_empty(), "{} measures nothing", exp.name());
            // One progress step per pilot and per repetition of each cell.
            let weights = plan.step_weights(&|c| exp.expected_s(c));
            let pilots = plan.cells.iter().filter(|c| c.budget_s.is_finite()).count();
            assert_eq!(weights.len(), pilots + plan.round_steps());
            assert!(weights.iter().all(|w| *w >= 0.0 && w.is_finite()));
        }
        assert!(find("nope").is_none());
        assert_eq!(find("tlpi").map(|e| e.name()), Some("tlpi"));
        assert_eq!(headline_order().count(), ALL.len());
        assert_eq!(headline_order().next().map(|e| e.name()), Some("langs"));
    }
}
