//! CV002 `reconcile-stalled-on-preconditions`: the legacy CVO stopped reconciling the running
//! release while it retried a target that failed preconditions, payload retrieval or
//! verification (Bug 1822752). Read from the conditions and history, from the CVO log (passes
//! that never reach a manifest), or both. A fixed CVO rejecting a target is CV020.

use super::blocked::{legacy_blocked, open_stall};
use crate::model::Time;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{
    cond, cond_evidence, cv_ref, duration, history_evidence, operators_in, ticked,
};
use crate::timeline::{Episode, PreconditionFailure, StallCause, text};

declare_rule! {
    ReconcileStalledOnPreconditions: "CV002" "reconcile-stalled-on-preconditions" {
        severity: Error,
        family: ClusterVersion,
        summary: "the CVO stopped reconciling the running release while it retried a target that fails preconditions, retrieval or verification",
        needs: &[&[Input::ClusterVersion, Input::CvoLog]],
        help: "fix the failing precondition, or return to the running release (see CV004); until then nothing reconciles the cluster's manifests",
        references: &[
                "https://bugzilla.redhat.com/show_bug.cgi?id=1822752",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/sync_worker.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    if cx.bundle.cluster_version().is_some() {
        let Some(b) = legacy_blocked(cx) else { return };
        let stall = open_stall(cx, Some(b.target.label()));
        let object = cv_ref(b.cv);
        let mut f = cx.finding(&META, object, String::new());
        let mut texts: Vec<String> = Vec::new();
        if let Some((i, c)) = b.failing {
            texts.push(c.message.clone());
            f.evidence.push(cond_evidence(
                cx,
                b.cv,
                &b.cv.metadata.name,
                i,
                c,
                "message",
            ));
        }
        if let Some((i, c)) = b.progressing {
            f.evidence.push(cond_evidence(
                cx,
                b.cv,
                &b.cv.metadata.name,
                i,
                c,
                "message",
            ));
        }
        f.evidence.push(
            history_evidence(cx, b.cv, 0, "state", "Partial").with_label("target never applied"),
        );
        if let Some((i, c)) =
            cond(&b.cv.status.conditions, "Available").filter(|(_, c)| c.is_true())
        {
            f.evidence.push(cond_evidence(
                cx,
                b.cv,
                &b.cv.metadata.name,
                i,
                c,
                "message",
            ));
        }
        let since = stall.map(|s| s.start).or(b.target.started_time);
        let cause = cause_words(stall, &b.reason);
        let running = b.source.map(|(_, h)| h.label().to_string());
        describe(
            cx,
            &mut f,
            Parts {
                target: b.target.label(),
                running: running.as_deref(),
                since,
                cause,
                stall,
                texts,
            },
        );
        out.push(f);
    } else if let Some(stall) = open_stall(cx, None) {
        let pod = cx
            .timeline
            .passes()
            .iter()
            .rev()
            .find(|p| p.start >= stall.start)
            .map(|p| p.pod.clone())
            .unwrap_or_default();
        let object = ObjectRef::new("Pod", &cx.bundle.cvo_namespace(), &pod);
        let mut f = cx.finding(&META, object, String::new());
        let target = stall.target_release.clone().unwrap_or_default();
        let cause = cause_words(Some(stall), "");
        describe(
            cx,
            &mut f,
            Parts {
                target: &target,
                running: stall.running_release.as_deref(),
                since: Some(stall.start),
                cause,
                stall: Some(stall),
                texts: Vec::new(),
            },
        );
        out.push(f);
    }
}

struct Parts<'a> {
    target: &'a str,
    running: Option<&'a str>,
    since: Option<Time>,
    cause: &'static str,
    stall: Option<&'a Episode>,
    /// Condition messages that may name the precondition and operators.
    texts: Vec<String>,
}

fn cause_words(stall: Option<&Episode>, reason: &str) -> &'static str {
    let from_stall = stall.and_then(|s| match &s.kind {
        crate::timeline::EpisodeKind::Stall { cause, .. } => Some(cause.clone()),
        _ => None,
    });
    match (from_stall, reason) {
        (Some(StallCause::PayloadRetrieval), _) | (_, "UpdatePayloadRetrievalFailed") => {
            "cannot be retrieved"
        }
        (Some(StallCause::PayloadVerification), _) | (_, "ImageVerificationFailed") => {
            "cannot be verified"
        }
        (Some(StallCause::PreconditionFailed), _) | (_, "UpgradePreconditionCheckFailed") => {
            "fails preconditions"
        }
        _ => "fails before any manifest is applied",
    }
}

/// When the data ends: collection time, else the last CVO log line, else the latest time seen
/// (then only a lower bound: `true`).
fn data_end(cx: &Context<'_>) -> Option<(Time, &'static str, bool)> {
    if let Some(t) = cx.bundle.collection_time() {
        return Some((t, "collection time", false));
    }
    if let Some(t) = cx
        .bundle
        .cvo_logs
        .iter()
        .filter_map(|l| l.span().map(|s| s.1))
        .max()
    {
        return Some((t, "last CVO log line", false));
    }
    cx.now().map(|t| (t, "latest time in the data", true))
}

