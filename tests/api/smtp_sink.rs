//! A small SMTP server for the tests: it keeps every message it accepts, and can be made to
//! fail as a real server does in an outage (a temporary refusal, or hanging up at once).

use std::{
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpStream},
    sync::watch,
    task::JoinHandle,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Accepts every message.
    Up,
    /// Answers `MAIL FROM` with `451`: try again later.
    Busy,
    /// Closes each connection before greeting.
    Down,
    /// Holds each connection, without a word, until the mode changes.
    Hold,
}

struct Shared {
    mode: watch::Sender<Mode>,
    messages: Mutex<Vec<String>>,
    /// Connections turned away and messages refused, in any failing mode.
    refused: AtomicUsize,
    /// Connections being held now.
    held: AtomicUsize,
}

pub struct SmtpSink {
    addr: SocketAddr,
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

impl SmtpSink {
    pub async fn start(mode: Mode) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            mode: watch::Sender::new(mode),
            messages: Mutex::default(),
            refused: AtomicUsize::default(),
            held: AtomicUsize::default(),
        });
        let serving = shared.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(converse(stream, serving.clone()));
            }
        });
        Self { addr, shared, task }
    }

    /// `smtp://127.0.0.1:PORT`: plain SMTP, as the service's setting takes it.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    pub fn set_mode(&self, mode: Mode) {
        self.shared.mode.send_replace(mode);
    }

    /// Every message accepted so far, as sent (headers and body).
    pub fn messages(&self) -> Vec<String> {
        self.shared.messages.lock().unwrap().clone()
    }

    pub fn refused(&self) -> usize {
        self.shared.refused.load(Ordering::SeqCst)
    }

    /// How many connections wait in [`Mode::Hold`] now: as many clients are sending at once.
    pub fn held(&self) -> usize {
        self.shared.held.load(Ordering::SeqCst)
    }

    /// Waits until `done` holds of the sink (panics after `deadline`).
    pub async fn wait_until(&self, deadline: Duration, done: impl Fn(&Self) -> bool) {
        let start = Instant::now();
        while !done(self) {
            assert!(
                start.elapsed() < deadline,
                "the SMTP sink waited {deadline:?}: {} accepted, {} refused",
                self.messages().len(),
                self.refused()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// One SMTP session: just enough of RFC 5321 for a client that sends plain-text mail.
async fn converse(stream: TcpStream, shared: Arc<Shared>) {
    let mode = || *shared.mode.borrow();
    if mode() == Mode::Hold {
        shared.held.fetch_add(1, Ordering::SeqCst);
        let _ = shared.mode.subscribe().wait_for(|mode| *mode != Mode::Hold).await;
        shared.held.fetch_sub(1, Ordering::SeqCst);
    }
    if mode() == Mode::Down {
        shared.refused.fetch_add(1, Ordering::SeqCst);
        return;
    }
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let _ = write.write_all(b"220 sink ESMTP\r\n").await;
    while let Ok(Some(line)) = lines.next_line().await {
        let verb = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" | "HELO" => b"250-sink\r\n250 8BITMIME\r\n",
            "MAIL" if mode() != Mode::Up => {
                shared.refused.fetch_add(1, Ordering::SeqCst);
                b"451 4.3.0 Try again later\r\n"
            }
            "MAIL" | "RCPT" | "RSET" | "NOOP" => b"250 OK\r\n",
            "DATA" => {
                let _ = write.write_all(b"354 Go ahead\r\n").await;
                let mut message = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    if line == "." {
                        break;
                    }
                    message.push_str(line.strip_prefix('.').unwrap_or(&line));
                    message.push('\n');
                }
                shared.messages.lock().unwrap().push(message);
                b"250 Queued\r\n"
            }
            "QUIT" => {
                let _ = write.write_all(b"221 Bye\r\n").await;
                return;
            }
            _ => b"502 Not implemented\r\n",
        };
        if write.write_all(reply).await.is_err() {
            return;
        }
    }
}

/// The value of header `name` in `message` (unfolded), if present.
pub fn header(message: &str, name: &str) -> Option<String> {
    let head = message.split("\n\n").next().unwrap_or("");
    let mut found: Option<String> = None;
    for line in head.lines() {
        match &mut found {
            Some(value) if line.starts_with([' ', '\t']) => value.push_str(line),
            Some(_) => break,
            None => {
                if let Some((key, value)) = line.split_once(':')
                    && key.eq_ignore_ascii_case(name)
                {
                    found = Some(value.trim().to_owned());
                }
            }
        }
    }
    found
}

/// The body of `message`, with quoted-printable soft line breaks joined.
/// The body of a one-part message as text, decoded from its transfer encoding (base64 or
/// quoted-printable, which text outside ASCII comes in).
pub fn text_of(message: &str) -> String {
    use base64::Engine;
    let raw = message.split_once("\n\n").map_or("", |(_, body)| body);
    let encoding = header(message, "Content-Transfer-Encoding").unwrap_or_default();
    let bytes = if encoding.eq_ignore_ascii_case("base64") {
        let compact: String = raw.split_whitespace().collect();
        base64::engine::general_purpose::STANDARD
            .decode(compact)
            .expect("base64 body")
    } else if encoding.eq_ignore_ascii_case("quoted-printable") {
        let joined = body(message);
        let mut bytes = Vec::new();
        let mut rest = joined.as_bytes();
        while let Some((&first, tail)) = rest.split_first() {
            match (first, tail) {
                (b'=', [a, b, tail @ ..]) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit() => {
                    let hex = std::str::from_utf8(&[*a, *b]).unwrap().to_owned();
                    bytes.push(u8::from_str_radix(&hex, 16).unwrap());
                    rest = tail;
                }
                _ => {
                    bytes.push(first);
                    rest = tail;
                }
            }
        }
        bytes
    } else {
        raw.as_bytes().to_vec()
    };
    String::from_utf8(bytes).expect("UTF-8 text")
}

pub fn body(message: &str) -> String {
    message
        .split_once("\n\n")
        .map_or("", |(_, body)| body)
        .replace("=\n", "")
}
