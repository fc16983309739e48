//! Plain `http(s)://` URLs to one archive or file (a link to a customer's must-gather
//! tarball, a log in a web server): downloaded whole into `<cache>/urls/<key>/<name>`, with
//! the same size cap, timeouts, retries and proxy rules as CI fetches, and read from there.
//! A completed download is the file itself (it is renamed into place only when complete), so
//! a second run, or `--offline`, makes no request.

use super::http::{Budget, Http, HttpSettings};
use super::{FetchOptions, RemoteError};
use reqwest::Url;
use std::path::{Path, PathBuf};

/// Whether `input` is an http(s) URL (of any host).
pub fn is_http_url(input: &str) -> bool {
    Url::parse(input.trim()).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
}

/// The cache key of a URL: FNV-1a over its text, enough to keep URLs apart in one cache.
fn key(url: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in url.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The file name to store the download under: the URL's last path segment, reduced to safe
/// characters (ingestion sniffs the content; the name only helps a person).
fn file_name(url: &Url) -> String {
    let last = url
        .path_segments()
        .and_then(|mut s| s.next_back().map(str::to_string))
        .unwrap_or_default();
    let safe: String = last
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    if safe.is_empty() {
        "download".to_string()
    } else {
        safe.chars().take(100).collect()
    }
}

/// Downloads `url` into the cache (or finds it there) and gives the local file.
pub fn fetch_url(url: &str, opts: &FetchOptions) -> Result<PathBuf, RemoteError> {
    let parsed = Url::parse(url.trim()).map_err(|e| RemoteError::UnsupportedUrl {
        url: url.to_string(),
        reason: e.to_string(),
    })?;
    let dir = opts.cache_dir.join("urls").join(key(parsed.as_str()));
    let dest = dir.join(file_name(&parsed));
    if std::fs::symlink_metadata(&dest).is_ok_and(|m| m.is_file()) {
        return Ok(dest);
    }
    if opts.offline {
        return Err(RemoteError::NotCached {
            url: url.to_string(),
            dir,
        });
    }
    let origin = parsed.origin().ascii_serialization();
    let http = Http::new(&HttpSettings {
        endpoint: origin,
        connect_timeout: opts.connect_timeout,
        timeout: opts.timeout,
        retries: opts.retries,
        backoff: opts.backoff,
        decode_content_encoding: true,
    })?;
    let budget = Budget::new(opts.job_timeout, opts.max_job_bytes);
    std::fs::create_dir_all(&opts.cache_dir)
        .and_then(|()| {
            crate::safe_fs::create_dirs_under(
                &opts.cache_dir,
                &Path::new("urls").join(key(parsed.as_str())),
            )
        })
        .map_err(|e| RemoteError::Io {
            path: dir.clone(),
            reason: format!("cannot create directory: {e}"),
        })?;
    http.download(&parsed, &dest, opts.max_object_bytes, &budget)?;
    if looks_like_html(&dest) {
        // A login or error page sent with 200: never kept as the download, so the next run
        // asks again instead of failing on the cached page for ever.
        let _ = std::fs::remove_file(&dest);
        let _ = std::fs::remove_dir(&dir);
        return Err(RemoteError::Network {
            url: url.to_string(),
            reason: "the server sent an HTML page, not an archive or file mglint reads (a login \
                     or error page?); nothing was kept"
                .to_string(),
            attempts: 1,
        });
    }
    Ok(dest)
}

/// Whether the file starts like an HTML document (`<!DOCTYPE html`, `<html`, `<head`,
/// `<body`, after white space and a byte order mark): no input mglint reads is HTML.
fn looks_like_html(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 512];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    let text = String::from_utf8_lossy(&head[..n]);
    let t = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .to_ascii_lowercase();
    ["<!doctype html", "<html", "<head", "<body"]
        .iter()
        .any(|p| t.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_keys() {
        let u =
            Url::parse("https://example.com/case/02745123/must-gather%20(1).tar.gz?x=1").unwrap();
        assert_eq!(file_name(&u), "must-gather_20_1_.tar.gz");
        assert_eq!(
            file_name(&Url::parse("https://example.com/").unwrap()),
            "download"
        );
        assert_eq!(
            file_name(&Url::parse("https://example.com/..").unwrap()),
            "download"
        );
        assert_ne!(key("https://a/x"), key("https://a/y"));
        assert!(is_http_url("https://example.com/x.tar.gz"));
        assert!(!is_http_url("gs://bucket/x"));
        assert!(!is_http_url("./must-gather"));
    }
}
