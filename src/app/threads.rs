//! The worker pool. A pool that cannot start all the threads asked for (a container's pids
//! limit, `RLIMIT_NPROC`, an address-space limit) falls back to fewer, and at worst to the
//! calling thread alone; it never panics. Requests are capped at four threads per core.
//!
//! rayon's global pool can be set up only once, and a failed attempt leaves it unusable, so
//! each size is first tried on a throwaway local pool.

/// Not even one worker could be set up.
#[derive(Debug, thiserror::Error)]
#[error("cannot start worker threads: {0}")]
pub struct ThreadError(String);

/// Sets up the global pool with `requested` threads (all cores when `None`) or as many as
/// the system allows. Returns how many the pool has. Calling it again after a pool exists
/// keeps that pool.
pub fn init_threads(requested: Option<usize>) -> Result<usize, ThreadError> {
    let mut want = requested
        .unwrap_or_else(default_threads)
        .clamp(1, max_threads());
    let mut last_error = String::new();
    while want > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(want).build() {
            Ok(probe) => {
                drop(probe);
                match rayon::ThreadPoolBuilder::new()
                    .num_threads(want)
                    .build_global()
                {
                    Ok(()) => return Ok(want),
                    Err(e) if already(&e) => return Ok(rayon::current_num_threads()),
                    Err(e) => return Err(ThreadError(e.to_string())),
                }
            }
            Err(e) => {
                last_error = e.to_string();
                want /= 2;
            }
        }
    }
    // The calling thread as the only worker: needs no new thread at all.
    match rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build_global()
    {
        Ok(()) => Ok(1),
        Err(e) if already(&e) => Ok(rayon::current_num_threads()),
        Err(e) => Err(ThreadError(if last_error.is_empty() {
            e.to_string()
        } else {
            format!("{last_error}; {e}")
        })),
    }
}

/// All cores, or `RAYON_NUM_THREADS` when set.
fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
}

/// More workers than this are never started: four per core (the work is CPU-bound). A
/// request like `-j 5000` would otherwise start thousands of threads whose stacks and
/// malloc arenas can exhaust an address-space limit before the pool reports failure.
fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_mul(4)
        .max(4)
}

fn already(e: &rayon::ThreadPoolBuildError) -> bool {
    e.to_string().contains("already been initialized")
}
