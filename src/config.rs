//! Command-line flags and environment variables, parsed by clap into one `Config`.

use std::net::SocketAddr;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// `DATABASE_URL` when none is given: a SQLite file in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://lostfound.db";

#[derive(Debug, Parser)]
#[command(name = "lostfound", version, about = "Lost-item reporting service")]
pub struct Cli {
    /// Database: `sqlite://PATH` (created on first start) or `postgres://...`.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, global = true)]
    pub database_url: String,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP and real-time server.
    Serve(ServeArgs),
    /// Manage user accounts.
    #[command(subcommand)]
    User(UserCommand),
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, env = "LOSTFOUND_BIND", default_value = "127.0.0.1:3000")]
    pub bind: SocketAddr,

    /// `production` answers errors with `{error}` only; `development` adds details.
    #[arg(long = "env", env = "LOSTFOUND_ENV", value_enum, default_value_t = Mode::Production)]
    pub mode: Mode,

    /// The URL people reach the service at, e.g. `https://lost.example.edu`.
    /// An `https` URL makes the session cookie `Secure`.
    #[arg(long, env = "LOSTFOUND_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Redis shared by several nodes (e.g. `redis://127.0.0.1:6379`): real-time messages
    /// then reach clients on every node. Without it the node serves its own clients only.
    #[arg(long, env = "REDIS_URL")]
    pub redis_url: Option<String>,

    /// Other web origins whose pages may use the API and the real-time interface with a
    /// visitor's session, comma-separated (e.g. `https://app.example.edu`).
    #[arg(long, env = "LOSTFOUND_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Take the client address from `X-Forwarded-For` (only behind a trusted proxy).
    #[arg(long, env = "LOSTFOUND_TRUST_PROXY")]
    pub trust_proxy: bool,

    /// Fill an empty database with demo accounts and items.
    #[arg(long)]
    pub demo: bool,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account.
    Add {
        id: String,
        #[arg(long)]
        name: String,
        #[arg(long)]
        admin: bool,
        /// Read the password from standard input instead of prompting.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Set a new password.
    Passwd {
        id: String,
        #[arg(long)]
        password_stdin: bool,
    },
    /// List all accounts.
    List,
    /// Delete an account and end its sessions.
    Remove { id: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    Production,
    Development,
}

/// Everything `App::build` needs; tests construct it directly.
#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub database_url: String,
    pub redis_url: Option<String>,
    pub mode: Mode,
    pub public_url: Option<String>,
    pub allowed_origins: Vec<String>,
    pub trust_proxy: bool,
}

impl Config {
    pub fn from_args(database_url: String, args: &ServeArgs) -> Self {
        Self {
            bind: args.bind,
            database_url,
            redis_url: args.redis_url.clone(),
            mode: args.mode,
            public_url: args.public_url.clone(),
            allowed_origins: args.allowed_origins.clone(),
            trust_proxy: args.trust_proxy,
        }
    }

    /// Cookies are `Secure` when the service is published over HTTPS.
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|url| url.to_ascii_lowercase().starts_with("https://"))
    }
}
