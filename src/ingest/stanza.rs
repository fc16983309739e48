//! The monitor's `key/value` stanza grammar, parsed here and nowhere else: the string
//! locators of v1 intervals and test-log monitor lines (`ns/x pod/y node/z`, where a monitor
//! line's locator ends, which of its keys name an object) and the annotations that lead a v1
//! message (`reason/NodeUpdate phase/Drain drained node`).
//! Ingest applies it once; the timeline and the HTML report read what it produced.

use std::collections::BTreeMap;

/// Every `key/value` token of a string locator, in order; tokens without `/` are skipped and
/// a value keeps any further `/` (`ns/x pod/y` gives `("ns", "x")`, `("pod", "y")`).
pub fn locator_pairs(loc: &str) -> impl Iterator<Item = (&str, &str)> {
    loc.split(' ').filter_map(|t| t.split_once('/'))
}

/// The byte length of the locator that leads a test-log monitor line's body (`ns/x pod/y
/// reason/Created created` gives the length of `ns/x pod/y reason/Created `, its trailing
/// space included): the leading run of tokens holding a `/` that neither starts with `/` nor
/// ends with `:`.
pub fn monitor_locator_len(body: &str) -> usize {
    let mut end = 0;
    for tok in body.split(' ') {
        if tok.contains('/') && !tok.starts_with('/') && !tok.ends_with(':') {
            end += tok.len() + 1;
        } else {
            break;
        }
    }
    end.min(body.len())
}

/// The locator keys of a test-log monitor line that name an object; every other `k/v` of its
/// locator is an annotation.
const MONITOR_OBJECT_KEYS: &[&str] = &[
    "clusterversion",
    "clusteroperator",
    "node",
    "ns",
    "namespace",
    "pod",
    "uid",
    "container",
    "e2e-test",
    "alert",
    "machine",
    "mcp",
    "machineconfigpool",
    "server",
    "shutdown",
    "row",
    "backend-disruption-name",
    "disruption",
    "connection",
];

/// A test-log monitor line's stanzas: the locator's object keys, its other pairs with the
/// annotations that lead the message (a later one wins), and the byte offset in `message`
/// where the human text starts.
pub fn monitor_stanzas(
    locator: &str,
    message: &str,
) -> (BTreeMap<String, String>, BTreeMap<String, String>, usize) {
    let mut keys = BTreeMap::new();
    let mut ann = BTreeMap::new();
    for (k, v) in locator_pairs(locator) {
        if MONITOR_OBJECT_KEYS.contains(&k) {
            keys.insert(k.to_string(), v.to_string());
        } else {
            ann.insert(k.to_string(), v.to_string());
        }
    }
    let (more, text) = leading_annotations(message);
    ann.extend(more);
    (keys, ann, message.len() - text.len())
}

/// A string locator's keys (the last of a repeated key wins).
pub fn locator_keys(loc: &str) -> BTreeMap<String, String> {
    locator_pairs(loc)
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Splits the leading annotations off a v1 message, and returns them with the human text
/// that follows. An annotation is a space-separated token `key/value` whose key is ASCII
/// letters, digits, `-` or `_`; the first token that is not one ends them.
pub fn leading_annotations(msg: &str) -> (BTreeMap<String, String>, &str) {
    let mut ann = BTreeMap::new();
    let mut rest = msg;
    while !rest.is_empty() {
        let tok_end = rest.find(' ').unwrap_or(rest.len());
        let Some((k, v)) = rest[..tok_end].split_once('/') else {
            break;
        };
        if k.is_empty()
            || !k
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            break;
        }
        ann.insert(k.to_string(), v.to_string());
        rest = rest[tok_end..].trim_start();
    }
    (ann, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_lead_and_text_follows() {
        let (m, rest) = leading_annotations(
            "constructed/node-lifecycle-constructor reason/NodeUpdate phase/Drain roles/worker drained node",
        );
        assert_eq!(m.get("phase").map(String::as_str), Some("Drain"));
        assert_eq!(m.get("reason").map(String::as_str), Some("NodeUpdate"));
        assert_eq!(m.len(), 4);
        assert_eq!(rest, "drained node");
    }

    #[test]
    fn text_without_a_leading_stanza_is_all_text() {
        let (m, rest) =
            leading_annotations("changed Progressing to True: Working towards 4.3.0: 1% complete");
        assert!(m.is_empty());
        assert!(rest.starts_with("changed Progressing"));
        // A URL is text: its "key" holds a colon.
        let (m, rest) = leading_annotations("https://x/y failed");
        assert!(m.is_empty());
        assert_eq!(rest, "https://x/y failed");
    }

    #[test]
    fn condition_stanzas_then_human_text() {
        let (m, rest) = leading_annotations(
            "condition/Available status/False reason/RouteHealth_FailedGet changed: failed to GET route (https://x/y)",
        );
        assert_eq!(m.get("condition").map(String::as_str), Some("Available"));
        assert_eq!(m.get("status").map(String::as_str), Some("False"));
        assert_eq!(rest, "changed: failed to GET route (https://x/y)");
    }

    #[test]
    fn all_annotations_leave_no_text() {
        let (m, rest) = leading_annotations("reason/Created");
        assert_eq!(m.len(), 1);
        assert_eq!(rest, "");
    }

    #[test]
    fn a_monitor_line_s_locator_is_its_leading_run_of_pairs() {
        let body = "ns/x pod/y reason/Created created /tmp/z";
        assert_eq!(
            &body[..monitor_locator_len(body)],
            "ns/x pod/y reason/Created "
        );
        assert_eq!(monitor_locator_len("clusterversion/version"), 22);
        assert_eq!(monitor_locator_len("changed: a/b"), 0);
        assert_eq!(monitor_locator_len("node/a: drained"), 0);
    }

    /// A monitor line's object keys, its other pairs and leading annotations, and its text
    /// arrive apart (the timeline reads them typed).
    #[test]
    fn a_monitor_line_s_stanzas_are_split_once() {
        let msg = "reason/NodeUpdate phase/Drain drained node";
        let (keys, ann, at) = monitor_stanzas("node/ip-1 roles/worker", msg);
        assert_eq!(keys.len(), 1);
        assert_eq!(keys["node"], "ip-1");
        assert_eq!(
            ann.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>(),
            ["phase=Drain", "reason=NodeUpdate", "roles=worker"]
        );
        assert_eq!(&msg[at..], "drained node");
        // A message without stanzas is all text.
        let (keys, ann, at) = monitor_stanzas("clusterversion/version", "changed Progressing");
        assert_eq!((keys.len(), ann.len(), at), (1, 0, 0));
    }

    #[test]
    fn locators_keep_every_pair() {
        let keys = locator_keys("ns/openshift-monitoring pod/prometheus-k8s-0 node/ip-1");
        assert_eq!(keys.len(), 3);
        assert_eq!(keys["pod"], "prometheus-k8s-0");
        let keys = locator_keys("e2e-test/[sig-x] path/a/b plain");
        assert_eq!(keys["e2e-test"], "[sig-x]");
        assert_eq!(keys["path"], "a/b");
        assert_eq!(keys.len(), 2);
    }
}
