//! The one result type of a benchmark run. Every exporter reads it; nothing
//! else is kept, so `raw.json` is enough to redraw every table and chart.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One peer process's report (see docs/peer-protocol.md).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Repetition {
    pub total_ns: u64,
    pub cpu_user_ns: i64,
    pub cpu_sys_ns: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples_ns: Option<Vec<u64>>,
    /// With `--measure-stall`: p99 and longest gap between two polls of a
    /// ticker task on the spawning runtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_p99_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_max_ns: Option<u64>,
    /// The longest ticker gap in which the runtime thread was not preempted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_max_unpreempted_ns: Option<u64>,
    /// How many ticker gaps contained a preemption of the runtime thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_preempted: Option<u64>,
    /// Per spawn, the longest single poll of its spawn future (the time the
    /// spawn kept the runtime's thread): p50, p99, max over all spawns; p99
    /// and max over the spawns whose longest poll had no preemption; how
    /// many had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn_poll_p50_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn_poll_p99_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn_poll_max_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn_poll_p99_unpreempted_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn_poll_max_unpreempted_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn_polls_preempted: Option<u64>,
    /// The `http` experiment: requests/s, latencies, event-loop delay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http: Option<super::http::HttpRep>,
}

impl Repetition {
    /// Wall time per spawn in microseconds.
    pub fn per_spawn_us(&self, n: u64) -> f64 {
        self.total_ns as f64 / n.max(1) as f64 / 1e3
    }

    /// Parent CPU time (user + system) in seconds.
    pub fn cpu_s(&self) -> f64 {
        (self.cpu_user_ns + self.cpu_sys_ns) as f64 / 1e9
    }
}

/// All repetitions of one cell: one runner with one set of parameters.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Measurement {
    pub experiment: String,
    pub runner: String,
    /// The cell's parameters (`rss_mib`, `env_vars`, `set_env`, `n`, ...).
    pub params: BTreeMap<String, String>,
    /// `wait` (spawn+wait) or `spawn` (spawn calls only).
    pub mode: String,
    /// Spawns measured in each repetition.
    pub n: u64,
    /// The count the experiment asked for, before the time budget.
    pub n_requested: u64,
    /// The child's argv.
    pub child: Vec<String>,
    pub repetitions: Vec<Repetition>,
}

impl Measurement {
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.get(key).map(String::as_str)
    }

    /// Per-spawn wall times (µs) of every repetition.
    pub fn per_spawn_us(&self) -> Vec<f64> {
        self.repetitions
            .iter()
            .map(|r| r.per_spawn_us(self.n))
            .collect()
    }

    /// Every per-operation sample of every repetition, in µs.
    pub fn samples_us(&self) -> Vec<f64> {
        self.repetitions
            .iter()
            .flat_map(|r| r.samples_ns.iter().flatten().map(|&ns| ns as f64 / 1e3))
            .collect()
    }
}

/// A whole run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Run {
    pub started: String,
    pub quick: bool,
    pub setup: BTreeMap<String, String>,
    pub notes: Vec<String>,
    pub measurements: Vec<Measurement>,
}

impl Run {
    /// The measurements of one experiment.
    pub fn of(&self, experiment: &str) -> Vec<Measurement> {
        self.measurements
            .iter()
            .filter(|m| m.experiment == experiment)
            .cloned()
            .collect()
    }
}
