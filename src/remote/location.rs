//! Maps the four spellings of a CI job's location (Prow/Spyglass, gcsweb, `gs://`,
//! storage.googleapis.com) to a GCS bucket and object path, and checks that bucket, path and
//! object names are safe to use as local file names.

use super::RemoteError;

/// A job directory in a GCS bucket: `gs://<bucket>/<path>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GcsLocation {
    pub bucket: String,
    /// `/`-separated, without leading or trailing `/`; never empty.
    pub path: String,
}

const EXPECTED: &str = "expected a Prow job URL (`https://prow.ci.openshift.org/view/gs/<bucket>/<path>`), a gcsweb URL (`https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/<bucket>/<path>/`), `gs://<bucket>/<path>` or `https://storage.googleapis.com/<bucket>/<path>/`";

/// Whether an input names a remote location (rather than a local path).
pub fn is_remote(input: &str) -> bool {
    let s = input.trim_start();
    ["gs://", "http://", "https://"]
        .iter()
        .any(|p| strip_prefix_ci(s, p).is_some())
}

impl GcsLocation {
    /// Parses any of the supported URL forms.
    pub fn parse(url: &str) -> Result<Self, RemoteError> {
        let bad = |reason: String| RemoteError::UnsupportedUrl {
            url: url.to_string(),
            reason,
        };
        let trimmed = url.trim();
        let rest = if let Some(r) = strip_prefix_ci(trimmed, "gs://") {
            r
        } else if let Some(r) =
            strip_prefix_ci(trimmed, "https://").or_else(|| strip_prefix_ci(trimmed, "http://"))
        {
            let r = r.split(['?', '#']).next().unwrap_or("");
            let (host, path) = r.split_once('/').unwrap_or((r, ""));
            let host = host.to_ascii_lowercase();
            let host = host.split(':').next().unwrap_or("");
            if let Some(p) = path
                .strip_prefix("view/gs/")
                .or_else(|| path.strip_prefix("view/gcs/"))
            {
                // Prow's Spyglass view, on prow.ci.openshift.org or another Deck.
                p
            } else if let Some(p) = path
                .strip_prefix("gcs/")
                .filter(|_| host.starts_with("gcsweb"))
            {
                p
            } else if host == "storage.googleapis.com" || host == "storage.cloud.google.com" {
                if path.starts_with("storage/v1/") || path.starts_with("download/storage/") {
                    return Err(bad(format!(
                        "a GCS API URL is not a job location; {EXPECTED}"
                    )));
                }
                path
            } else {
                return Err(bad(format!("unsupported URL; {EXPECTED}")));
            }
        } else {
            return Err(bad(format!("not a URL; {EXPECTED}")));
        };
        let decoded =
            percent_decode(rest).ok_or_else(|| bad("invalid percent-encoding".to_string()))?;
        let mut parts = decoded.split('/').filter(|p| !p.is_empty());
        let bucket = parts.next().unwrap_or("").to_string();
        if !valid_bucket(&bucket) {
            return Err(bad(format!(
                "`{bucket}` is not a GCS bucket name; {EXPECTED}"
            )));
        }
        let segs: Vec<&str> = parts.collect();
        if segs.is_empty() {
            return Err(bad(format!("names a bucket but no job path; {EXPECTED}")));
        }
        if let Some(s) = segs.iter().find(|s| !safe_segment(s)) {
            return Err(bad(format!("path segment `{s}` cannot be used")));
        }
        Ok(GcsLocation {
            bucket,
            path: segs.join("/"),
        })
    }

    /// `gs://<bucket>/<path>`, the canonical spelling (used as the cache key).
    pub fn gs_url(&self) -> String {
        format!("gs://{}/{}", self.bucket, self.path)
    }

    /// The object-name prefix of everything in the job directory (`<path>/`).
    pub fn prefix(&self) -> String {
        format!("{}/", self.path)
    }
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Percent-decoding (percent-encoding's), refusing a `%` not followed by two hex digits and
/// bytes that are not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let well_formed = b
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == b'%')
        .all(|(i, _)| {
            b.get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
        });
    if !well_formed {
        return None;
    }
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(std::borrow::Cow::into_owned)
}

/// GCS bucket naming rules (3-222 characters of `a-z 0-9 . _ -`, alphanumeric at both ends).
fn valid_bucket(b: &str) -> bool {
    (3..=222).contains(&b.len())
        && b.bytes().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'.' | b'_' | b'-')
        })
        && b.bytes().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && b.bytes().last().is_some_and(|c| c.is_ascii_alphanumeric())
}

