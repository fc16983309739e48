//! Support for the remote-fetch tests: a GCS look-alike HTTP server on loopback and a
//! realistic CI job tree to serve.

pub mod job;
pub mod server;

/// Fetch options against `server`, caching under `cache`, with `timeout` per job and a short
/// retry backoff (the tests' server answers at once).
pub fn fetch_options(
    server: &server::Server,
    cache: &std::path::Path,
    timeout: std::time::Duration,
) -> mglint::remote::FetchOptions {
    mglint::remote::FetchOptions {
        endpoint: server.endpoint.clone(),
        cache_dir: cache.to_path_buf(),
        timeout,
        backoff: std::time::Duration::from_millis(10),
        ..mglint::remote::FetchOptions::default()
    }
}
