//! A small GCS look-alike for the remote-fetch tests: a threaded HTTP/1.1 server on
//! 127.0.0.1 that serves the JSON listing `/storage/v1/b/<bucket>/o?prefix=&delimiter=&pageToken=`
//! (paged, `items[{name,size}]`, `prefixes[]`, `nextPageToken`) and objects at
//! `/<bucket>/<name>`, with per-object misbehaviour (500s, 404, stalls). Objects answer range
//! requests as GCS does (`Range: bytes=A-B`: 206 with `Content-Range`, `Accept-Ranges` and an
//! `ETag`; 416 past the end), unless [`Server::refuse_ranges`] makes it answer them with the
//! whole object. It counts requests and the body bytes it sent, accepts a bounded number of
//! connections for a bounded time (keeping them open between requests when asked,
//! [`Server::keep_alive`]), and stops when dropped. Over TLS too ([`Server::start_tls`]), for
//! the tests of certificate trust.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest a server lives, and the most connections it accepts.
const LIFETIME: Duration = Duration::from_secs(120);
const MAX_CONNECTIONS: usize = 2000;

/// How an object answers a GET.
#[derive(Debug, Clone)]
pub enum Behaviour {
    /// 200 with the bytes.
    Normal,
    /// 500 for the first `n` GETs, then 200.
    FailFirst(usize),
    /// Listed, but 404 on GET (deleted after listing).
    Missing,
    /// Headers and the first half of the body, then silence for this long.
    Stall(Duration),
    /// Listed with its own size, but the GET sends this other (larger) body.
    ServeInstead(Arc<Vec<u8>>),
    /// A body without a length that never ends (until the client hangs up, or 256 MiB).
    Endless,
    /// The bytes gzip-compressed once more and sent with `Content-Encoding: gzip`, as a web
    /// server compressing on the fly sends them.
    GzipEncoded,
    /// 200 with an HTML page (a login or error page) instead of the object.
    HtmlPage,
    /// The whole body, a byte at a time, spread over this long (a slow drip).
    Drip(Duration),
}

struct Obj {
    data: Arc<Vec<u8>>,
    behaviour: Behaviour,
    gets: usize,
}

struct State {
    objects: Mutex<BTreeMap<(String, String), Obj>>,
    requests: AtomicUsize,
    log: Mutex<Vec<String>>,
    page_size: usize,
    /// When not 0, every listing page is this many bytes of items (names under the prefix
    /// asked for), sent without a length.
    huge_pages: AtomicUsize,
    /// Range requests are answered with the whole object.
    no_ranges: AtomicBool,
    /// Connections stay open between requests.
    keep_alive: AtomicBool,
    /// Body bytes sent for objects (not listings), and how many object GETs had a `Range`.
    object_bytes: AtomicU64,
    range_gets: AtomicUsize,
}

pub struct Server {
    pub endpoint: String,
    state: Arc<State>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server on an ephemeral loopback port; listings return `page_size` entries a page.
    pub fn start(page_size: usize) -> Server {
        Server::start_with(page_size, None)
    }

    /// The same server over TLS with `config` (certificate and key); its endpoint is
    /// `https://localhost:PORT`.
    pub fn start_tls(page_size: usize, config: rustls::ServerConfig) -> Server {
        Server::start_with(page_size, Some(Arc::new(config)))
    }

    /// A server that lives `lifetime` and accepts `connections` connections (a bench's).
    pub fn start_for(page_size: usize, lifetime: Duration, connections: usize) -> Server {
        Server::start_full(page_size, None, lifetime, connections)
    }

    fn start_with(page_size: usize, tls: Option<Arc<rustls::ServerConfig>>) -> Server {
        Server::start_full(page_size, tls, LIFETIME, MAX_CONNECTIONS)
    }

