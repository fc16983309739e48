//! Events from CI artifacts: origin monitor intervals (all schema generations, as normalised by
//! ingest), monitor and e2e lines of test logs, JUnit results and Prow start and end.

use super::catalogue::{cvo_reason_kinds, monitor};
use super::model::*;
use crate::bundle::Bundle;
use crate::model::{Interval, JunitStatus, TextLine, TextLineKind};
use std::collections::BTreeMap;

/// Appends CI-derived events to `out`.
pub fn extract(bundle: &Bundle, out: &mut Vec<TimelineEvent>) {
    for iv in &bundle.intervals {
        interval(iv, out);
    }
    text_lines(&bundle.text_lines, out);
    prow_and_junit(bundle, out);
}

/// An interval's reason: its own field, else (v1) its `reason/` annotation.
fn reason_of(iv: &Interval) -> String {
    if iv.reason.is_empty() {
        iv.annotations.get("reason").cloned().unwrap_or_default()
    } else {
        iv.reason.clone()
    }
}

/// The monitor intervals with both ends, for the chart (see [`MonitorSpans`]).
pub fn monitor_spans(bundle: &Bundle) -> MonitorSpans {
    let mut out = MonitorSpans::default();
    for iv in &bundle.intervals {
        let Some(from) = iv.from else { continue };
        let to = iv.to.filter(|t| *t >= from);
        out.any = true;
        let last = to.unwrap_or(from);
        out.end = Some(out.end.map_or(last, |e| e.max(last)));
        let k = &iv.locator_keys;
        if k.contains_key("e2e-test") || k.contains_key("pod") || k.contains_key("container") {
            continue;
        }
        out.spans.push(MonitorSpan {
            level: iv.level.clone(),
            locator: iv.locator.clone(),
            keys: k.clone(),
            reason: reason_of(iv),
            annotations: iv.annotations.clone(),
            message: iv
                .message
                .trim()
                .trim_start_matches("changed:")
                .trim()
                .to_string(),
            from,
            to,
            file: iv.prov.display_path(),
        });
    }
    out
}

/// The subject for a set of locator keys: cluster version, operator, pool or node (a pod or
/// container on a node is not about the node).
fn subject_for(keys: &BTreeMap<String, String>) -> Option<Subject> {
    if keys.contains_key("clusterversion") {
        return Some(Subject::cluster_version());
    }
    if let Some(co) = keys.get("clusteroperator") {
        return Some(Subject::ClusterOperator(co.as_str().into()));
    }
    if let Some(p) = keys.get("machineconfigpool").or(keys.get("mcp")) {
        return Some(Subject::MachineConfigPool(p.as_str().into()));
    }
    if let Some(n) = keys.get("node")
        && !keys.contains_key("pod")
        && !keys.contains_key("container")
    {
        return Some(Subject::Node(n.as_str().into()));
    }
    None
}

fn interval(iv: &Interval, out: &mut Vec<TimelineEvent>) {
    let Some(from) = iv.from else { return };
    // Ingest already split the v1 string forms (`ingest::stanza`): keys, annotations and the
    // human text arrive apart.
    let (keys, ann, human) = (&iv.locator_keys, &iv.annotations, iv.message.as_str());
    let reason = reason_of(iv);
    let ev = Evidence::new(
        iv.prov.clone(),
        &format!("{} {} {}", iv.locator, reason, iv.message),
    );
    let push = |out: &mut Vec<TimelineEvent>, t, subject: &Subject, kind, msg: String| {
        out.push(TimelineEvent::new(
            t,
            EventSource::Interval,
            subject.clone(),
            kind,
            msg,
            ev.clone(),
        ));
    };
    if let Some(test) = keys.get("e2e-test") {
        push(
            out,
            from,
            &Subject::E2e,
            EventKind::TestStart { test: test.clone() },
            format!("test started: {test}"),
        );
        if let Some(to) = iv.to.filter(|to| *to > from) {
            let status = ann.get("status").cloned().unwrap_or_default();
            push(
                out,
                to,
                &Subject::E2e,
                EventKind::TestEnd {
                    test: test.clone(),
                    status: status.clone(),
                },
                format!("test ended ({status}): {test}"),
            );
        }
        return;
    }
    let Some(subject) = subject_for(keys) else {
        return;
    };
    if matches!(subject, Subject::ClusterVersion(_)) && reason.starts_with("Upgrade") {
        for kind in cvo_reason_kinds(&reason, "", &iv.message) {
            push(
                out,
                from,
                &subject,
                kind,
                format!("{reason}: {}", human.trim()),
            );
        }
        return;
    }
    if let Some(cond) = ann.get("condition") {
        let status = ann.get("status").cloned().unwrap_or_default();
        let text = human.trim().trim_start_matches("changed:").trim();
        push(
            out,
            from,
            &subject,
            EventKind::ConditionTransition {
                condition: cond.clone(),
                status: status.clone(),
                reason: reason.clone(),
            },
            condition_message(cond, &status, &reason, text),
        );
        return;
    }
    if matches!(subject, Subject::Node(_)) {
        let phase = ann
            .get("phase")
            .or(ann.get("state"))
            .cloned()
            .unwrap_or_else(|| reason.clone());
        if !phase.is_empty() {
            let msg = match iv.to.filter(|to| *to > from) {
                Some(to) => format!("{phase} ({}s)", (to - from).num_seconds()),
                None => phase.clone(),
            };
            let msg = match human.trim() {
                "" => msg,
                h => format!("{msg}: {h}"),
            };
            push(out, from, &subject, EventKind::NodeLifecycle { phase }, msg);
        }
    }
}

