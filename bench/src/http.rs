//! HTTP runs: each simulated client is one keep-alive connection sending requests back to back
//! (closed loop), or at its share of a fixed rate (open loop, latency counted from when each
//! request was due, so a slow server is not excused by the client waiting for it).

use std::{
    collections::BTreeMap,
    net::{IpAddr, SocketAddr},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use bytes::Bytes;
use hdrhistogram::Histogram;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, client::conn::http1};
use hyper_util::rt::TokioIo;
use tokio::time::Instant;

use crate::{
    report::{HttpReport, Latency, cpu_us, cpu_us_by_thread, histogram},
    sources,
};

#[derive(clap::Args)]
pub struct Args {
    /// What to request, e.g. http://127.0.0.1:3000/api/items/1
    url: String,
    /// Connections (simulated clients), each one request at a time.
    #[arg(long, default_value_t = 50)]
    connections: usize,
    /// Seconds measured.
    #[arg(long, default_value_t = 10.0)]
    duration: f64,
    /// Seconds run first and not measured.
    #[arg(long, default_value_t = 1.0)]
    warmup: f64,
    #[arg(long, default_value = "GET")]
    method: String,
    /// A JSON body; `{n}` in it (or in the URL's path) becomes a number unique to the
    /// request, counted from `--first`.
    #[arg(long)]
    body: Option<String>,
    /// The first `{n}`.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Extra headers, `Name: value`.
    #[arg(long = "header")]
    headers: Vec<String>,
    /// `ID:PASSWORD`: log in first (POST /api/login) and send the session cookie.
    #[arg(long)]
    login: Option<String>,
    /// Requests a second in all (open loop); without it, closed loop.
    #[arg(long)]
    rate: Option<f64>,
    /// Loopback source addresses to spread the connections over.
    #[arg(long, default_value_t = 1)]
    sources: usize,
    /// Stop after this many requests in all (e.g. to seed data), whatever the duration.
    #[arg(long)]
    requests: Option<u64>,
    /// The server's process id: its CPU time per answer is reported.
    #[arg(long)]
    pid: Option<u32>,
}

/// What every connection sends.
struct Plan {
    server: SocketAddr,
    authority: String,
    path: String,
    method: Method,
    headers: Vec<(String, String)>,
    body: Option<String>,
    /// Time between one connection's requests, open loop.
    interval: Option<Duration>,
    warmup_ends: Instant,
    ends: Instant,
    counter: AtomicU64,
    /// Requests that may still be sent, when their number is limited.
    remaining: Option<AtomicU64>,
}

/// What one connection measured.
struct Tally {
    latency: Histogram<u64>,
    statuses: BTreeMap<u16, u64>,
    bytes: u64,
    errors: u64,
}

pub async fn run(args: Args) -> anyhow::Result<HttpReport> {
    let (server, authority, path) = sources::split_url(&args.url)?;
    let mut headers: Vec<(String, String)> = args
        .headers
        .iter()
        .map(|h| {
            let (name, value) = h.split_once(':').unwrap_or((h, ""));
            (name.trim().to_owned(), value.trim().to_owned())
        })
        .collect();
    if let Some(credentials) = &args.login {
        headers.push(("cookie".into(), login(server, &authority, credentials).await?));
    }
    if args.body.is_some() && !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("content-type")) {
        headers.push(("content-type".into(), "application/json".into()));
    }
    let start = Instant::now();
    let plan = Arc::new(Plan {
        server,
        authority,
        path,
        method: args.method.parse()?,
        headers,
        body: args.body,
        interval: args
            .rate
            .map(|rate| Duration::from_secs_f64(args.connections as f64 / rate)),
        warmup_ends: start + Duration::from_secs_f64(args.warmup),
        ends: start + Duration::from_secs_f64(args.warmup + args.duration),
        counter: AtomicU64::new(args.first),
        remaining: args.requests.map(AtomicU64::new),
    });
    let addresses = sources::loopback(args.sources);
    let mut connections = tokio::task::JoinSet::new();
    for n in 0..args.connections {
        let (plan, source) = (Arc::clone(&plan), addresses[n % addresses.len()]);
        connections.spawn(async move { client(&plan, source).await });
    }
    // CPU used from the end of the warm-up to the last answer: the measured seconds.
    let warmup_ends = plan.warmup_ends;
    let cpu_before = tokio::spawn(async move {
        tokio::time::sleep_until(warmup_ends).await;
        let by_thread = args.pid.map(cpu_us_by_thread).transpose()?;
        cpu_now(args.pid).map(|(server, loadgen)| (server, loadgen, by_thread))
    });
    let mut latency = histogram();
    let (mut statuses, mut bytes, mut errors) = (BTreeMap::new(), 0, 0);
    for tally in connections.join_all().await {
        latency.add(&tally.latency)?;
        for (status, count) in tally.statuses {
            *statuses.entry(status).or_default() += count;
        }
        bytes += tally.bytes;
        errors += tally.errors;
    }
    let requests = latency.len();
    let (server_before, loadgen_before, by_thread_before) = cpu_before.await??;
    let (server_after, loadgen_after) = cpu_now(args.pid)?;
    let server_cpu = server_after.zip(server_before).map(|(after, before)| after - before);
    let per_request = |us: f64| (us / requests.max(1) as f64 * 10.0).round() / 10.0;
    let by_thread = match (args.pid, by_thread_before) {
        (Some(pid), Some(before)) => cpu_us_by_thread(pid)?
            .into_iter()
            .map(|(name, after)| {
                let spent = after - before.get(&name).copied().unwrap_or(0.0);
                (name, per_request(spent))
            })
            .filter(|(_, spent)| *spent > 0.0)
            .collect(),
        _ => BTreeMap::new(),
    };
    Ok(HttpReport {
        kind: "http",
        url: args.url,
        method: plan.method.to_string(),
        connections: args.connections,
        open_loop_rate: args.rate,
        duration_s: args.duration,
        requests,
        requests_per_second: (requests as f64 / args.duration).round(),
        response_bytes_per_second: (bytes as f64 / args.duration).round(),
        errors,
        statuses,
        latency_us: Latency::of(&latency),
        server_cpu_us_per_request: server_cpu.map(per_request),
        server_cpu_us_per_request_by_thread: by_thread,
        loadgen_cpu_us_per_request: per_request(loadgen_after - loadgen_before),
    })
}

