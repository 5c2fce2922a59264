//! Socket.IO runs, speaking Engine.IO v4 / Socket.IO v5 over WebSocket directly (or, for idle
//! clients, long-polling first and then the upgrade, as browsers do): the open packet `0{…}`,
//! CONNECT `40`, pings `2` answered `3`, events `42["name",data]`.

use std::{
    net::{IpAddr, SocketAddr},
    sync::{
        Arc,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use futures_util::{SinkExt, StreamExt, stream::SplitSink};
use tokio::{net::TcpStream, sync::Mutex, time::Instant};
use tokio_tungstenite::{
    WebSocketStream, client_async,
    tungstenite::{Message, client::IntoClientRequest},
};

use crate::{
    report::{FanoutReport, IdleReport, Latency, cpu_us, histogram, rss},
    sources,
};

type Ws = WebSocketStream<TcpStream>;

#[derive(clap::Args)]
pub struct FanoutArgs {
    /// The server, e.g. http://127.0.0.1:3000
    url: String,
    /// Clients in the chat, each counting what it receives.
    #[arg(long, default_value_t = 500)]
    clients: usize,
    /// Messages sent in all.
    #[arg(long, default_value_t = 500)]
    messages: usize,
    /// Clients (among `clients`) that send them, in turn.
    #[arg(long, default_value_t = 10)]
    senders: usize,
    /// Loopback source addresses to spread the clients over.
    #[arg(long, default_value_t = 20)]
    sources: usize,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 120.0)]
    timeout: f64,
    /// The server's process id: its CPU time from the first message sent to the last
    /// delivery is reported per message.
    #[arg(long)]
    pid: Option<u32>,
    /// `ID:PASSWORD`: log in first (POST /api/login) and open every client with the session
    /// cookie, so that each message is a signed-in person's (its account read at each event).
    #[arg(long)]
    login: Option<String>,
}

#[derive(clap::Args)]
pub struct IdleArgs {
    /// The server, e.g. http://127.0.0.1:3000
    url: String,
    /// The server's process id, whose memory is sampled.
    #[arg(long)]
    pid: u32,
    #[arg(long, default_value_t = 5_000)]
    clients: usize,
    /// Seconds the clients are held once all are connected.
    #[arg(long, default_value_t = 5.0)]
    hold: f64,
    /// Loopback source addresses to spread the clients over.
    #[arg(long, default_value_t = 40)]
    sources: usize,
    /// Connections opened at once.
    #[arg(long, default_value_t = 200)]
    parallel: usize,
    /// Open each session as a browser's client does by default: long-polling first (the
    /// handshake and the CONNECT), then the upgrade to a WebSocket. Without it, a WebSocket
    /// from the start.
    #[arg(long)]
    polling_first: bool,
}

/// Opens a WebSocket Engine.IO session from `source` and connects to the main namespace.
/// How long an idle client may take to connect before it counts as not connected.
const CONNECT_DEADLINE: Duration = Duration::from_secs(10);

async fn connect(server: SocketAddr, source: IpAddr, cookie: Option<&str>) -> anyhow::Result<Ws> {
    let stream = sources::connect(server, source).await?;
    let mut request = format!("ws://{server}/socket.io/?EIO=4&transport=websocket").into_client_request()?;
    if let Some(cookie) = cookie {
        request.headers_mut().insert("cookie", cookie.parse()?);
    }
    let (mut ws, _) = client_async(request, stream).await?;
    let open = next_text(&mut ws).await?;
    anyhow::ensure!(open.starts_with('0'), "expected the open packet, got {open}");
    ws.send(Message::text("40")).await?;
    loop {
        let packet = next_text(&mut ws).await?;
        if packet == "2" {
            ws.send(Message::text("3")).await?;
        } else if packet.starts_with("40") {
            return Ok(ws);
        } else {
            anyhow::bail!("expected CONNECT, got {packet}");
        }
    }
}

/// Opens a session as a browser's client does: the handshake and the main namespace's CONNECT
/// over long-polling, then the upgrade to a WebSocket (probe `2probe`/`3probe`, then `5`).
/// The polling connection is closed once the WebSocket carries the session.
async fn connect_polling_first(server: SocketAddr, source: IpAddr) -> anyhow::Result<Ws> {
    let mut polling = crate::http::handshake(server, source).await?;
    let open = poll(&mut polling, server, "GET", "", "").await?;
    let sid = open
        .strip_prefix('0')
        .and_then(|json| serde_json::from_str::<serde_json::Value>(json).ok())
        .and_then(|open| open["sid"].as_str().map(str::to_owned))
        .ok_or_else(|| anyhow::anyhow!("expected the open packet, got {open}"))?;
    let session = format!("&sid={sid}");
    poll(&mut polling, server, "POST", &session, "40").await?;
    // The server's first ping may come before the CONNECT's answer.
    loop {
        let answer = poll(&mut polling, server, "GET", &session, "").await?;
        let mut connected = false;
        for packet in answer.split('\x1e') {
            match packet {
                "2" => drop(poll(&mut polling, server, "POST", &session, "3").await?),
                connect if connect.starts_with("40") => connected = true,
                other => anyhow::bail!("expected CONNECT, got {other}"),
            }
        }
        if connected {
            break;
        }
    }
    let stream = sources::connect(server, source).await?;
    let url = format!("ws://{server}/socket.io/?EIO=4&transport=websocket{session}");
    let (mut ws, _) = client_async(url, stream).await?;
    ws.send(Message::text("2probe")).await?;
    let probe = next_text(&mut ws).await?;
    anyhow::ensure!(probe == "3probe", "expected the probe's answer, got {probe}");
    ws.send(Message::text("5")).await?;
    Ok(ws)
}

