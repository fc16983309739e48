//! The HTTP side of a fetch: a blocking reqwest client with connect and total timeouts,
//! bounded retries with exponential backoff (5xx, 408, 429, connection errors and timeouts;
//! never other 4xx), the GCS JSON listing with paging (each page read under a byte cap and
//! parsed into only the names and sizes, at most [`MAX_PAGE_ITEMS`] of them), and object
//! downloads that stream to a temporary file ([`crate::safe_fs`]) renamed only when complete.
//! Every request of one job shares a [`Budget`]: a deadline (retries, waits and a body that
//! trickles included) and a byte count.

use super::RemoteError;
use super::location::GcsLocation;
use super::select::Listed;
use reqwest::Url;
use reqwest::blocking::{Client, Response};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Largest listing page read into memory (a real page of 1000 items is about 200 KB).
pub const MAX_PAGE_BYTES: u64 = 32 << 20;
/// Most items one listing page may hold (mglint asks for 1000).
pub const MAX_PAGE_ITEMS: usize = 10_000;
/// Most pages of one listing (1000 objects each).
const MAX_PAGES: usize = 10_000;
/// Longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// What one attempt's failure means for the next.
enum Failure {
    Retry(RemoteError),
    Fatal(RemoteError),
}

/// What one job's requests may spend together: time until a deadline (attempts, the waits
/// between them and body reads all count) and bytes received.
#[derive(Debug)]
pub(crate) struct Budget {
    deadline: Instant,
    limit: Duration,
    max_bytes: u64,
    used: AtomicU64,
}

impl Budget {
    pub fn new(limit: Duration, max_bytes: u64) -> Self {
        let now = Instant::now();
        Budget {
            // A limit past what an Instant holds is no limit (about a century).
            deadline: now
                .checked_add(limit)
                .or_else(|| now.checked_add(Duration::from_secs(1 << 32)))
                .unwrap_or(now),
            limit,
            max_bytes,
            used: AtomicU64::new(0),
        }
    }

    pub(super) fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    pub(super) fn out_of_time(&self, url: &Url, attempts: u32) -> RemoteError {
        RemoteError::JobDeadline {
            url: url.to_string(),
            after: self.limit,
            attempts,
        }
    }

    /// Counts `n` more bytes received; false once the job is over its byte budget.
    pub(super) fn take(&self, n: u64) -> bool {
        self.used.fetch_add(n, Ordering::Relaxed).saturating_add(n) <= self.max_bytes
    }

    /// Bytes received so far by the job's requests (listing pages and objects).
    pub(super) fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// The error for a job over its byte budget.
    pub(super) fn over(&self, url: &Url) -> RemoteError {
        RemoteError::JobBytes {
            url: url.to_string(),
            cap: self.max_bytes,
        }
    }
}

/// One page of a GCS listing: the items' names and sizes (every other field is skipped
/// unread) and the next page's token.
#[derive(Debug, Default, serde::Deserialize)]
pub struct ListingPage {
    #[serde(default, deserialize_with = "bounded_items")]
    pub items: Vec<Listed>,
    #[serde(default, rename = "nextPageToken")]
    pub next_page_token: Option<String>,
}

/// Parses one listing page (a JSON object) into its items and next token.
pub fn parse_listing_page(body: &[u8]) -> Result<ListingPage, String> {
    let v: ListingPage = serde_json::from_slice(body).map_err(|e| format!("invalid JSON: {e}"))?;
    Ok(v)
}

#[derive(serde::Deserialize)]
struct RawItem {
    name: String,
    #[serde(default)]
    size: Size,
}

/// An item's `size`: GCS gives a decimal string (a uint64); a number is accepted too, and
/// anything else is no size.
#[derive(Default)]
struct Size(Option<u64>);

