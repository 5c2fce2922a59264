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
    /// From a message's send to its arrival at each client.
    pub delivery_latency_us: Latency,
    pub errors: u64,
}

#[derive(Debug, Serialize)]
pub struct IdleReport {
    pub kind: &'static str,
    pub url: String,
    pub clients: usize,
    pub connected: usize,
    pub server_rss_before_bytes: u64,
    pub server_rss_with_clients_bytes: u64,
    pub bytes_per_connection: u64,
    pub held_s: f64,
    pub dropped_while_held: usize,
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
