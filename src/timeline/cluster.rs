//! Events from resource snapshots: ClusterVersion history, conditions, desired update and
//! generations; ClusterOperator, Node and MachineConfigPool condition transitions; operator
//! versions; CVO pod container starts and terminations. Also the history merged across
//! snapshots.

use super::locate::{locate, snapshot_time, ts};
use super::model::*;
use crate::bundle::Bundle;
use crate::model::{Condition, Pod, Provenance, Sourced, Time, parse_rfc3339};
use crate::vocab::FileTable;
use std::collections::BTreeMap;

/// Appends every resource-derived event to `out`.
pub fn extract(bundle: &Bundle, out: &mut Vec<TimelineEvent>) {
    let files = &bundle.files;
    for cv in &bundle.objects.cluster_versions {
        cluster_version(bundle, cv, out);
    }
    for co in &bundle.objects.cluster_operators {
        let subject = Subject::ClusterOperator(co.metadata.name.as_str().into());
        conditions(
            files,
            co,
            &co.metadata.name,
            &co.status.conditions,
            EventSource::ClusterOperator,
            &subject,
            out,
        );
        if let Some(v) = co.operator_version() {
            let prog = co.condition("Progressing").filter(|c| c.is_false());
            let t = prog
                .and_then(|c| c.last_transition_time)
                .or_else(|| snapshot_time(bundle, &co.prov));
            if let Some(t) = t {
                let prov = locate(
                    files,
                    &co.prov,
                    Some(&co.metadata.name),
                    v,
                    "name: operator",
                );
                out.push(TimelineEvent::new(
                    t,
                    EventSource::ClusterOperator,
                    subject.clone(),
                    EventKind::OperatorVersion {
                        version: v.to_string(),
                    },
                    format!("reports `operator` version {v}"),
                    Evidence::new(prov, &format!("versions[operator]: {v}")),
                ));
            }
        }
    }
    for node in &bundle.objects.nodes {
        let subject = Subject::Node(node.metadata.name.as_str().into());
        let ready: Vec<Condition> = node
            .status
            .conditions
            .iter()
            .filter(|c| c.type_ == "Ready")
            .cloned()
            .collect();
        conditions(
            files,
            node,
            &node.metadata.name,
            &ready,
            EventSource::Node,
            &subject,
            out,
        );
        if let (Some(ev), Some(machine)) = (
            out.last_mut(),
            node.metadata
                .annotations
                .get("machine.openshift.io/machine"),
        ) && ev.subject == subject
        {
            ev.message.push_str(&format!(" (machine `{machine}`)"));
        }
    }
    for pool in &bundle.objects.pools {
        let subject = Subject::MachineConfigPool(pool.metadata.name.as_str().into());
        let keep: Vec<Condition> = pool
            .status
            .conditions
            .iter()
            .filter(|c| matches!(c.type_.as_str(), "Updated" | "Updating" | "Degraded"))
            .cloned()
            .collect();
        conditions(
            files,
            pool,
            &pool.metadata.name,
            &keep,
            EventSource::MachineConfigPool,
            &subject,
            out,
        );
    }
    for pod in &bundle.objects.cvo_pods {
        cvo_pod(files, pod, out);
    }
}