fn describe(cx: &Context<'_>, f: &mut Finding, p: Parts<'_>) {
    let mut texts = p.texts;
    // Precondition failures from the log passes of the stall.
    let mut log_precondition = None;
    if let Some(s) = p.stall {
        for pass in cx.timeline.passes().iter().filter(|x| s.contains(x.start)) {
            // `unable to synchronize image …: Precondition "X" failed because of "R": …`
            texts.extend(pass.sync_error.iter().cloned());
            for pf in &pass.precondition_failures {
                texts.push(pf.check.message().to_string());
                log_precondition.get_or_insert(pf);
            }
        }
        // Log lines only: the conditions are already pointed at.
        let known: Vec<String> = f.evidence.iter().map(EvidenceItem::display_path).collect();
        for e in s
            .evidence
            .iter()
            .filter(|e| !known.contains(&e.prov.display_path()))
        {
            f.evidence.push(cx.from_timeline(e));
        }
    }
    let precondition = texts
        .iter()
        .find_map(|t| text::first_precondition(t))
        .or_else(|| log_precondition.map(|f: &PreconditionFailure| f.check.clone()));
    let mut operators: Vec<String> = texts.iter().flat_map(|t| operators_in(t)).collect();
    operators.sort();
    operators.dedup();
    let mut msg = match p.running {
        Some(r) => format!(
            "the CVO stopped reconciling `{r}` while it retries `{}`, which {}",
            p.target, p.cause
        ),
        None => format!(
            "the CVO reconciles nothing while it retries `{}`, which {}",
            p.target, p.cause
        ),
    };
    if let Some(c) = &precondition {
        msg.push_str(&format!(": precondition `{}` failed", c.name));
        if let Some(r) = &c.reason {
            msg.push_str(&format!(" (`{r}`)"));
        }
        f.details.insert("precondition", c.name.clone());
    }
    let mut blockers = Vec::new();
    for name in &operators {
        let Some(co) = cx
            .bundle
            .objects
            .cluster_operators
            .iter()
            .find(|c| &c.metadata.name == name)
        else {
            continue;
        };
        if let Some((i, c)) =
            cond(&co.status.conditions, "Upgradeable").filter(|(_, c)| c.is_false())
        {
            blockers.push(format!("`{name}` Upgradeable=False ({})", c.reason));
            f.evidence
                .push(cond_evidence(cx, co, &co.metadata.name, i, c, "reason"));
        }
    }
    if !blockers.is_empty() {
        msg.push_str(&format!(", blocked by {}", blockers.join(", ")));
    } else if !operators.is_empty() {
        msg.push_str(&format!(
            ", blocked by ClusterOperator {}",
            ticked(&operators)
        ));
    }
    if !operators.is_empty() {
        f.details.insert("blocking_operators", operators.clone());
    }
    if let Some(since) = p.since {
        msg.push_str(&format!("; stalled since {}", fmt_short(&since)));
        if let Some((end, what, lower_bound)) = data_end(cx).filter(|(e, _, _)| *e >= since) {
            let least = if lower_bound { "at least " } else { "" };
            msg.push_str(&format!(
                ", unmanaged for {least}{} (to the {what}, {})",
                duration(since, end),
                fmt_short(&end)
            ));
            f.details.insert("unmanaged_until", end);
            f.details
                .insert("unmanaged_for_seconds", Detail::seconds(since, end));
        }
        f.details.insert("stalled_since", since);
    }
    if let Some(pf) = log_precondition {
        let item = cx
            .from_timeline(&pf.evidence)
            .with_label("precondition failure");
        if !f.evidence.contains(&item) {
            f.evidence.push(item);
        }
    }
    let mut basis = Vec::new();
    if f.evidence
        .iter()
        .map(EvidenceItem::display_path)
        .any(|p| p.ends_with(".yaml") || p.ends_with(".json"))
    {
        basis.push("conditions".to_string());
    }
    // The stall was read from the CVO log: its evidence holds the line that started a pass.
    let pass_starts: Vec<&crate::timeline::Evidence> = cx
        .timeline
        .passes()
        .iter()
        .filter_map(|x| x.evidence.first())
        .collect();
    if p.stall
        .is_some_and(|s| s.evidence.iter().any(|e| pass_starts.contains(&e)))
    {
        basis.push("cvo-log".to_string());
    }
    let level = if basis.len() > 1 {
        ConfidenceLevel::High
    } else {
        ConfidenceLevel::Medium
    };
    f.confidence = Some(Confidence { level, basis });
    f.details.insert("target", p.target.to_string());
    if let Some(r) = p.running {
        f.details.insert("running", r.to_string());
    }
    f.at = p.since;
    f.message = msg;
}