/// One long-polling request of the session (`sid` as `&sid=…`, or empty for the handshake),
/// and its answer's text.
async fn poll(
    polling: &mut hyper::client::conn::http1::SendRequest<http_body_util::Full<bytes::Bytes>>,
    server: SocketAddr,
    method: &str,
    sid: &str,
    body: &'static str,
) -> anyhow::Result<String> {
    use http_body_util::BodyExt;
    let request = hyper::Request::builder()
        .method(method)
        .uri(format!("/socket.io/?EIO=4&transport=polling{sid}"))
        .header("host", server.to_string())
        .header("content-type", "text/plain;charset=UTF-8")
        .body(http_body_util::Full::new(bytes::Bytes::from_static(body.as_bytes())))?;
    polling.ready().await?;
    let response = polling.send_request(request).await?;
    anyhow::ensure!(response.status().is_success(), "polling answered {}", response.status());
    let text = response.into_body().collect().await?.to_bytes();
    Ok(String::from_utf8_lossy(&text).into_owned())
}

async fn next_text(ws: &mut Ws) -> anyhow::Result<String> {
    loop {
        match ws.next().await.ok_or_else(|| anyhow::anyhow!("closed"))?? {
            Message::Text(text) => return Ok(text.to_string()),
            Message::Close(_) => anyhow::bail!("closed"),
            _ => {}
        }
    }
}

fn now_micros() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

