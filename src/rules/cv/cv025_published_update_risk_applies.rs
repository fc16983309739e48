//! CV025 `published-update-risk-applies`: a published update risk (cincinnati-graph-data's
//! blocked edges: the bundled snapshot, or the checkout given with `--risks DIR`) applies to
//! this cluster on the update it took last, is taking or was asked for (warning; info once
//! that update completed), or on an update it is offered (info). The verdicts are `mglint risks`' (`risks::exposure`): a risk that
//! cannot be evaluated offline is never a finding, one that does not apply is silent. Where
//! the CVO judged the same risk with the cluster's own metrics, its verdict is said, and a
//! disagreement lowers the finding to info.

use crate::risks::exposure::{Exposure, Stage};
use crate::risks::verdict::{Basis, RiskOutcome, Verdict};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::rules::util::{anchor, cv_ref, history_evidence};

declare_rule! {
    PublishedUpdateRiskApplies: "CV025" "published-update-risk-applies" {
        severity: Warning,
        family: ClusterVersion,
        summary: "a published update risk (cincinnati-graph-data) applies to this cluster on the update it took, is taking or was asked for (info when only offered)",
        needs: &[&[Input::ClusterVersion]],
        facts: &[Fact::PublishedRisks],
        help: "read the risk's message and bug (`mglint risks <input>` shows every verdict); check the cluster for its symptoms, and choose another target while it applies",
        references: &[
                "https://github.com/openshift/cincinnati-graph-data/tree/master/blocked-edges",
                "https://github.com/openshift/enhancements/blob/master/enhancements/update/targeted-update-edge-blocking.md",
            ],
    }
}

/// The first sentence of a risk's message, whitespace collapsed.
fn headline(r: &RiskOutcome) -> String {
    let text = r.message.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = text.split_once(". ").map_or(text.as_str(), |(a, _)| a);
    first.trim_end_matches('.').to_string()
}

/// What the verdict rests on, in words, for `stage`.
fn basis_words(basis: Basis, stage: Stage) -> &'static str {
    match (basis, stage) {
        (Basis::Always, _) => "published for every cluster on this edge",
        (Basis::Stable, _) => {
            "judged from facts that do not change over the cluster's life (install version, platform, nodes)"
        }
        (Basis::State, Stage::Taken { .. }) => {
            "judged from the cluster's state when the dump was taken, which may differ from its state when the update started"
        }
        (Basis::State, _) => "judged from the cluster's state when the dump was taken",
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let exposures = cx.published_risks();
    for x in exposures.iter().filter(|x| x.stage != Stage::Offered) {
        for r in x.with(Verdict::Applies) {
            out.push(taken_or_requested(cx, cv, x, r));
        }
    }
    // Offered: one finding per risk, naming every offered target it applies on.
    let offered: Vec<&Exposure> = exposures
        .iter()
        .filter(|x| x.stage == Stage::Offered)
        .collect();
    let mut names: Vec<&str> = offered
        .iter()
        .flat_map(|x| x.with(Verdict::Applies).map(|r| r.name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let on: Vec<(&Exposure, &RiskOutcome)> = offered
            .iter()
            .filter_map(|x| {
                x.with(Verdict::Applies)
                    .find(|r| r.name == name)
                    .map(|r| (*x, r))
            })
            .collect();
        out.push(offered_finding(cx, cv, &on));
    }
}

/// How sure the finding is, and what it rests on.
fn confidence(r: &RiskOutcome, stage: Stage) -> Confidence {
    let mut basis = vec![match r.judged.basis {
        Basis::Always => "catalogue-always".to_string(),
        Basis::Stable => "stable-facts".to_string(),
        Basis::State => "state-at-dump".to_string(),
    }];
    let level = match (r.cvo, r.judged.basis, stage) {
        (Some(c), _, _) if c.disagrees => ConfidenceLevel::Low,
        (Some(c), _, _) if c.verdict == Verdict::Applies => {
            basis.push("cvo-verdict".to_string());
            ConfidenceLevel::High
        }
        (_, Basis::Always | Basis::Stable, _) => ConfidenceLevel::High,
        (_, Basis::State, Stage::Taken { .. }) => ConfidenceLevel::Low,
        (_, Basis::State, _) => ConfidenceLevel::Medium,
    };
    Confidence { level, basis }
}

/// `; the CVO's own evaluation agrees` and the like.
fn cvo_words(r: &RiskOutcome) -> &'static str {
    match r.cvo {
        Some(c) if c.disagrees => {
            "; but the CVO, judging it with the cluster's own metrics, found it does not apply"
        }
        Some(c) if c.verdict == Verdict::Applies => "; the CVO's own evaluation agrees",
        _ => "",
    }
}

