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

    #[command(flatten)]
    pub map: MapConfig,

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

const DEFAULT_TILE_URL: &str = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
const DEFAULT_TILE_ATTRIBUTION: &str =
    "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors";
const DEFAULT_MAP_CENTER: (f64, f64) = (51.5246, -0.1340);
const DEFAULT_MAP_ZOOM: u8 = 16;

/// What the web app's maps show.
#[derive(Debug, Clone, Args)]
pub struct MapConfig {
    /// Map tiles, as a Leaflet URL template.
    #[arg(long, env = "LOSTFOUND_TILE_URL", default_value = DEFAULT_TILE_URL)]
    pub tile_url: String,

    /// The tiles' attribution (HTML), shown on the map.
    #[arg(long, env = "LOSTFOUND_TILE_ATTRIBUTION", default_value = DEFAULT_TILE_ATTRIBUTION)]
    pub tile_attribution: String,

    /// Where the maps open: `LAT,LNG`.
    #[arg(long, env = "LOSTFOUND_MAP_CENTER", default_value = "51.5246,-0.1340", value_parser = parse_center)]
    pub map_center: (f64, f64),

    /// The zoom level the maps open at (0-19).
    #[arg(long, env = "LOSTFOUND_MAP_ZOOM", default_value_t = DEFAULT_MAP_ZOOM, value_parser = clap::value_parser!(u8).range(0..=19))]
    pub map_zoom: u8,
}

impl Default for MapConfig {
    fn default() -> Self {
        Self {
            tile_url: DEFAULT_TILE_URL.to_owned(),
            tile_attribution: DEFAULT_TILE_ATTRIBUTION.to_owned(),
            map_center: DEFAULT_MAP_CENTER,
            map_zoom: DEFAULT_MAP_ZOOM,
        }
    }
}

fn parse_center(value: &str) -> Result<(f64, f64), String> {
    let parsed = value
        .split_once(',')
        .and_then(|(lat, lng)| Some((lat.trim().parse::<f64>().ok()?, lng.trim().parse::<f64>().ok()?)));
    match parsed {
        Some((lat, lng)) if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lng) => Ok((lat, lng)),
        _ => Err("expected LAT,LNG with latitude in [-90, 90] and longitude in [-180, 180]".into()),
    }
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
    pub map: MapConfig,
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
            map: args.map.clone(),
        }
    }

    /// Cookies are `Secure` when the service is published over HTTPS.
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|url| url.to_ascii_lowercase().starts_with("https://"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_defaults_match_the_flags() {
        let cli = Cli::parse_from(["lostfound", "serve"]);
        let Command::Serve(args) = cli.command else {
            unreachable!()
        };
        let (flags, default) = (args.map, MapConfig::default());
        assert_eq!(
            (flags.tile_url, flags.map_center, flags.map_zoom),
            (default.tile_url, default.map_center, default.map_zoom)
        );
    }

    #[test]
    fn map_centres_are_checked() {
        assert_eq!(parse_center(" 48.85 , 2.35 "), Ok((48.85, 2.35)));
        assert!(parse_center("91,0").is_err());
        assert!(parse_center("0").is_err());
        assert!(parse_center("a,b").is_err());
    }
}
