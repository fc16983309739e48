//! The machine-config operator's view of a node, as oc reads it from the node's
//! `machineconfiguration.openshift.io/*` annotations and conditions: whether it is done
//! at its desired config, unavailable (not ready, pressure, unschedulable, or the daemon at
//! work) and why, whether that is serious, and whether it is draining.

use super::godur::{Dur, MINUTE};
use crate::model::*;
use crate::vocab::text::go_quote;

const MCO: &str = "machineconfiguration.openshift.io/";

const WORK_IN_PROGRESS: &str = "Machine Config Daemon is processing the node";
const UNSCHEDULABLE: &str = "Node is marked unschedulable";
const NOT_READY: &str = "Not ready";
const DISK_PRESSURE: &str = "Disk pressure";
const NETWORK_UNAVAILABLE: &str = "Network unavailable";

pub(super) fn annotation<'a>(n: &'a Node, key: &str) -> Option<&'a str> {
    n.metadata
        .annotations
        .get(&format!("{MCO}{key}"))
        .map(String::as_str)
}

/// A reason a node is unavailable.
struct Bad {
    reason: String,
    message: String,
    since: Option<Time>,
}

impl Bad {
    fn new(reason: &str) -> Bad {
        Bad {
            reason: reason.to_string(),
            message: String::new(),
            since: None,
        }
    }
}

/// The MCO's view of whether a node is available, and the reasons it is not.
pub(super) struct Availability {
    pub(super) unavailable: bool,
    bad: Vec<Bad>,
}

impl Availability {
    pub(super) fn of(node: &Node, pool: &MachineConfigPool) -> Availability {
        let mut bad = Vec::new();
        for c in &node.status.conditions {
            let reason = match c.type_.as_str() {
                "Ready" if c.status != "True" => NOT_READY,
                "DiskPressure" if c.status != "False" => DISK_PRESSURE,
                "NetworkUnavailable" if c.status != "False" => NETWORK_UNAVAILABLE,
                _ => continue,
            };
            bad.push(Bad {
                reason: reason.to_string(),
                message: c.message.clone(),
                since: c.last_transition_time,
            });
        }
        if node.spec.unschedulable {
            bad.push(Bad::new(UNSCHEDULABLE));
        }
        let state = annotation(node, "state").unwrap_or("");
        let node_unavailable = if !bad.is_empty() {
            true
        } else if is_done(node) || matches!(state, "Degraded" | "Unreconcilable") {
            false
        } else {
            bad.push(Bad::new(WORK_IN_PROGRESS));
            true
        };
        let unavailable = node_unavailable && desired_image_matches_pool(node, pool, &mut bad);
        Availability { unavailable, bad }
    }

    /// Unavailable for a reason other than the update itself, long enough to matter.
    pub(super) fn serious(&self, now: Time) -> bool {
        let younger_than = |since: Option<Time>, minutes: i64| {
            since.is_some_and(|s| Dur::between(s, now) < Dur(minutes * MINUTE))
        };
        self.bad.iter().any(|b| match b.reason.as_str() {
            UNSCHEDULABLE | WORK_IN_PROGRESS => false,
            NOT_READY => !younger_than(b.since, 5),
            DISK_PRESSURE | NETWORK_UNAVAILABLE => !younger_than(b.since, 1),
            _ => true,
        })
    }

    pub(super) fn since(&self) -> Option<Time> {
        self.bad.iter().filter_map(|b| b.since).min()
    }

    pub(super) fn reason(&self) -> String {
        let r: Vec<&str> = self.bad.iter().map(|b| b.reason.as_str()).collect();
        r.join(" | ")
    }

    pub(super) fn summary(&self, node: &str) -> String {
        let m: Vec<String> = self
            .bad
            .iter()
            .map(|b| match b.reason.as_str() {
                NOT_READY => format!("Node {node} is not ready"),
                DISK_PRESSURE => format!("Node {node} has disk pressure"),
                NETWORK_UNAVAILABLE => format!("Node {node} has unavailable network"),
                r => r.to_string(),
            })
            .collect();
        m.join(" | ")
    }

    pub(super) fn description(&self) -> String {
        let d: Vec<String> = self
            .bad
            .iter()
            .map(|b| {
                let cond = match b.reason.as_str() {
                    NOT_READY => "Ready!=True",
                    DISK_PRESSURE => "DiskPressure!=False",
                    NETWORK_UNAVAILABLE => "NetworkUnavailable!=False",
                    r => return r.to_string(),
                };
                format!(
                    "Node has a {cond} condition with Reason {} and message {}",
                    go_quote(&b.reason),
                    go_quote(&b.message)
                )
            })
            .collect();
        d.join(" | ")
    }
}