/// The risk's bug in the catalogue judged against (bundled or the run's checkout).
fn bug_url(cx: &Context<'_>, name: &str) -> Option<String> {
    cx.risks_catalogue()?
        .risk(name)
        .map(|r| r.url.clone())
        .filter(|u| !u.is_empty())
}

fn details(cx: &Context<'_>, f: &mut Finding, x: &Exposure, r: &RiskOutcome) {
    f.details.insert("risk", r.name.as_str());
    f.details.insert("from", x.from.as_str());
    f.details.insert("target", x.version.as_str());
    if !r.url.is_empty() {
        f.details.insert("url", r.url.as_str());
    }
    if let Some(c) = r.cvo {
        f.details.insert("cvo_verdict", c.verdict.as_str());
    }
    // Which catalogue judged it (the bundled snapshot's commit, or the `--risks` checkout's):
    // a report forwarded without its command line still says what it was checked against.
    if let Some(c) = cx.risks_catalogue().filter(|c| !c.commit.is_empty()) {
        f.details.insert("catalogue", c.commit.as_str());
    }
    if let Some(u) = bug_url(cx, &r.name) {
        f.references.insert(0, u.into());
    }
}

fn taken_or_requested(
    cx: &Context<'_>,
    cv: &crate::model::Sourced<crate::model::ClusterVersion>,
    x: &Exposure,
    r: &RiskOutcome,
) -> Finding {
    let accepted = match x.stage {
        Stage::Taken { .. } => cv
            .status
            .history
            .first()
            .is_some_and(|h| h.accepted_risks.contains(r.name.as_str())),
        _ => false,
    };
    let (verb, tail) = match x.stage {
        Stage::Taken {
            completed: true, ..
        } => (
            "was",
            "; the update completed: check the cluster for the risk's symptoms",
        ),
        _ => ("is", ""),
    };
    let msg = format!(
        "{} from `{}` to `{}` {verb} exposed to the published risk `{}`, which applies to this cluster: {}; {}{}{}{tail}",
        x.stage.words(),
        x.from,
        x.version,
        r.name,
        headline(r),
        basis_words(r.judged.basis, x.stage),
        cvo_words(r),
        if accepted {
            "; the CVO recorded it among the risks accepted for this update"
        } else {
            ""
        },
    );
    let mut f = cx.finding(&META, cv_ref(cv), msg);
    let completed = matches!(
        x.stage,
        Stage::Taken {
            completed: true,
            ..
        }
    );
    if completed || r.cvo.is_some_and(|c| c.disagrees) {
        f.severity = Severity::Info;
    }
    f.confidence = Some(confidence(r, x.stage));
    match x.stage {
        Stage::Taken { started, .. } => {
            f.at = started;
            f.evidence.push(
                history_evidence(cx, cv, 0, "version", &x.version).with_label(x.stage.words()),
            );
        }
        _ => {
            let version = cv
                .spec
                .desired_update
                .as_ref()
                .map_or(x.version.as_str(), |d| d.version.as_str());
            f.evidence.push(
                cx.field(cv, anchor(&cv.metadata.name), "spec.desiredUpdate", version)
                    .with_label("the update requested"),
            );
        }
    }
    series_evidence(cx, r, &mut f.evidence);
    f.details.insert("stage", stage_key(x.stage));
    details(cx, &mut f, x, r);
    f
}

fn stage_key(s: Stage) -> &'static str {
    match s {
        Stage::Taken {
            completed: true, ..
        } => "taken-completed",
        Stage::Taken { .. } => "taken-in-progress",
        Stage::Requested => "requested",
        Stage::Offered => "offered",
    }
}

