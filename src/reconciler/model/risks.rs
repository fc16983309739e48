//! Conditional updates and their risks as the CVO evaluates them (`pkg/cvo/availableupdates.go`
//! `evaluateConditionalUpdates`, `pkg/cvo/status.go` `conditionalUpdateWithRiskNamesAndRiskConditions`,
//! `pkg/risk` `Merge`): each risk's `Applies` evaluation, the `Recommended` condition of every
//! conditional update (with 4.22's accepted risks and their history text), and the merge of
//! the risks other sources report ([`SourceRisks`]; the sources themselves are in
//! `risk_sources.rs`, which uses this module).

pub use super::events::RiskMatch;
use crate::model::{Condition, ConditionalUpdate, ConditionalUpdateRisk, Release, Time};
use crate::vocab::semver::{self as gosemver, Version};
use std::collections::{BTreeMap, BTreeSet};

/// Risk conditions by risk name (`availableUpdates.RiskConditions`).
pub type RiskConditions = BTreeMap<String, Vec<Condition>>;

pub(super) const APPLIES: &str = "Applies";
const NOT_EXPOSED: &str = "NotExposedToRisks";
const ACCEPTED: &str = "AllExposedRisksAccepted";
pub(super) const EVAL_FAILED: &str = "EvaluationFailed";
pub(super) const MULTIPLE: &str = "MultipleReasons";
const EXPOSED: &str = "ExposedToRisks";

/// `reasonPattern`: `^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`.
pub fn valid_reason(s: &str) -> bool {
    let b = s.as_bytes();
    let inner = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b',' | b':');
    match b {
        [] => false,
        [one] => one.is_ascii_alphabetic(),
        [first, mid @ .., last] => {
            first.is_ascii_alphabetic()
                && mid.iter().all(inner)
                && (last.is_ascii_alphanumeric() || *last == b'_')
        }
    }
}

/// `validName` of pkg/risk: `^[A-Z][A-Za-z0-9.-]*$`.
pub fn valid_risk_name(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(u8::is_ascii_uppercase)
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'))
}

/// `newRecommendedStatus`.
fn recommended_status(now: &str, want: &str) -> String {
    if now == "False" || want == "False" {
        "False".into()
    } else if now == "Unknown" || want == "Unknown" {
        "Unknown".into()
    } else {
        want.into()
    }
}

/// `newRecommendedReason`: to 4.21 any second reason makes `MultipleReasons`; 4.22 ranks
/// accepted risks below exposure and evaluation failures.
pub fn recommended_reason(now: &str, want: &str, minor: u32) -> String {
    if minor < 22 {
        return match now {
            NOT_EXPOSED => want.into(),
            _ if now == want => now.into(),
            _ => MULTIPLE.into(),
        };
    }
    if now == NOT_EXPOSED
        || (now == ACCEPTED && want != NOT_EXPOSED)
        || (now == EVAL_FAILED && want == EXPOSED)
        || now == want
    {
        want.into()
    } else if want == NOT_EXPOSED
        || (now == EVAL_FAILED && want == ACCEPTED)
        || (now == EXPOSED && (want == ACCEPTED || want == EVAL_FAILED))
    {
        now.into()
    } else {
        MULTIPLE.into()
    }
}

/// `unknownExposureMessage`.
fn unknown_exposure(risk: &ConditionalUpdateRisk, err: &str) -> String {
    format!(
        "Could not evaluate exposure to update risk {n} ({err})\n  {n} description: {m}\n  {n} URL: {u}",
        n = risk.name,
        m = risk.message,
        u = risk.url
    )
}

fn condition(status: &str, reason: &str, message: &str) -> Condition {
    Condition {
        type_: APPLIES.into(),
        status: status.into(),
        reason: reason.into(),
        message: message.into(),
        last_transition_time: None,
    }
}

/// `meta.SetStatusCondition`: appended when absent (its time, else now); the time changes
/// only with the status; reason and message always overwritten.
pub fn set_status_condition(conds: &mut Vec<Condition>, new: Condition, now: Time) {
    match conds.iter_mut().find(|c| c.type_ == new.type_) {
        Some(c) => {
            if c.status != new.status {
                c.status = new.status;
                c.last_transition_time = Some(new.last_transition_time.unwrap_or(now));
            }
            c.reason = new.reason;
            c.message = new.message;
        }
        None => conds.push(Condition {
            last_transition_time: Some(new.last_transition_time.unwrap_or(now)),
            ..new
        }),
    }
}