fn cluster_version(
    bundle: &Bundle,
    cv: &Sourced<crate::model::ClusterVersion>,
    out: &mut Vec<TimelineEvent>,
) {
    let name = if cv.metadata.name.is_empty() {
        "version"
    } else {
        cv.metadata.name.as_str()
    };
    let subject = Subject::ClusterVersion(name.into());
    let files = &bundle.files;
    for (i, h) in cv.status.history.iter().enumerate() {
        let (version, image) = (h.version.clone(), h.image.clone());
        if let Some(t) = h.started_time {
            let prov = locate(files, &cv.prov, None, &ts(&t), h.label());
            out.push(TimelineEvent::new(
                t,
                EventSource::ClusterVersion,
                subject.clone(),
                EventKind::HistoryStarted {
                    version: version.clone(),
                    image: image.clone(),
                },
                format!("history: {} started ({})", h.label(), h.state),
                Evidence::new(
                    prov,
                    &format!(
                        "history[{i}] {} startedTime {} state {}",
                        h.label(),
                        ts(&t),
                        h.state
                    ),
                ),
            ));
        }
        if let Some(t) = h.completion_time {
            let prov = locate(files, &cv.prov, None, &ts(&t), "completionTime");
            let ev = Evidence::new(
                prov,
                &format!(
                    "history[{i}] {} completionTime {} state {}",
                    h.label(),
                    ts(&t),
                    h.state
                ),
            );
            let (kind, msg) = if h.is_completed() {
                (
                    EventKind::HistoryCompleted { version, image },
                    format!("history: {} completed", h.label()),
                )
            } else {
                (
                    EventKind::HistoryAbandoned { version, image },
                    format!("history: {} left unfinished ({})", h.label(), h.state),
                )
            };
            out.push(TimelineEvent::new(
                t,
                EventSource::ClusterVersion,
                subject.clone(),
                kind,
                msg,
                ev,
            ));
        }
    }
    conditions(
        files,
        cv,
        "",
        &cv.status.conditions,
        EventSource::ClusterVersion,
        &subject,
        out,
    );
    if let Some(t) = snapshot_time(bundle, &cv.prov) {
        let desired = cv.status.desired.label().to_string();
        out.push(TimelineEvent::new(
            t,
            EventSource::ClusterVersion,
            subject.clone(),
            EventKind::Snapshot {
                desired: desired.clone(),
                generation: cv.metadata.generation,
                observed_generation: cv.status.observed_generation,
            },
            format!(
                "snapshot: status.desired {desired}, generation {} observed {}",
                opt_num(cv.metadata.generation),
                opt_num(cv.status.observed_generation)
            ),
            Evidence::new(cv.prov.clone(), &format!("status.desired {desired}")),
        ));
        if let Some(u) = &cv.spec.desired_update {
            let prov = locate(files, &cv.prov, None, "desiredUpdate", "");
            out.push(TimelineEvent::new(
                t,
                EventSource::ClusterVersion,
                subject,
                EventKind::DesiredUpdateSeen {
                    version: u.version.clone(),
                    image: u.image.clone(),
                    force: u.force.unwrap_or(false),
                },
                format!(
                    "spec.desiredUpdate is {}{}",
                    u.label(),
                    if u.force == Some(true) {
                        " (forced)"
                    } else {
                        ""
                    }
                ),
                Evidence::new(
                    prov,
                    &format!("spec.desiredUpdate {} {}", u.version, u.image),
                ),
            ));
        }
    }
}

fn opt_num(n: Option<i64>) -> String {
    n.map_or_else(|| "?".to_string(), |n| n.to_string())
}

/// One event per condition with a lastTransitionTime.
fn conditions<T>(
    files: &FileTable,
    obj: &Sourced<T>,
    anchor: &str,
    conds: &[Condition],
    source: EventSource,
    subject: &Subject,
    out: &mut Vec<TimelineEvent>,
) {
    for c in conds {
        let Some(t) = c.last_transition_time else {
            continue;
        };
        let anchor = (!anchor.is_empty()).then_some(anchor);
        let prov = locate(files, &obj.prov, anchor, &ts(&t), &c.type_);
        out.push(TimelineEvent::new(
            t,
            source,
            subject.clone(),
            transition_kind(c),
            transition_message(c),
            Evidence::new(
                prov,
                &format!("{} {} {} {}", c.type_, c.status, c.reason, c.message),
            ),
        ));
    }
}

/// Container starts and terminations of a CVO pod.
fn cvo_pod(files: &FileTable, pod: &Sourced<Pod>, out: &mut Vec<TimelineEvent>) {
    let subject = Subject::CvoPod(pod.metadata.name.as_str().into());
    for cs in &pod.status.container_statuses {
        let restarts = cs.restart_count;
        if let Some(t) = state_time(cs.state.as_ref(), "running", "startedAt") {
            out.push(pod_event(
                files,
                pod,
                &subject,
                t,
                ContainerPhase::Running,
                restarts,
                format!(
                    "container `{}` running since (restarts {restarts})",
                    cs.name
                ),
            ));
        }
        let last = cs.last_state.as_ref();
        if let Some(t) = state_time(last, "terminated", "startedAt") {
            out.push(pod_event(
                files,
                pod,
                &subject,
                t,
                ContainerPhase::Started,
                restarts,
                format!("previous `{}` container started", cs.name),
            ));
        }
        if let Some(t) = state_time(last, "terminated", "finishedAt") {
            let reason = last
                .and_then(|v| v.pointer("/terminated/reason"))
                .and_then(|v| v.as_str())
                .unwrap_or("");
            let code = last
                .and_then(|v| v.pointer("/terminated/exitCode"))
                .and_then(|v| v.as_i64());
            let what = match code {
                Some(c) => format!(
                    "previous `{}` container terminated: {reason} (exit code {c})",
                    cs.name
                ),
                None => format!("previous `{}` container terminated: {reason}", cs.name),
            };
            out.push(pod_event(
                files,
                pod,
                &subject,
                t,
                ContainerPhase::Terminated,
                restarts,
                what,
            ));
        }
    }
}

