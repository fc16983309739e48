//! Events from Kubernetes Event objects (`core/events.yaml`, gather-extra `events.json`):
//! the CVO's payload and precondition events, leader election, the CI upgrade test's
//! `Upgrade*` events, and node lifecycle reasons. Unrelated events are left out.

use super::catalogue::{cvo_reason_kinds, leader_pod};
use super::locate::locate;
use super::model::*;
use crate::bundle::Bundle;
use crate::model::{Event, Sourced};
use crate::vocab::FileTable;

const CVO_NS: &str = "openshift-cluster-version";

/// Node event reasons kept as lifecycle steps (kubelet, node controller, MCO).
const NODE_REASONS: &[&str] = &[
    "Reboot",
    "Rebooted",
    "RebootRequired",
    "NodeNotReady",
    "NodeReady",
    "NodeNotSchedulable",
    "NodeSchedulable",
    "Drain",
    "Drained",
    "Cordon",
    "Uncordon",
    "OSUpdateStarted",
    "OSUpdateStaged",
    "InClusterUpgrade",
    "PendingConfig",
    "SetDesiredConfig",
    "NodeDone",
    "Starting",
    "RegisteredNode",
    "RemovingNode",
];

/// Appends the kept events to `out`.
pub fn extract(bundle: &Bundle, out: &mut Vec<TimelineEvent>) {
    for ev in &bundle.objects.events {
        event(&bundle.files, ev, out);
    }
    // The room the vector grew into and did not fill, handed back in place (it is held
    // while the CVO logs' events are read beside it).
    out.shrink_to_fit();
}

fn subject_of(e: &Event) -> Subject {
    let o = &e.involved_object;
    let ns = if o.namespace.is_empty() {
        e.namespace.as_str()
    } else {
        o.namespace.as_str()
    };
    match o.kind.as_str() {
        "ClusterVersion" | "" => Subject::cluster_version(),
        "Pod" if ns == CVO_NS && o.name.starts_with("cluster-version-operator") => {
            Subject::CvoPod(o.name.as_str().into())
        }
        k => Subject::of_kind(k, &o.name),
    }
}

fn event(files: &FileTable, ev: &Sourced<Event>, out: &mut Vec<TimelineEvent>) {
    let e = &ev.value;
    let Some(t) = e.first_seen() else { return };
    let ns = if e.involved_object.namespace.is_empty() {
        &e.namespace
    } else {
        &e.involved_object.namespace
    };
    let in_cvo_ns = ns == CVO_NS || e.namespace == CVO_NS;
    let mut subject = subject_of(e);
    let mut kinds = cvo_reason_kinds(&e.reason, &e.type_, &e.message);
    if !kinds.is_empty() && matches!(subject.prefix(), "configmap" | "lease") {
        subject = Subject::cluster_version();
    }
    if kinds.is_empty() {
        if e.reason == "LeaderElection" && in_cvo_ns {
            let pod = leader_pod(&e.message);
            // 4.3-era CVOs identify by host name, newer ones by pod name.
            subject = if pod.starts_with("cluster-version-operator") {
                Subject::CvoPod(pod.into())
            } else {
                Subject::cluster_version()
            };
            kinds.push(EventKind::LeaderAcquired);
        } else if e.involved_object.kind == "Node" && NODE_REASONS.contains(&e.reason.as_str()) {
            kinds.push(EventKind::NodeLifecycle {
                phase: e.reason.clone(),
            });
        } else if in_cvo_ns || e.involved_object.kind == "ClusterVersion" {
            kinds.push(EventKind::KubeEvent {
                reason: e.reason.clone(),
                event_type: e.type_.clone(),
                count: e.count.unwrap_or(1),
            });
        } else {
            return;
        }
    }
    let count = e.count.unwrap_or(1);
    let mut msg = format!("{} {}: {}", e.type_, e.reason, e.message.trim());
    if count > 1
        && let Some(last) = e.last_seen().filter(|l| *l != t)
    {
        msg.push_str(&format!(" (×{count}, last {})", fmt_short(&last)));
    }
    let anchor = (!e.metadata.name.is_empty()).then_some(e.metadata.name.as_str());
    let prov = locate(files, &ev.prov, anchor, &e.reason, "reason");
    let evidence = Evidence::new(prov, &format!("{} {} {}", e.type_, e.reason, e.message));
    // The last kind takes the message and evidence themselves, the others copies.
    let last = kinds.pop();
    for kind in kinds {
        out.push(TimelineEvent {
            time: t,
            source: EventSource::KubeEvent,
            subject: subject.clone(),
            kind,
            message: msg.clone(),
            evidence: vec![evidence.clone()],
        });
    }
    if let Some(kind) = last {
        out.push(TimelineEvent {
            time: t,
            source: EventSource::KubeEvent,
            subject,
            kind,
            message: msg,
            evidence: vec![evidence],
        });
    }
}
