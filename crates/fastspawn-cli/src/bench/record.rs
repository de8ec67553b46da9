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
    /// Kill modes (`tree`): processes in the killed trees before the kill,
    /// and those the kill left running (sums over the `n` trees).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_procs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escaped: Option<u64>,
    /// The `http` experiment: requests/s, latencies, event-loop delay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http: Option<HttpRep>,
    /// Task-engine experiments (`distributed`): tasks/s, task latency,
    /// workers' CPU, and what a worker kill left behind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<TasksRep>,
    /// `python-async`'s throughput: where the CPU per spawn went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_cpu: Option<LoopCpu>,
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

    /// `f` of every repetition's task figures (drivers that report tasks).
    pub fn tasks(&self, f: impl Fn(&TasksRep) -> f64) -> Vec<f64> {
        self.repetitions
            .iter()
            .filter_map(|r| r.tasks.as_ref())
            .map(f)
            .collect()
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

/// An HTTP load's figures (the `http` experiment), beyond the wall time
/// and CPU time.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HttpRep {
    /// Responses with status 200 in the load (hey's count).
    pub requests: u64,
    /// hey's requests per second.
    pub requests_per_s: f64,
    /// Latency by percentile ("p10" ... "p99", "fastest", "average",
    /// "slowest"), milliseconds.
    pub latency_ms: BTreeMap<String, f64>,
    /// The JavaScript servers' event-loop delay during the load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_loop: Option<EventLoop>,
    /// Where the machine's CPU went during the load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<HttpCpu>,
}

/// CPU time during one load, nanoseconds (user + system): the server's
/// own processes, the children they reaped, and hey (the client, a child of
/// the driver reaped when the load ends); and the machine's: the share of
/// its CPU time that was not idle meanwhile, and that time (all cores,
/// anyone's work: other processes' too).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct HttpCpu {
    pub server_ns: i64,
    pub children_ns: i64,
    pub hey_ns: i64,
    pub busy: f64,
    pub machine_busy_ns: i64,
}

impl HttpCpu {
    /// The share of the machine's busy CPU time that the load's own
    /// processes (server, children, hey) account for.
    pub fn own_share(&self) -> Option<f64> {
        let total = self.total_ns()?;
        (self.machine_busy_ns > 0).then(|| total as f64 / self.machine_busy_ns as f64)
    }

    /// The load's own CPU time: server, children and hey (none when hey's
    /// could not be read).
    pub fn total_ns(&self) -> Option<i64> {
        (self.hey_ns >= 0).then(|| self.server_ns + self.children_ns + self.hey_ns)
    }
}

/// What `/__stats` said after the load (see bench/http/node/common.mjs).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct EventLoop {
    pub runtime: String,
    pub resolution_ms: f64,
    /// `interval` (Node: the histogram holds whole intervals of the 1 ms
    /// timer; the p99 below has the resolution subtracted) or `lateness`.
    pub records: String,
    pub loops: Vec<LoopDelay>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LoopDelay {
    pub name: String,
    #[serde(default)]
    pub count: Option<f64>,
    #[serde(default)]
    pub p50_ns: Option<f64>,
    #[serde(default)]
    pub p99_ns: Option<f64>,
    #[serde(default)]
    pub max_ns: Option<f64>,
    #[serde(default)]
    pub raw_p99_ns: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl EventLoop {
    /// The p99 delay of the worst loop serving HTTP, nanoseconds.
    pub fn p99_ns(&self) -> Option<f64> {
        self.loops
            .iter()
            .filter_map(|l| l.p99_ns)
            .fold(None, |acc: Option<f64>, v| {
                Some(acc.map_or(v, |a| a.max(v)))
            })
    }
}

/// The CPU time per spawn of an event loop's spawn+wait load (µs), split
/// by where it ran, and how busy the machine was meanwhile.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq)]
pub struct LoopCpu {
    /// The loop thread (RUSAGE_THREAD).
    pub loop_us: f64,
    /// The process's other threads (spawner, waiter or watcher threads).
    pub threads_us: f64,
    /// The reaped children (RUSAGE_CHILDREN).
    pub children_us: f64,
    /// The loop thread's floor measured in the same round: its CPU per
    /// "spawn" of the same load with no spawn (two futures resolved by
    /// callbacks in place of the spawn and the wait).
    pub floor_us: Option<f64>,
    /// The CPUs the process could run on.
    pub cpus: u32,
    /// The share of those CPUs' time that was busy (anyone's work).
    pub busy: Option<f64>,
    /// The share of that busy time that the process and its children
    /// account for.
    pub own: Option<f64>,
}

impl LoopCpu {
    pub fn total_us(&self) -> f64 {
        self.loop_us + self.threads_us + self.children_us
    }
}

/// A run of short tasks on a task engine (one variant, one data size).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct TasksRep {
    /// Tasks completed and checked.
    pub tasks: u64,
    pub tasks_per_s: f64,
    /// The time a task spent running its program (the engine's queueing is
    /// not in it), µs.
    pub latency_p50_us: f64,
    pub latency_p99_us: f64,
    /// The workers' own CPU per task, and their reaped children's, µs.
    pub worker_cpu_us_per_task: f64,
    pub children_cpu_us_per_task: f64,
    /// Each worker's resident memory when the run started, MiB.
    #[serde(default)]
    pub worker_rss_mib: Vec<u64>,
    /// Set for a run in which one worker was killed with SIGKILL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kill: Option<KillRep>,
}

/// What killing a worker mid-run did.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct KillRep {
    /// Executions started (a task rerun after the kill counts twice).
    pub executions: u64,
    /// Executions beyond one per task: rerun by the scheduler.
    pub retried: u64,
    /// The killed worker's children running at the kill.
    pub children_at_kill: u64,
    /// Of those, still running 0.2 s after it.
    pub children_left_running: u64,
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

/// A spawn+wait cell of the noop child for tests: one repetition per
/// round, each taking `per_spawn_us` for its one spawn.
#[cfg(test)]
pub fn wait_cell(
    experiment: &str,
    runner: &str,
    params: BTreeMap<String, String>,
    per_spawn_us: &[u64],
) -> Measurement {
    Measurement {
        experiment: experiment.into(),
        runner: runner.into(),
        params,
        mode: "wait".into(),
        n: 1,
        n_requested: 1,
        child: vec!["noop".into()],
        repetitions: per_spawn_us
            .iter()
            .map(|us| Repetition {
                total_ns: us * 1000,
                ..Repetition::default()
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_loop_p99_is_the_worst_loop() {
        let doc = r#"{"runtime":"node 20","resolution_ms":1,"records":"interval","loops":[
            {"name":"primary","count":7,"p50_ns":69055,"p99_ns":78271,"max_ns":78271,"raw_p99_ns":1078271},
            {"name":"worker 1","count":6,"p50_ns":72127,"p99_ns":185791,"max_ns":185791,"raw_p99_ns":1185791},
            {"name":"worker 2","error":"not implemented"}]}"#;
        let el: EventLoop = serde_json::from_str(doc).unwrap();
        assert_eq!(el.p99_ns(), Some(185791.0));
        assert_eq!(el.loops[2].error.as_deref(), Some("not implemented"));
        let none: EventLoop = serde_json::from_str(
            r#"{"runtime":"deno","resolution_ms":1,"records":"lateness","loops":[{"name":"main","error":"x"}]}"#,
        )
        .unwrap();
        assert_eq!(none.p99_ns(), None);
    }
}
