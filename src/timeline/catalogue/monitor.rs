//! The texts of origin's monitor (test-log monitor lines and interval messages): a
//! condition change (`changed Progressing to True: Reason: message`) and the e2e framework's
//! wait for schedulable nodes.

use regex::Regex;
use std::sync::LazyLock;

static RE_CHANGED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)^changed (\w+) to (\w+)(?:: (.*))?$").expect("static regex"));
static RE_REASON_PREFIX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Z][A-Za-z0-9_]+): ").expect("static regex"));
static RE_WAIT_NODES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Waiting up to (\S+) for all \(but \d+\) nodes to be schedulable")
        .expect("static regex")
});

/// `changed <Condition> to <Status>[: <detail>]`, with the `Reason: ` the detail opens with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionChange {
    pub condition: String,
    pub status: String,
    pub detail: String,
    pub reason: String,
}

pub fn condition_change(text: &str) -> Option<ConditionChange> {
    let c = RE_CHANGED.captures(text)?;
    let detail = c.get(3).map_or("", |m| m.as_str()).to_string();
    let reason = RE_REASON_PREFIX
        .captures(&detail)
        .map(|r| r[1].to_string())
        .unwrap_or_default();
    Some(ConditionChange {
        condition: c[1].to_string(),
        status: c[2].to_string(),
        detail,
        reason,
    })
}

/// The timeout of `Waiting up to <timeout> for all (but N) nodes to be schedulable`.
pub fn waiting_for_nodes(text: &str) -> Option<String> {
    RE_WAIT_NODES.captures(text).map(|c| c[1].to_string())
}

/// The release of the upgrade test's `Completed upgrade to <release>` line, trimmed.
pub fn completed_upgrade(text: &str) -> Option<&str> {
    text.strip_prefix("Completed upgrade to ").map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_upgrade_tests_completion_line_names_its_release() {
        assert_eq!(
            completed_upgrade("Completed upgrade to registry.ci/x:4.3 "),
            Some("registry.ci/x:4.3")
        );
        assert_eq!(completed_upgrade("Starting upgrade to 4.3"), None);
    }

    #[test]
    fn monitor_texts() {
        let c = condition_change("changed Progressing to True: Working: towards 4.3").unwrap();
        assert_eq!(
            (c.condition.as_str(), c.status.as_str(), c.reason.as_str()),
            ("Progressing", "True", "Working")
        );
        assert_eq!(
            waiting_for_nodes("Waiting up to 30m0s for all (but 100) nodes to be schedulable")
                .as_deref(),
            Some("30m0s")
        );
    }
}
