//! CV001 `history-completion-rewritten`: a Completed history entry whose completionTime was
//! overwritten after the fact (Bug 1756461), from the snapshot (completion equal to the
//! successor's start), from the timeline (the install had visibly finished earlier, in a test
//! log, events or conditions) or from two snapshots (the value moved).

use crate::model::Time;
use crate::model::{ClusterVersion, Sourced};
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence};
use crate::timeline::{Bound, Evidence};

declare_rule! {
    HistoryCompletionRewritten: "CV001" "history-completion-rewritten" {
        severity: Warning,
        family: ClusterVersion,
        summary: "a Completed history entry's completionTime was rewritten after the fact (Bug 1756461)",
        needs: &[&[Input::ClusterVersion]],
        help: "take the real completion from the CVO log, events or CI, not from this entry; the value is the next update's start",
        references: &[
                "https://bugzilla.redhat.com/show_bug.cgi?id=1756461",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status_history.go",
            ],
    }
}

/// What supports one rewritten entry.
#[derive(Default)]
struct Case<'a> {
    equality: bool,
    bound: Option<&'a Bound>,
    moved: Vec<String>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let hist = &cv.status.history;
    let mut cases: Vec<(usize, Case<'_>)> = Vec::new();
    for i in 1..hist.len() {
        let (h, succ) = (&hist[i], &hist[i - 1]);
        if h.is_completed() && h.completion_time.is_some() && h.completion_time == succ.started_time
        {
            cases.push((
                i,
                Case {
                    equality: true,
                    ..Case::default()
                },
            ));
        }
    }
    // The install had finished before what history claims (test log, events, conditions).
    if let (Some(b), Some(rec)) = (
        cx.timeline.install_finished_before(),
        cx.timeline.history().first(),
    ) {
        let idx = hist
            .iter()
            .position(|h| h.started_time == rec.started && h.label() == rec.label());
        if let Some(i) = idx.filter(|_| b.contradicts_claim()) {
            case_at(&mut cases, i).bound = Some(b);
        }
    }
    // The value moved between two snapshots.
    for rec in cx.timeline.history() {
        let values: Vec<&String> = rec
            .completion_rewrites
            .iter()
            .filter(|v| *v != "null")
            .collect();
        if values.len() < 2 {
            continue;
        }
        if let Some(i) = hist
            .iter()
            .position(|h| h.started_time == rec.started && h.label() == rec.label())
        {
            case_at(&mut cases, i).moved = values.into_iter().cloned().collect();
        }
    }
    for (i, case) in cases {
        out.push(finding(cx, cv, i, &case));
    }
}

fn case_at<'a, 'b>(cases: &'b mut Vec<(usize, Case<'a>)>, i: usize) -> &'b mut Case<'a> {
    let pos = match cases.iter().position(|(j, _)| *j == i) {
        Some(p) => p,
        None => {
            cases.push((i, Case::default()));
            cases.len() - 1
        }
    };
    &mut cases[pos].1
}

/// The bound's evidence with the timeline source and time of each, the earliest per source
/// (`test-log`, `kube-event`, `cluster-version`…), in time order.
fn sources_of<'a>(cx: &Context<'a>, b: &'a Bound) -> Vec<(String, Time, &'a Evidence)> {
    let mut out: Vec<(String, Time, &Evidence)> = Vec::new();
    for ev in &b.evidence {
        let Some(e) = cx.timeline.events.iter().find(|e| e.evidence.contains(ev)) else {
            continue;
        };
        let src = e.source.name().to_string();
        if !out.iter().any(|(s, _, _)| *s == src) {
            out.push((src, e.time, ev));
        }
    }
    out.sort_by_key(|(_, t, _)| *t);
    out
}

fn finding(cx: &Context<'_>, cv: &Sourced<ClusterVersion>, i: usize, case: &Case<'_>) -> Finding {
    let hist = &cv.status.history;
    let h = &hist[i];
    let claimed = h.completion_time;
    let claimed_s = claimed.map_or_else(|| "null".to_string(), |t| fmt_short(&t));
    let what = if i + 1 == hist.len() {
        "the install of "
    } else {
        ""
    };
    let mut msg = format!(
        "history[{i}] ({what}`{}`, Completed) claims completion at {claimed_s}",
        h.label()
    );
    let mut basis = Vec::new();
    let mut f = cx.finding(&META, cv_ref(cv), String::new());
    f.evidence.push(
        history_evidence(cx, cv, i, "completionTime", &claimed_s).with_label("claimed completion"),
    );
    if case.equality {
        let succ = &hist[i - 1];
        msg.push_str(&format!(
            ", the second at which history[{}] (`{}`) started",
            i - 1,
            succ.label()
        ));
        basis.push("snapshot-equality".to_string());
        let started = succ
            .started_time
            .map_or_else(String::new, |t| fmt_short(&t));
        f.evidence.push(
            history_evidence(cx, cv, i - 1, "startedTime", &started)
                .with_label("the next entry started at the same second"),
        );
    }
    if let Some(b) = case.bound {
        let seen = sources_of(cx, b);
        let list: Vec<String> = seen
            .iter()
            .map(|(src, t, e)| format!("{src} `{}` at {}", one_line(&e.text, 100), fmt_short(t)))
            .collect();
        msg.push_str(&format!(
            "; it had already finished before {}",
            fmt_short(&b.before)
        ));
        if !list.is_empty() {
            msg.push_str(&format!(" ({})", list.join("; ")));
        }
        for (src, _, e) in &seen {
            basis.push(src.clone());
            f.evidence.push(
                cx.from_timeline(e)
                    .with_label(format!("already finished ({src})")),
            );
        }
        f.details.insert("finished_before", b.before);
    }
    if !case.moved.is_empty() {
        msg.push_str(&format!(
            "; the value moved between snapshots ({})",
            case.moved.join(" → ")
        ));
        basis.push("snapshots".to_string());
    }
    msg.push_str("; the completion time was rewritten after the fact (Bug 1756461)");
    let level = if case.bound.is_some() || !case.moved.is_empty() {
        ConfidenceLevel::High
    } else {
        ConfidenceLevel::Medium
    };
    f.message = msg;
    f.at = claimed;
    f.confidence = Some(Confidence { level, basis });
    f.details.insert("entry", h.label().to_string());
    if let Some(c) = claimed {
        f.details.insert("claimed_completion", c);
    }
    if let Some(t) = h.started_time {
        f.details.insert("started", t);
    }
    f
}
