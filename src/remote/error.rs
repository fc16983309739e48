//! Why a remote fetch failed, as one line that names the URL (or local path) and the reason.

use std::path::PathBuf;
use std::time::Duration;

/// A fetch failure. `Display` gives a one-line message naming the URL and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteError {
    /// The input is not one of the URL forms mglint understands.
    UnsupportedUrl { url: String, reason: String },
    /// The `--gcs-endpoint` (or another option) cannot be used.
    Config { reason: String },
    /// The server answered with a non-success status (after `attempts` tries).
    Http {
        url: String,
        status: u16,
        attempts: u32,
    },
    /// The connection failed or broke (after `attempts` tries).
    Network {
        url: String,
        reason: String,
        attempts: u32,
    },
    /// No answer, or not all of it, within the timeout (after `attempts` tries).
    Timeout {
        url: String,
        after: Duration,
        attempts: u32,
    },
    /// The object is larger than the per-object cap.
    TooLarge { url: String, cap: u64 },
    /// The object listing could not be understood.
    BadListing { url: String, reason: String },
    /// The listing holds no object under the job's prefix.
    NoObjects { url: String },
    /// `offline` was asked and the job is not (completely) in the cache.
    NotCached { url: String, dir: PathBuf },
    /// A local file or directory could not be written.
    Io { path: PathBuf, reason: String },
    /// The job's time limit ran out before this request was done (after `attempts` tries).
    JobDeadline {
        url: String,
        after: Duration,
        attempts: u32,
    },
    /// The job's byte budget was spent while this object (or page) was read.
    JobBytes { url: String, cap: u64 },
    /// One object's place in the job directory cannot be made (a symbolic link or a file
    /// where a directory goes): the object is not downloaded, the rest of the job is.
    Unplaceable { path: PathBuf, reason: String },
}

impl RemoteError {
    /// The URL (or, for local failures, the path) the error is about.
    pub fn url(&self) -> String {
        match self {
            RemoteError::UnsupportedUrl { url, .. }
            | RemoteError::Http { url, .. }
            | RemoteError::Network { url, .. }
            | RemoteError::Timeout { url, .. }
            | RemoteError::TooLarge { url, .. }
            | RemoteError::BadListing { url, .. }
            | RemoteError::NoObjects { url }
            | RemoteError::NotCached { url, .. }
            | RemoteError::JobDeadline { url, .. }
            | RemoteError::JobBytes { url, .. } => url.clone(),
            RemoteError::Io { path, .. } | RemoteError::Unplaceable { path, .. } => {
                path.display().to_string()
            }
            RemoteError::Config { .. } => String::new(),
        }
    }

    /// The HTTP status, for [`RemoteError::Http`].
    pub fn status(&self) -> Option<u16> {
        match self {
            RemoteError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The same error, recording how many attempts were made.
    pub(crate) fn with_attempts(mut self, n: u32) -> Self {
        match &mut self {
            RemoteError::Http { attempts, .. }
            | RemoteError::Network { attempts, .. }
            | RemoteError::Timeout { attempts, .. }
            | RemoteError::JobDeadline { attempts, .. } => *attempts = n,
            _ => {}
        }
        self
    }
}

fn tries(n: u32) -> String {
    if n > 1 {
        format!(" ({n} attempts)")
    } else {
        String::new()
    }
}

fn status_text(status: u16) -> &'static str {
    reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("")
}

impl std::fmt::Display for RemoteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RemoteError::UnsupportedUrl { url, reason } => write!(f, "`{url}`: {reason}"),
            RemoteError::Config { reason } => f.write_str(reason),
            RemoteError::Http {
                url,
                status,
                attempts,
            } => {
                let text = status_text(*status);
                let sep = if text.is_empty() { "" } else { " " };
                write!(f, "`{url}`: HTTP {status}{sep}{text}{}", tries(*attempts))
            }
            RemoteError::Network {
                url,
                reason,
                attempts,
            } => {
                write!(f, "`{url}`: {reason}{}", tries(*attempts))
            }
            RemoteError::Timeout {
                url,
                after,
                attempts,
            } => {
                write!(
                    f,
                    "`{url}`: timed out after {:.1}s{}",
                    after.as_secs_f64(),
                    tries(*attempts)
                )
            }
            RemoteError::TooLarge { url, cap } => {
                write!(f, "`{url}`: object is larger than the {cap} byte cap")
            }
            RemoteError::BadListing { url, reason } => {
                write!(f, "`{url}`: unreadable object listing: {reason}")
            }
            RemoteError::NoObjects { url } => {
                write!(
                    f,
                    "`{url}`: no objects found under this prefix (is it a job directory?)"
                )
            }
            RemoteError::NotCached { url, dir } => write!(
                f,
                "`{url}`: not in the cache `{}` (fetch it once without `--offline`)",
                dir.display()
            ),
            RemoteError::Io { path, reason } | RemoteError::Unplaceable { path, reason } => {
                write!(f, "`{}`: {reason}", path.display())
            }
            RemoteError::JobDeadline {
                url,
                after,
                attempts,
            } => write!(
                f,
                "`{url}`: not done when the job's time limit of {:.1}s ran out (`--job-timeout`){}",
                after.as_secs_f64(),
                tries(*attempts)
            ),
            RemoteError::JobBytes { url, cap } => write!(
                f,
                "`{url}`: the job's budget of {cap} bytes fetched ran out (`--max-job-bytes`)"
            ),
        }
    }
}

impl std::error::Error for RemoteError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_name_the_url() {
        let e = RemoteError::Http {
            url: "http://127.0.0.1:1/b/x".into(),
            status: 404,
            attempts: 1,
        };
        assert_eq!(
            e.to_string(),
            "`http://127.0.0.1:1/b/x`: HTTP 404 Not Found"
        );
        let e = RemoteError::Http {
            url: "u".into(),
            status: 503,
            attempts: 3,
        };
        assert_eq!(
            e.to_string(),
            "`u`: HTTP 503 Service Unavailable (3 attempts)"
        );
        let e = RemoteError::Timeout {
            url: "u".into(),
            after: Duration::from_millis(300),
            attempts: 1,
        };
        assert_eq!(e.to_string(), "`u`: timed out after 0.3s");
        assert!(!e.to_string().contains('\n'));
    }
}
