//! Content sniffing: what a file is from its first bytes, for files whose path says nothing
//! (named directly, or found in a directory with no known layout). Each input kind's test is
//! its own (`Reader::sniff` in `ingest::kinds`); this reads the head once for all of them.

use super::kinds::Head;
use crate::vocab::FileKind;
use crate::vocab::kind::SniffMode;

/// Classifies a file whose path said nothing, from its first bytes (up to 16 KiB): each
/// input kind's content test, in the registry's order (`ingest::kinds`).
pub fn sniff_content(head: &[u8], mode: SniffMode) -> Option<FileKind> {
    // A file named directly in an encoding mglint does not read is taken as a resource, so
    // that reading it says why (the encoding), rather than that it is nothing known.
    if mode == SniffMode::Named && crate::vocab::encoding::check(head).is_err() {
        return Some(FileKind::Resource);
    }
    // Judged on the text, whatever its encoding (a UTF-16 file saved on Windows).
    let head = crate::vocab::encoding::decode_head(head);
    let text = String::from_utf8_lossy(&head);
    let t = text.trim_start_matches('\u{feff}').trim_start();
    // YAML may open with comments and blank lines: judged by its first other line.
    let first_data = t
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap_or("");
    super::kinds::sniff(&Head {
        text: t,
        json: t.starts_with('{') || t.starts_with('['),
        first: t.lines().next().unwrap_or(""),
        first_data,
        mode,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniff_content_named(head: &[u8]) -> Option<FileKind> {
        sniff_content(head, SniffMode::Named)
    }

    #[test]
    fn loose_files_are_judged_strictly() {
        let loose = |b: &[u8]| sniff_content(b, SniffMode::Loose);
        // An MCO log is klog but not the CVO's.
        let mcc = b"2021-08-03T09:20:53.333237865Z I0803 09:20:53.333046       1 start.go:50] Version: v4.8.0\n";
        assert_eq!(sniff_content_named(mcc), Some(FileKind::CvoLog));
        assert_eq!(loose(mcc), None);
        let cvo = b"I0803 09:28:09.024765       1 start.go:21] ClusterVersionOperator 4.8.0\n";
        assert_eq!(loose(cvo), Some(FileKind::CvoLog));
        // Any JSON is a resource when named, only objects and alerts when loose.
        assert_eq!(loose(b"{\"name\": \"mglint\", \"version\": 1}"), None);
        assert_eq!(
            loose(
                b"{\n  \"metadata\": {\"name\": \"version\"},\n  \"spec\": {\"clusterID\": \"x\"}}"
            ),
            Some(FileKind::Resource)
        );
        assert_eq!(
            loose(b"[{\"labels\":{\"alertname\":\"Watchdog\"},\"startsAt\":\"2024-01-01T00:00:00Z\"}]"),
            Some(FileKind::Resource)
        );
        // YAML after comments, blank lines and a BOM.
        assert_eq!(
            loose("\u{feff}# oc get co -o yaml\n\n---\napiVersion: v1\nitems: []\n".as_bytes()),
            Some(FileKind::Resource)
        );
        assert_eq!(loose(b"just some notes\n"), None);
    }

    /// The kinds' tests run in the registry's order and a refusal ends them: a loose klog log
    /// that is not the CVO's is not taken for a test log by the monitor lines below it, a
    /// log whose first line is noise is judged by the lines that follow (the second pass).
    #[test]
    fn a_refusal_ends_the_content_tests() {
        let klog = "I0803 09:20:53.333046       1 start.go:50] Version: v4.8.0\n";
        let monitor =
            "Sep 27 21:45:59.753 W clusterversion/version changed Progressing to True: x\n";
        let mco_then_monitor = format!("{klog}{monitor}");
        assert_eq!(
            sniff_content(mco_then_monitor.as_bytes(), SniffMode::Loose),
            None
        );
        assert_eq!(
            sniff_content_named(mco_then_monitor.as_bytes()),
            Some(FileKind::CvoLog)
        );
        let noise_then_monitor = format!("+ set -x\n{monitor}");
        assert_eq!(
            sniff_content(noise_then_monitor.as_bytes(), SniffMode::Loose),
            Some(FileKind::TestLog)
        );
        let noise_then_klog = format!("+ set -x\n{monitor}{klog}");
        assert_eq!(
            sniff_content_named(noise_then_klog.as_bytes()),
            Some(FileKind::CvoLog),
            "a klog line further down is asked before a monitor line"
        );
    }

    #[test]
    fn sniffing() {
        assert_eq!(
            sniff_content_named(b"<?xml version=\"1.0\"?><testsuite>"),
            Some(FileKind::Junit)
        );
        assert_eq!(
            sniff_content_named(
                b"{\"items\":[{\"level\":\"Info\",\"locator\":\"node/a\",\"from\":\"x\"}]}"
            ),
            Some(FileKind::Intervals)
        );
        assert_eq!(
            sniff_content_named(b"apiVersion: config.openshift.io/v1\nkind: ClusterVersion\n"),
            Some(FileKind::Resource)
        );
        assert_eq!(
            sniff_content_named(
                b"I0409 17:38:45.549400       1 start.go:19] ClusterVersionOperator v4.3.10\n"
            ),
            Some(FileKind::CvoLog)
        );
        assert_eq!(
            sniff_content_named(b"2020-04-09T17:38:45.549411Z I0409 17:38:45.549400       1 start.go:19] ClusterVersionOperator v4.3.10\n"),
            Some(FileKind::CvoLog)
        );
        assert_eq!(
            sniff_content_named(
                b"Sep 27 21:45:59.753 W clusterversion/version changed Progressing to True: x\n"
            ),
            Some(FileKind::TestLog)
        );
        assert_eq!(
            sniff_content_named(b"2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555\n"),
            Some(FileKind::Timestamp)
        );
        assert_eq!(
            sniff_content_named(b"# a comment\napiVersion: v1\nkind: Node\n"),
            Some(FileKind::Resource)
        );
        assert_eq!(sniff_content_named(b"hello world\n"), None);
    }
}
