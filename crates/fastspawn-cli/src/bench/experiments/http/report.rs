//! The `http` experiment's table, chart and headline lines.

use super::{SERVERS, WORKLOADS, describe};
use crate::bench::record::{HttpCpu, HttpRep, Measurement};
use crate::bench::stats::{self, Summary};
use crate::bench::table::{fmt_ratio, ratio};
use crate::export::{Chart, ChartKind, Table};

fn find<'a>(ms: &'a [Measurement], server: &str, workload: &str) -> Option<&'a Measurement> {
    ms.iter()
        .find(|m| m.runner == server && m.param("workload") == Some(workload))
}

/// A figure of every repetition, summarized.
fn figure(m: Option<&Measurement>, f: impl Fn(&HttpRep) -> Option<f64>) -> Option<Summary> {
    let values: Vec<f64> = m?
        .repetitions
        .iter()
        .filter_map(|r| f(r.http.as_ref()?))
        .collect();
    stats::summarize(&values)
}

fn rps(m: Option<&Measurement>) -> Option<Summary> {
    figure(m, |h| Some(h.requests_per_s))
}

fn latency(m: Option<&Measurement>, key: &str) -> Option<Summary> {
    figure(m, |h| h.latency_ms.get(key).copied())
}

fn event_loop_ms(m: Option<&Measurement>) -> Option<Summary> {
    figure(m, |h| Some(h.event_loop.as_ref()?.p99_ns()? / 1e6))
}

/// Server CPU time (its whole process group, children included) per
/// request, µs.
fn cpu_per_request_us(m: Option<&Measurement>) -> Option<Summary> {
    let m = m?;
    let values: Vec<f64> = m
        .repetitions
        .iter()
        .filter_map(|r| {
            let requests = r.http.as_ref()?.requests.max(1) as f64;
            Some(r.cpu_s() * 1e6 / requests)
        })
        .collect();
    stats::summarize(&values)
}

/// One part of the CPU time of a load per request (µs), every repetition
/// summarized.
fn cpu_part_us(m: Option<&Measurement>, part: impl Fn(&HttpCpu) -> i64) -> Option<Summary> {
    figure(m, |h| {
        let v = part(h.cpu.as_ref()?);
        (v >= 0).then(|| v as f64 / 1e3 / h.requests.max(1) as f64)
    })
}

/// The smallest of the repetitions' `f`.
fn least(m: Option<&Measurement>, f: impl Fn(&HttpCpu) -> Option<f64>) -> Option<f64> {
    m?.repetitions
        .iter()
        .filter_map(|r| f(r.http.as_ref()?.cpu.as_ref()?))
        .filter(|b| b.is_finite())
        .reduce(f64::min)
}

/// The smallest share of the machine's CPU that was busy during a load.
fn busy(m: Option<&Measurement>) -> Option<f64> {
    least(m, |c| Some(c.busy))
}

/// The smallest share of the machine's busy CPU that a load's own
/// processes account for.
fn own_share(m: Option<&Measurement>) -> Option<f64> {
    least(m, HttpCpu::own_share)
}

/// A loaded machine can serve no more than its CPU over the CPU time one
/// request costs all of it: the server, its children and the client. When
/// it is busy throughout, two servers' req/s are then in the inverse ratio
/// of those totals, which bounds what a Node server can reach.
#[derive(Debug, Clone, Copy)]
struct Limit {
    /// node-fastspawn / rust-fastspawn req/s, measured.
    measured: f64,
    /// The same predicted from the CPU per request of each side.
    model: f64,
    /// The best ratio for a Node server whose server CPU per request is at
    /// least `floor_us` (node-no-spawn-stream's) plus `spawn_us`, with
    /// rust-fastspawn's children and client.
    bound: f64,
    rust_us: f64,
    node_us: f64,
    floor_us: f64,
    /// What spawning and reaping a child costs the Rust server:
    /// rust-fastspawn's server CPU per request less rust-no-spawn-stream's
    /// (the same server answering through a ready socketpair), at least 0;
    /// 0 without that control. Any Node server that spawns with fastspawn's
    /// core pays at least this on top of the stream control.
    spawn_us: f64,
    /// node-no-spawn-readable's server CPU per request, when measured: the
    /// floor for a Node server whose child.stdout is any stream.Readable.
    readable_us: Option<f64>,
    children_us: f64,
    hey_us: f64,
    /// The least busy of the two spawning servers' loads.
    busy: f64,
    /// The least share of the machine's busy CPU that the two loads' own
    /// processes account for (below 1: others worked on the machine too).
    own: f64,
}

