use std::io::IsTerminal;

use clap::Parser;
use lostfound::{
    App,
    config::{Cli, Command, Config},
    demo,
    store::Store,
};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    match cli.command {
        Command::Serve(args) => {
            let app = App::build(Config::from_args(cli.database_url, &args)).await?;
            if args.demo {
                print_demo(&app).await?;
            }
            tracing::info!("lostfound listening on http://{}", app.local_addr());
            app.run(lostfound::shutdown_signal()).await
        }
        Command::User(command) => {
            let store = Store::connect(&cli.database_url).await?;
            let result = lostfound::cli::run(&store, command).await;
            store.close().await;
            result
        }
    }
}

/// Demo credentials go to standard output for the person starting it, never to the logs.
async fn print_demo(app: &App) -> anyhow::Result<()> {
    if demo::seed(app.store(), app.passwords()).await? {
        println!("Demo data loaded. Accounts (id / password):");
        for (id, name, admin, password) in demo::DEMO_ACCOUNTS {
            let role = if admin { "administrator" } else { "user" };
            println!("  {id:<6} / {password:<16} {name} ({role})");
        }
    } else {
        println!("The database already has data; demo data not loaded.");
    }
    Ok(())
}
