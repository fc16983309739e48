//! Each published risk's verdict for each candidate update of a dump, decided as the CVO
//! decides it (`pkg/clusterconditions`): a risk's matching rules are tried in order and the
//! first that evaluates decides; `Always` applies; a `PromQL` rule applies when its query
//! returns exactly one sample valued 1, does not when it is 0, and anything else (an error,
//! another value, no sample or several, a metric the dump cannot give) is an evaluation
//! failure; when every rule fails the verdict is unknown. Where the dump holds the CVO's own
//! verdicts (a ClusterVersion's `conditionalUpdateRisks`, or `conditionalUpdates` and their
//! `Recommended` condition), each is set beside mglint's and a disagreement is flagged.

use super::catalogue::{Catalogue, MatchingRule, Risk};
use super::promql::{EvalError, Metrics, Query, Value};
use crate::bundle::Bundle;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Whether a risk applies to the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Applies,
    DoesNotApply,
    Unknown,
}

impl Verdict {
    /// The name it serializes as.
    pub fn as_str(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }
}

/// How long a verdict holds: what the deciding rule read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// An `Always` rule: every cluster on the edge.
    Always,
    /// Facts that hold for the cluster's life ([`super::series::stable`]): the verdict was
    /// the same when an earlier update ran.
    Stable,
    /// The cluster's state at the dump (conditions, a node's update state, the current
    /// version): at another time the verdict may have been another; also every verdict that
    /// is not decided.
    State,
}

/// A risk's verdict with what it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judged {
    pub verdict: Verdict,
    /// What the deciding rule read.
    #[serde(skip)]
    pub basis: Basis,
    /// The metrics the dump cannot give that the risk's rules read (when unknown).
    pub missing: Vec<String>,
    /// The files of the objects behind the deciding sample.
    pub evidence: Vec<String>,
    /// Why the rules could not be evaluated (when unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Judges `risk` against `m` as the CVO would.
pub fn judge(risk: &Risk, m: &Metrics) -> Judged {
    let mut missing: BTreeSet<String> = BTreeSet::new();
    let mut reasons: Vec<String> = Vec::new();
    for rule in &risk.matching_rules {
        let text = match rule {
            MatchingRule::Always => {
                return Judged {
                    verdict: Verdict::Applies,
                    basis: Basis::Always,
                    missing: Vec::new(),
                    evidence: Vec::new(),
                    reason: None,
                };
            }
            MatchingRule::PromQL { promql } => &promql.promql,
            MatchingRule::Unknown => continue,
        };
        let query = Query::parse(text);
        let result = query.as_ref().map_err(Clone::clone).and_then(|q| q.eval(m));
        match result {
            Ok(Value::Vector(v)) if v.len() == 1 => {
                let verdict = if v[0].value == 0.0 {
                    Verdict::DoesNotApply
                } else if v[0].value == 1.0 {
                    Verdict::Applies
                } else {
                    reasons.push(format!(
                        "invalid PromQL result (must be 0 or 1): {}",
                        v[0].value
                    ));
                    continue;
                };
                let stable = query.as_ref().is_ok_and(|q| {
                    q.selectors()
                        .iter()
                        .all(|(name, eq)| super::series::stable(name, eq))
                });
                return Judged {
                    verdict,
                    basis: if stable { Basis::Stable } else { Basis::State },
                    missing: Vec::new(),
                    evidence: v[0].evidence.iter().map(|e| e.to_string()).collect(),
                    reason: None,
                };
            }
            Ok(Value::Vector(v)) => reasons.push(format!(
                "invalid PromQL result length must be one, but is {}",
                v.len()
            )),
            Ok(_) => reasons.push("invalid PromQL result type, not vector".to_string()),
            Err(EvalError::Missing(ms)) => {
                reasons.push(EvalError::Missing(ms.clone()).to_string());
                missing.extend(ms);
            }
            Err(e) => reasons.push(e.to_string()),
        }
    }
    if reasons.is_empty() {
        reasons.push("no matching rule the CVO knows".to_string());
    }
    Judged {
        verdict: Verdict::Unknown,
        basis: Basis::State,
        missing: missing.into_iter().collect(),
        evidence: Vec::new(),
        reason: Some(reasons.join("; ")),
    }
}

/// Why a version is a candidate target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    /// An update the cluster took (a history entry).
    Taken,
    /// `spec.desiredUpdate`.
    Requested,
    /// `status.availableUpdates`.
    Offered,
    /// `status.conditionalUpdates`.
    Conditional,
    /// Asked for with `--to`.
    Asked,
}

