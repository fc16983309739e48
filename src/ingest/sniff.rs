//! Content sniffing: what a file is from its first bytes, for files whose path says nothing
//! (named directly, or found in a directory with no known layout).

use crate::vocab::FileKind;

/// Classifies a file the user named directly whose path said nothing, from its first bytes.
pub fn sniff_content(head: &[u8]) -> Option<FileKind> {
    let text = String::from_utf8_lossy(head);
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with("<?xml") || t.starts_with("<testsuite") {
        return Some(FileKind::Junit);
    }
    if t.starts_with('{') || t.starts_with('[') {
        if t.contains("\"locator\"") && (t.contains("\"from\"") || t.contains("\"level\"")) {
            return Some(FileKind::Intervals);
        }
        if t.contains("\"prowjob") || (t.contains("\"passed\"") && t.contains("\"timestamp\"")) {
            return Some(FileKind::ProwMeta);
        }
        return Some(FileKind::Resource);
    }
    let first = t.lines().next().unwrap_or("");
    // YAML may open with comments: judge it by its first non-comment line.
    if first.starts_with('#') {
        let rest: Vec<&str> = t
            .lines()
            .skip_while(|l| l.starts_with('#') || l.trim().is_empty())
            .collect();
        if rest.first().is_some_and(|l| {
            l.starts_with("---")
                || l.starts_with("apiVersion:")
                || l.starts_with("kind:")
                || l.starts_with("items:")
                || l.starts_with("metadata:")
        }) {
            return Some(FileKind::Resource);
        }
    }
    if crate::ingest::klog::looks_like_klog(first) {
        return Some(FileKind::CvoLog);
    }
    if crate::ingest::textlog::looks_like_text_line(first) {
        return Some(FileKind::TestLog);
    }
    if crate::model::parse_go_time(first).is_some() {
        return Some(FileKind::Timestamp);
    }
    if t.starts_with("---")
        || t.starts_with("apiVersion:")
        || t.starts_with("kind:")
        || t.starts_with("items:")
        || t.starts_with("metadata:")
    {
        return Some(FileKind::Resource);
    }
    // A log whose first lines are continuation noise: look further.
    if t.lines().take(50).any(crate::ingest::klog::looks_like_klog) {
        return Some(FileKind::CvoLog);
    }
    if t.lines()
        .take(50)
        .any(crate::ingest::textlog::looks_like_text_line)
    {
        return Some(FileKind::TestLog);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        assert_eq!(
            sniff_content(b"<?xml version=\"1.0\"?><testsuite>"),
            Some(FileKind::Junit)
        );
        assert_eq!(
            sniff_content(
                b"{\"items\":[{\"level\":\"Info\",\"locator\":\"node/a\",\"from\":\"x\"}]}"
            ),
            Some(FileKind::Intervals)
        );
        assert_eq!(
            sniff_content(b"apiVersion: config.openshift.io/v1\nkind: ClusterVersion\n"),
            Some(FileKind::Resource)
        );
        assert_eq!(
            sniff_content(
                b"I0409 17:38:45.549400       1 start.go:19] ClusterVersionOperator v4.3.10\n"
            ),
            Some(FileKind::CvoLog)
        );
        assert_eq!(
            sniff_content(b"2020-04-09T17:38:45.549411Z I0409 17:38:45.549400       1 start.go:19] ClusterVersionOperator v4.3.10\n"),
            Some(FileKind::CvoLog)
        );
        assert_eq!(
            sniff_content(
                b"Sep 27 21:45:59.753 W clusterversion/version changed Progressing to True: x\n"
            ),
            Some(FileKind::TestLog)
        );
        assert_eq!(
            sniff_content(b"2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555\n"),
            Some(FileKind::Timestamp)
        );
        assert_eq!(
            sniff_content(b"# a comment\napiVersion: v1\nkind: Node\n"),
            Some(FileKind::Resource)
        );
        assert_eq!(sniff_content(b"hello world\n"), None);
    }
}