fn offered_finding(
    cx: &Context<'_>,
    cv: &crate::model::Sourced<crate::model::ClusterVersion>,
    on: &[(&Exposure, &RiskOutcome)],
) -> Finding {
    let (x0, r) = on[0];
    const SHOWN: usize = 5;
    let mut targets: Vec<String> = on
        .iter()
        .take(SHOWN)
        .map(|(x, _)| format!("`{}`", x.version))
        .collect();
    if on.len() > SHOWN {
        targets.push(format!("{} more", on.len() - SHOWN));
    }
    let msg = format!(
        "the published risk `{}` applies to this cluster on the offered {} to {}: {}; {}{}",
        r.name,
        if on.len() == 1 { "update" } else { "updates" },
        targets.join(", "),
        headline(r),
        basis_words(r.judged.basis, Stage::Offered),
        cvo_words(r),
    );
    let mut f = cx.finding(&META, cv_ref(cv), msg);
    f.severity = Severity::Info;
    f.confidence = Some(confidence(r, Stage::Offered));
    let st = &cv.status;
    for (x, _) in on {
        let at = if let Some(i) = st
            .available_updates
            .iter()
            .position(|u| u.version == x.version)
        {
            Some(format!("status.availableUpdates[{i}].version"))
        } else {
            st.conditional_updates
                .iter()
                .position(|u| u.release.version == x.version)
                .map(|i| format!("status.conditionalUpdates[{i}].release.version"))
        };
        if let Some(path) = at {
            f.evidence.push(
                cx.field(cv, anchor(&cv.metadata.name), &path, &x.version)
                    .with_label("offered"),
            );
        }
    }
    series_evidence(cx, r, &mut f.evidence);
    f.details.insert("stage", "offered");
    f.details.insert(
        "targets",
        on.iter()
            .map(|(x, _)| x.version.clone())
            .collect::<Vec<_>>(),
    );
    details(cx, &mut f, x0, r);
    f
}

/// The objects behind the sample that decided the verdict, one evidence item each, at the
/// field the series reads (the install version, the platform, a node's labels, an operator).
fn series_evidence(cx: &Context<'_>, r: &RiskOutcome, ev: &mut Vec<EvidenceItem>) {
    let b = cx.bundle;
    const LABEL: &str = "behind the matched series";
    for path in &r.judged.evidence {
        if let Some(cv) = b
            .objects
            .cluster_versions
            .iter()
            .rfind(|o| o.prov.display_path() == *path)
        {
            let n = cv.status.history.len();
            let (field, fallback) = match cv.status.history.last() {
                Some(h) => (
                    format!("status.history[{}].version", n - 1),
                    h.version.as_str(),
                ),
                None => (
                    "status.desired.version".to_string(),
                    cv.status.desired.version.as_str(),
                ),
            };
            ev.push(
                cx.field(cv, anchor(&cv.metadata.name), &field, fallback)
                    .with_label(LABEL),
            );
        } else if let Some(co) = b
            .cluster_operators()
            .iter()
            .find(|o| o.prov.display_path() == *path)
        {
            let name = co.metadata.name.as_str();
            ev.push(
                cx.field(co, anchor(name), "metadata.name", name)
                    .with_label(LABEL),
            );
        } else if let Some(n) = b
            .objects
            .nodes
            .iter()
            .find(|o| o.prov.display_path() == *path)
        {
            let name = n.metadata.name.as_str();
            ev.push(
                cx.field(n, anchor(name), "metadata.labels", name)
                    .with_label(LABEL),
            );
        } else if let Some(o) = b
            .objects
            .raw
            .iter()
            .rfind(|o| o.prov.display_path() == *path)
        {
            let kind = o.value.get("kind").and_then(|k| k.as_str()).unwrap_or("");
            let field = match kind {
                "Infrastructure" => "status.platformStatus.type",
                "FeatureGate" => "spec.featureSet",
                _ => "metadata.name",
            };
            ev.push(cx.field(o, Some("cluster"), field, kind).with_label(LABEL));
        }
    }
}
