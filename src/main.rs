use std::{io::IsTerminal, process::ExitCode};

use clap::Parser;
use lostfound::{
    App,
    causes::describe,
    config::{Cli, Command, Config, UserCommand},
    demo, log_writer,
    store::{Create, Store},
};
use tracing_subscriber::EnvFilter;

/// jemalloc gives memory back after a spike (ten password hashes of 19 MiB each, a burst of
/// big lists): measured after 20 logins, RSS 16 → 55 → 17 MB five seconds later, where the
/// system allocator stayed at 243 MB and mimalloc at 66 MB.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// SQLite allocates through the C library, whose allocator gives each thread that allocates
/// an arena of its own (up to eight a core): the writer, the readers' threads, the async
/// threads reading in place. Each arena keeps what its thread freed, so a service on a
/// million items held 491–502 MB after three searches' loads; with two arenas 391–420 MB, its
/// searches as fast and a create 1 % more CPU (docs/performance.md). An operator's own
/// `MALLOC_ARENA_MAX` is kept.
fn limit_c_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: mallopt only sets a parameter of glibc's allocator; SQLite has not
        // allocated yet, so no arena beyond the limit exists.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, 2) };
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    limit_c_arenas();
    let cli = Cli::parse();
    // Lines are written by a thread of their own, off the request path (log_writer.rs); the
    // guard writes the last of them at exit.
    let (log, _flush_at_exit) = log_writer::to_stderr();
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")))
        .with_writer(log)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let result = match cli.command {
        Command::Serve(config) => serve(*config).await,
        Command::User(args) => {
            // Only `add` may create the database: the others, run from the wrong directory,
            // would otherwise leave an empty one behind and report that nothing is there.
            let create = match args.command {
                UserCommand::Add { .. } | UserCommand::Import { .. } => Create::IfMissing,
                _ => Create::Never,
            };
            on_store(&args.database.url, create, async |store| {
                lostfound::cli::run(store, args.command).await
            })
            .await
        }
        Command::Backup(args) => {
            on_store(&args.database.url, Create::Never, async |store| {
                lostfound::cli::backup(store, &args.file).await
            })
            .await
        }
        Command::Site(args) => {
            on_store(&args.database.url, Create::Never, async |store| {
                lostfound::cli::site(store, args.command).await
            })
            .await
        }
        Command::Items(args) => {
            on_store(&args.database.url, Create::IfMissing, async |store| {
                lostfound::cli::items(store, args.command).await
            })
            .await
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // The message and its causes once each; a backtrace only when asked for.
            eprintln!("error: {}", describe(err.as_ref()).join(": "));
            if err.backtrace().status() == std::backtrace::BacktraceStatus::Captured {
                eprintln!("{}", err.backtrace());
            }
            ExitCode::FAILURE
        }
    }
}

/// Runs a command on the database at `url`, then closes it.
async fn on_store(
    url: &str,
    create: Create,
    command: impl AsyncFnOnce(&Store) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let store = Store::connect(url, create).await?;
    let result = command(&store).await;
    store.close().await;
    result
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let demo = config.demo;
    let app = App::build(config).await?;
    let store = &app.state().store;
    tracing::info!("using {}", store.name());
    if demo {
        print_demo(&app).await?;
    } else if store.has_no_users().await? {
        tracing::warn!(
            "there are no accounts yet: create the first administrator with \
             `lostfound user add ID --name NAME --admin` (with the same DATABASE_URL)"
        );
    }
    tracing::info!("lostfound listening on http://{}", app.local_addr());
    app.run(lostfound::shutdown_signal()).await
}

/// Demo credentials go to standard output for the person starting it, never to the logs.
async fn print_demo(app: &App) -> anyhow::Result<()> {
    let state = app.state();
    if demo::seed(&state.store, &state.passwords).await? {
        println!("Demo data loaded. Accounts (id / password):");
        for (id, name, role, password) in demo::DEMO_ACCOUNTS {
            println!("  {id:<6} / {password:<16} {name} ({})", role.name());
        }
    } else {
        println!("The database already has data; demo data not loaded.");
    }
    Ok(())
}
