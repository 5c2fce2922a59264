//! What a run reports.

use std::collections::BTreeMap;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Latency percentiles in microseconds.
#[derive(Debug, Serialize)]
pub struct Latency {
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub p999: u64,
    pub max: u64,
    pub mean: f64,
}

impl Latency {
    pub fn of(histogram: &Histogram<u64>) -> Self {
        Self {
            p50: histogram.value_at_quantile(0.50),
            p90: histogram.value_at_quantile(0.90),
            p99: histogram.value_at_quantile(0.99),
            p999: histogram.value_at_quantile(0.999),
            max: histogram.max(),
            mean: (histogram.mean() * 10.0).round() / 10.0,
        }
    }
}

/// A histogram of microseconds, from 1 µs to 60 s at 3 significant digits.
pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("valid bounds")
}

#[derive(Debug, Serialize)]
pub struct HttpReport {
    pub kind: &'static str,
    pub url: String,
    pub method: String,
    pub connections: usize,
    pub open_loop_rate: Option<f64>,
    pub duration_s: f64,
    pub requests: u64,
    pub requests_per_second: f64,
    pub response_bytes_per_second: f64,
    pub errors: u64,
    pub statuses: BTreeMap<u16, u64>,
    pub latency_us: Latency,
    /// CPU time per answer over the measured seconds, of the server (`--pid`) and of the load
    /// generator itself: the figure that does not depend on how much of the shared cores the
    /// generator took.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_cpu_us_per_request: Option<f64>,
    /// The same, by the name of the server's thread that spent it (`tokio-rt-worker`, the
    /// encoder's `lf-meaning`, …).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub server_cpu_us_per_request_by_thread: BTreeMap<String, f64>,
    pub loadgen_cpu_us_per_request: f64,
}

#[derive(Debug, Serialize)]
pub struct FanoutReport {
    pub kind: &'static str,
    pub url: String,
    pub clients: usize,
    pub senders: usize,
    pub messages: usize,
    pub deliveries: u64,
    pub expected_deliveries: u64,
    pub duration_s: f64,
    pub deliveries_per_second: f64,
    /// Messages stored (and sent to every client) a second.
    pub messages_per_second: f64,
    /// The server's CPU time (`--pid`) per message, its deliveries included.
    pub server_cpu_us_per_message: Option<f64>,
    /// From a message's send to its arrival at each client.
    pub delivery_latency_us: Latency,
    pub errors: u64,
}

#[derive(Debug, Serialize)]
pub struct IdleReport {
    pub kind: &'static str,
    pub url: String,
    /// How each session was opened: a WebSocket from the start, or long-polling then the upgrade.
    pub transports: &'static str,
    pub clients: usize,
    pub connected: usize,
    pub server_rss_before_bytes: u64,
    pub server_rss_with_clients_bytes: u64,
    /// At the end of the hold: what the connections keep once the allocator has given back
    /// the pages their handshakes used (jemalloc returns freed pages over about 10 s).
    pub server_rss_end_of_hold_bytes: u64,
    pub bytes_per_connection_end_of_hold: u64,
    pub bytes_per_connection: u64,
    pub held_s: f64,
    pub dropped_while_held: usize,
}

/// The ticks of /proc/PID/stat's utime and stime a second: USER_HZ, fixed at 100 on Linux.
const TICKS_PER_SECOND: f64 = 100.0;

/// CPU time a process has used so far (every thread, user and system), in microseconds, from
/// /proc/PID/stat (`"self"`: this process).
pub fn cpu_us(pid: &str) -> anyhow::Result<f64> {
    stat_cpu_us(&std::fs::read_to_string(format!("/proc/{pid}/stat"))?)
}

/// CPU time each of a process's threads has used so far, summed by thread name, in
/// microseconds (a thread that ended is no longer counted: compare sums taken while the
/// same threads run).
pub fn cpu_us_by_thread(pid: u32) -> anyhow::Result<BTreeMap<String, f64>> {
    let mut by_name = BTreeMap::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))? {
        let task = task?.path();
        // A thread may end between the listing and the reading.
        let (Ok(name), Ok(stat)) = (
            std::fs::read_to_string(task.join("comm")),
            std::fs::read_to_string(task.join("stat")),
        ) else {
            continue;
        };
        *by_name.entry(name.trim_end().to_owned()).or_default() += stat_cpu_us(&stat)?;
    }
    Ok(by_name)
}

/// The user and system time a /proc `stat` line records, in microseconds.
fn stat_cpu_us(stat: &str) -> anyhow::Result<f64> {
    // After the command's name in parentheses (which may hold spaces): state is field 3, utime
    // and stime fields 14 and 15.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .ok_or_else(|| anyhow::anyhow!("no command name in a stat line"))?
        .1
        .split_whitespace()
        .collect();
    let ticks = |n: usize| -> anyhow::Result<f64> {
        Ok(fields
            .get(n - 3)
            .ok_or_else(|| anyhow::anyhow!("a stat line is short"))?
            .parse::<f64>()?)
    };
    Ok((ticks(14)? + ticks(15)?) / TICKS_PER_SECOND * 1e6)
}

/// Resident memory of a process, in bytes, from /proc.
pub fn rss(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let kb: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or_else(|| anyhow::anyhow!("no VmRSS for {pid}"))?
        .parse()?;
    Ok(kb * 1024)
}