/// An update to judge: from the version the cluster ran to a target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    pub version: String,
    pub from: String,
    pub why: Vec<Why>,
}

/// The candidate updates of a bundle (its newest ClusterVersion), plus `asked`.
pub fn candidates(b: &Bundle, asked: &[String]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut add = |version: &str, from: &str, why: Why| {
        if version.is_empty() || from.is_empty() || version == from {
            return;
        }
        match out
            .iter_mut()
            .find(|c| c.version == version && c.from == from)
        {
            Some(c) if !c.why.contains(&why) => c.why.push(why),
            Some(_) => {}
            None => out.push(Candidate {
                version: version.to_string(),
                from: from.to_string(),
                why: vec![why],
            }),
        }
    };
    let Some(cv) = b.cluster_version() else {
        return Vec::new();
    };
    let st = &cv.value.status;
    let running = running_version(b).unwrap_or_default();
    for w in st.history.windows(2) {
        add(&w[0].version, &w[1].version, Why::Taken);
    }
    if let Some(d) = &cv.value.spec.desired_update {
        add(&d.version, &running, Why::Requested);
    }
    for r in &st.available_updates {
        add(&r.version, &running, Why::Offered);
    }
    for c in &st.conditional_updates {
        add(&c.release.version, &running, Why::Conditional);
    }
    for v in asked {
        add(v, &running, Why::Asked);
    }
    out
}

/// The version the cluster runs: the newest Completed history entry's, else the desired one.
pub fn running_version(b: &Bundle) -> Option<String> {
    let cv = b.cluster_version()?;
    cv.value
        .last_completed()
        .map(|(_, h)| h.version.clone())
        .or_else(|| Some(cv.value.status.desired.version.clone()))
        .filter(|v| !v.is_empty())
}

/// What the CVO said of a risk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CvoSaid {
    pub verdict: Verdict,
    /// Whether mglint's verdict contradicts it (both decisive and different).
    pub disagrees: bool,
}

/// One risk for one target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RiskOutcome {
    pub name: String,
    #[serde(flatten)]
    pub judged: Judged,
    pub url: String,
    pub message: String,
    /// The CVO's own verdict, when the dump has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cvo: Option<CvoSaid>,
}

/// One candidate and its risks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TargetOutcome {
    #[serde(flatten)]
    pub candidate: Candidate,
    /// Whether an unnamed blocked edge removes this update from the graph outright.
    pub blocked: bool,
    pub risks: Vec<RiskOutcome>,
}

/// Every candidate of a bundle judged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evaluation {
    pub running: Option<String>,
    pub targets: Vec<TargetOutcome>,
}

/// The CVO's verdicts in the dump: by risk name for every target (`conditionalUpdateRisks`),
/// and by (target, risk) from `conditionalUpdates`' Recommended conditions.
#[derive(Debug, Clone, Default)]
pub struct CvoVerdicts {
    pub cluster: BTreeMap<String, Verdict>,
    pub by_target: BTreeMap<(String, String), Verdict>,
}

fn status_verdict(status: &str) -> Verdict {
    match status {
        "True" => Verdict::Applies,
        "False" => Verdict::DoesNotApply,
        _ => Verdict::Unknown,
    }
}

impl CvoVerdicts {
    /// Reads them from the bundle's newest ClusterVersion.
    pub fn from_bundle(b: &Bundle) -> CvoVerdicts {
        let mut out = CvoVerdicts::default();
        let Some(cv) = b.cluster_version() else {
            return out;
        };
        // 4.21+: one Applies condition per risk.
        let raw = b.objects.raw.iter().rfind(|o| {
            o.prov.same_file(&cv.prov)
                && o.value.get("kind").and_then(|k| k.as_str()) == Some("ClusterVersion")
        });
        if let Some(risks) = raw.and_then(|o| {
            o.value
                .get("status")?
                .get("conditionalUpdateRisks")?
                .as_array()
        }) {
            for r in risks {
                let Some(name) = r.get("name").and_then(|n| n.as_str()) else {
                    continue;
                };
                let applies = r
                    .get("conditions")
                    .and_then(|c| c.as_array())
                    .and_then(|cs| {
                        cs.iter()
                            .find(|c| c.get("type").and_then(|t| t.as_str()) == Some("Applies"))
                    })
                    .and_then(|c| c.get("status")?.as_str());
                if let Some(s) = applies {
                    out.cluster.insert(name.to_string(), status_verdict(s));
                }
            }
        }
        for cu in &cv.value.status.conditional_updates {
            let Some(rec) = cu.conditions.iter().find(|c| c.type_ == "Recommended") else {
                continue;
            };
            for r in &cu.risks {
                let v = match rec.status.as_str() {
                    "True" if rec.reason == "AllExposedRisksAccepted" => continue,
                    "True" => Verdict::DoesNotApply,
                    _ if rec
                        .message
                        .contains(&format!("Exposure to {} is unknown", r.name)) =>
                    {
                        Verdict::Unknown
                    }
                    _ if rec.message.contains(&format!("{} {}", r.message, r.url))
                        || rec.reason == r.name =>
                    {
                        Verdict::Applies
                    }
                    "False" | "Unknown" => Verdict::DoesNotApply,
                    _ => continue,
                };
                out.by_target
                    .insert((cu.release.version.clone(), r.name.clone()), v);
            }
        }
        out
    }

