//! CPU-heavy work (big JSON bodies, photos, long lists) goes to the blocking threads, a
//! bounded number of jobs at once, so the async threads keep answering and memory stays
//! bounded under a burst of uploads.

use std::sync::Arc;

use tokio::sync::Semaphore;

/// Work on inputs smaller than this runs inline: a blocking thread would cost more.
const INLINE_LIMIT: usize = 64 * 1024;

#[derive(Clone)]
pub struct CpuWork {
    permits: Arc<Semaphore>,
}

impl CpuWork {
    /// As many jobs at once as there are cores.
    pub fn new() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Self {
            permits: Arc::new(Semaphore::new(cores)),
        }
    }

    /// Runs `work` on an input of `input_len` bytes: inline when small, else on a blocking
    /// thread once a permit is free. Fails only if `work` panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        input_len: usize,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> anyhow::Result<T> {
        if input_len < INLINE_LIMIT {
            return Ok(work());
        }
        let _permit = self.permits.acquire().await?;
        Ok(tokio::task::spawn_blocking(work).await?)
    }
}

impl Default for CpuWork {
    fn default() -> Self {
        Self::new()
    }
}
