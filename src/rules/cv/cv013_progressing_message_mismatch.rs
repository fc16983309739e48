//! CV013 `progressing-message-mismatch`: the Progressing message must agree with `history[0]`:
//! `Cluster version is X` / `Error while reconciling X` (False) need a Completed `history[0]`
//! for X; `Working towards X` / `Unable to apply X` (True) name `history[0]`; and the message
//! starts with one of the CVO's prefixes.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref, history_evidence};
use crate::timeline::text;

declare_rule! {
    ProgressingMessageMismatch: "CV013" "progressing-message-mismatch" {
        severity: Warning,
        family: ClusterVersion,
        summary: "the Progressing message disagrees with history[0] or has no known prefix",
        needs: &[&[Input::ClusterVersion]],
        help: "trust history for the release being applied; find who wrote the status or why the CVO has not synced it",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some((ci, c)) = cond(&cv.status.conditions, "Progressing") else {
        return;
    };
    if c.message.is_empty() || !(c.is_true() || c.is_false()) {
        return;
    }
    let h0 = cv.status.history.first();
    let Some(form) = text::progressing_message(&c.message, c.is_true()) else {
        let mut f = cx.finding(
            &META,
            cv_ref(cv),
            format!(
                "Progressing={} has message `{}`, which starts with none of the CVO's prefixes",
                c.status,
                one_line(&c.message, 80)
            ),
        );
        f.evidence
            .push(cond_evidence(cx, cv, &cv.metadata.name, ci, c, "message"));
        f.at = c.last_transition_time;
        out.push(f);
        return;
    };
    let Some(x) = form.release() else {
        return;
    };
    let problem = match h0 {
        None if x == "<unknown>" => return,
        None => format!("Progressing names `{x}` but history is empty"),
        Some(h) if x != h.version && x != h.image && x != h.label() => {
            format!("Progressing names `{x}` but history[0] is `{}`", h.label())
        }
        Some(h) if c.is_false() && !h.is_completed() => {
            format!(
                "Progressing=False says `{}` but history[0] (`{}`) is {}",
                one_line(&c.message, 80),
                h.label(),
                h.state
            )
        }
        Some(_) => return,
    };
    let mut f = cx.finding(&META, cv_ref(cv), problem);
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, ci, c, "message"));
    if let Some(h) = h0 {
        f.evidence
            .push(history_evidence(cx, cv, 0, "version", h.label()).with_label("history[0]"));
    }
    f.at = c.last_transition_time;
    out.push(f);
}