fn condition_message(cond: &str, status: &str, reason: &str, text: &str) -> String {
    let mut m = format!("`{cond}` → {status}");
    if !reason.is_empty() {
        m.push_str(&format!(" ({reason})"));
    }
    if !text.is_empty() {
        m.push_str(&format!(": {text}"));
    }
    m
}

fn text_lines(lines: &[TextLine], out: &mut Vec<TimelineEvent>) {
    let first_info = lines
        .iter()
        .filter(|l| l.kind == TextLineKind::Info)
        .filter_map(|l| l.time.map(|t| (t, l)))
        .min_by(|a, b| (a.0, &a.1.prov).cmp(&(b.0, &b.1.prov)));
    if let Some((t, l)) = first_info {
        out.push(TimelineEvent::new(
            t,
            EventSource::TestLog,
            Subject::E2e,
            EventKind::E2eOutputStart,
            format!("e2e test output starts: {}", one_line(&l.message, 160)),
            Evidence::new(l.prov.clone(), &l.message),
        ));
    }
    for l in lines {
        let Some(t) = l.time else { continue };
        let ev = Evidence::new(l.prov.clone(), &l.message);
        match &l.kind {
            TextLineKind::Info => {
                if let Some(timeout) = monitor::waiting_for_nodes(&l.message) {
                    let kind = EventKind::E2eWaitingForNodes { timeout };
                    out.push(TimelineEvent::new(
                        t,
                        EventSource::TestLog,
                        Subject::E2e,
                        kind,
                        l.message.clone(),
                        ev,
                    ));
                } else if let Some(target) = monitor::completed_upgrade(&l.message) {
                    let kind = EventKind::UpgradeComplete {
                        version: String::new(),
                        image: target.to_string(),
                    };
                    out.push(TimelineEvent::new(
                        t,
                        EventSource::TestLog,
                        Subject::cluster_version(),
                        kind,
                        l.message.clone(),
                        ev,
                    ));
                }
            }
            TextLineKind::Monitor { .. } => monitor(t, l, ev, out),
        }
    }
}

