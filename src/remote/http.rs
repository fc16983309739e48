//! The HTTP side of a fetch: a blocking reqwest client with connect and total timeouts,
//! bounded retries with exponential backoff (5xx, 408, 429, connection errors and timeouts;
//! never other 4xx), the GCS JSON listing with paging, and object downloads that stream to a
//! temporary file and rename it only when complete.

use super::RemoteError;
use super::location::GcsLocation;
use super::select::Listed;
use reqwest::Url;
use reqwest::blocking::{Client, Response};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Largest listing page we read into memory.
const MAX_PAGE_BYTES: u64 = 64 << 20;
/// Most pages of one listing (1000 objects each).
const MAX_PAGES: usize = 10_000;
/// Longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// What one attempt's failure means for the next.
enum Failure {
    Retry(RemoteError),
    Fatal(RemoteError),
}

/// Client settings taken from the fetch options.
#[derive(Debug, Clone)]
pub(crate) struct HttpSettings {
    pub endpoint: String,
    pub connect_timeout: Duration,
    pub timeout: Duration,
    pub retries: u32,
    pub backoff: Duration,
    /// Decode a body sent with `Content-Encoding: gzip` or `deflate` (plain URLs). GCS
    /// objects are stored as received instead (ingestion sniffs gzip data), so that a cached
    /// object keeps its listed size.
    pub decode_content_encoding: bool,
}

/// A GCS client for one endpoint.
#[derive(Debug)]
pub(crate) struct Http {
    client: Client,
    endpoint: Url,
    timeout: Duration,
    retries: u32,
    backoff: Duration,
    decode_content_encoding: bool,
}