impl<'de> serde::Deserialize<'de> for Size {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Size;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a size")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Size, E> {
                Ok(Size(v.parse().ok()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Size, E> {
                Ok(Size(Some(v)))
            }
            fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Size, E> {
                Ok(Size(None))
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Size, E> {
                Ok(Size(None))
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Size, E> {
                Ok(Size(None))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Size, E> {
                Ok(Size(None))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Size, A::Error> {
                while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Size(None))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Size, A::Error> {
                while a
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Size(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// The `items` array, refused past [`MAX_PAGE_ITEMS`] while it is read.
fn bounded_items<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Listed>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Vec<Listed>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an array of objects with a `name`")
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Vec<Listed>, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut a: A,
        ) -> Result<Vec<Listed>, A::Error> {
            let mut out = Vec::new();
            while let Some(item) = a.next_element::<RawItem>()? {
                if out.len() == MAX_PAGE_ITEMS {
                    return Err(serde::de::Error::custom(format!(
                        "more than {MAX_PAGE_ITEMS} items in one page"
                    )));
                }
                out.push(Listed {
                    name: item.name,
                    size: item.size.0,
                });
            }
            Ok(out)
        }
    }
    d.deserialize_any(V)
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

    /// Further attempts after a failure that may pass.
    pub(super) fn retries(&self) -> u32 {
        self.retries
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

    /// Lists the objects under the job prefix (recursively: no delimiter), following pages,
    /// and keeps those `keep` accepts, at most `max_kept` of them: one page at a time is held,
    /// never the whole listing. Gives the objects kept, how many were listed, and whether
    /// the listing stopped at `max_kept` with pages still to come.
    pub fn list(
        &self,
        loc: &GcsLocation,
        budget: &Budget,
        keep: &dyn Fn(&str) -> bool,
        max_kept: usize,
    ) -> Result<(Vec<Listed>, usize, bool), RemoteError> {
        let mut out = Vec::new();
        let mut listed = 0usize;
        let mut token: Option<String> = None;
        // Every token seen: a server cycling A→B→A is caught on the first repeat, not after
        // MAX_PAGES requests.
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        for _ in 0..MAX_PAGES {
            let url = self.listing_url(loc, token.as_deref());
            let body = self
                .get_bytes(&url, MAX_PAGE_BYTES, budget)
                .map_err(|e| match e {
                    RemoteError::TooLarge { url, cap } => RemoteError::BadListing {
                        url,
                        reason: format!("a page is over the {cap}-byte cap for one listing page"),
                    },
                    e => e,
                })?;
            let bad = |reason: String| RemoteError::BadListing {
                url: url.to_string(),
                reason,
            };
            let page = parse_listing_page(&body).map_err(bad)?;
            drop(body);
            listed += page.items.len();
            for item in page.items {
                if !keep(&item.name) {
                    continue;
                }
                if out.len() == max_kept {
                    return Ok((out, listed, true));
                }
                out.push(item);
            }
            match page.next_page_token {
                Some(t) if !t.is_empty() => {
                    if !seen.insert(t.clone()) {
                        return Err(bad(format!("the server repeated page token `{t}`")));
                    }
                    token = Some(t);
                }
                _ => return Ok((out, listed, false)),
            }
        }
        Err(RemoteError::BadListing {
            url: self.listing_url(loc, None).to_string(),
            reason: format!("more than {MAX_PAGES} pages"),
        })
    }

    /// Runs `attempt` (given the time it may take) until it succeeds, fails for good, the
    /// retries are spent, or the job's deadline passes.
    fn retrying<T>(
        &self,
        url: &Url,
        budget: &Budget,
        mut attempt: impl FnMut(Duration) -> Result<T, Failure>,
    ) -> Result<T, RemoteError> {
        let mut n = 0;
        loop {
            let left = budget.remaining();
            if left.is_zero() {
                return Err(budget.out_of_time(url, n));
            }
            match attempt(left.min(self.timeout)) {
                Ok(v) => return Ok(v),
                Err(Failure::Fatal(e)) => return Err(e.with_attempts(n + 1)),
                Err(Failure::Retry(e)) => {
                    if budget.remaining().is_zero() {
                        return Err(budget.out_of_time(url, n + 1));
                    }
                    if n >= self.retries {
                        return Err(e.with_attempts(n + 1));
                    }
                    let wait = self.backoff.saturating_mul(1 << n.min(16)).min(MAX_BACKOFF);
                    std::thread::sleep(wait.min(budget.remaining()));
                    n += 1;
                }
            }
        }
    }

    /// Sends one GET, to be answered whole within `time`, and checks the status.
    fn send(&self, url: &Url, time: Duration) -> Result<Response, Failure> {
        let resp = self
            .client
            .get(url.clone())
            .timeout(time)
            .send()
            .map_err(|e| self.transport(url, &e))?;
        let status = resp.status();
        if status.is_success() {
            return Ok(resp);
        }
        Err(status_failure(url, status))
    }

    /// GETs `len` bytes of `url` from `start` (`Range`; with `If-Range` when `if_range` is
    /// an entity tag, so that a changed object comes whole instead of in mixed parts). A 206
    /// must say, in `Content-Range`, that it holds exactly the bytes asked for (the last
    /// ones may be missing at the object's end) and carry no `Content-Encoding`; a 200 is
    /// the whole object (the server ignored the range).
    pub(crate) fn get_range(
        &self,
        url: &Url,
        (start, len): (u64, u64),
        if_range: Option<&str>,
        budget: &Budget,
    ) -> Result<RangeAnswer, RemoteError> {
        let last = start.saturating_add(len.max(1) - 1);
        self.retrying(url, budget, |time| {
            let mut req = self
                .client
                .get(url.clone())
                .timeout(time)
                .header(reqwest::header::RANGE, format!("bytes={start}-{last}"));
            if let Some(tag) = if_range {
                req = req.header(reqwest::header::IF_RANGE, tag);
            }
            let resp = req.send().map_err(|e| self.transport(url, &e))?;
            let status = resp.status();
            if status == reqwest::StatusCode::PARTIAL_CONTENT {
                let bad = |why: &str| Ok(RangeAnswer::Unusable(why.to_string()));
                let header = |name| {
                    resp.headers()
                        .get(name)
                        .and_then(|v| v.to_str().ok())
                        .map(str::trim)
                };
                if header(reqwest::header::CONTENT_ENCODING).is_some_and(|e| e != "identity") {
                    return bad("the server sends parts of it encoded");
                }
                let Some((a, b, total)) =
                    header(reqwest::header::CONTENT_RANGE).and_then(parse_content_range)
                else {
                    return bad("a part came without `Content-Range: bytes A-B/TOTAL`");
                };
                if a != start || b < a || b > last || b >= total {
                    return bad("a part's `Content-Range` is not the range asked for");
                }
                if resp.content_length().is_some_and(|n| n != b - a + 1) {
                    return bad("a part's `Content-Length` does not match its `Content-Range`");
                }
                let etag = header(reqwest::header::ETAG)
                    .filter(|t| t.starts_with('"'))
                    .map(str::to_string);
                return Ok(RangeAnswer::Part {
                    len: b - a + 1,
                    total,
                    etag,
                    resp,
                });
            }
            if status.is_success() {
                return Ok(RangeAnswer::Whole(resp));
            }
            Err(status_failure(url, status))
        })
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

    /// Streams a response body into `sink`, enforcing the size cap, the job's byte budget
    /// and the attempt's `time` (a body that trickles is cut when it runs out).
    #[allow(clippy::too_many_arguments)]
    fn copy_body(
        &self,
        url: &Url,
        resp: Response,
        cap: u64,
        (started, time): (Instant, Duration),
        budget: &Budget,
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
            if started.elapsed() > time {
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
            if !budget.take(n as u64) {
                return Err(Failure::Fatal(RemoteError::JobBytes {
                    url: url.to_string(),
                    cap: budget.max_bytes,
                }));
            }
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
    pub fn get_bytes(&self, url: &Url, cap: u64, budget: &Budget) -> Result<Vec<u8>, RemoteError> {
        self.retrying(url, budget, |time| {
            let started = Instant::now();
            let resp = self.send(url, time)?;
            let mut out = Vec::new();
            let at = (started, time);
            self.copy_body(url, resp, cap, at, budget, &mut out, Path::new("memory"))?;
            Ok(out)
        })
    }

    /// Writes a response already received (the whole object) to `dest` as [`Http::download`]
    /// does, in one attempt; returns the byte count.
    pub(crate) fn save(
        &self,
        url: &Url,
        resp: Response,
        dest: &Path,
        cap: u64,
        budget: &Budget,
    ) -> Result<u64, RemoteError> {
        let started = Instant::now();
        let time = budget.remaining().min(self.timeout);
        self.write_body(url, resp, dest, cap, (started, time), budget)
            .map_err(|f| match f {
                Failure::Retry(e) | Failure::Fatal(e) => e,
            })
    }

    /// Streams `resp` to a temporary file beside `dest`, renamed over it when complete.
    fn write_body(
        &self,
        url: &Url,
        resp: Response,
        dest: &Path,
        cap: u64,
        at: (Instant, Duration),
        budget: &Budget,
    ) -> Result<u64, Failure> {
        let dir = crate::safe_fs::parent_dir(dest);
        let mut tmp = crate::safe_fs::temp_in(dir)
            .map_err(|e| Failure::Fatal(local_error(dir, "cannot create a temporary file", e)))?;
        let tmp_path = tmp.path().to_path_buf();
        let n = self.copy_body(url, resp, cap, at, budget, &mut tmp, &tmp_path)?;
        tmp.as_file()
            .sync_all()
            .map_err(|e| Failure::Fatal(local_error(&tmp_path, "cannot write file", e)))?;
        crate::safe_fs::persist(tmp, dest)
            .map_err(|e| Failure::Fatal(local_error(dest, "cannot rename into place", e)))?;
        Ok(n)
    }

    /// Downloads `url` to `dest`, bytes as received; returns the byte count. The data goes to
    /// a temporary file with a random name, created exclusively in `dest`'s directory (which
    /// must exist), renamed over `dest` only when complete and removed on failure.
    pub fn download(
        &self,
        url: &Url,
        dest: &Path,
        cap: u64,
        budget: &Budget,
    ) -> Result<u64, RemoteError> {
        self.retrying(url, budget, |time| {
            let started = Instant::now();
            let resp = self.send(url, time)?;
            self.write_body(url, resp, dest, cap, (started, time), budget)
        })
    }
}

/// A local write error: a name the file system refuses is this object's failure alone; any
/// other (a full disk) stops the fetch.
pub(super) fn local_error(path: &Path, what: &str, e: std::io::Error) -> RemoteError {
    let (path, reason) = (path.to_path_buf(), format!("{what}: {e}"));
    if e.kind() == std::io::ErrorKind::InvalidFilename {
        RemoteError::Unplaceable { path, reason }
    } else {
        RemoteError::Io { path, reason }
    }
}

/// What a failed status means for the next attempt: 5xx, 408 and 429 are retried.
fn status_failure(url: &Url, status: reqwest::StatusCode) -> Failure {
    let err = RemoteError::Http {
        url: url.to_string(),
        status: status.as_u16(),
        attempts: 1,
    };
    if status.is_server_error() || status.as_u16() == 408 || status.as_u16() == 429 {
        Failure::Retry(err)
    } else {
        Failure::Fatal(err)
    }
}

/// How a ranged GET was answered.
pub(crate) enum RangeAnswer {
    /// 206: `len` bytes from the start asked for, of an object of `total` bytes, with the
    /// object's entity tag when the server gave a strong one.
    Part {
        resp: Response,
        len: u64,
        total: u64,
        etag: Option<String>,
    },
    /// 200: the server ignored the range; the whole object follows.
    Whole(Response),
    /// A 206 that cannot be used as the part asked for, and why (the body is not read).
    Unusable(String),
}

/// `bytes A-B/TOTAL` (a `*` total, or anything else, is not usable).
fn parse_content_range(v: &str) -> Option<(u64, u64, u64)> {
    let rest = v.strip_prefix("bytes ")?.trim();
    let (range, total) = rest.split_once('/')?;
    let (a, b) = range.split_once('-')?;
    let num = |s: &str| {
        let s = s.trim();
        (!s.is_empty() && s.len() <= 19 && s.bytes().all(|c| c.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    Some((num(a)?, num(b)?, num(total)?))
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

/// The innermost message of an error chain ("connection refused", not "error sending request").
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_range_is_read_strictly() {
        assert_eq!(
            parse_content_range("bytes 0-4095/209715200"),
            Some((0, 4095, 209_715_200))
        );
        for bad in [
            "bytes 0-4095/*",
            "bytes */200",
            "bytes -1-5/10",
            "bytes 0-99999999999999999999/1",
            "items 0-1/2",
            "bytes 0-1",
            "bytes +1-2/3",
        ] {
            assert_eq!(parse_content_range(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_listing_page_keeps_names_and_sizes_and_is_bounded() {
        let page = br#"{"kind":"storage#objects","prefixes":["p/"],"nextPageToken":"t2",
            "items":[{"kind":"storage#object","name":"a","size":"12","metadata":{"x":[1,2]}},
                     {"name":"b","size":7},{"name":"c","size":{"odd":true}},{"name":"d"}]}"#;
        let p = parse_listing_page(page).unwrap();
        let got: Vec<(&str, Option<u64>)> =
            p.items.iter().map(|l| (l.name.as_str(), l.size)).collect();
        assert_eq!(
            got,
            [("a", Some(12)), ("b", Some(7)), ("c", None), ("d", None)]
        );
        assert_eq!(p.next_page_token.as_deref(), Some("t2"));
        assert!(
            parse_listing_page(br#"{"items":null}"#)
                .unwrap()
                .items
                .is_empty()
        );
        let e = parse_listing_page(br#"{"items":[{"size":"1"}]}"#).unwrap_err();
        assert!(e.contains("missing field `name`"), "{e}");
        assert!(parse_listing_page(b"[1]").is_err());
        let many = format!(
            r#"{{"items":[{}{{"name":"z"}}]}}"#,
            r#"{"name":"x"},"#.repeat(MAX_PAGE_ITEMS)
        );
        let e = parse_listing_page(many.as_bytes()).unwrap_err();
        assert!(
            e.contains(&format!("more than {MAX_PAGE_ITEMS} items in one page")),
            "{e}"
        );
    }
}
