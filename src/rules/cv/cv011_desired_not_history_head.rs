//! CV011 `desired-not-history-head`: `status.desired` and `history[0]` are written in the same
//! status sync, so they name the same release (image, and version when both have one).

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence};

declare_rule! {
    DesiredNotHistoryHead: "CV011" "desired-not-history-head" {
        severity: Warning,
        family: ClusterVersion,
        summary: "status.desired names a different release than history[0]",
        needs: &[&[Input::ClusterVersion]],
        help: "find who wrote the ClusterVersion status; the CVO sets both from the same release",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some(h0) = cv.status.history.first() else {
        return;
    };
    let d = &cv.status.desired;
    let image_differs = !d.image.is_empty() && !h0.image.is_empty() && d.image != h0.image;
    let version_differs =
        !d.version.is_empty() && !h0.version.is_empty() && d.version != h0.version;
    if !image_differs && !version_differs {
        return;
    }
    let mut f = cx.finding(
        &META,
        cv_ref(cv),
        format!(
            "`status.desired` names `{}` but history[0] is `{}`",
            d.label(),
            h0.label()
        ),
    );
    let (field, value) = if image_differs {
        ("image", d.image.as_str())
    } else {
        ("version", d.version.as_str())
    };
    f.evidence.push(cx.field(
        cv,
        Some(&cv.metadata.name),
        &format!("status.desired.{field}"),
        value,
    ));
    f.evidence.push(
        history_evidence(
            cx,
            cv,
            0,
            field,
            if image_differs {
                &h0.image
            } else {
                &h0.version
            },
        )
        .with_label("history[0]"),
    );
    f.at = h0.started_time;
    out.push(f);
}