impl Http {
    pub fn new(s: &HttpSettings) -> Result<Self, RemoteError> {
        let trimmed = s.endpoint.trim().trim_end_matches('/');
        let endpoint = Url::parse(trimmed).map_err(|e| RemoteError::Config {
            reason: format!("invalid GCS endpoint `{}`: {e}", s.endpoint),
        })?;
        if !matches!(endpoint.scheme(), "http" | "https") || endpoint.cannot_be_a_base() {
            return Err(RemoteError::Config {
                reason: format!(
                    "invalid GCS endpoint `{}`: expected an http or https URL",
                    s.endpoint
                ),
            });
        }
        check_cert_file()?;
        // A test server or local mirror is never reached through a proxy.
        let loopback = endpoint.host_str().is_some_and(|h| {
            h.eq_ignore_ascii_case("localhost")
                || h.trim_matches(['[', ']'])
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        });
        let mut b = Client::builder()
            .user_agent(concat!("mglint/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(s.connect_timeout)
            .timeout(s.timeout)
            // Redirects are bounded; reqwest follows only http and https ones.
            .redirect(reqwest::redirect::Policy::limited(5));
        if loopback {
            b = b.no_proxy();
        }
        let client = b.build().map_err(|e| RemoteError::Config {
            reason: format!("cannot start the HTTP client: {}", root_cause(&e)),
        })?;
        Ok(Http {
            client,
            endpoint,
            timeout: s.timeout,
            retries: s.retries,
            backoff: s.backoff,
            decode_content_encoding: s.decode_content_encoding,
        })
    }

    /// The URL of an object (`<endpoint>/<bucket>/<name>`, each segment percent-encoded).
    pub fn object_url(&self, bucket: &str, name: &str) -> Url {
        let mut u = self.endpoint.clone();
        if let Ok(mut segs) = u.path_segments_mut() {
            segs.pop_if_empty().push(bucket).extend(name.split('/'));
        }
        u
    }

    fn listing_url(&self, loc: &GcsLocation, token: Option<&str>) -> Url {
        let mut u = self.endpoint.clone();
        if let Ok(mut segs) = u.path_segments_mut() {
            segs.pop_if_empty()
                .extend(["storage", "v1", "b", loc.bucket.as_str(), "o"]);
        }
        {
            let mut q = u.query_pairs_mut();
            q.append_pair("prefix", &loc.prefix())
                .append_pair("maxResults", "1000")
                .append_pair("fields", "items(name,size),prefixes,nextPageToken");
            if let Some(t) = token {
                q.append_pair("pageToken", t);
            }
        }
        u
    }

    /// Lists every object under the job prefix (recursively: no delimiter), following pages.
    pub fn list(&self, loc: &GcsLocation) -> Result<Vec<Listed>, RemoteError> {
        let mut out = Vec::new();
        let mut token: Option<String> = None;
        // Every token seen: a server cycling A→B→A is caught on the first repeat, not after
        // MAX_PAGES requests.
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        for _ in 0..MAX_PAGES {
            let url = self.listing_url(loc, token.as_deref());
            let body = self.get_bytes(&url, MAX_PAGE_BYTES)?;
            let bad = |reason: String| RemoteError::BadListing {
                url: url.to_string(),
                reason,
            };
            let v: Value =
                serde_json::from_slice(&body).map_err(|e| bad(format!("invalid JSON: {e}")))?;
            if !v.is_object() {
                return Err(bad("expected a JSON object".to_string()));
            }
            for item in v
                .get("items")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(name) = item.get("name").and_then(Value::as_str) else {
                    return Err(bad("an item has no `name`".to_string()));
                };
                // GCS gives `size` as a decimal string (a uint64); accept a number too.
                let size = match item.get("size") {
                    Some(Value::String(s)) => s.parse().ok(),
                    Some(v) => v.as_u64(),
                    None => None,
                };
                out.push(Listed {
                    name: name.to_string(),
                    size,
                });
            }
            match v.get("nextPageToken").and_then(Value::as_str) {
                Some(t) if !t.is_empty() => {
                    if !seen.insert(t.to_string()) {
                        return Err(bad(format!("the server repeated page token `{t}`")));
                    }
                    token = Some(t.to_string());
                }
                _ => return Ok(out),
            }
        }
        Err(RemoteError::BadListing {
            url: self.listing_url(loc, None).to_string(),
            reason: format!("more than {MAX_PAGES} pages"),
        })
    }

    /// Runs `attempt` until it succeeds, fails for good, or the retries are spent.
    fn retrying<T>(
        &self,
        mut attempt: impl FnMut() -> Result<T, Failure>,
    ) -> Result<T, RemoteError> {
        let mut n = 0;
        loop {
            match attempt() {
                Ok(v) => return Ok(v),
                Err(Failure::Fatal(e)) => return Err(e.with_attempts(n + 1)),
                Err(Failure::Retry(e)) => {
                    if n >= self.retries {
                        return Err(e.with_attempts(n + 1));
                    }
                    let wait = self.backoff.saturating_mul(1 << n.min(16)).min(MAX_BACKOFF);
                    std::thread::sleep(wait);
                    n += 1;
                }
            }
        }
    }

    /// Sends one GET and checks the status.
    fn send(&self, url: &Url) -> Result<Response, Failure> {
        let resp = self
            .client
            .get(url.clone())
            .send()
            .map_err(|e| self.transport(url, &e))?;
        let status = resp.status();
        if status.is_success() {
            return Ok(resp);
        }
        let err = RemoteError::Http {
            url: url.to_string(),
            status: status.as_u16(),
            attempts: 1,
        };
        if status.is_server_error() || status.as_u16() == 408 || status.as_u16() == 429 {
            Err(Failure::Retry(err))
        } else {
            Err(Failure::Fatal(err))
        }
    }

    fn transport(&self, url: &Url, e: &reqwest::Error) -> Failure {
        if e.is_timeout() {
            return Failure::Retry(RemoteError::Timeout {
                url: url.to_string(),
                after: self.timeout,
                attempts: 1,
            });
        }
        let err = RemoteError::Network {
            url: url.to_string(),
            reason: root_cause(e),
            attempts: 1,
        };
        if e.is_builder() || e.is_redirect() {
            Failure::Fatal(err)
        } else {
            Failure::Retry(err)
        }
    }

    fn body_error(&self, url: &Url, e: &std::io::Error) -> Failure {
        let timed_out = e.kind() == std::io::ErrorKind::TimedOut
            || e.get_ref()
                .and_then(|r| r.downcast_ref::<reqwest::Error>())
                .is_some_and(reqwest::Error::is_timeout);
        if timed_out {
            Failure::Retry(RemoteError::Timeout {
                url: url.to_string(),
                after: self.timeout,
                attempts: 1,
            })
        } else {
            Failure::Retry(RemoteError::Network {
                url: url.to_string(),
                reason: format!("transfer broke off: {}", root_cause(e)),
                attempts: 1,
            })
        }
    }

    /// Streams a response body into `sink`, enforcing the size cap and the total timeout.
    fn copy_body(
        &self,
        url: &Url,
        resp: Response,
        cap: u64,
        started: Instant,
        sink: &mut dyn Write,
        sink_path: &Path,
    ) -> Result<u64, Failure> {
        if resp.content_length().is_some_and(|n| n > cap) {
            return Err(Failure::Fatal(RemoteError::TooLarge {
                url: url.to_string(),
                cap,
            }));
        }
        // A body sent with `Content-Encoding: gzip` (a server compressing on the fly, or one
        // labelling a `.tar.gz` so) is the file gzip-compressed once more: decoded here, the
        // cap counting the decoded bytes, so what is stored is the file itself.
        let encoding = resp
            .headers()
            .get(reqwest::header::CONTENT_ENCODING)
            .filter(|_| self.decode_content_encoding)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let mut resp: Box<dyn Read> = match encoding.as_str() {
            "" | "identity" => Box::new(resp),
            "gzip" | "x-gzip" => Box::new(flate2::read::MultiGzDecoder::new(resp)),
            "deflate" => Box::new(flate2::read::ZlibDecoder::new(resp)),
            other => {
                return Err(Failure::Fatal(RemoteError::Network {
                    url: url.to_string(),
                    reason: format!(
                        "the server sent the body with `Content-Encoding: {other}`, which mglint \
                         does not decode (gzip and deflate are)"
                    ),
                    attempts: 1,
                }));
            }
        };
        let mut buf = vec![0u8; 64 << 10];
        let mut total = 0u64;
        loop {
            if started.elapsed() > self.timeout {
                return Err(Failure::Retry(RemoteError::Timeout {
                    url: url.to_string(),
                    after: self.timeout,
                    attempts: 1,
                }));
            }
            let n = match resp.read(&mut buf) {
                Ok(0) => return Ok(total),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.body_error(url, &e)),
            };
            total += n as u64;
            if total > cap {
                return Err(Failure::Fatal(RemoteError::TooLarge {
                    url: url.to_string(),
                    cap,
                }));
            }
            sink.write_all(&buf[..n]).map_err(|e| {
                Failure::Fatal(RemoteError::Io {
                    path: sink_path.to_path_buf(),
                    reason: format!("cannot write: {e}"),
                })
            })?;
        }
    }

