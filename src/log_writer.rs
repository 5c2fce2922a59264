//! Where log lines go: gathered in memory and written to standard error by a thread of its own
//! every few milliseconds, in one write. A line costs the request that logs it a copy under a
//! lock, not a wake-up of another thread (what a channel per line costs, the most of an access
//! log's price at tens of thousands of requests a second) nor a system call.
//!
//! Nothing is dropped: when the lines pile up past a bound (standard error blocked), the one
//! logging writes them itself, and waits. A crash loses at most the last few milliseconds of
//! lines; a clean exit writes them all (`Flush`).

use std::{
    io::{self, Write},
    sync::{Arc, Condvar, Mutex, MutexGuard},
    thread,
    time::Duration,
};

use tracing_subscriber::fmt::MakeWriter;

/// How long lines wait at most before they are written.
const EVERY: Duration = Duration::from_millis(10);
/// Lines held before the one logging writes them itself.
const BOUND: usize = 1 << 20;

#[derive(Default)]
struct Lines {
    pending: Vec<u8>,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    lines: Mutex<Lines>,
    /// Rung at close, so the writing thread does not sleep out its interval.
    closing: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Lines> {
        // A panic while holding the lock leaves whole lines behind it: keep going.
        self.lines.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The writer `tracing_subscriber` formats each line into.
pub struct LogWriter {
    shared: Arc<Shared>,
}

/// Writes what is left when dropped (at the end of `main`), and stops the thread.
pub struct Flush {
    shared: Arc<Shared>,
    thread: Option<thread::JoinHandle<()>>,
}

/// The writer, and the guard that writes the last lines.
pub fn to_stderr() -> (LogWriter, Flush) {
    let shared = Arc::new(Shared::default());
    let writing = Arc::clone(&shared);
    let thread = thread::Builder::new()
        .name("log-writer".into())
        .spawn(move || write_every(&writing))
        .expect("the log's thread starts");
    (
        LogWriter {
            shared: Arc::clone(&shared),
        },
        Flush {
            shared,
            thread: Some(thread),
        },
    )
}

/// Writes the lines every `EVERY` until closed, then the last of them.
fn write_every(shared: &Shared) {
    let mut batch = Vec::new();
    loop {
        let mut lines = shared.lock();
        if !lines.closed {
            lines = shared
                .closing
                .wait_timeout(lines, EVERY)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
        let closed = lines.closed;
        std::mem::swap(&mut batch, &mut lines.pending);
        drop(lines);
        // Nowhere to report a failed write of the log to: the next batch tries again.
        let _ = io::stderr().lock().write_all(&batch);
        batch.clear();
        if closed {
            return;
        }
    }
}

impl io::Write for &LogWriter {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        let mut lines = self.shared.lock();
        if lines.pending.len() + line.len() > BOUND {
            // Standard error keeps up no more: write here, holding the others back.
            io::stderr().lock().write_all(&lines.pending)?;
            lines.pending.clear();
        }
        lines.pending.extend_from_slice(line);
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for LogWriter {
    type Writer = &'a LogWriter;

    fn make_writer(&'a self) -> Self::Writer {
        self
    }
}

impl Drop for Flush {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.closing.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
