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
    /// [`cores`], read once: it reads the process's cgroup files each time.
    cores: usize,
    /// Blocking threads of their own (see [`CpuWork::on_threads_of`]), else the runtime's.
    threads: Option<tokio::runtime::Handle>,
}

/// The cores this process may use (two when the system does not say): how many CPU-heavy
/// jobs of one kind run at once.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}

impl CpuWork {
    /// As many jobs at once as there are cores.
    pub fn new() -> Self {
        let cores = cores();
        Self {
            permits: Arc::new(Semaphore::new(cores)),
            cores,
            threads: None,
        }
    }

    /// The same, on the blocking threads of `runtime` (a runtime kept for the process, never
    /// run itself): they carry its thread name, so the CPU one kind of work takes can be told
    /// apart from the rest (`/proc/PID/task/*/comm`).
    pub fn on_threads_of(runtime: &tokio::runtime::Runtime) -> Self {
        Self {
            threads: Some(runtime.handle().clone()),
            ..Self::new()
        }
    }

    fn spawn_blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> tokio::task::JoinHandle<T> {
        match &self.threads {
            Some(threads) => threads.spawn_blocking(work),
            None => tokio::task::spawn_blocking(work),
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
        Ok(self.spawn_blocking(work).await?)
    }

    /// Runs `work` over `items` on the blocking threads, a run of consecutive items per core
    /// (each once a permit is free), and returns its outputs in the items' order.
    pub async fn across_cores<T: Send + 'static, U: Send + 'static>(
        &self,
        items: Vec<T>,
        work: impl Fn(Vec<T>) -> Vec<U> + Clone + Send + 'static,
    ) -> anyhow::Result<Vec<U>> {
        let per_core = items.len().div_ceil(self.cores).max(1);
        let mut items = items.into_iter();
        let mut runs = Vec::new();
        loop {
            let run: Vec<T> = items.by_ref().take(per_core).collect();
            if run.is_empty() {
                break;
            }
            let permit = self.permits.clone().acquire_owned().await?;
            let work = work.clone();
            runs.push(self.spawn_blocking(move || {
                let _permit = permit;
                work(run)
            }));
        }
        let mut outputs = Vec::new();
        for run in runs {
            outputs.extend(run.await?);
        }
        Ok(outputs)
    }
}

impl Default for CpuWork {
    fn default() -> Self {
        Self::new()
    }
}