impl Limit {
    /// "Out of reach" is claimed only when the machine was busy during
    /// both loads with their own work (else the CPU does not bound req/s,
    /// or other processes took a share of it that need not be the same for
    /// both), the CPU model explains the measured ratio within 10%, and the
    /// bound is below the goal.
    fn holds(&self) -> bool {
        self.busy >= 0.95 && self.own >= 0.90 && (self.model / self.measured - 1.0).abs() <= 0.10
    }

    fn out_of_reach(&self) -> bool {
        self.holds() && self.bound < 0.95
    }

    /// The best ratio for a Node server whose server CPU per request is at
    /// least `readable_us` plus `spawn_us`, with rust-fastspawn's children
    /// and client: any Node server whose child.stdout is a Readable.
    fn readable_bound(&self) -> Option<f64> {
        let rust_total = self.rust_us + self.children_us + self.hey_us;
        Some(rust_total / (self.readable_us? + self.spawn_us + self.children_us + self.hey_us))
    }

    fn readable_out_of_reach(&self) -> bool {
        self.holds() && self.readable_bound().is_some_and(|b| b < 0.95)
    }
}

fn limit(ms: &[Measurement], w: &str) -> Option<Limit> {
    let (node, rust, floor) = (
        find(ms, "node-fastspawn", w),
        find(ms, "rust-fastspawn", w),
        find(ms, "node-no-spawn-stream", w),
    );
    let med = |m, part: fn(&HttpCpu) -> i64| cpu_part_us(m, part).map(|s| s.median);
    let children_us = med(rust, |c| c.children_ns)?;
    let hey_us = med(rust, |c| c.hey_ns)?;
    let rust_us = med(rust, |c| c.server_ns)?;
    let node_us = med(node, |c| c.server_ns)?;
    let floor_us = med(floor, |c| c.server_ns)?;
    let node_total = node_us + med(node, |c| c.children_ns)? + med(node, |c| c.hey_ns)?;
    let rust_total = rust_us + children_us + hey_us;
    let spawn_us = med(find(ms, "rust-no-spawn-stream", w), |c| c.server_ns)
        .map_or(0.0, |rust_floor| (rust_us - rust_floor).max(0.0));
    let readable_us = med(find(ms, "node-no-spawn-readable", w), |c| c.server_ns);
    Some(Limit {
        measured: ratio(rps(node), rps(rust))?,
        model: rust_total / node_total,
        bound: rust_total / (floor_us + spawn_us + children_us + hey_us),
        rust_us,
        node_us,
        floor_us,
        spawn_us,
        readable_us,
        children_us,
        hey_us,
        busy: busy(node)?.min(busy(rust)?),
        own: own_share(node)?.min(own_share(rust)?),
    })
}

fn limit_line(w: &str, l: &Limit) -> String {
    let verdict = if l.out_of_reach() {
        "so the goal (>= 0.95x) is out of reach on this machine for any Node server whose child.stdout is a net.Socket"
    } else if l.bound < 0.95 {
        "the bound is below the goal, but the CPU model does not hold in this run (the machine not busy throughout, or busy with other work, or the model more than 10% off the measured ratio): not proven out of reach"
    } else {
        "so the goal (>= 0.95x) is not proven out of reach"
    };
    let floor = if l.spawn_us > 0.0 {
        format!(
            "node-no-spawn-stream's ({:.0} µs) plus what spawning and reaping a child costs the Rust server (rust-fastspawn's server less rust-no-spawn-stream's: {:.0} µs)",
            l.floor_us, l.spawn_us
        )
    } else {
        format!("node-no-spawn-stream's ({:.0} µs)", l.floor_us)
    };
    let readable = match (l.readable_us, l.readable_bound()) {
        (Some(readable_us), Some(bound)) => {
            let verdict = if l.readable_out_of_reach() {
                "so the goal is out of reach on this machine for any Node server whose child.stdout is a stream.Readable, a net.Socket or not"
            } else if bound < 0.95 {
                "below the goal, but the CPU model does not hold in this run: not proven out of reach"
            } else {
                "so a child.stdout that is not a net.Socket is not ruled out"
            };
            let spawn = if l.spawn_us > 0.0 {
                format!(
                    " plus the Rust server's spawn and reap ({:.0} µs)",
                    l.spawn_us
                )
            } else {
                String::new()
            };
            format!(
                "; a Node server whose child.stdout is any stream.Readable, its server CPU per request at least node-no-spawn-readable's ({readable_us:.0} µs){spawn}, reaches at best {bound:.2}x: {verdict}"
            )
        }
        _ => String::new(),
    };
    format!(
        "node-fastspawn's limit, {}: measured {:.2}x rust-fastspawn's req/s; CPU per request (server + children + hey) predicts {:.2}x (rust-fastspawn {:.0} + {:.0} + {:.0} µs, node-fastspawn's server {:.0} µs); a Node server whose server CPU per request is at least {floor}, with the same children and hey, reaches at best {:.2}x; machine busy >= {:.0}% during both loads, >= {:.0}% of it these loads' own: {verdict}{readable}",
        workload_label(w),
        l.measured,
        l.model,
        l.rust_us,
        l.children_us,
        l.hey_us,
        l.node_us,
        l.bound,
        l.busy * 100.0,
        l.own * 100.0,
    )
}