/// Whether a risk's matching rules hold an `Always` rule.
fn always(risk: &ConditionalUpdateRisk) -> bool {
    risk.matching_rules
        .iter()
        .any(|r| r.get("type").and_then(serde_json::Value::as_str) == Some("Always"))
}

/// `conditionRegistry.Match` as the scenario states it; an `Always` rule matches.
fn matches(
    risk: &ConditionalUpdateRisk,
    given: &BTreeMap<String, RiskMatch>,
) -> Result<bool, String> {
    match given.get(&risk.name) {
        Some(RiskMatch::Matches(b)) => Ok(*b),
        Some(RiskMatch::Failed { error }) => Err(error.clone()),
        None if always(risk) => Ok(true),
        None if risk.conditions.iter().any(|c| c.type_ == APPLIES) => Err(String::new()),
        None => Err(format!(
            "the scenario states no evaluation of risk {} (risk_matches)",
            risk.name
        )),
    }
}

/// The Applies condition of one risk: `loadRiskConditions` for one risk (the definition of its
/// newest target), keeping the risk's own condition when its status agrees.
fn risk_condition(risk: &ConditionalUpdateRisk, given: &BTreeMap<String, RiskMatch>) -> Condition {
    let mut c = condition("False", "NotMatch", "");
    let own = risk.conditions.iter().find(|x| x.type_ == APPLIES);
    match matches(risk, given) {
        // No evaluation stated: the risk's own Applies (as a dump holds it) stands.
        Err(e) if e.is_empty() => return own.cloned().unwrap_or_default(),
        Err(e) => return condition("Unknown", EVAL_FAILED, &unknown_exposure(risk, &e)),
        Ok(true) => {
            c.status = "True".into();
            c.reason = "Match".into();
        }
        Ok(false) => {}
    }
    match own {
        Some(own) if own.status == c.status => own.clone(),
        _ => c,
    }
}

/// A release version for ordering: semantic versions first, by precedence.
fn semver_key(v: &str) -> Option<Version> {
    gosemver::parse(v).ok()
}

/// `loadRiskVersions` + `loadRiskConditions`: one condition per risk name, from the risk of
/// the newest target that carries it. `None` when no conditional update has a risk.
pub fn risk_conditions(
    cus: &[ConditionalUpdate],
    given: &BTreeMap<String, RiskMatch>,
) -> Option<RiskConditions> {
    let mut newest: BTreeMap<&str, (Option<Version>, &ConditionalUpdateRisk)> = BTreeMap::new();
    for cu in cus {
        let v = semver_key(&cu.release.version);
        for r in &cu.risks {
            let replace = match newest.get(r.name.as_str()) {
                None => true,
                Some((old, _)) => match (&v, old) {
                    (Some(a), Some(b)) => a.precedence(b) == std::cmp::Ordering::Greater,
                    _ => false,
                },
            };
            if replace {
                newest.insert(&r.name, (v.clone(), r));
            }
        }
    }
    if newest.is_empty() {
        return None;
    }
    Some(
        newest
            .into_iter()
            .map(|(name, (_, r))| (name.to_string(), vec![risk_condition(r, given)]))
            .collect(),
    )
}

/// The risks' own `Applies` conditions, by name: what stands for the CVO's evaluation where
/// a scenario scripts the conditional updates (or holds them from a dump).
pub fn own_conditions(cus: &[ConditionalUpdate]) -> RiskConditions {
    let mut out = RiskConditions::new();
    for r in cus.iter().flat_map(|c| &c.risks) {
        if let Some(c) = r.conditions.iter().find(|c| c.type_ == APPLIES) {
            out.entry(r.name.clone()).or_insert_with(|| vec![c.clone()]);
        }
    }
    out
}