/// The node applied its desired config (and image) and the daemon is Done.
fn is_done(node: &Node) -> bool {
    let current = annotation(node, "currentConfig").unwrap_or("");
    let desired = annotation(node, "desiredConfig").unwrap_or("");
    if current.is_empty() || desired.is_empty() || current != desired {
        return false;
    }
    let image_done = match (
        annotation(node, "desiredImage"),
        annotation(node, "currentImage"),
    ) {
        (None, None) => true,
        (d, c) => {
            let (d, c) = (d.unwrap_or(""), c.unwrap_or(""));
            !d.is_empty() && !c.is_empty() && d == c
        }
    };
    image_done && annotation(node, "state") == Some("Done")
}

/// For layered pools with an OS image, the node's desired image must be it (a mismatch is
/// recorded as a reason); otherwise the node must have no desired image.
fn desired_image_matches_pool(node: &Node, pool: &MachineConfigPool, bad: &mut Vec<Bad>) -> bool {
    let desired = annotation(node, "desiredImage");
    let layered = pool
        .metadata
        .labels
        .contains_key(&format!("{MCO}layering-enabled"));
    let key = format!("{MCO}newestImageEquivalentConfig");
    let os_image = pool
        .metadata
        .annotations
        .get(&key)
        .filter(|v| !v.is_empty());
    match os_image {
        Some(image) if layered => {
            if desired.unwrap_or("") == image {
                return true;
            }
            bad.push(Bad::new(&format!(
                "Node has an unexpected annotation {key}={image}"
            )));
            false
        }
        _ => desired.is_none_or(str::is_empty),
    }
}

pub(super) fn is_draining(node: &Node, updating: bool) -> bool {
    let desired = annotation(node, "desiredDrain").unwrap_or("");
    let applied = annotation(node, "lastAppliedDrain").unwrap_or("");
    if desired.is_empty() || applied.is_empty() {
        return false;
    }
    if desired != applied && desired.split('-').next() == Some("drain") {
        return true;
    }
    // About to update, but the daemon has not left `Done` yet: report draining, not done.
    updating && annotation(node, "state") == Some("Done")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(ready: &str, since: &str, unschedulable: bool) -> Node {
        let mut n = Node::default();
        n.metadata.name = "node-a".into();
        for (k, v) in [
            ("currentConfig", "c1"),
            ("desiredConfig", "c1"),
            ("state", "Done"),
        ] {
            n.metadata.annotations.insert(format!("{MCO}{k}"), v.into());
        }
        n.spec.unschedulable = unschedulable;
        n.status.conditions.push(Condition {
            type_: "Ready".into(),
            status: ready.into(),
            reason: "KubeletNotReady".into(),
            message: "PLEG is \"not\" healthy".into(),
            last_transition_time: parse_rfc3339(since),
        });
        n
    }

    #[test]
    fn not_ready_is_serious_after_five_minutes() {
        let pool = MachineConfigPool::default();
        let now = parse_rfc3339("2024-01-01T10:10:00Z").unwrap();
        let a = Availability::of(&node("False", "2024-01-01T10:00:00Z", false), &pool);
        assert!(a.unavailable && a.serious(now));
        assert_eq!(a.reason(), NOT_READY);
        assert_eq!(a.summary("node-a"), "Node node-a is not ready");
        assert_eq!(
            a.description(),
            r#"Node has a Ready!=True condition with Reason "Not ready" and message "PLEG is \"not\" healthy""#
        );
        let a = Availability::of(&node("False", "2024-01-01T10:07:00Z", false), &pool);
        assert!(a.unavailable && !a.serious(now));
    }

    #[test]
    fn done_and_ready_is_available_and_cordoning_alone_is_not_serious() {
        let pool = MachineConfigPool::default();
        let now = parse_rfc3339("2024-01-01T10:10:00Z").unwrap();
        let a = Availability::of(&node("True", "2024-01-01T09:00:00Z", false), &pool);
        assert!(!a.unavailable);
        let a = Availability::of(&node("True", "2024-01-01T09:00:00Z", true), &pool);
        assert!(a.unavailable && !a.serious(now));
        assert_eq!(a.reason(), UNSCHEDULABLE);
    }
}