    fn get(&self, target: &str, risk: &str) -> Option<Verdict> {
        self.by_target
            .get(&(target.to_string(), risk.to_string()))
            .or_else(|| self.cluster.get(risk))
            .copied()
    }
}

/// Whether `version` matches an edge's `from` expression (anchored, as the graph builder
/// anchors it). An expression that does not compile matches nothing.
fn from_matches(
    cache: &mut BTreeMap<String, Option<regex::Regex>>,
    from: &str,
    version: &str,
) -> bool {
    cache
        .entry(from.to_string())
        .or_insert_with(|| regex::Regex::new(&format!("^(?:{from})$")).ok())
        .as_ref()
        .is_some_and(|re| re.is_match(version))
}

/// The release architecture as the graph names it: `multi` for a multi-architecture payload,
/// else the nodes' `kubernetes.io/arch`, else `amd64`.
fn architecture(b: &Bundle) -> String {
    if let Some(cv) = b.cluster_version()
        && cv
            .value
            .status
            .desired
            .architecture
            .eq_ignore_ascii_case("multi")
    {
        return "multi".to_string();
    }
    b.objects
        .nodes
        .iter()
        .find_map(|n| n.value.metadata.labels.get("kubernetes.io/arch"))
        .cloned()
        .unwrap_or_else(|| "amd64".to_string())
}