/// `evaluateConditionalUpdate`: the `Recommended` condition of one conditional update.
pub fn evaluate_conditional_update(
    cu: &ConditionalUpdate,
    accepted: &BTreeSet<String>,
    reconcile_accept: bool,
    conds: &RiskConditions,
    minor: u32,
) -> Condition {
    let mut status = "True".to_string();
    let mut reason = NOT_EXPOSED.to_string();
    let mut message =
        "The update is recommended, because none of the conditional update risks apply to this cluster."
            .to_string();
    let mut errors = Vec::new();
    for risk in &cu.risks {
        let found = conds
            .get(&risk.name)
            .and_then(|c| c.iter().find(|c| c.type_ == APPLIES));
        let (st, msg) = match found {
            Some(c) => (c.status.as_str(), c.message.clone()),
            None => (
                "Unknown",
                format!("failed to find risk condition for risk {}", risk.name),
            ),
        };
        match st {
            "Unknown" => {
                status = recommended_status(&status, "Unknown");
                reason = recommended_reason(&reason, EVAL_FAILED, minor);
                errors.push(msg);
            }
            "True" if reconcile_accept && accepted.contains(&risk.name) => {
                status = recommended_status(&status, "True");
                reason = recommended_reason(&reason, ACCEPTED, minor);
                message = "The update is recommended, because either risk does not apply to this cluster or it is accepted by cluster admins.".into();
            }
            "True" => {
                status = recommended_status(&status, "False");
                let want = if valid_reason(&risk.name) {
                    risk.name.as_str()
                } else {
                    EXPOSED
                };
                reason = recommended_reason(&reason, want, minor);
                errors.push(format!("{} {}", risk.message, risk.url));
            }
            _ => {}
        }
    }
    if !errors.is_empty() {
        message = errors.join("\n\n");
    }
    Condition {
        type_: "Recommended".into(),
        status,
        reason,
        message,
        last_transition_time: None,
    }
}

/// Risks a source reports and the versions each applies to (`risk.Source.Risks`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SourceRisks {
    pub risks: Vec<ConditionalUpdateRisk>,
    pub versions: BTreeMap<String, Vec<String>>,
    /// The sources' errors, joined as Go's `errors.Join` does.
    pub errors: Vec<String>,
}

impl SourceRisks {
    /// `aggregate.Risks`: the first definition of a name wins; versions are united.
    pub fn add(&mut self, other: SourceRisks) {
        for r in other.risks {
            if !self.risks.iter().any(|x| x.name == r.name) {
                self.risks.push(r);
            }
        }
        for (name, vs) in other.versions {
            let e = self.versions.entry(name).or_default();
            for v in vs {
                if !e.contains(&v) {
                    e.push(v);
                }
            }
        }
        self.errors.extend(other.errors);
    }
}

/// `risk.Merge`: each risk joins the targets of its versions; a recommended update it joins
/// becomes a conditional update. Conditional updates are sorted by version, their risks by
/// name. Returns the errors Merge reports.
pub fn merge(
    updates: &mut Vec<Release>,
    cus: &mut Vec<ConditionalUpdate>,
    src: &SourceRisks,
) -> Vec<String> {
    let mut errs = Vec::new();
    let mut by_name: BTreeMap<&str, &ConditionalUpdateRisk> = BTreeMap::new();
    let mut invalid = BTreeSet::new();
    for r in &src.risks {
        if !valid_risk_name(&r.name) {
            invalid.insert(r.name.as_str());
            errs.push(format!(
                "invalid risk name {} does not match \"^[A-Z][A-Za-z0-9.-]*$\"",
                crate::vocab::text::go_quote(&r.name)
            ));
            continue;
        }
        by_name.entry(&r.name).or_insert(r);
    }
    let mut misses = Vec::new();
    for (name, versions) in &src.versions {
        if invalid.contains(name.as_str()) {
            continue;
        }
        let Some(risk) = by_name.get(name.as_str()) else {
            misses.push(name.clone());
            continue;
        };
        for v in versions {
            if let Some(i) = updates.iter().position(|u| &u.version == v) {
                let u = updates.remove(i);
                cus.push(ConditionalUpdate {
                    release: u,
                    risks: vec![(*risk).clone()],
                    ..Default::default()
                });
                continue;
            }
            let mut found = false;
            for cu in cus.iter_mut().filter(|c| &c.release.version == v) {
                found = true;
                if !cu.risks.iter().any(|r| r.name == risk.name) {
                    cu.risks.push((*risk).clone());
                }
            }
            if !found {
                errs.push(format!(
                    "cannot merge risk {} into unknown release version {}",
                    crate::vocab::text::go_quote(name),
                    crate::vocab::text::go_quote(v)
                ));
            }
        }
    }
    if !misses.is_empty() {
        errs.push(format!(
            "merge versions referenced unknown risks: {}",
            misses.join(", ")
        ));
    }
    cus.sort_by(|a, b| version_cmp(&a.release.version, &b.release.version));
    for cu in cus.iter_mut() {
        cu.risks.sort_by(|a, b| a.name.cmp(&b.name));
    }
    errs
}