/// A path segment that is safe as a local file or directory name.
fn safe_segment(s: &str) -> bool {
    !s.is_empty()
        && s != "."
        && s != ".."
        && s.len() <= 255
        && !s.chars().any(|c| c == '\\' || c.is_control())
}

/// An object name relative to the job prefix, if every segment is safe to write locally.
pub(crate) fn safe_relative(rel: &str) -> bool {
    !rel.is_empty() && rel.split('/').all(safe_segment)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = "logs/periodic-ci-openshift-release-master-ci-4.14-upgrade-from-stable-4.13-e2e-aws-ovn-upgrade/1719283746123456789";

    fn loc(url: &str) -> GcsLocation {
        GcsLocation::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"))
    }

    #[test]
    fn the_four_spellings_agree() {
        let want = GcsLocation {
            bucket: "test-platform-results".into(),
            path: PATH.into(),
        };
        for url in [
            format!("https://prow.ci.openshift.org/view/gs/test-platform-results/{PATH}"),
            format!("https://prow.ci.openshift.org/view/gs/test-platform-results/{PATH}/"),
            format!(
                "https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/test-platform-results/{PATH}/"
            ),
            format!("gs://test-platform-results/{PATH}"),
            format!("https://storage.googleapis.com/test-platform-results/{PATH}/"),
            format!(
                "  HTTPS://prow.ci.openshift.org/view/gs/test-platform-results/{PATH}?foo=bar#x "
            ),
        ] {
            assert_eq!(loc(&url), want, "{url}");
        }
        assert_eq!(want.gs_url(), format!("gs://test-platform-results/{PATH}"));
        assert_eq!(want.prefix(), format!("{PATH}/"));
    }

    #[test]
    fn presubmit_and_other_buckets() {
        let l = loc(
            "https://prow.ci.openshift.org/view/gs/origin-ci-test/pr-logs/pull/openshift_origin/28001/pull-ci-openshift-origin-master-e2e-aws-upgrade/1700000000000000000",
        );
        assert_eq!(l.bucket, "origin-ci-test");
        assert!(l.path.starts_with("pr-logs/pull/openshift_origin/28001/"));
        let l = loc(
            "https://qe-private-deck-ci.apps.ci.l2s4.p1.openshiftapps.com/view/gs/qe-private-deck/logs/job/1",
        );
        assert_eq!(
            (l.bucket.as_str(), l.path.as_str()),
            ("qe-private-deck", "logs/job/1")
        );
        let l = loc("gs://b-1/logs/a%20b/1");
        assert_eq!(l.path, "logs/a b/1");
    }

    #[test]
    fn other_urls_are_refused_clearly() {
        for (url, needle) in [
            ("https://example.com/logs/x/1", "unsupported URL"),
            (
                "https://storage.googleapis.com/storage/v1/b/b/o?prefix=x",
                "API URL",
            ),
            ("gs://test-platform-results", "no job path"),
            ("gs://Bad_Bucket!/x", "not a GCS bucket name"),
            ("gs://bucket/logs/../../etc", "cannot be used"),
            ("gs://bucket/logs/%zz", "percent-encoding"),
            ("ftp://host/x", "not a URL"),
            ("/tmp/job", "not a URL"),
        ] {
            let e = GcsLocation::parse(url).unwrap_err().to_string();
            assert!(e.contains(needle), "{url}: {e}");
            assert!(e.contains(url.trim()), "{url}: {e}");
        }
    }

    #[test]
    fn remote_inputs_are_recognised() {
        assert!(is_remote("gs://b/p"));
        assert!(is_remote("https://prow.ci.openshift.org/view/gs/b/p"));
        assert!(is_remote("HTTP://x"));
        assert!(!is_remote("./must-gather.local.1"));
        assert!(!is_remote("/tmp/gs://x"));
        assert!(!is_remote("ü"));
    }

    #[test]
    fn unsafe_object_names_are_refused() {
        assert!(safe_relative(
            "artifacts/e2e/gather-extra/artifacts/clusterversion.json"
        ));
        for bad in ["", "a//b", "../x", "a/./b", "a\\b", "a/\u{0}b"] {
            assert!(!safe_relative(bad), "{bad:?}");
        }
    }
}