    fn start_full(
        page_size: usize,
        tls: Option<Arc<rustls::ServerConfig>>,
        lifetime: Duration,
        max_connections: usize,
    ) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        assert!(addr.ip().is_loopback());
        listener.set_nonblocking(true).unwrap();
        let state = Arc::new(State {
            objects: Mutex::new(BTreeMap::new()),
            requests: AtomicUsize::new(0),
            log: Mutex::new(Vec::new()),
            page_size,
            huge_pages: AtomicUsize::new(0),
            no_ranges: AtomicBool::new(false),
            keep_alive: AtomicBool::new(false),
            object_bytes: AtomicU64::new(0),
            range_gets: AtomicUsize::new(0),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let (st, sp) = (state.clone(), stop.clone());
        let tls_on = tls.is_some();
        let thread = std::thread::spawn(move || {
            let born = Instant::now();
            let mut accepted = 0;
            while !sp.load(Ordering::SeqCst)
                && born.elapsed() < lifetime
                && accepted < max_connections
            {
                match listener.accept() {
                    Ok((stream, _)) => {
                        accepted += 1;
                        let (st, tls) = (st.clone(), tls.clone());
                        std::thread::spawn(move || handle(stream, &st, tls.as_ref()));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    Err(_) => break,
                }
            }
        });
        Server {
            endpoint: if tls_on {
                format!("https://localhost:{}", addr.port())
            } else {
                format!("http://{addr}")
            },
            state,
            stop,
            thread: Some(thread),
        }
    }

    pub fn put(&self, bucket: &str, name: &str, data: Vec<u8>, behaviour: Behaviour) {
        let obj = Obj {
            data: Arc::new(data),
            behaviour,
            gets: 0,
        };
        self.state
            .objects
            .lock()
            .unwrap()
            .insert((bucket.to_string(), name.to_string()), obj);
    }

    /// Serves every file under `dir` as `<prefix>/<relative path>`, bytes as on disk.
    pub fn put_dir(&self, bucket: &str, prefix: &str, dir: &Path) {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let rel = p
                        .strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    self.put(
                        bucket,
                        &format!("{prefix}/{rel}"),
                        std::fs::read(&p).unwrap(),
                        Behaviour::Normal,
                    );
                }
            }
        }
    }

    /// From now on every listing page is `bytes` bytes of generated items.
    pub fn huge_listing_pages(&self, bytes: usize) {
        self.state.huge_pages.store(bytes, Ordering::SeqCst);
    }

    /// From now on range requests are answered with the whole object (200, no
    /// `Accept-Ranges`), as a server that does not do ranges answers them.
    pub fn refuse_ranges(&self) {
        self.state.no_ranges.store(true, Ordering::SeqCst);
    }

    /// From now on connections stay open for further requests (HTTP/1.1 keep-alive).
    pub fn keep_alive(&self) {
        self.state.keep_alive.store(true, Ordering::SeqCst);
    }

    /// Body bytes sent for objects so far (listing pages not counted).
    pub fn object_bytes(&self) -> u64 {
        self.state.object_bytes.load(Ordering::SeqCst)
    }

    /// Object GETs that carried a `Range` header so far.
    pub fn range_gets(&self) -> usize {
        self.state.range_gets.load(Ordering::SeqCst)
    }

    /// Requests received so far.
    pub fn requests(&self) -> usize {
        self.state.requests.load(Ordering::SeqCst)
    }

    /// Requests whose target contains `needle` (decoded).
    pub fn requests_for(&self, needle: &str) -> usize {
        self.state
            .log
            .lock()
            .unwrap()
            .iter()
            .filter(|t| t.contains(needle))
            .count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                let v = s
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                out.push(v.unwrap_or(b'?'));
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).to_string()
}

fn respond<S: Write>(s: &mut S, status: &str, headers: &[(&str, String)], body: &[u8]) {
    respond_on(s, status, headers, body, false)
}

/// A response, the connection kept open after it when `keep` is set.
fn respond_on<S: Write>(
    s: &mut S,
    status: &str,
    headers: &[(&str, String)],
    body: &[u8],
    keep: bool,
) {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\n{}",
        body.len(),
        if keep { "" } else { "Connection: close\r\n" }
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = s.write_all(head.as_bytes());
    let _ = s.write_all(body);
    let _ = s.flush();
}

fn handle(mut s: TcpStream, st: &State, tls: Option<&Arc<rustls::ServerConfig>>) {
    let _ = s.set_nonblocking(false);
    // Headers and body go out as they are written: with Nagle's algorithm on, a kept-alive
    // connection waits for the client's delayed ACK (40 ms) before each response's body.
    let _ = s.set_nodelay(true);
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    match tls {
        None => serve(&mut s, st),
        Some(cfg) => {
            let Ok(conn) = rustls::ServerConnection::new(cfg.clone()) else {
                return;
            };
            serve(&mut rustls::StreamOwned::new(conn, s), st);
        }
    }
}

fn serve<S: Read + Write>(s: &mut S, st: &State) {
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let mut buf = [0u8; 4096];
        let end = loop {
            if let Some(i) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            if pending.len() >= 16384 {
                return;
            }
            match s.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => pending.extend_from_slice(&buf[..n]),
            }
        };
        let req: Vec<u8> = pending.drain(..end).collect();
        if !serve_one(s, st, &req) {
            return;
        }
    }
}