/// Merge's order: semantic versions ascending after the others, the others by text.
fn version_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (semver_key(a), semver_key(b)) {
        (Some(x), Some(y)) => x.precedence(&y),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => a.cmp(b),
    }
}

/// The result of `evaluateConditionalUpdates` on the cached update service answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Evaluated {
    pub updates: Vec<Release>,
    pub conditional_updates: Vec<ConditionalUpdate>,
    pub risk_conditions: Option<RiskConditions>,
    /// Merge and source errors (the CVO logs them).
    pub errors: Vec<String>,
}

/// What `evaluateConditionalUpdates` needs besides the cached answer.
pub struct EvalInput<'a> {
    pub minor: u32,
    pub reconcile_accept: bool,
    pub accepted: &'a BTreeSet<String>,
    pub matches: &'a BTreeMap<String, RiskMatch>,
    /// The risk sources' answer (alerts, 4.23+ the Upgradeable sources), merged only while
    /// accept risks is reconciled.
    pub sources: Option<SourceRisks>,
    pub now: Time,
}

/// `evaluateConditionalUpdates` followed by `setAvailableUpdates`' sort (newest first).
pub fn evaluate(updates: &[Release], cus: &[ConditionalUpdate], inp: EvalInput<'_>) -> Evaluated {
    let mut updates = updates.to_vec();
    let mut cus = cus.to_vec();
    let mut errors = Vec::new();
    if inp.reconcile_accept
        && let Some(src) = inp.sources
    {
        errors.extend(src.errors.iter().cloned());
        errors.extend(merge(&mut updates, &mut cus, &src));
    }
    let conds = risk_conditions(&cus, inp.matches);
    let empty = RiskConditions::new();
    for cu in cus.iter_mut() {
        let c = evaluate_conditional_update(
            cu,
            inp.accepted,
            inp.reconcile_accept,
            conds.as_ref().unwrap_or(&empty),
            inp.minor,
        );
        if c.status == "True" {
            if !updates.iter().any(|u| u.image == cu.release.image) {
                updates.push(cu.release.clone());
            }
        } else if let Some(i) = updates.iter().position(|u| u.image == cu.release.image) {
            updates.remove(i);
        }
        set_status_condition(&mut cu.conditions, c, inp.now);
    }
    let newest_first = |a: &str, b: &str| version_cmp(b, a);
    updates.sort_by(|a, b| newest_first(&a.version, &b.version));
    cus.sort_by(|a, b| newest_first(&a.release.version, &b.release.version));
    Evaluated {
        updates,
        conditional_updates: cus,
        risk_conditions: conds,
        errors,
    }
}

/// `conditionalUpdateWithRiskNamesAndRiskConditions`: each conditional update's `riskNames`
/// (sorted, once each) and its risks' conditions from the evaluation (a type the evaluation
/// lacks is removed; a risk never evaluated gets `Unknown`/`InternalErrorFoundNoRiskCondition`);
/// and the risk names of the conditional update whose image is `desired_image`.
pub fn with_risk_names(
    cus: &[ConditionalUpdate],
    conds: Option<&RiskConditions>,
    desired_image: &str,
    now: Time,
) -> (Vec<ConditionalUpdate>, Vec<String>) {
    let mut out = Vec::with_capacity(cus.len());
    let mut names_for_desired = Vec::new();
    for cu in cus {
        let mut cu = cu.clone();
        let mut names = BTreeSet::new();
        for risk in cu.risks.iter_mut() {
            names.insert(risk.name.clone());
            let evaluated = conds
                .and_then(|c| c.get(&risk.name))
                .cloned()
                .unwrap_or_else(|| {
                    vec![condition(
                        "Unknown",
                        "InternalErrorFoundNoRiskCondition",
                        &format!("failed to find risk condition for risk {}", risk.name),
                    )]
                });
            risk.conditions
                .retain(|c| evaluated.iter().any(|e| e.type_ == c.type_));
            for c in evaluated {
                set_status_condition(&mut risk.conditions, c, now);
            }
        }
        if !names.is_empty() {
            cu.risk_names = names.into_iter().collect();
        }
        if desired_image == cu.release.image {
            names_for_desired = cu.risk_names.clone();
        }
        out.push(cu);
    }
    (out, names_for_desired)
}

