//! `lostfound serve` as a child process: the real binary, on a free port, with its output kept.

use std::{
    path::Path,
    process::{ExitStatus, Stdio},
    sync::{Arc, Mutex},
    time::Duration,
};

use lostfound::{
    auth::Passwords,
    store::{Create, Store},
};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, BufReader, Lines},
    process::{Child, ChildStdout, Command},
    task::JoinHandle,
};

use crate::helpers::*;

pub const WAIT: Duration = Duration::from_secs(30);

/// Creates an account directly in the database, before any server runs on it.
pub async fn add_account(db: &TestDb, id: &str, password: &str) {
    add_accounts(db, &[(id, password, false)]).await;
}

/// Creates accounts `(id, password, admin)` directly in the database.
pub async fn add_accounts(db: &TestDb, accounts: &[(&str, &str, bool)]) {
    let store = Store::connect(db.url(), Create::IfMissing).await.unwrap();
    let passwords = Passwords::new().await.unwrap();
    for (id, password, admin) in accounts {
        create_account(&store, &passwords, id, "Process Tester", *admin, password).await;
    }
    store.close().await;
}

/// A running `lostfound serve` with everything it has written so far.
pub struct Server {
    child: Child,
    pub url: String,
    pub stdout: Arc<Mutex<String>>,
    pub stderr: Arc<Mutex<String>>,
    readers: Vec<JoinHandle<()>>,
}

impl Server {
    /// Starts the binary on `db` on a free port and waits until it says where it listens.
    pub async fn start(db: &TestDb, args: &[&str]) -> Self {
        Self::start_with(db.url(), &[], args).await
    }

    /// Starts the binary on the database at `database_url` with extra environment variables.
    pub async fn start_with(database_url: &str, env: &[(&str, &str)], args: &[&str]) -> Self {
        Self::spawn(Command::new(env!("CARGO_BIN_EXE_lostfound")), database_url, env, args).await
    }

    /// Like `start_with`, with the process's limit on open files (soft and hard) at `files`.
    pub async fn start_with_open_files(database_url: &str, env: &[(&str, &str)], files: u64) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_lostfound"));
        // SAFETY: setrlimit is async-signal-safe, and nothing else runs between fork and exec.
        unsafe {
            command.pre_exec(move || rlimit::setrlimit(rlimit::Resource::NOFILE, files, files));
        }
        Self::spawn(command, database_url, env, &[]).await
    }

    async fn spawn(mut command: Command, database_url: &str, env: &[(&str, &str)], args: &[&str]) -> Self {
        command
            .arg("serve")
            .args(args)
            .env_remove("RUST_LOG")
            .env_remove("REDIS_URL")
            .env_remove("LOSTFOUND_ENV")
            .env_remove("LOSTFOUND_PUBLIC_URL")
            .env_remove("LOSTFOUND_TRUST_PROXY")
            .env_remove("LOSTFOUND_ALLOWED_ORIGINS")
            .env("DATABASE_URL", database_url)
            .env("LOSTFOUND_BIND", "127.0.0.1:0")
            .envs(env.iter().copied());
        let mut child = piped(&mut command).spawn().expect("the lostfound binary starts");
        let (stdout, stderr) = (Arc::default(), Arc::default());
        let readers = vec![
            collect(child.stdout.take().unwrap(), Arc::clone(&stdout)),
            collect(child.stderr.take().unwrap(), Arc::clone(&stderr)),
        ];
        let mut server = Self {
            child,
            url: String::new(),
            stdout,
            stderr,
            readers,
        };
        let line = server
            .wait_for(&server.stderr, |log| {
                log.lines()
                    .find(|l| l.contains("listening on http://"))
                    .map(str::to_owned)
            })
            .await;
        let from = line.find("http://").unwrap();
        server.url = line[from..].split_whitespace().next().unwrap().to_owned();
        server
    }

    /// Polls `output` until `found` returns something, for at most `WAIT`.
    pub async fn wait_for<T>(&self, output: &Mutex<String>, found: impl Fn(&str) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if let Some(value) = found(&output.lock().unwrap()) {
                return value;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out; stdout: {}\nstderr: {}",
                self.stdout.lock().unwrap(),
                self.stderr.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id().expect("still running")
    }

    /// Where it listens.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.url.trim_start_matches("http://").parse().unwrap()
    }

    /// Its resident memory, in bytes, from /proc.
    pub fn rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
    }

    pub fn client(&self) -> TestClient {
        TestClient::new(self.url.clone())
    }

    /// Sends `signal` with kill(1) and waits for the process to end; returns how it ended
    /// and everything it wrote to standard output and standard error.
    pub async fn signal(mut self, signal: &str) -> (ExitStatus, String, String) {
        let pid = self.child.id().expect("still running").to_string();
        let sent = Command::new("kill").args([signal, &pid]).status().await.unwrap();
        assert!(sent.success());
        let status = tokio::time::timeout(WAIT, self.child.wait())
            .await
            .expect("the server exits")
            .unwrap();
        for reader in self.readers.drain(..) {
            reader.await.unwrap();
        }
        let stdout = self.stdout.lock().unwrap().clone();
        let stderr = self.stderr.lock().unwrap().clone();
        (status, stdout, stderr)
    }
}

impl Drop for Server {
    /// A failing test shows what the server said.
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("server stdout:\n{}", self.stdout.lock().unwrap());
            eprintln!("server stderr:\n{}", self.stderr.lock().unwrap());
        }
    }
}

/// Appends everything `pipe` yields to `sink`, line by line, until it closes.
pub fn collect(pipe: impl AsyncRead + Unpin + Send + 'static, sink: Arc<Mutex<String>>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut lines = BufReader::new(pipe).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let mut sink = sink.lock().unwrap();
            sink.push_str(&line);
            sink.push('\n');
        }
    })
}

/// `command` with no input, its output and errors piped to the test, killed when dropped.
fn piped(command: &mut Command) -> &mut Command {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
}

/// A Node script the tests talk to, killed when dropped: its standard output to read line by
/// line, and its standard error gathered for the message of a test that fails.
pub struct NodeScript {
    pub child: Child,
    pub stdout: Lines<BufReader<ChildStdout>>,
    pub stderr: Arc<Mutex<String>>,
}

impl NodeScript {
    /// Starts `node SCRIPT` of the npm package in `dir` (under the crate), with `env` added to
    /// the test's environment; the package's dependency `module` must be installed.
    pub fn start(dir: &str, script: &str, module: &str, env: &[(&str, &str)]) -> Self {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        assert!(
            dir.join("node_modules").join(module).exists(),
            "{script} needs {module}: run npm ci --prefix {}",
            dir.display()
        );
        let mut child = piped(Command::new("node").arg(dir.join(script)).envs(env.iter().copied()))
            .spawn()
            .expect("node is installed");
        let stderr = Arc::default();
        collect(child.stderr.take().unwrap(), Arc::clone(&stderr));
        let stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        Self { child, stdout, stderr }
    }
}