/// Answers one request; whether the connection stays open for another.
fn serve_one<S: Read + Write>(s: &mut S, st: &State, req: &[u8]) -> bool {
    let text = String::from_utf8_lossy(req).to_string();
    let mut first = text.lines().next().unwrap_or("").split(' ');
    let (method, target) = (
        first.next().unwrap_or(""),
        first.next().unwrap_or("").to_string(),
    );
    st.requests.fetch_add(1, Ordering::SeqCst);
    st.log.lock().unwrap().push(decode(&target));
    if method != "GET" {
        respond(s, "405 Method Not Allowed", &[], b"");
        return false;
    }
    let range = text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case("range")
            .then(|| v.trim().to_string())
    });
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let q: BTreeMap<String, String> = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect();
    if let Some(rest) = path.strip_prefix("/storage/v1/b/") {
        let Some(bucket) = rest.strip_suffix("/o") else {
            respond(s, "404 Not Found", &[], b"{\"error\":{\"code\":404}}");
            return false;
        };
        list(s, st, &decode(bucket), &q);
        return false;
    }
    let path = decode(path.trim_start_matches('/'));
    let Some((bucket, name)) = path.split_once('/') else {
        respond(s, "404 Not Found", &[], b"NoSuchBucket");
        return false;
    };
    object(s, st, bucket, name, range.as_deref())
}