fn fmt_rps(s: Option<Summary>) -> String {
    match s {
        None => "–".into(),
        Some(s) if s.count > 1 => format!("{:.0} ±{:.0}%", s.median, s.spread_pct),
        Some(s) => format!("{:.0}", s.median),
    }
}

fn fmt_ms(s: Option<Summary>) -> String {
    s.map_or("–".into(), |s| {
        if s.median >= 100.0 {
            format!("{:.0} ms", s.median)
        } else if s.median >= 10.0 {
            format!("{:.1} ms", s.median)
        } else {
            format!("{:.2} ms", s.median)
        }
    })
}

fn workload_label(workload: &str) -> &'static str {
    match workload {
        "echo" => "echo hi",
        _ => "cat main.c",
    }
}

/// Short names that fit under the chart's bars.
fn short(server: &str) -> &str {
    match server {
        "node-baseline" => "Node",
        "deno-baseline" => "Deno",
        "bun-baseline" => "Bun",
        "go-net-http" => "Go",
        "rust-tokio" => "Rust tokio",
        "node-cluster" => "cluster",
        "node-worker-threads" => "threads",
        "node-child-process" => "fork pool",
        "node-fastspawn" => "Node+fs",
        "node-fastspawn-tuned" => "Node+fs tuned",
        "rust-fastspawn" => "Rust+fs",
        "node-no-spawn" => "no spawn",
        "node-no-spawn-stream" => "sockets",
        "node-no-spawn-readable" => "Readable",
        "rust-no-spawn-stream" => "Rust sockets",
        other => other,
    }
}

fn is_node(server: &str) -> bool {
    server.starts_with("node-")
}

/// The goal lines: Node + fastspawn against Rust tokio and Node's baseline.
fn goals(ms: &[Measurement]) -> Vec<String> {
    let per_workload = |f: &dyn Fn(&str) -> Option<String>| -> Option<String> {
        let parts: Vec<String> = WORKLOADS
            .iter()
            .map(|w| format!("{w} {}", f(w).unwrap_or_else(|| "–".into())))
            .collect();
        parts
            .iter()
            .any(|p| !p.ends_with('–'))
            .then(|| parts.join(", "))
    };
    fn r<'a>(
        ms: &'a [Measurement],
        a: &'a str,
        b: &'a str,
    ) -> impl Fn(&str) -> Option<String> + 'a {
        move |w| ratio(rps(find(ms, a, w)), rps(find(ms, b, w))).map(|r| format!("{r:.2}x"))
    }
    let mut lines = Vec::new();
    if ms.iter().any(|m| m.runner == "node-fastspawn") {
        if let Some(s) = per_workload(&r(ms, "node-fastspawn", "rust-fastspawn")) {
            lines.push(format!(
                "node-fastspawn / rust-fastspawn req/s: {s} (issue 11's goal: >= 0.95x on both)"
            ));
        }
        for w in WORKLOADS {
            if let Some(l) = limit(ms, w) {
                lines.push(limit_line(w, &l));
            }
        }
        if let Some(s) = per_workload(&r(ms, "node-fastspawn-tuned", "rust-fastspawn")) {
            lines.push(format!(
                "node-fastspawn-tuned / rust-fastspawn req/s: {s} (the package's opt-ins pipeAs: 'readable' and setDelivery({{ within: 5000 }}); the drop-in's line above is the headline)"
            ));
        }
        if let Some(s) = per_workload(&r(ms, "node-fastspawn", "rust-tokio")) {
            lines.push(format!(
                "node-fastspawn / rust-tokio req/s: {s} (goal >= 0.9x on both)"
            ));
        }
        if let Some(s) = per_workload(&r(ms, "node-fastspawn", "node-baseline")) {
            let ceiling = per_workload(&r(ms, "rust-tokio", "node-baseline"))
                .map_or(String::new(), |c| {
                    format!("; rust-tokio / node-baseline: {c}")
                });
            lines.push(format!(
                "node-fastspawn / node-baseline req/s: {s} (goal >= 3x){ceiling}"
            ));
        }
        let eld = |server: &'static str| {
            move |w: &str| event_loop_ms(find(ms, server, w)).map(|s| format!("{:.2} ms", s.median))
        };
        if let Some(s) = per_workload(&eld("node-fastspawn")) {
            let control = per_workload(&eld("node-no-spawn")).map_or(String::new(), |c| {
                format!("; the no-spawn control under the same load: {c}")
            });
            lines.push(format!(
                "node-fastspawn event-loop delay p99 under load: {s} (goal <= 1 ms){control}"
            ));
        }
    } else if let Some(s) = per_workload(&r(ms, "node-baseline", "rust-tokio")) {
        lines.push(format!(
            "node-baseline / rust-tokio req/s: {s} (node-fastspawn not measured)"
        ));
    }
    lines
}