/// A monitor line's event, from the stanzas ingest split (`ingest::stanza::monitor_stanzas`).
fn monitor(t: crate::model::Time, l: &TextLine, ev: Evidence, out: &mut Vec<TimelineEvent>) {
    let TextLineKind::Monitor {
        level,
        duration_secs,
        keys,
        annotations: ann,
        ..
    } = &l.kind
    else {
        return;
    };
    let (level, duration, message, text) = (*level, *duration_secs, &l.message, l.text());
    let Some(subject) = subject_for(keys) else {
        return;
    };
    let text = text.trim();
    let push = |out: &mut Vec<TimelineEvent>, kind, msg: String| {
        out.push(TimelineEvent::new(
            t,
            EventSource::TestLog,
            subject.clone(),
            kind,
            msg,
            ev.clone(),
        ));
    };
    if let Some(ch) = monitor::condition_change(text) {
        let (cond, status, detail, reason) = (ch.condition, ch.status, ch.detail, ch.reason);
        let detail = detail.as_str();
        let msg = if detail.is_empty() {
            format!("`{cond}` → {status}")
        } else {
            format!("`{cond}` → {status}: {detail}")
        };
        push(
            out,
            EventKind::ConditionTransition {
                condition: cond,
                status,
                reason,
            },
            msg,
        );
        return;
    }
    if let Some(cond) = ann.get("condition") {
        let status = ann.get("status").cloned().unwrap_or_default();
        let reason = ann.get("reason").cloned().unwrap_or_default();
        let detail = text.trim_start_matches("changed:").trim();
        let msg = condition_message(cond, &status, &reason, detail);
        push(
            out,
            EventKind::ConditionTransition {
                condition: cond.clone(),
                status,
                reason,
            },
            msg,
        );
        return;
    }
    if matches!(subject, Subject::ClusterVersion(_))
        && let Some(reason) = ann.get("reason").filter(|r| r.starts_with("Upgrade"))
    {
        for kind in cvo_reason_kinds(reason, "", message) {
            push(out, kind, format!("{reason}: {text}"));
        }
        return;
    }
    if matches!(subject, Subject::Node(_)) {
        let ready = match text {
            "node is ready" => Some("True"),
            "node is not ready" => Some("False"),
            _ => None,
        };
        if let Some(status) = ready {
            let kind = EventKind::ConditionTransition {
                condition: "Ready".into(),
                status: status.into(),
                reason: String::new(),
            };
            push(out, kind, format!("`Ready` → {status}: {text}"));
            return;
        }
    }
    if matches!(subject, Subject::Node(_))
        && let Some(phase) = ann.get("phase").or(ann.get("state")).or(ann.get("reason"))
    {
        push(
            out,
            EventKind::NodeLifecycle {
                phase: phase.clone(),
            },
            format!("{phase}: {text}"),
        );
        return;
    }
    let msg = match duration {
        Some(d) => format!("{text} (for {d}s)"),
        None => text.to_string(),
    };
    push(
        out,
        EventKind::Monitor {
            level: level.to_string(),
        },
        msg,
    );
}

/// JUnit cases worth placing on the timeline: failures and the upgrade milestones.
fn junit_kept(name: &str, status: &JunitStatus) -> bool {
    matches!(status, JunitStatus::Failed | JunitStatus::Error)
        || name.contains("Cluster completes upgrade")
        || name.contains("Cluster version operator acknowledges upgrade")
        || name.contains("Machine config pools complete upgrade")
}

fn prow_and_junit(bundle: &Bundle, out: &mut Vec<TimelineEvent>) {
    let Some(p) = &bundle.prow else { return };
    let prov = p
        .prov
        .first()
        .cloned()
        .unwrap_or_else(|| crate::model::Provenance::detached("", ""));
    let job = if p.job.is_empty() {
        p.build_id.clone()
    } else {
        p.job.clone()
    };
    if let Some(t) = p.start {
        out.push(TimelineEvent::new(
            t,
            EventSource::Prow,
            Subject::Prow,
            EventKind::ProwStart { job: job.clone() },
            format!("job `{job}` started"),
            Evidence::new(prov.clone(), &format!("start {}", fmt_short(&t))),
        ));
    }
    let Some(end) = p.completion else { return };
    let result = if p.result.is_empty() {
        p.state.clone()
    } else {
        p.result.clone()
    };
    out.push(TimelineEvent::new(
        end,
        EventSource::Prow,
        Subject::Prow,
        EventKind::ProwEnd {
            job: job.clone(),
            passed: p.passed,
            result: result.clone(),
        },
        format!("job `{job}` finished: {result}"),
        Evidence::new(
            p.prov.last().cloned().unwrap_or(prov),
            &format!("completion {}", fmt_short(&end)),
        ),
    ));
    for case in &bundle.junit {
        if !junit_kept(&case.name, &case.status) {
            continue;
        }
        let status = match case.status {
            JunitStatus::Passed => "passed",
            JunitStatus::Failed => "failed",
            JunitStatus::Error => "error",
            JunitStatus::Skipped => "skipped",
        };
        let took = case
            .time_secs
            .map_or(String::new(), |s| format!(" after {s:.0}s"));
        out.push(TimelineEvent::new(
            end,
            EventSource::Junit,
            Subject::Junit,
            EventKind::JunitResult {
                test: case.name.clone(),
                status: status.to_string(),
                duration_secs: case.time_secs,
            },
            format!("{status}{took}: {}", case.name),
            Evidence::new(
                case.prov.clone(),
                &format!("{} {status} {}", case.name, case.message),
            ),
        ));
    }
}