pub async fn fanout(args: FanoutArgs) -> anyhow::Result<FanoutReport> {
    let (server, authority, _) = sources::split_url(&args.url)?;
    let addresses = sources::loopback(args.sources);
    let cookie = match &args.login {
        Some(credentials) => Some(crate::http::login(server, &authority, credentials).await?),
        None => None,
    };
    let delivered = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let latencies = Arc::new(std::sync::Mutex::new(histogram()));
    let mut writers: Vec<Arc<Mutex<SplitSink<Ws, Message>>>> = Vec::new();
    let mut readers = Vec::new();
    for n in 0..args.clients {
        let ws = connect(server, addresses[n % addresses.len()], cookie.as_deref()).await?;
        let (writer, mut reader) = ws.split();
        let writer = Arc::new(Mutex::new(writer));
        writers.push(Arc::clone(&writer));
        let (delivered, errors, latencies) = (Arc::clone(&delivered), Arc::clone(&errors), Arc::clone(&latencies));
        readers.push(tokio::spawn(async move {
            let mut local = histogram();
            while let Some(message) = reader.next().await {
                let Ok(Message::Text(text)) = message else {
                    continue;
                };
                if text.as_str() == "2" {
                    let _ = writer.lock().await.send(Message::text("3")).await;
                } else if text.starts_with("42[\"chat:new\"") {
                    delivered.fetch_add(1, Ordering::Relaxed);
                    // The text carries the send time: `…"text":"t<micros>"…`.
                    if let Some(sent) = text
                        .split("\"text\":\"t")
                        .nth(1)
                        .and_then(|rest| rest.split('"').next())
                        .and_then(|t| t.parse::<u64>().ok())
                    {
                        local.saturating_record(now_micros().saturating_sub(sent).max(1));
                    }
                } else if text.starts_with("43") && text.contains("\"ok\":false") {
                    errors.fetch_add(1, Ordering::Relaxed);
                }
            }
            let _ = latencies.lock().map(|mut all| all.add(&local));
        }));
    }
    let expected = (args.clients * args.messages) as u64;
    let server_before = args.pid.map(|pid| cpu_us(&pid.to_string())).transpose()?;
    let started = Instant::now();
    let senders = args.senders.clamp(1, args.clients);
    let mut sending = Vec::new();
    for (s, writer) in writers.iter().take(senders).enumerate() {
        let writer = Arc::clone(writer);
        let count = args.messages / senders + usize::from(s < args.messages % senders);
        sending.push(tokio::spawn(async move {
            for n in 0..count {
                // Not the benchmark's staff account ("bench"): a visitor may not post under
                // a staff member's name, and every message would be refused.
                let packet = format!(r#"42{n}["chat:send",{{"nick":"loadgen","text":"t{}"}}]"#, now_micros());
                if writer.lock().await.send(Message::text(packet)).await.is_err() {
                    break;
                }
            }
        }));
    }
    for sender in sending {
        sender.await?;
    }
    let deadline = started + Duration::from_secs_f64(args.timeout);
    while delivered.load(Ordering::Relaxed) < expected && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let duration = started.elapsed().as_secs_f64();
    let server_cpu = match (args.pid, server_before) {
        (Some(pid), Some(before)) => Some(cpu_us(&pid.to_string())? - before),
        _ => None,
    };
    let deliveries = delivered.load(Ordering::Relaxed);
    for writer in &writers {
        let _ = writer.lock().await.close().await;
    }
    for reader in readers {
        let _ = tokio::time::timeout(Duration::from_secs(5), reader).await;
    }
    let latency = Latency::of(&latencies.lock().expect("not poisoned"));
    Ok(FanoutReport {
        kind: "sio-fanout",
        url: args.url,
        clients: args.clients,
        senders,
        messages: args.messages,
        deliveries,
        expected_deliveries: expected,
        duration_s: (duration * 1000.0).round() / 1000.0,
        deliveries_per_second: (deliveries as f64 / duration).round(),
        messages_per_second: (args.messages as f64 / duration).round(),
        server_cpu_us_per_message: server_cpu.map(|us| (us / args.messages.max(1) as f64 * 10.0).round() / 10.0),
        delivery_latency_us: latency,
        errors: errors.load(Ordering::Relaxed),
    })
}

pub async fn idle(args: IdleArgs) -> anyhow::Result<IdleReport> {
    let (server, _, _) = sources::split_url(&args.url)?;
    let addresses = sources::loopback(args.sources);
    let before = rss(args.pid)?;
    let connected = Arc::new(AtomicUsize::new(0));
    let dropped = Arc::new(AtomicUsize::new(0));
    let release = Arc::new(tokio::sync::Notify::new());
    let opening = Arc::new(tokio::sync::Semaphore::new(args.parallel.max(1)));
    let polling_first = args.polling_first;
    let mut clients = Vec::with_capacity(args.clients);
    for n in 0..args.clients {
        let source = addresses[n % addresses.len()];
        let (connected, dropped, release, opening) = (
            Arc::clone(&connected),
            Arc::clone(&dropped),
            Arc::clone(&release),
            Arc::clone(&opening),
        );
        clients.push(tokio::spawn(async move {
            let ws = {
                let _permit = opening.acquire().await.expect("never closed");
                // A server that stops accepting (at its open-files limit, say) must not hang
                // the run: such a client counts as not connected.
                let connecting = async {
                    if polling_first {
                        connect_polling_first(server, source).await
                    } else {
                        connect(server, source, None).await
                    }
                };
                tokio::time::timeout(CONNECT_DEADLINE, connecting).await
            };
            let Ok(Ok(mut ws)) = ws else {
                return;
            };
            connected.fetch_add(1, Ordering::Relaxed);
            // Idle: only answer the server's pings, until released.
            let released = release.notified();
            tokio::pin!(released);
            loop {
                tokio::select! {
                    () = &mut released => break,
                    message = ws.next() => match message {
                        Some(Ok(Message::Text(text))) if text.as_str() == "2" => {
                            if ws.send(Message::text("3")).await.is_err() {
                                dropped.fetch_add(1, Ordering::Relaxed);
                                return;
                            }
                        }
                        Some(Ok(_)) => {}
                        _ => {
                            dropped.fetch_add(1, Ordering::Relaxed);
                            return;
                        }
                    },
                }
            }
            let _ = ws.close(None).await;
        }));
    }
    // Wait until every client has tried, then for the server's memory to settle.
    while connected.load(Ordering::Relaxed) + clients.iter().filter(|c| c.is_finished()).count() < args.clients {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let with = rss(args.pid)?;
    let held = Instant::now();
    tokio::time::sleep(Duration::from_secs_f64(args.hold)).await;
    let held_s = held.elapsed().as_secs_f64();
    let at_end = rss(args.pid)?;
    release.notify_waiters();
    for client in clients {
        let _ = tokio::time::timeout(Duration::from_secs(5), client).await;
    }
    let count = connected.load(Ordering::Relaxed);
    Ok(IdleReport {
        kind: "sio-idle",
        url: args.url,
        transports: if args.polling_first {
            "polling, websocket"
        } else {
            "websocket"
        },
        clients: args.clients,
        connected: count,
        server_rss_before_bytes: before,
        server_rss_with_clients_bytes: with,
        server_rss_end_of_hold_bytes: at_end,
        bytes_per_connection_end_of_hold: at_end.saturating_sub(before) / count.max(1) as u64,
        bytes_per_connection: with.saturating_sub(before) / count.max(1) as u64,
        held_s: (held_s * 10.0).round() / 10.0,
        dropped_while_held: dropped.load(Ordering::Relaxed),
    })
}