/// The experiment's table: one row per server and workload.
pub fn tables(ms: &[Measurement]) -> Vec<Table> {
    let header = [
        "server",
        "workload",
        "req/s",
        "p50",
        "p90",
        "p99",
        "event-loop p99",
        "CPU / request",
        "req/s vs node-baseline",
    ]
    .map(String::from)
    .to_vec();
    let mut rows = Vec::new();
    for workload in WORKLOADS {
        let base = rps(find(ms, "node-baseline", workload));
        for server in SERVERS {
            let Some(m) = find(ms, server, workload) else {
                continue;
            };
            let eld = match (event_loop_ms(Some(m)), is_node(server)) {
                (None, _) => "–".to_string(),
                (Some(s), true) => fmt_ms(Some(s)),
                (Some(s), false) => format!("{}†", fmt_ms(Some(s))),
            };
            rows.push(vec![
                server.to_string(),
                workload_label(workload).to_string(),
                fmt_rps(rps(Some(m))),
                fmt_ms(latency(Some(m), "p50")),
                fmt_ms(latency(Some(m), "p90")),
                fmt_ms(latency(Some(m), "p99")),
                eld,
                cpu_per_request_us(Some(m)).map_or("–".into(), |s| format!("{:.0} µs", s.median)),
                fmt_ratio(ratio(rps(Some(m)), base)),
            ]);
        }
    }
    let mut notes = goals(ms);
    let n = ms.first().map_or(0, |m| m.n);
    let reps: Vec<usize> = ms.iter().map(|m| m.repetitions.len()).collect();
    notes.push(format!(
        "{n} requests per repetition over {} connections after the prewarm; {} repetition(s) per cell, interleaved (median; ± is half the range).",
        super::CONNECTIONS,
        reps.iter().max().copied().unwrap_or(0)
    ));
    notes.push("Every load's responses were all status 200 (hey's count), and before and after each load the driver checked that bodies are exactly `hi\\n` or main.c's bytes.".into());
    notes.push("Latency: hey's percentiles (0.1 ms resolution). CPU / request: CPU time of the server's process group (the server, its workers and its reaped children) during the load, divided by the requests.".into());
    notes.push("event-loop p99: perf_hooks.monitorEventLoopDelay at its finest resolution (1 ms), reset after the prewarm and read after the load, as the lateness of its 1 ms timer (Node's histogram records whole intervals: 1 ms is subtracted). The worst loop serving HTTP: every process of the cluster (the primary too: it accepts), the main thread of the worker-threads and pool servers. † Deno's and Bun's own implementations of the histogram, not comparable with Node's.".into());
    let servers: Vec<String> = SERVERS
        .iter()
        .filter(|s| ms.iter().any(|m| m.runner == **s))
        .map(|s| format!("{s}: {}", describe(s)))
        .collect();
    if !servers.is_empty() {
        notes.push(format!("Servers (bench/http): {}.", servers.join("; ")));
    }
    let mut tables = vec![Table {
        title: "http: a process per HTTP request".into(),
        about: super::ABOUT.into(),
        header,
        rows,
        notes,
    }];
    // Reports of runs before the CPU was split have no such table.
    let split = ms
        .iter()
        .flat_map(|m| &m.repetitions)
        .any(|r| r.http.as_ref().is_some_and(|h| h.cpu.is_some()));
    if split {
        tables.push(cpu_table(ms));
    }
    tables
}