    /// GETs a small document into memory.
    pub fn get_bytes(&self, url: &Url, cap: u64) -> Result<Vec<u8>, RemoteError> {
        self.retrying(|| {
            let started = Instant::now();
            let resp = self.send(url)?;
            let mut out = Vec::new();
            self.copy_body(url, resp, cap, started, &mut out, Path::new("memory"))?;
            Ok(out)
        })
    }

    /// Downloads `url` to `dest`, bytes as received; returns the byte count. The data goes to
    /// a temporary file next to `dest`, renamed only when complete, and removed on failure.
    pub fn download(&self, url: &Url, dest: &Path, cap: u64) -> Result<u64, RemoteError> {
        let io = |path: &Path, what: &str, e: std::io::Error| RemoteError::Io {
            path: path.to_path_buf(),
            reason: format!("{what}: {e}"),
        };
        let dir = dest.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| io(dir, "cannot create directory", e))?;
        self.retrying(|| {
            let started = Instant::now();
            let resp = self.send(url)?;
            let mut tmp = TempFile::new(dest);
            let mut file = std::fs::File::create(&tmp.path)
                .map_err(|e| Failure::Fatal(io(&tmp.path, "cannot create file", e)))?;
            let n = self.copy_body(url, resp, cap, started, &mut file, &tmp.path)?;
            file.sync_all()
                .map_err(|e| Failure::Fatal(io(&tmp.path, "cannot write file", e)))?;
            drop(file);
            tmp.persist(dest)
                .map_err(|e| Failure::Fatal(io(dest, "cannot rename into place", e)))?;
            Ok(n)
        })
    }
}

/// The largest `SSL_CERT_FILE` read: a bundle of every public CA is about 250 KB.
const MAX_CERT_FILE_BYTES: u64 = 16 << 20;

/// `SSL_CERT_FILE`, which the TLS library reads whole when the client starts, must be a
/// regular file of at most [`MAX_CERT_FILE_BYTES`]: a FIFO blocked the run for ever and
/// `/dev/zero` grew it until an allocation of 2 GiB aborted it.
fn check_cert_file() -> Result<(), RemoteError> {
    let Some(path) = std::env::var_os("SSL_CERT_FILE").filter(|v| !v.is_empty()) else {
        return Ok(());
    };
    let shown = Path::new(&path).display().to_string();
    let refuse = |why: String| RemoteError::Config {
        reason: format!("SSL_CERT_FILE `{shown}`: {why}"),
    };
    match std::fs::metadata(&path) {
        Ok(m) if !m.is_file() => Err(refuse(
            "it is not a regular file (a FIFO, a device or a directory); name a PEM file"
                .to_string(),
        )),
        Ok(m) if m.len() > MAX_CERT_FILE_BYTES => Err(refuse(format!(
            "it is over the {MAX_CERT_FILE_BYTES}-byte bound for a certificate bundle"
        ))),
        // A missing file is the TLS library's to report, as it always has.
        _ => Ok(()),
    }
}

/// A temporary file next to its destination, removed on drop unless persisted.
pub(crate) struct TempFile {
    pub path: PathBuf,
    kept: bool,
}

impl TempFile {
    pub fn new(dest: &Path) -> Self {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        let path = dest.with_file_name(format!(".{name}.mglint-part-{}-{seq}", std::process::id()));
        TempFile { path, kept: false }
    }

    /// Renames the file to `dest`.
    pub fn persist(&mut self, dest: &Path) -> std::io::Result<()> {
        std::fs::rename(&self.path, dest)?;
        self.kept = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The innermost message of an error chain ("connection refused", not "error sending request").
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}