fn state_time(state: Option<&serde_json::Value>, which: &str, field: &str) -> Option<Time> {
    state?
        .get(which)?
        .get(field)?
        .as_str()
        .and_then(parse_rfc3339)
}

fn pod_event(
    files: &FileTable,
    pod: &Sourced<Pod>,
    subject: &Subject,
    t: Time,
    state: ContainerPhase,
    restarts: i64,
    msg: String,
) -> TimelineEvent {
    let at = state.as_str();
    let prov = locate(files, &pod.prov, Some(&pod.metadata.name), &ts(&t), at);
    TimelineEvent::new(
        t,
        EventSource::Pod,
        subject.clone(),
        EventKind::ContainerState { state, restarts },
        msg.clone(),
        Evidence::new(prov, &msg),
    )
}

/// `status.history` merged across all ClusterVersion snapshots, oldest first. Snapshots
/// are taken in collection order (by their input's collection time, then reading order); a
/// later snapshot's state and completionTime win, and rewritten completion times are kept.
pub fn merged_history(bundle: &Bundle) -> Vec<HistoryRecord> {
    let files = &bundle.files;
    let mut snaps: Vec<(Option<Time>, usize, &Sourced<crate::model::ClusterVersion>)> = bundle
        .objects
        .cluster_versions
        .iter()
        .enumerate()
        .map(|(i, cv)| (snapshot_time(bundle, &cv.prov), i, cv))
        .collect();
    snaps.sort_by_key(|s| (s.0, s.1));
    let mut records: Vec<HistoryRecord> = Vec::new();
    let mut index: BTreeMap<(String, Option<Time>), usize> = BTreeMap::new();
    for (_, _, cv) in snaps {
        for (i, h) in cv.status.history.iter().enumerate().rev() {
            let key_id = if h.image.is_empty() {
                h.version.clone()
            } else {
                h.image.clone()
            };
            let key = (key_id, h.started_time);
            let prov: Provenance = match h.started_time {
                Some(t) => locate(files, &cv.prov, None, &ts(&t), h.label()),
                None => cv.prov.clone(),
            };
            let ev = Evidence::new(
                prov,
                &format!(
                    "history[{i}] {} {} started {} completed {}",
                    h.label(),
                    h.state,
                    h.started_time.map_or("null".into(), |t| ts(&t)),
                    h.completion_time.map_or("null".into(), |t| ts(&t))
                ),
            );
            let completion = h.completion_time.map_or("null".to_string(), |t| ts(&t));
            match index.get(&key) {
                Some(&at) => {
                    let r = &mut records[at];
                    if r.completion != h.completion_time
                        && !r.completion_rewrites.contains(&completion)
                    {
                        if r.completion_rewrites.is_empty() {
                            let old = r.completion.map_or("null".to_string(), |t| ts(&t));
                            r.completion_rewrites.push(old);
                        }
                        r.completion_rewrites.push(completion);
                    }
                    r.state = h.state.clone();
                    r.completion = h.completion_time;
                    r.verified = h.verified;
                    if r.version.is_empty() {
                        r.version = h.version.clone();
                    }
                    if !r.evidence.contains(&ev) {
                        r.evidence.push(ev);
                    }
                }
                None => {
                    index.insert(key, records.len());
                    records.push(HistoryRecord {
                        version: h.version.clone(),
                        image: h.image.clone(),
                        state: h.state.clone(),
                        started: h.started_time,
                        completion: h.completion_time,
                        verified: h.verified,
                        completion_rewrites: Vec::new(),
                        evidence: vec![ev],
                    });
                }
            }
        }
    }
    // Oldest first; entries without a start time keep their place after those with one.
    let mut with: Vec<HistoryRecord> = Vec::new();
    let mut without = Vec::new();
    for r in records {
        if r.started.is_some() {
            with.push(r)
        } else {
            without.push(r)
        }
    }
    with.sort_by_key(|r| r.started);
    with.extend(without);
    with
}

/// The event kind of a condition's transition.
pub(super) fn transition_kind(c: &Condition) -> EventKind {
    EventKind::ConditionTransition {
        condition: c.type_.clone(),
        status: c.status.clone(),
        reason: c.reason.clone(),
    }
}

/// "`Type` → Status (Reason): message", the line a condition transition is told by.
pub(super) fn transition_message(c: &Condition) -> String {
    let mut msg = format!("`{}` → {}", c.type_, c.status);
    if !c.reason.is_empty() {
        msg.push_str(&format!(" ({})", c.reason));
    }
    if !c.message.is_empty() {
        msg.push_str(": ");
        msg.push_str(&c.message);
    }
    msg
}