/// Where the CPU of each load went, per request.
fn cpu_table(ms: &[Measurement]) -> Table {
    let header = [
        "server",
        "workload",
        "server's own CPU / request",
        "its children's",
        "hey's",
        "total",
        "machine busy",
        "of it this load's",
    ]
    .map(String::from)
    .to_vec();
    let us = |s: Option<Summary>| s.map_or("–".into(), |s| format!("{:.0} µs", s.median));
    let mut rows = Vec::new();
    for workload in WORKLOADS {
        for server in SERVERS {
            let Some(m) = find(ms, server, workload) else {
                continue;
            };
            let total = figure(Some(m), |h| {
                Some(h.cpu?.total_ns()? as f64 / 1e3 / h.requests.max(1) as f64)
            });
            rows.push(vec![
                server.to_string(),
                workload_label(workload).to_string(),
                us(cpu_part_us(Some(m), |c| c.server_ns)),
                us(cpu_part_us(Some(m), |c| c.children_ns)),
                us(cpu_part_us(Some(m), |c| c.hey_ns)),
                us(total),
                busy(Some(m)).map_or("–".into(), |b| format!("{:.0}%", b * 100.0)),
                own_share(Some(m)).map_or("–".into(), |b| format!("{:.0}%", b * 100.0)),
            ]);
        }
    }
    Table {
        title: "http: CPU per request during the load".into(),
        about: super::ABOUT.into(),
        header,
        rows,
        notes: vec![
            "Server's own: user + system time of the server's process group (its workers included) during the load; its children's: the time of the processes they reaped meanwhile (/proc/PID/stat's cutime + cstime); hey's: the client's, read from the driver's reaped children once hey exits (10 ms ticks). Medians over the repetitions, per request. Machine busy: the share of all cores' time that was not idle during the load (/proc/stat; anyone's work, other processes' too); of it this load's: the share of that busy time that the server, its children and hey account for (below 100%: other processes ran too). Both the lowest of the repetitions.".into(),
            "When the machine is busy throughout, req/s is bounded by the cores over the total: the limit lines in the notes of the first table compare node-fastspawn with rust-fastspawn on that basis.".into(),
        ],
    }
}

/// Requests per second of every server, both workloads.
pub fn charts(ms: &[Measurement]) -> Vec<Chart> {
    let present: Vec<&str> = SERVERS
        .iter()
        .copied()
        .filter(|s| ms.iter().any(|m| m.runner == *s))
        .collect();
    if present.is_empty() {
        return Vec::new();
    }
    let series = WORKLOADS
        .iter()
        .map(|w| {
            let ys = present
                .iter()
                .map(|s| rps(find(ms, s, w)).map_or(0.0, |s| s.median))
                .collect();
            (workload_label(w).to_string(), ys)
        })
        .collect();
    vec![Chart {
        title: "Requests per second, a process per request (fs: fastspawn)".into(),
        kind: ChartKind::Bar,
        x: present.iter().map(|s| short(s).to_string()).collect(),
        series,
        y_unit: "/s".into(),
    }]
}