/// Judges every candidate of `b` (and `asked`) against `cat`, over the series of `b`.
pub fn evaluate(cat: &Catalogue, b: &Bundle, m: &Metrics, asked: &[String]) -> Evaluation {
    let cvo = CvoVerdicts::from_bundle(b);
    let mut judged: BTreeMap<String, Judged> = BTreeMap::new();
    let mut regexes = BTreeMap::new();
    let mut targets = Vec::new();
    let arch = architecture(b);
    for c in candidates(b, asked) {
        // Graph versions carry the architecture as build metadata (`4.10.3+amd64`): an edge
        // may name it in `from`.
        let with_arch = format!("{}+{arch}", c.from);
        let mut blocked = false;
        let mut names: Vec<&str> = Vec::new();
        for e in cat.edges_to(&c.version) {
            if !from_matches(&mut regexes, &e.from, &c.from)
                && !from_matches(&mut regexes, &e.from, &with_arch)
            {
                continue;
            }
            match &e.risk {
                None => blocked = true,
                Some(n) if !names.contains(&n.as_str()) => names.push(n),
                Some(_) => {}
            }
        }
        names.sort_unstable();
        let mut risks = Vec::new();
        for n in names {
            let Some(risk) = cat.risk(n) else {
                continue;
            };
            let j = judged
                .entry(n.to_string())
                .or_insert_with(|| judge(risk, m))
                .clone();
            let cvo = cvo.get(&c.version, n).map(|v| CvoSaid {
                verdict: v,
                disagrees: v != Verdict::Unknown && j.verdict != Verdict::Unknown && v != j.verdict,
            });
            risks.push(RiskOutcome {
                name: n.to_string(),
                judged: j,
                url: risk.url.clone(),
                message: risk.message.clone(),
                cvo,
            });
        }
        targets.push(TargetOutcome {
            candidate: c,
            blocked,
            risks,
        });
    }
    Evaluation {
        running: running_version(b),
        targets,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::risks::catalogue::PromQlRule;
    use crate::risks::promql::Sample;

    fn risk(rules: Vec<MatchingRule>) -> Risk {
        Risk {
            name: "R".into(),
            url: "u".into(),
            message: "m".into(),
            matching_rules: rules,
        }
    }

    fn promql(q: &str) -> MatchingRule {
        MatchingRule::PromQL {
            promql: PromQlRule { promql: q.into() },
        }
    }

    fn metrics() -> Metrics {
        let mut m = Metrics::default();
        m.push(Sample::new(
            "cluster_infrastructure_provider",
            &[("type", "Azure")],
            1.0,
            "infrastructures/cluster.yaml",
        ));
        m
    }

    #[test]
    fn the_cvo_semantics_one_sample_of_zero_or_one() {
        let m = metrics();
        let q = |t: &str| {
            format!(
                r#"group(cluster_infrastructure_provider{{type="{t}"}}) or 0 * group(cluster_infrastructure_provider)"#
            )
        };
        let j = judge(&risk(vec![promql(&q("Azure"))]), &m);
        assert_eq!(j.verdict, Verdict::Applies);
        assert_eq!(j.evidence, vec!["infrastructures/cluster.yaml"]);
        assert_eq!(
            judge(&risk(vec![promql(&q("AWS"))]), &m).verdict,
            Verdict::DoesNotApply
        );
        // No sample, two samples, a value of 2: evaluation failures.
        for bad in [
            r#"group(cluster_infrastructure_provider{type="AWS"})"#,
            r#"cluster_infrastructure_provider or label_replace(cluster_infrastructure_provider, "x", "y", "", "")"#,
            "2 * group(cluster_infrastructure_provider)",
        ] {
            let j = judge(&risk(vec![promql(bad)]), &m);
            assert_eq!(j.verdict, Verdict::Unknown, "{bad}");
            assert!(j.missing.is_empty());
        }
        assert_eq!(
            judge(&risk(vec![MatchingRule::Always]), &m).verdict,
            Verdict::Applies
        );
    }

    #[test]
    fn a_missing_metric_is_unknown_naming_it_and_a_later_rule_may_decide() {
        let m = metrics();
        let j = judge(
            &risk(vec![promql("group(csv_succeeded) or 0 * group(csv_count)")]),
            &m,
        );
        assert_eq!(j.verdict, Verdict::Unknown);
        assert_eq!(j.missing, vec!["csv_count", "csv_succeeded"]);
        // The CVO tries the next rule when one fails.
        let j = judge(
            &risk(vec![promql("group(csv_succeeded)"), MatchingRule::Always]),
            &m,
        );
        assert_eq!(j.verdict, Verdict::Applies);
        // An unknown rule type is skipped.
        let j = judge(
            &risk(vec![
                MatchingRule::Unknown,
                promql("0 * group(cluster_infrastructure_provider)"),
            ]),
            &m,
        );
        assert_eq!(j.verdict, Verdict::DoesNotApply);
    }

    #[test]
    fn the_basis_says_whether_a_verdict_outlives_the_dump() {
        let mut m = metrics();
        m.push(Sample::new(
            "cluster_version",
            &[("type", "initial"), ("version", "4.8.2")],
            1.0,
            "clusterversion.yaml",
        ));
        m.push(Sample::new(
            "cluster_operator_conditions",
            &[("name", "aro"), ("condition", "Degraded")],
            1.0,
            "clusteroperators/aro.yaml",
        ));
        let basis = |q: &str| judge(&risk(vec![promql(q)]), &m).basis;
        assert_eq!(
            judge(&risk(vec![MatchingRule::Always]), &m).basis,
            Basis::Always
        );
        // The platform, the install version, which operators exist: stable.
        assert_eq!(
            basis(r#"group(cluster_infrastructure_provider{type="Azure"})"#),
            Basis::Stable
        );
        assert_eq!(
            basis(r#"0 * group(cluster_version{type="initial",version=~"4[.]8[.].*"})"#),
            Basis::Stable
        );
        assert_eq!(
            basis(
                r#"group(cluster_operator_conditions{name="aro"}) or 0 * group(cluster_operator_conditions)"#
            ),
            Basis::Stable
        );
        // A condition's value, or the current version: the state at the dump.
        assert_eq!(
            basis(r#"group(cluster_operator_conditions{name="aro",condition="Degraded"})"#),
            Basis::State
        );
        assert_eq!(basis(r#"0 * group(cluster_version)"#), Basis::State);
        // Not decided: no basis to outlive anything.
        assert_eq!(basis("group(csv_succeeded)"), Basis::State);
    }

    #[test]
    fn from_expressions_are_anchored() {
        let mut c = BTreeMap::new();
        assert!(from_matches(&mut c, r"4\.8\..*", "4.8.2"));
        assert!(!from_matches(&mut c, r"4\.8\..*", "14.8.2"));
        assert!(!from_matches(&mut c, "4[.]1[.].*", "4.10.3"));
        assert!(!from_matches(&mut c, "(", "4.10.3"));
    }
}