/// `bytes=A-B` (or `bytes=A-`) against an object of `len` bytes: `Some(Ok((a, b)))` to
/// answer with those bytes, `Some(Err(()))` when unsatisfiable, `None` for a header the
/// server ignores (as GCS ignores several ranges).
fn parse_range(v: &str, len: usize) -> Option<Result<(usize, usize), ()>> {
    let spec = v.strip_prefix("bytes=")?;
    if spec.contains(',') {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    let a: usize = a.trim().parse().ok()?;
    if a >= len {
        return Some(Err(()));
    }
    let b = match b.trim() {
        "" => len - 1,
        b => b.parse::<usize>().ok()?.min(len - 1),
    };
    (b >= a).then_some(Ok((a, b)))
}

fn list<S: Write>(s: &mut S, st: &State, bucket: &str, q: &BTreeMap<String, String>) {
    let prefix = q.get("prefix").cloned().unwrap_or_default();
    let huge = st.huge_pages.load(Ordering::SeqCst);
    if huge > 0 {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"items\":[";
        if s.write_all(head.as_bytes()).is_err() {
            return;
        }
        let mut sent = 0;
        let mut i = 0u64;
        while sent < huge {
            let mut chunk = String::new();
            for _ in 0..1000 {
                chunk.push_str(&format!(
                    "{{\"name\":\"{prefix}artifacts/junit/junit_{i:09}.xml\",\"size\":\"10\"}},"
                ));
                i += 1;
            }
            sent += chunk.len();
            if s.write_all(chunk.as_bytes()).is_err() {
                return;
            }
        }
        let _ = s.write_all(b"{\"name\":\"end\"}]}");
        return;
    }
    let delim = q.get("delimiter").cloned().unwrap_or_default();
    let start: usize = q
        .get("pageToken")
        .and_then(|t| t.strip_prefix("page-")?.parse().ok())
        .unwrap_or(0);
    let objects = st.objects.lock().unwrap();
    if !objects.keys().any(|(b, _)| b == bucket) {
        drop(objects);
        return respond(
            s,
            "404 Not Found",
            &[],
            b"{\"error\":{\"code\":404,\"message\":\"The specified bucket does not exist.\"}}",
        );
    }
    // Entries in name order: an object, or (with a delimiter) the common prefix it falls under.
    let mut entries: Vec<(String, Option<usize>)> = Vec::new();
    for ((b, name), obj) in objects.iter() {
        if b != bucket || !name.starts_with(&prefix) {
            continue;
        }
        let rest = &name[prefix.len()..];
        match rest.find(&delim).filter(|_| !delim.is_empty()) {
            Some(i) => {
                let p = format!("{prefix}{}", &rest[..i + delim.len()]);
                if entries.last().map(|e| &e.0) != Some(&p) {
                    entries.push((p, None));
                }
            }
            None => entries.push((name.clone(), Some(obj.data.len()))),
        }
    }
    drop(objects);
    let end = (start + st.page_size).min(entries.len());
    let page = entries.get(start..end).unwrap_or(&[]);
    let items: Vec<_> = page
        .iter()
        .filter_map(|(n, size)| size.map(|sz| serde_json::json!({"kind": "storage#object", "name": n, "bucket": bucket, "size": sz.to_string()})))
        .collect();
    let prefixes: Vec<_> = page
        .iter()
        .filter(|(_, s)| s.is_none())
        .map(|(n, _)| n.clone())
        .collect();
    let mut body = serde_json::json!({"kind": "storage#objects"});
    if !items.is_empty() {
        body["items"] = items.into();
    }
    if !prefixes.is_empty() {
        body["prefixes"] = prefixes.into();
    }
    if end < entries.len() {
        body["nextPageToken"] = format!("page-{end}").into();
    }
    respond(
        s,
        "200 OK",
        &[("Content-Type", "application/json".to_string())],
        body.to_string().as_bytes(),
    );
}

fn object<S: Write>(s: &mut S, st: &State, bucket: &str, name: &str, range: Option<&str>) -> bool {
    let found = {
        let mut objects = st.objects.lock().unwrap();
        objects
            .get_mut(&(bucket.to_string(), name.to_string()))
            .map(|o| {
                o.gets += 1;
                (o.data.clone(), o.behaviour.clone(), o.gets)
            })
    };
    let Some((data, behaviour, gets)) = found else {
        respond(
            s,
            "404 Not Found",
            &[],
            b"<Error><Code>NoSuchKey</Code></Error>",
        );
        return false;
    };
    if range.is_some() {
        st.range_gets.fetch_add(1, Ordering::SeqCst);
    }
    let keep = st.keep_alive.load(Ordering::SeqCst);
    let ranges = !st.no_ranges.load(Ordering::SeqCst);
    let plain = matches!(behaviour, Behaviour::Normal)
        || matches!(behaviour, Behaviour::FailFirst(n) if gets > n);
    if plain {
        let mut headers = vec![("Content-Type", "application/octet-stream".to_string())];
        if data.starts_with(&[0x1f, 0x8b]) && !name.ends_with(".gz") {
            headers.push(("Content-Encoding", "gzip".to_string()));
        }
        if ranges {
            headers.push(("Accept-Ranges", "bytes".to_string()));
            headers.push(("ETag", format!("\"{:08x}\"", data.len())));
            match range.and_then(|r| parse_range(r, data.len())) {
                Some(Ok((a, b))) => {
                    headers.push(("Content-Range", format!("bytes {a}-{b}/{}", data.len())));
                    st.object_bytes
                        .fetch_add((b - a + 1) as u64, Ordering::SeqCst);
                    respond_on(s, "206 Partial Content", &headers, &data[a..=b], keep);
                    return keep;
                }
                Some(Err(())) => {
                    let h = [("Content-Range", format!("bytes */{}", data.len()))];
                    respond_on(s, "416 Range Not Satisfiable", &h, b"", keep);
                    return keep;
                }
                None => {}
            }
        }
        st.object_bytes
            .fetch_add(data.len() as u64, Ordering::SeqCst);
        respond_on(s, "200 OK", &headers, &data, keep);
        return keep;
    }
    st.object_bytes
        .fetch_add(data.len() as u64, Ordering::SeqCst);
    let mut headers = vec![("Content-Type", "application/octet-stream".to_string())];
    if data.starts_with(&[0x1f, 0x8b]) && !name.ends_with(".gz") {
        // What GCS does for objects uploaded with Content-Encoding: gzip.
        headers.push(("Content-Encoding", "gzip".to_string()));
    }
    match behaviour {
        Behaviour::Normal => respond(s, "200 OK", &headers, &data),
        Behaviour::FailFirst(_) => respond(s, "500 Internal Server Error", &[], b"backendError"),
        Behaviour::Missing => respond(
            s,
            "404 Not Found",
            &[],
            b"<Error><Code>NoSuchKey</Code></Error>",
        ),
        Behaviour::ServeInstead(other) => respond(s, "200 OK", &headers, &other),
        Behaviour::Endless => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n";
            let _ = s.write_all(head.as_bytes());
            let chunk = vec![b'x'; 64 << 10];
            for _ in 0..4096 {
                if s.write_all(&chunk).is_err() {
                    break;
                }
            }
        }
        Behaviour::GzipEncoded => {
            let mut enc =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            enc.write_all(&data).unwrap();
            let body = enc.finish().unwrap();
            respond(
                s,
                "200 OK",
                &[("Content-Encoding", "gzip".to_string())],
                &body,
            )
        }
        Behaviour::HtmlPage => respond(
            s,
            "200 OK",
            &[("Content-Type", "text/html".to_string())],
            b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please sign in</body></html>\n",
        ),
        Behaviour::Drip(d) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
                data.len()
            );
            let _ = s.write_all(head.as_bytes());
            let pause = d / u32::try_from(data.len().max(1)).unwrap_or(u32::MAX);
            for b in data.iter() {
                if s.write_all(&[*b]).and_then(|()| s.flush()).is_err() {
                    return false;
                }
                std::thread::sleep(pause);
            }
        }
        Behaviour::Stall(d) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
                data.len()
            );
            let _ = s.write_all(head.as_bytes());
            let _ = s.write_all(&data[..data.len() / 2]);
            let _ = s.flush();
            std::thread::sleep(d);
            let _ = s.write_all(&data[data.len() / 2..]);
        }
    }
    false
}