/// The headline's lines for this experiment.
pub fn headline(ms: &[Measurement]) -> Vec<String> {
    goals(ms)
        .into_iter()
        .map(|l| format!("http: {l}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::record::{EventLoop, HttpCpu, LoopDelay, Repetition};
    use std::collections::BTreeMap;

    fn cell(server: &str, workload: &str, rps: f64, eld_ns: Option<f64>) -> Measurement {
        let http = HttpRep {
            requests: 9_990,
            requests_per_s: rps,
            latency_ms: BTreeMap::from([
                ("p50".to_string(), 10.0),
                ("p90".to_string(), 20.0),
                ("p99".to_string(), 150.0),
            ]),
            event_loop: eld_ns.map(|ns| EventLoop {
                runtime: "node 20".into(),
                resolution_ms: 1.0,
                records: "interval".into(),
                loops: vec![LoopDelay {
                    name: "main".into(),
                    count: Some(100.0),
                    p50_ns: Some(ns / 2.0),
                    p99_ns: Some(ns),
                    max_ns: Some(ns * 2.0),
                    raw_p99_ns: Some(ns + 1e6),
                    error: None,
                }],
            }),
            cpu: None,
        };
        Measurement {
            experiment: "http".into(),
            runner: server.into(),
            params: BTreeMap::from([("workload".to_string(), workload.to_string())]),
            mode: "http".into(),
            n: 9_990,
            n_requested: 10_000,
            child: vec![],
            repetitions: vec![Repetition {
                total_ns: (9_990.0 / rps * 1e9) as u64,
                cpu_user_ns: 1_000_000_000,
                cpu_sys_ns: 998_000_000,
                http: Some(http),
                ..Repetition::default()
            }],
        }
    }

    #[test]
    fn table_rows_ratios_and_goals() {
        let ms = vec![
            cell("node-baseline", "echo", 400.0, Some(3e6)),
            cell("rust-tokio", "echo", 2000.0, None),
            cell("node-fastspawn", "echo", 1900.0, Some(0.5e6)),
            cell("deno-baseline", "echo", 800.0, Some(1e5)),
            cell("node-baseline", "cat", 300.0, Some(4e6)),
            cell("rust-tokio", "cat", 1500.0, None),
        ];
        let t = &tables(&ms)[0];
        assert_eq!(t.rows.len(), 6);
        // SERVERS order within each workload.
        let order: Vec<(&str, &str)> = t
            .rows
            .iter()
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect();
        assert_eq!(
            order,
            [
                ("node-baseline", "echo hi"),
                ("deno-baseline", "echo hi"),
                ("rust-tokio", "echo hi"),
                ("node-fastspawn", "echo hi"),
                ("node-baseline", "cat main.c"),
                ("rust-tokio", "cat main.c"),
            ]
        );
        let fs = &t.rows[3];
        assert_eq!(fs[2], "1900");
        assert_eq!(fs[3], "10.0 ms");
        assert_eq!(fs[5], "150 ms");
        assert_eq!(fs[6], "0.50 ms");
        assert_eq!(fs[7], "200 µs");
        assert_eq!(fs[8], "4.75x");
        assert_eq!(t.rows[1][6], "0.10 ms†", "Deno's histogram is marked");
        assert_eq!(t.rows[2][6], "–", "Rust has no event-loop figure");
        let goals = goals(&ms);
        assert_eq!(
            goals[0],
            "node-fastspawn / rust-tokio req/s: echo 0.95x, cat – (goal >= 0.9x on both)"
        );
        assert!(goals[1].starts_with("node-fastspawn / node-baseline req/s: echo 4.75x"));
        assert!(goals[2].contains("echo 0.50 ms, cat –"));
        let chart = &charts(&ms)[0];
        assert_eq!(chart.x, ["Node", "Deno", "Rust tokio", "Node+fs"]);
        assert_eq!(chart.series[1].1, [300.0, 0.0, 1500.0, 0.0]);
    }

    /// The tuned server gets its own line, after the drop-in's headline and
    /// limit lines, and its own bar.
    #[test]
    fn tuned_server_reported_next_to_the_headline() {
        let mut ms = limit_cells(0.99, 400.0);
        ms.push(cell("node-fastspawn-tuned", "echo", 960.0, None));
        let goals = goals(&ms);
        assert!(goals[0].starts_with("node-fastspawn / rust-fastspawn req/s: echo 0.75x"));
        let limit = goals
            .iter()
            .position(|g| g.starts_with("node-fastspawn's limit, echo hi"))
            .unwrap();
        let tuned = goals
            .iter()
            .position(|g| g.starts_with("node-fastspawn-tuned / rust-fastspawn req/s:"))
            .unwrap();
        assert!(tuned > limit, "{goals:?}");
        assert!(
            goals[tuned].contains("echo 0.96x, cat –"),
            "{}",
            goals[tuned]
        );
        assert!(goals[tuned].contains("the drop-in's line above is the headline"));
        // Without the tuned server, no such line.
        assert!(
            !super::goals(&limit_cells(0.99, 400.0))
                .iter()
                .any(|g| g.starts_with("node-fastspawn-tuned"))
        );
        let chart = &charts(&ms)[0];
        assert!(
            chart.x.iter().any(|x| x == "Node+fs tuned"),
            "{:?}",
            chart.x
        );
    }

    /// `m` with CPU per request (µs) of the server, its children and hey.
    fn with_cpu(
        mut m: Measurement,
        server: f64,
        children: f64,
        hey: f64,
        busy: f64,
    ) -> Measurement {
        let ns = |us: f64| (us * 1e3 * 9_990.0) as i64;
        m.repetitions[0].http.as_mut().unwrap().cpu = Some(HttpCpu {
            server_ns: ns(server),
            children_ns: ns(children),
            hey_ns: ns(hey),
            busy,
            // The load's own work, 98% of the machine's.
            machine_busy_ns: ((ns(server) + ns(children) + ns(hey)) as f64 / 0.98) as i64,
        });
        m
    }

    /// The two spawning servers of the limit line (rust-fastspawn 200 µs of
    /// server CPU, node-fastspawn 600 µs on a machine `busy`, 800 µs of
    /// children and 300 µs of hey each) and the no-spawn-stream control
    /// costing `stream` µs per request.
    fn limit_cells(busy: f64, stream: f64) -> Vec<Measurement> {
        vec![
            with_cpu(
                cell("rust-fastspawn", "echo", 1000.0, None),
                200.0,
                800.0,
                300.0,
                0.99,
            ),
            with_cpu(
                cell("node-fastspawn", "echo", 750.0, None),
                600.0,
                800.0,
                300.0,
                busy,
            ),
            with_cpu(
                cell("node-no-spawn-stream", "echo", 3000.0, None),
                stream,
                0.0,
                300.0,
                0.99,
            ),
        ]
    }

    /// The limit line: the CPU model's prediction next to the measured
    /// ratio, the bound from the no-spawn-stream control, and "out of
    /// reach" only when the bound is below 0.95x on a busy machine whose
    /// CPU model explains the measurement.
    #[test]
    fn limit_lines_bound_node_by_the_stream_control() {
        let l = limit(&limit_cells(0.99, 400.0), "echo").unwrap();
        assert!((l.measured - 0.75).abs() < 1e-9);
        assert!((l.model - 1300.0 / 1700.0).abs() < 1e-3, "{l:?}");
        assert!((l.bound - 1300.0 / 1500.0).abs() < 1e-3, "{l:?}");
        assert!(l.out_of_reach());
        let line = goals(&limit_cells(0.99, 400.0))
            .into_iter()
            .find(|g| g.starts_with("node-fastspawn's limit, echo hi"))
            .unwrap();
        assert!(line.contains("measured 0.75x"), "{line}");
        assert!(line.contains("predicts 0.76x"), "{line}");
        assert!(line.contains("at best 0.87x"), "{line}");
        assert!(line.contains("is out of reach"), "{line}");
        let t = tables(&limit_cells(0.99, 400.0));
        assert_eq!(t.len(), 2, "the CPU table comes with the split");
        assert_eq!(
            t[1].rows[1],
            [
                "rust-fastspawn",
                "echo hi",
                "200 µs",
                "800 µs",
                "300 µs",
                "1300 µs",
                "99%",
                "98%"
            ]
        );
        // A machine busy with other work as much as with the load's.
        let mut others = limit_cells(0.99, 400.0);
        let cpu = others[0].repetitions[0]
            .http
            .as_mut()
            .unwrap()
            .cpu
            .as_mut()
            .unwrap();
        cpu.machine_busy_ns *= 2;
        let shared = limit(&others, "echo").unwrap();
        assert!(
            (shared.own - 0.49).abs() < 1e-3 && !shared.out_of_reach(),
            "{shared:?}"
        );
        // A machine not busy throughout: the CPU does not bound req/s.
        let idle = limit(&limit_cells(0.80, 400.0), "echo").unwrap();
        assert!(!idle.out_of_reach());
        // A cheap control: the bound reaches the goal.
        let cheap = limit(&limit_cells(0.99, 100.0), "echo").unwrap();
        assert!(cheap.bound > 0.95 && !cheap.out_of_reach(), "{cheap:?}");
        let line = limit_line("echo", &cheap);
        assert!(line.ends_with("not proven out of reach"), "{line}");
        // Without the control there is no limit line.
        assert!(limit(&limit_cells(0.99, 400.0)[..2], "echo").is_none());
        // With the Rust control, what the Rust server pays to spawn and
        // reap (its server CPU less the control's) is added to the floor.
        let mut with_rust = limit_cells(0.99, 100.0);
        with_rust.push(with_cpu(
            cell("rust-no-spawn-stream", "echo", 9000.0, None),
            80.0,
            0.0,
            300.0,
            0.99,
        ));
        let l = limit(&with_rust, "echo").unwrap();
        assert!((l.spawn_us - 120.0).abs() < 1e-6, "{l:?}");
        assert!((l.bound - 1300.0 / 1320.0).abs() < 1e-3, "{l:?}");
        let line = limit_line("echo", &l);
        assert!(line.contains("rust-no-spawn-stream's: 120 µs"), "{line}");
        // A control that costs more than the spawning server counts as 0.
        with_rust[3] = with_cpu(
            cell("rust-no-spawn-stream", "echo", 9000.0, None),
            250.0,
            0.0,
            300.0,
            0.99,
        );
        let l = limit(&with_rust, "echo").unwrap();
        assert_eq!(l.spawn_us, 0.0);
        assert!(!limit_line("echo", &l).contains("rust-no-spawn-stream"));
    }

    /// The Readable control bounds any Node server whose stdout is a
    /// stream.Readable: its server CPU plus the Rust server's spawn and
    /// reap, with rust-fastspawn's children and hey; "out of reach" on the
    /// same conditions as the stream control's bound.
    #[test]
    fn limit_lines_bound_any_readable_stdout_by_the_readable_control() {
        let ms = |busy: f64, readable: f64| {
            let mut ms = limit_cells(busy, 400.0);
            ms.extend([
                with_cpu(
                    cell("node-no-spawn-readable", "echo", 4000.0, None),
                    readable,
                    0.0,
                    300.0,
                    0.99,
                ),
                with_cpu(
                    cell("rust-no-spawn-stream", "echo", 9000.0, None),
                    80.0,
                    0.0,
                    300.0,
                    0.99,
                ),
            ]);
            ms
        };
        // 250 + 120 µs of server CPU: at best 1300 / 1470 µs.
        let l = limit(&ms(0.99, 250.0), "echo").unwrap();
        assert_eq!(l.readable_us, Some(250.0));
        let bound = l.readable_bound().unwrap();
        assert!((bound - 1300.0 / 1470.0).abs() < 1e-3, "{l:?}");
        assert!(
            bound > l.bound,
            "a Readable costs less than a net.Socket here"
        );
        assert!(l.readable_out_of_reach());
        let line = goals(&ms(0.99, 250.0))
            .into_iter()
            .find(|g| g.starts_with("node-fastspawn's limit, echo hi"))
            .unwrap();
        assert!(
            line.contains("node-no-spawn-readable's (250 µs) plus the Rust server's spawn and reap (120 µs), reaches at best 0.88x"),
            "{line}"
        );
        assert!(
            line.ends_with("out of reach on this machine for any Node server whose child.stdout is a stream.Readable, a net.Socket or not"),
            "{line}"
        );
        // Not busy throughout: below the goal, but not proven.
        let idle = limit(&ms(0.80, 250.0), "echo").unwrap();
        assert!(!idle.readable_out_of_reach());
        assert!(
            limit_line("echo", &idle)
                .ends_with("does not hold in this run: not proven out of reach"),
            "{}",
            limit_line("echo", &idle)
        );
        // A cheap Readable: 1300 / 1280 µs, the route is open.
        let cheap = limit(&ms(0.99, 60.0), "echo").unwrap();
        assert!(cheap.readable_bound().unwrap() > 0.95 && !cheap.readable_out_of_reach());
        assert!(limit_line("echo", &cheap).ends_with("is not ruled out"));
        // Without the Readable control the line is as before.
        let without: Vec<Measurement> = ms(0.99, 250.0)
            .into_iter()
            .filter(|m| m.runner != "node-no-spawn-readable")
            .collect();
        let l = limit(&without, "echo").unwrap();
        assert!(l.readable_bound().is_none() && !l.readable_out_of_reach());
        assert!(!limit_line("echo", &l).contains("Readable"));
    }

    #[test]
    fn without_fastspawn_the_headline_compares_node_and_rust() {
        let ms = vec![
            cell("node-baseline", "echo", 400.0, Some(3e6)),
            cell("rust-tokio", "echo", 2000.0, None),
        ];
        assert_eq!(
            goals(&ms),
            ["node-baseline / rust-tokio req/s: echo 0.20x, cat – (node-fastspawn not measured)"]
        );
        assert!(tables(&[])[0].rows.is_empty());
        assert!(charts(&[]).is_empty());
    }
}
