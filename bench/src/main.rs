//! `loadgen`: drives a running server over HTTP or Socket.IO and prints what it measured as
//! JSON: throughput, latency percentiles, errors; for idle real-time connections, what each
//! one costs the server in memory. It targets any URL — lostfound, the ceiling server beside
//! it, or another implementation of the same API.
//!
//! It is built not to be the bottleneck: one hyper connection per simulated client, no
//! per-request allocation beyond the request itself, latency kept in HDR histograms, bodies
//! drained without being collected, events counted by their prefix without parsing.

mod http;
mod items;
mod report;
mod sio;
mod sources;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "loadgen", about = "Load generator for lostfound and its peers")]
struct Cli {
    /// Threads of the load generator's runtime (the server under test needs the others).
    #[arg(long, global = true, default_value_t = 1)]
    threads: usize,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Requests over keep-alive connections, closed-loop (or open-loop at `--rate`).
    Http(http::Args),
    /// N WebSocket clients in the chat; senders send M messages; every client counts them.
    SioFanout(sio::FanoutArgs),
    /// N idle WebSocket clients held while the server's resident memory is sampled.
    SioIdle(sio::IdleArgs),
    /// Writes reports for `lostfound items import`, for the growth benchmark.
    Items(items::ItemsArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Command::Items(args) = cli.command {
        return items::write(args);
    }
    // Thousands of connections are thousands of files.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cli.threads.max(1))
        .enable_all()
        .build()?;
    let report = runtime.block_on(async {
        match cli.command {
            Command::Http(args) => http::run(args)
                .await
                .map(|r| serde_json::to_value(r).expect("a report serializes")),
            Command::SioFanout(args) => sio::fanout(args)
                .await
                .map(|r| serde_json::to_value(r).expect("a report serializes")),
            Command::SioIdle(args) => sio::idle(args)
                .await
                .map(|r| serde_json::to_value(r).expect("a report serializes")),
            Command::Items(_) => unreachable!("written above"),
        }
    })?;
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}
