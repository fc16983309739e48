//! UH rules: oc's Update Health as findings. `oc adm upgrade status` judges an updating
//! cluster's operators, nodes, pools and alerts with fixed thresholds at one "now"; the
//! assessment is computed once (`status::assess`, what `mglint status` prints) and each rule
//! here turns the insights of one kind into findings at oc's level: Error and Critical are
//! errors, Warning is a warning. So `analyze` and `status` never disagree about the same
//! object.
//!
//! Where oc shows no Update Health (the cluster is not updating) an insight is still
//! computed; it is reported at `info`, since oc raises nothing then. During an install
//! (the timeline's open Install episode) operators and nodes coming up within the
//! installer's window are `info` too, and every finding says "install", never "update".

pub mod uh001_operator_unavailable;
pub mod uh002_operator_degraded;
pub mod uh003_update_failing;
pub mod uh004_node_unavailable;
pub mod uh005_node_degraded;
pub mod uh006_paused_pool_outdated_nodes;
pub mod uh007_alert_firing;
pub mod uh008_previous_update_incomplete;

use crate::rules::engine::{Context, Phase, RuleMeta};
use crate::rules::model::*;
use crate::rules::util::{cond_evidence, cv_ref, history_evidence};
use crate::status::{ImpactLevel, Insight, InsightKind, InsightResource, insight_since};

/// The finding severity for oc's level.
pub fn severity_of(level: ImpactLevel) -> Severity {
    match level {
        ImpactLevel::Critical | ImpactLevel::Error => Severity::Error,
        ImpactLevel::Warning => Severity::Warning,
        ImpactLevel::Info => Severity::Info,
    }
}

/// The insights of `kind` oc's assessment holds, with the assessment's "now", whether oc
/// shows them (the cluster is updating) and the phase.
fn insights_of<'c>(
    cx: &'c Context<'_>,
    kind: InsightKind,
) -> impl Iterator<Item = (&'c Insight, crate::model::Time, bool)> {
    cx.update_health().into_iter().flat_map(move |a| {
        a.insights
            .iter()
            .filter(move |i| i.kind == kind)
            .map(move |i| (i, a.now.time, a.updating))
    })
}

/// One finding per insight of `kind`: `what(resource)` gives the object, the
/// message's subject and the evidence. The message is oc's summary, then how long, the
/// phase and oc's description; the severity is oc's level (lowered as the module says).
pub fn report(
    cx: &Context<'_>,
    meta: &'static RuleMeta,
    kind: InsightKind,
    out: &mut Vec<Finding>,
    what: impl Fn(&InsightResource) -> (ObjectRef, Vec<EvidenceItem>),
) {
    let phase = cx.phase();
    let early_install = cx.installing_within_window();
    // "Not updating" is a verdict a file that could not be read may overturn (oc counts
    // outdated worker pools): then oc's level stands, and the message says why.
    let undecided = crate::status::unread_files(cx.bundle)
        .into_iter()
        .find(|u| u.decides_updating());
    for (insight, now, shown) in insights_of(cx, kind) {
        let Some(res) = insight.resources.first() else {
            continue;
        };
        let (object, evidence) = what(res);
        let since = insight_since(insight, now);
        let mut message = insight.summary.trim_end_matches('.').to_string();
        if insight.started_at.is_some() && since != "now" {
            message.push_str(&format!(" for {since}"));
        }
        message.push_str(&phase.during());
        let mut severity = severity_of(insight.level);
        let mut qualifier = None;
        let unknown;
        if !shown && let Some(u) = &undecided {
            unknown = format!(
                "whether the cluster is updating is unknown: `{}` could not be read",
                u.display_path()
            );
            qualifier = Some(unknown.as_str());
        } else if !shown {
            severity = Severity::Info;
            qualifier = Some("the cluster is not updating, so oc shows no Update Health");
        } else if early_install && matches!(phase, Phase::Installing { .. }) {
            severity = Severity::Info;
            qualifier = Some("still within the installer's window");
        }
        if let Some(q) = qualifier {
            message.push_str(&format!(" ({q})"));
        }
        if !insight.description.is_empty() {
            message.push_str(&format!(": {}", one_line(&insight.description, 240)));
        }
        let mut f = cx.finding(meta, object, message);
        f.severity = severity;
        f.evidence = evidence;
        f.at = insight.started_at;
        f.details.insert("oc_level", insight.level.as_str());
        f.details.insert("oc_impact", insight.impact.as_str());
        if insight.started_at.is_some() {
            f.details.insert("oc_since", since);
        }
        if insight.reference.starts_with("http") {
            f.details.insert("reference", insight.reference.clone());
        }
        out.push(f);
    }
}

/// A ClusterOperator insight's object and evidence: the condition it judges.
pub fn operator_target(
    cx: &Context<'_>,
    res: &InsightResource,
    condition: &str,
) -> (ObjectRef, Vec<EvidenceItem>) {
    let object = ObjectRef::new("ClusterOperator", "", &res.name);
    let evidence = cx
        .bundle
        .cluster_operators()
        .iter()
        .filter(|co| co.metadata.name == res.name)
        .filter_map(|co| {
            // oc reads the last condition of a type.
            let (i, c) = co
                .status
                .conditions
                .iter()
                .enumerate()
                .rev()
                .find(|(_, c)| c.type_ == condition)?;
            Some(cond_evidence(cx, co, &co.metadata.name, i, c, "status"))
        })
        .take(1)
        .collect();
    (object, evidence)
}

/// A Node insight's object and evidence: `fields` tried in order (`status.conditions` of a
/// type, or an annotation), the first the node has.
pub fn node_target(
    cx: &Context<'_>,
    res: &InsightResource,
    pick: impl Fn(&crate::model::Sourced<crate::model::Node>) -> Option<EvidenceItem>,
) -> (ObjectRef, Vec<EvidenceItem>) {
    let object = ObjectRef::new("Node", "", &res.name);
    let evidence = cx
        .bundle
        .objects
        .nodes
        .iter()
        .filter(|n| n.metadata.name == res.name)
        .find_map(&pick)
        .into_iter()
        .collect();
    (object, evidence)
}

/// The ClusterVersion as an insight's object, with its `Failing` condition or a history
/// entry as evidence.
pub fn cluster_version_target(
    cx: &Context<'_>,
    condition: Option<&str>,
    history: Option<usize>,
) -> (ObjectRef, Vec<EvidenceItem>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return (ObjectRef::new("ClusterVersion", "", "version"), Vec::new());
    };
    let mut evidence = Vec::new();
    if let Some(t) = condition {
        match cv
            .status
            .conditions
            .iter()
            .enumerate()
            .find(|(_, c)| c.type_ == t)
        {
            Some((i, c)) => {
                evidence.push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message"))
            }
            None => evidence.push(cx.field(
                cv,
                Some(&cv.metadata.name),
                "status.conditions",
                &cv.metadata.name,
            )),
        }
    }
    if let Some(i) = history
        && let Some(h) = cv.status.history.get(i)
    {
        evidence.push(history_evidence(cx, cv, i, "state", h.state.as_str()));
    }
    (cv_ref(cv), evidence)
}
