//! The socket under every HTTP connection, with its deadlines: request headers must arrive in
//! time, an idle keep-alive connection is closed, and a client that takes no response bytes
//! for too long is cut off. What the deadlines need to know of the requests on the connection
//! lives in [`ConnectionState`], which the request side updates.

use std::{
    io,
    pin::Pin,
    sync::{
        Arc, OnceLock,
        atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering},
    },
    task::{Context, Poll, ready},
    time::Duration,
};

use futures_util::task::AtomicWaker;
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    time::{Instant, Sleep},
};

use super::caps::{AddressGuard, TotalGuard};

/// How long each phase of a connection may last without progress; `None`: no limit.
#[derive(Debug, Clone, Copy)]
pub struct Deadlines {
    /// From the first byte of a request (or the opening of the connection) to the end of its
    /// headers.
    pub header: Option<Duration>,
    /// Between requests on a keep-alive connection.
    pub idle: Option<Duration>,
    /// A response the client takes no bytes of.
    pub write: Option<Duration>,
}

/// Told of every byte the connection sends (the real-time side counts what a socket's
/// transport has delivered).
pub trait WriteObserver: Send + Sync {
    fn written(&self, bytes: usize);
}

/// What one connection is doing, shared between its socket and its requests.
pub struct ConnectionState {
    opened: Instant,
    /// Requests whose response has not been sent in full.
    open_requests: AtomicU32,
    /// The connection became a WebSocket: its liveness is the real-time side's business.
    upgraded: AtomicBool,
    /// Milliseconds after `opened` when the connection last became idle, and when the request
    /// being read began (its first byte, or the connection's opening for its first request);
    /// `u64::MAX` when no request is being read.
    idle_since_ms: AtomicU64,
    head_started_ms: AtomicU64,
    observer: OnceLock<Arc<dyn WriteObserver>>,
    /// Set to cut the connection off, whatever it is doing; the wakers get its reads and
    /// writes to notice.
    aborted: AtomicBool,
    reader: AtomicWaker,
    writer: AtomicWaker,
    /// The connection's places under the caps, given back when it ends.
    total_place: OnceLock<TotalGuard>,
    address_place: OnceLock<AddressGuard>,
}

/// A place under a connection cap.
pub(super) trait Place {
    fn keep_in(self, state: &ConnectionState);
}

impl Place for TotalGuard {
    fn keep_in(self, state: &ConnectionState) {
        let _ = state.total_place.set(self);
    }
}

impl Place for AddressGuard {
    fn keep_in(self, state: &ConnectionState) {
        let _ = state.address_place.set(self);
    }
}

impl ConnectionState {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            opened: Instant::now(),
            open_requests: AtomicU32::new(0),
            upgraded: AtomicBool::new(false),
            idle_since_ms: AtomicU64::new(0),
            // A new connection is expected to send its first request at once.
            head_started_ms: AtomicU64::new(0),
            observer: OnceLock::new(),
            aborted: AtomicBool::new(false),
            reader: AtomicWaker::new(),
            writer: AtomicWaker::new(),
            total_place: OnceLock::new(),
            address_place: OnceLock::new(),
        })
    }

    /// Keeps a place under a cap for as long as the connection lives.
    pub(super) fn hold(&self, place: impl Place) {
        place.keep_in(self);
    }

    pub(super) fn holds_address_place(&self) -> bool {
        self.address_place.get().is_some()
    }

    fn now_ms(&self) -> u64 {
        self.opened.elapsed().as_millis() as u64
    }

    fn at(&self, ms: u64) -> Instant {
        self.opened + Duration::from_millis(ms)
    }

    /// A request's headers have arrived and it is being answered.
    pub fn request_started(&self) {
        self.open_requests.fetch_add(1, Ordering::SeqCst);
        self.head_started_ms.store(u64::MAX, Ordering::SeqCst);
    }

    /// A response has been sent (or abandoned).
    pub fn request_finished(&self) {
        if self.open_requests.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.idle_since_ms.store(self.now_ms(), Ordering::SeqCst);
            // A read that began while the request was answered waits with no deadline.
            self.reader.wake();
        }
    }

    pub fn upgraded(&self) {
        self.upgraded.store(true, Ordering::SeqCst);
    }

    /// Cuts the connection off: its next read or write fails, and the one waiting now wakes.
    pub fn abort(&self) {
        self.aborted.store(true, Ordering::SeqCst);
        self.reader.wake();
        self.writer.wake();
    }

    fn check_aborted(&self) -> io::Result<()> {
        if self.aborted.load(Ordering::SeqCst) {
            Err(io::Error::new(io::ErrorKind::ConnectionAborted, "connection cut off"))
        } else {
            Ok(())
        }
    }

    /// Sends every later byte count to `observer`; only the first one set is kept.
    pub fn observe_writes(&self, observer: Arc<dyn WriteObserver>) {
        let _ = self.observer.set(observer);
    }

    /// Bytes arrived: while idle, they begin a request's headers.
    fn bytes_read(&self) {
        if self.open_requests.load(Ordering::SeqCst) == 0 && self.head_started_ms.load(Ordering::SeqCst) == u64::MAX {
            self.head_started_ms.store(self.now_ms(), Ordering::SeqCst);
        }
    }

    /// When a read still waiting must give up: headers that take too long, or an idle
    /// connection; none while a request is answered or after an upgrade.
    fn read_deadline(&self, deadlines: &Deadlines) -> Option<Instant> {
        if self.upgraded.load(Ordering::SeqCst) || self.open_requests.load(Ordering::SeqCst) > 0 {
            return None;
        }
        match self.head_started_ms.load(Ordering::SeqCst) {
            u64::MAX => Some(self.at(self.idle_since_ms.load(Ordering::SeqCst)) + deadlines.idle?),
            started => Some(self.at(started) + deadlines.header?),
        }
    }
}