/// `conditionalUpdateRisks`: every risk once (the first definition), sorted by name.
pub fn conditional_update_risks(cus: &[ConditionalUpdate]) -> Vec<ConditionalUpdateRisk> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for cu in cus {
        for r in &cu.risks {
            if seen.insert(r.name.clone()) {
                out.push(r.clone());
            }
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The history text of accepted conditional-update risks (4.22+).
pub fn accepted_risks_text(previous: &str, image: &str, names: &[String]) -> String {
    match previous {
        "" => format!(
            "The target release {image} is exposed to the risks [{}] which were all explicitly accepted by the cluster administrator.",
            names.join(",")
        ),
        p => format!(
            "{p}; It is exposed to the risks [{}] which were all explicitly accepted by the cluster administrator.",
            names.join(",")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Test_newRecommendedReason (release-4.22 pkg/cvo/availableupdates_test.go), every row.
    #[test]
    fn recommended_reason_as_release_4_22() {
        let rows = [
            (NOT_EXPOSED, ACCEPTED, ACCEPTED),
            (NOT_EXPOSED, EVAL_FAILED, EVAL_FAILED),
            (NOT_EXPOSED, MULTIPLE, MULTIPLE),
            (NOT_EXPOSED, EXPOSED, EXPOSED),
            (ACCEPTED, NOT_EXPOSED, ACCEPTED),
            (ACCEPTED, EVAL_FAILED, EVAL_FAILED),
            (ACCEPTED, MULTIPLE, MULTIPLE),
            (ACCEPTED, EXPOSED, EXPOSED),
            (EVAL_FAILED, NOT_EXPOSED, EVAL_FAILED),
            (EVAL_FAILED, ACCEPTED, EVAL_FAILED),
            (EVAL_FAILED, MULTIPLE, MULTIPLE),
            (EVAL_FAILED, EXPOSED, EXPOSED),
            (MULTIPLE, NOT_EXPOSED, MULTIPLE),
            (MULTIPLE, ACCEPTED, MULTIPLE),
            (MULTIPLE, EVAL_FAILED, MULTIPLE),
            (MULTIPLE, EXPOSED, MULTIPLE),
            (EXPOSED, NOT_EXPOSED, EXPOSED),
            (EXPOSED, ACCEPTED, EXPOSED),
            (EXPOSED, EVAL_FAILED, EXPOSED),
            (EXPOSED, MULTIPLE, MULTIPLE),
        ];
        for (now, want, expected) in rows {
            assert_eq!(
                recommended_reason(now, want, 22),
                expected,
                "{now} -> {want}"
            );
        }
        // release-4.21: any second reason is MultipleReasons.
        assert_eq!(recommended_reason(EXPOSED, EVAL_FAILED, 21), MULTIPLE);
        assert_eq!(recommended_reason(NOT_EXPOSED, EXPOSED, 21), EXPOSED);
    }

    #[test]
    fn reason_and_risk_name_patterns() {
        assert!(valid_reason("RiskThatApplies") && valid_reason("A") && valid_reason("a_b:c"));
        assert!(!valid_reason("RISK-THAT-APPLIES") && !valid_reason("") && !valid_reason("A:"));
        assert!(!valid_reason("AdminAck-ack-4.21-test"));
        assert!(valid_risk_name("AdminAck-ack-4.21-test") && !valid_risk_name("wrongName"));
    }
}