/// The CPU microseconds the server (when its pid is given) and this process have used so far.
fn cpu_now(server: Option<u32>) -> anyhow::Result<(Option<f64>, f64)> {
    Ok((server.map(|pid| cpu_us(&pid.to_string())).transpose()?, cpu_us("self")?))
}

/// One simulated client: a connection (made again after an error) sending until the end.
async fn client(plan: &Plan, source: IpAddr) -> Tally {
    let mut tally = Tally {
        latency: histogram(),
        statuses: BTreeMap::new(),
        bytes: 0,
        errors: 0,
    };
    let mut due = Instant::now();
    'connect: while Instant::now() < plan.ends {
        let Ok(mut sender) = handshake(plan.server, source).await else {
            tally.errors += 1;
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        while Instant::now() < plan.ends {
            if plan.remaining.as_ref().is_some_and(|left| {
                left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                    .is_err()
            }) {
                break 'connect;
            }
            if plan.interval.is_some() {
                tokio::time::sleep_until(due).await;
            }
            let sent = if plan.interval.is_some() { due } else { Instant::now() };
            let measured = sent >= plan.warmup_ends;
            match exchange(plan, &mut sender).await {
                Ok((status, size)) => {
                    if measured {
                        let micros = sent.elapsed().as_micros().max(1) as u64;
                        tally.latency.saturating_record(micros);
                        *tally.statuses.entry(status).or_default() += 1;
                        tally.bytes += size;
                    }
                }
                Err(_) => {
                    if measured {
                        tally.errors += 1;
                    }
                    continue 'connect;
                }
            }
            if let Some(interval) = plan.interval {
                due += interval;
            }
        }
    }
    tally
}

pub(crate) async fn handshake(server: SocketAddr, source: IpAddr) -> anyhow::Result<http1::SendRequest<Full<Bytes>>> {
    let stream = sources::connect(server, source).await?;
    let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    Ok(sender)
}

/// One request and its whole answer: the status and the body's size.
async fn exchange(plan: &Plan, sender: &mut http1::SendRequest<Full<Bytes>>) -> anyhow::Result<(u16, u64)> {
    let numbered = plan.path.contains("{n}") || plan.body.as_ref().is_some_and(|b| b.contains("{n}"));
    let n = numbered.then(|| plan.counter.fetch_add(1, Ordering::Relaxed).to_string());
    let number = |text: &str| match &n {
        Some(n) => text.replace("{n}", n),
        None => text.to_owned(),
    };
    let body = match &plan.body {
        Some(template) => Full::new(Bytes::from(number(template))),
        None => Full::new(Bytes::new()),
    };
    let mut request = Request::builder()
        .method(plan.method.clone())
        .uri(number(&plan.path))
        .header("host", plan.authority.as_str());
    for (name, value) in &plan.headers {
        request = request.header(name.as_str(), value.as_str());
    }
    sender.ready().await?;
    let response = sender.send_request(request.body(body)?).await?;
    let status = response.status().as_u16();
    let mut body = response.into_body();
    let mut size = 0;
    while let Some(frame) = body.frame().await {
        if let Some(data) = frame?.data_ref() {
            size += data.len() as u64;
        }
    }
    Ok((status, size))
}

/// Logs in and returns the `Cookie` header value carrying the session.
pub(crate) async fn login(server: SocketAddr, authority: &str, credentials: &str) -> anyhow::Result<String> {
    let (id, password) = credentials
        .split_once(':')
        .ok_or_else(|| anyhow::anyhow!("--login takes ID:PASSWORD"))?;
    let mut sender = handshake(server, IpAddr::V4(std::net::Ipv4Addr::LOCALHOST)).await?;
    let body = serde_json::json!({ "id": id, "pw": password }).to_string();
    let request = Request::post("/api/login")
        .header("host", authority)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))?;
    sender.ready().await?;
    let response = sender.send_request(request).await?;
    anyhow::ensure!(response.status().is_success(), "login answered {}", response.status());
    let cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("sid="))
        .ok_or_else(|| anyhow::anyhow!("the login set no sid cookie"))?;
    Ok(cookie.split(';').next().unwrap_or_default().to_owned())
}