/// A socket that enforces [`Deadlines`]: a read or write past its deadline fails with
/// `TimedOut`, and the connection is dropped.
pub struct GuardedIo<T> {
    inner: T,
    state: Arc<ConnectionState>,
    deadlines: Deadlines,
    read_timer: Option<(Instant, Pin<Box<Sleep>>)>,
    write_timer: Option<Pin<Box<Sleep>>>,
}

impl<T> GuardedIo<T> {
    pub fn new(inner: T, state: Arc<ConnectionState>, deadlines: Deadlines) -> Self {
        Self {
            inner,
            state,
            deadlines,
            read_timer: None,
            write_timer: None,
        }
    }

    /// Pending after a read found nothing: fails once the read deadline has passed.
    fn poll_read_deadline(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let Some(deadline) = self.state.read_deadline(&self.deadlines) else {
            self.read_timer = None;
            return Poll::Pending;
        };
        match &mut self.read_timer {
            Some((at, timer)) if *at == deadline => ready!(timer.as_mut().poll(cx)),
            timer => {
                let mut sleep = Box::pin(tokio::time::sleep_until(deadline));
                let fired = sleep.as_mut().poll(cx).is_ready();
                *timer = Some((deadline, sleep));
                if !fired {
                    return Poll::Pending;
                }
            }
        }
        Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "client too slow or idle")))
    }

    /// Pending after a write made no progress: fails once it has been stuck too long.
    fn poll_write_deadline(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let Some(write) = self.deadlines.write else {
            return Poll::Pending;
        };
        let timer = self
            .write_timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(write)));
        ready!(timer.as_mut().poll(cx));
        Poll::Ready(io::Error::new(
            io::ErrorKind::TimedOut,
            "client takes no response bytes",
        ))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for GuardedIo<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        self.state.reader.register(cx.waker());
        self.state.check_aborted()?;
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.state.bytes_read();
                }
                self.read_timer = None;
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
            Poll::Pending => self.poll_read_deadline(cx),
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for GuardedIo<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.state.writer.register(cx.waker());
        self.state.check_aborted()?;
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(written)) => {
                self.write_timer = None;
                if let Some(observer) = self.state.observer.get() {
                    observer.written(written);
                }
                Poll::Ready(Ok(written))
            }
            Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
            Poll::Pending => self.poll_write_deadline(cx).map(Err),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.state.writer.register(cx.waker());
        self.state.check_aborted()?;
        match Pin::new(&mut self.inner).poll_flush(cx) {
            Poll::Pending => self.poll_write_deadline(cx).map(Err),
            done => {
                self.write_timer = None;
                done
            }
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.inner).poll_shutdown(cx) {
            Poll::Pending => self.poll_write_deadline(cx).map(Err),
            done => done,
        }
    }
}
