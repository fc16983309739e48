//! `mglint recommend`: where the cluster can update to and what stands in the way, exactly as
//! `oc adm upgrade recommend` computes and prints it (`recommend.go`), from a saved
//! ClusterVersion and alerts instead of a live cluster.
//!
//! [`plan`] gathers the facts once: the ClusterVersion's Failing, Progressing and
//! RetrievedUpdates conditions, the alert precheck ([`precheck`]), and the targets of
//! `availableUpdates` and `conditionalUpdates` bucketed by minor with `Upgradeable=False`
//! injected as a risk into minor and major updates. [`render_text`] prints them as oc does
//! (the order of ties is Go's unstable sort's; the table is Go's tabwriter's, flushed where
//! oc flushes it); [`json`] and [`markdown`] give the same facts for machines and cases.

pub mod json;
pub mod markdown;
mod mask;
pub mod precheck;
pub use crate::vocab::semver;
mod text;

use crate::bundle::Bundle;
use crate::model::{ClusterVersion, Condition, ConditionalUpdateRisk, Release};
use precheck::{AlertData, Check};
use semver::Version;
use std::collections::{BTreeMap, BTreeSet};

pub use json::render_json;
pub use markdown::render_markdown;
pub use text::{render_text, shown_versions};

/// The flags of `oc adm upgrade recommend`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// `--show-outdated-releases`: every target of each minor, one row each.
    pub show_outdated: bool,
    /// `--version`: the one target to show, with the issues that would stop it.
    pub version: Option<String>,
    /// `--quiet`: with `--version`, print only the error naming unaccepted issues.
    pub quiet: bool,
    /// `--accept`: issue names the user accepts.
    pub accept: Vec<String>,
}

/// What recommend reads: the ClusterVersion, the alerts, and whether the CVO evaluates
/// update risks itself (from the FeatureGate and Infrastructure, as oc's
/// `alertsEvaluatedByCVO`).
#[derive(Debug, Clone, PartialEq)]
pub struct RecommendInputs {
    pub cluster_version: ClusterVersion,
    pub alerts: AlertData,
    /// The `ClusterUpdateAcceptRisks` gate is on for the desired version and the cluster is
    /// not hosted: the CVO turns alerts into risks and oc skips its own alert checks, takes
    /// accepted risks from `spec.desiredUpdate.acceptRisks` and refuses `--accept`. `false`
    /// without a FeatureGate, as oc's mock mode.
    pub cvo_evaluates_risks: bool,
}

/// Why `recommend` cannot run at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecommendError {
    #[error(
        "no ClusterVersion in the input (recommend reads `status.availableUpdates` and `status.conditionalUpdates` of clusterversion/version)"
    )]
    NoClusterVersion,
}

impl RecommendInputs {
    /// The ClusterVersion of the bundle and its alerts: every alerts document, the first whole
    /// and from the later ones what it does not already hold (as `status` merges them). An
    /// alerts file that could not be read makes the precheck fail, as oc's does when the
    /// alerts cannot be fetched; no alerts at all, likewise, saying where they would be.
    pub fn from_bundle(b: &Bundle) -> Result<RecommendInputs, RecommendError> {
        let cv = b
            .cluster_version()
            .ok_or(RecommendError::NoClusterVersion)?;
        let unread_alerts = crate::bundle::unread_files(b)
            .into_iter()
            .find(|u| u.kind.as_deref() == Some("Alerts"));
        let alerts = if let Some(u) = unread_alerts {
            let why = u.detail.as_deref().unwrap_or(&u.reason);
            AlertData::Failed(format!("parsing alerts: {}", go_json_error(why)))
        } else {
            b.merged_alerts()
                .map_or(AlertData::Absent, AlertData::Alerts)
        };
        Ok(RecommendInputs {
            cluster_version: cv.value.clone(),
            alerts,
            cvo_evaluates_risks: b.cvo_evaluates_risks().unwrap_or(false),
        })
    }

    /// As oc's mock mode reads a set: with `--mock-clusterversion=mock_path`, a missing (or
    /// empty) alerts file is "no test data" at the path oc derives from it.
    pub fn oc_mock(mut self, mock_path: &str) -> RecommendInputs {
        if self.alerts == AlertData::Absent {
            self.alerts = AlertData::MockNoData(mock_path.replacen("-cv.yaml", "-alerts.json", 1));
        }
        self
    }
}

/// The text of a JSON error as Go's `encoding/json` words the one kind both agree on (the
/// input ended early); any other is the reader's own text.
fn go_json_error(r: &str) -> String {
    if r.contains("EOF while parsing") || r.contains("unexpected end") {
        "unexpected end of JSON input".into()
    } else {
        r.to_string()
    }
}

/// One target: a release the cluster may update to, with its risks and conditions.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub release: Release,
    pub version: Version,
    pub risks: Vec<ConditionalUpdateRisk>,
    pub conditions: Vec<Condition>,
}

impl Target {
    /// The condition that makes this target not recommended, or `None` (oc's
    /// `notRecommendedCondition`): no risks means recommended, whatever the conditions say.
    pub fn not_recommended(&self) -> Option<Condition> {
        if self.risks.is_empty() {
            return None;
        }
        match self.conditions.iter().find(|c| c.type_ == "Recommended") {
            Some(c) if c.status == "True" => None,
            Some(c) => Some(c.clone()),
            None => {
                // oc builds the list from n empty names followed by the n names.
                let mut names = vec![String::new(); self.risks.len()];
                names.extend(self.risks.iter().map(|r| r.name.clone()));
                names.sort();
                Some(Condition {
                    type_: "Recommended".into(),
                    status: "Unknown".into(),
                    reason: "NoConditions".into(),
                    message: format!(
                        "Conditional update to {} has risks ({}), but no conditions.",
                        self.release.version,
                        names.join(", ")
                    ),
                    last_transition_time: None,
                })
            }
        }
    }
}

/// The targets of one minor: in the order oc collected them (conditional updates first),
/// and as oc's listing orders them (descending, ties as Go's unstable sort leaves them).
#[derive(Debug, Clone, PartialEq)]
pub struct Minor {
    pub major: u64,
    pub minor: u64,
    pub collected: Vec<Target>,
    pub sorted: Vec<Target>,
}

/// Everything recommend knows about the cluster, before any flag but `--accept` applies.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The cluster the plan is for.
    pub cluster: crate::bundle::ClusterIdentity,
    pub current: String,
    pub channel: String,
    pub upstream: String,
    pub channels: Vec<String>,
    pub failing: Option<Condition>,
    pub progressing: Option<Condition>,
    pub retrieved_updates: Option<Condition>,
    pub upgradeable: Option<Condition>,
    /// oc's client-side alert checks (none when the CVO evaluates the risks).
    pub precheck: Result<Vec<Check>, String>,
    /// The CVO evaluates update risks (see [`RecommendInputs::cvo_evaluates_risks`]).
    pub cvo_evaluates_risks: bool,
    /// `spec.desiredUpdate.acceptRisks`, the risks the administrator accepted.
    pub accepted_risks: Vec<String>,
    /// Whether the input held alerts at all (without them the precheck cannot run).
    pub alerts_read: bool,
    /// Warnings oc prints on stderr while collecting the targets, each as oc writes it
    /// (the SemVer ones without a newline).
    pub collect_warnings: Vec<String>,
    /// Minors, highest first.
    pub minors: Vec<Minor>,
}

fn condition<'a>(cv: &'a ClusterVersion, t: &str) -> Option<&'a Condition> {
    cv.status.conditions.iter().find(|c| c.type_ == t)
}

/// Replaces every newline with a newline and two spaces (oc's indentation of messages).
pub(crate) fn indent(s: &str) -> String {
    s.replace('\n', "\n  ")
}

/// Gathers the facts of [`Plan`] from the inputs.
pub fn plan(i: &RecommendInputs) -> Plan {
    let cv = &i.cluster_version;
    let mut warnings = Vec::new();
    let mut buckets: BTreeMap<(u64, u64), Vec<Target>> = BTreeMap::new();
    let semver_warning = |v: &str, e: &str| {
        format!(
            "warning: Cannot parse SemVer available update {}: {e}",
            crate::vocab::text::go_quote(v)
        )
    };
    for cu in &cv.status.conditional_updates {
        match semver::parse(&cu.release.version) {
            Ok(v) => buckets.entry((v.major, v.minor)).or_default().push(Target {
                release: cu.release.clone(),
                version: v,
                risks: cu.risks.clone(),
                conditions: cu.conditions.clone(),
            }),
            Err(e) => warnings.push(semver_warning(&cu.release.version, &e)),
        }
    }
    for r in &cv.status.available_updates {
        if cv
            .status
            .conditional_updates
            .iter()
            .any(|cu| cu.release.image == r.image)
        {
            continue;
        }
        match semver::parse(&r.version) {
            Ok(v) => buckets.entry((v.major, v.minor)).or_default().push(Target {
                release: r.clone(),
                version: v,
                risks: Vec::new(),
                conditions: Vec::new(),
            }),
            Err(e) => warnings.push(semver_warning(&r.version, &e)),
        }
    }
    let upgradeable = condition(cv, "Upgradeable").cloned();
    if let Some(u) = upgradeable.as_ref().filter(|u| u.status == "False") {
        match semver::parse(&cv.status.desired.version) {
            Err(e) => warnings.push(format!(
                "warning: Cannot inject {}={} as a conditional update risk: cannot parse SemVer version {}: {e}\n\nReason: {}\n  Message: {}\n\n",
                u.type_,
                u.status,
                crate::vocab::text::go_quote(&cv.status.desired.version),
                u.reason,
                indent(&u.message)
            )),
            Ok(cur) => {
                for ((major, minor), targets) in buckets.iter_mut() {
                    if *major < cur.major || (*major == cur.major && *minor <= cur.minor) {
                        continue;
                    }
                    for t in targets.iter_mut() {
                        inject_upgradeable(t, u);
                    }
                }
            }
        }
    }
    let minors = buckets
        .into_iter()
        .rev()
        .map(|((major, minor), collected)| {
            let mut sorted = collected.clone();
            crate::status::gosort::slice(&mut sorted, |a, b| {
                a.version.precedence(&b.version) == std::cmp::Ordering::Greater
            });
            Minor {
                major,
                minor,
                collected,
                sorted,
            }
        })
        .collect();
    let mut plan = Plan {
        cluster: crate::bundle::ClusterIdentity::of(cv),
        current: cv.status.desired.version.clone(),
        channel: cv.spec.channel.clone(),
        upstream: cv.spec.upstream.clone(),
        channels: cv.status.desired.channels.clone(),
        failing: condition(cv, "Failing").cloned(),
        progressing: condition(cv, "Progressing").cloned(),
        retrieved_updates: condition(cv, "RetrievedUpdates").cloned(),
        upgradeable,
        precheck: if i.cvo_evaluates_risks {
            Ok(Vec::new())
        } else {
            precheck::run(&i.alerts)
        },
        cvo_evaluates_risks: i.cvo_evaluates_risks,
        accepted_risks: cv
            .spec
            .desired_update
            .iter()
            .flat_map(|d| d.accept_risks.iter().map(|r| r.name.clone()))
            .collect(),
        alerts_read: i.alerts != AlertData::Absent,
        collect_warnings: warnings,
        minors,
    };
    crate::vocab::secrets::Masked::mask_secrets(&mut plan);
    plan
}

/// `Upgradeable=False` as a risk of a minor or major update, unless a risk already says it
/// (an empty message is in every risk, so then a target with a risk is left alone).
fn inject_upgradeable(t: &mut Target, u: &Condition) {
    if t.risks.iter().any(|r| r.message.contains(&u.message)) {
        return;
    }
    t.risks.push(ConditionalUpdateRisk {
        name: "UpgradeableFalse".into(),
        message: u.message.clone(),
        url: String::new(),
        ..Default::default()
    });
    match t.conditions.iter_mut().find(|c| c.type_ == "Recommended") {
        Some(c) => {
            if c.status == "True" {
                c.reason = u.reason.clone();
                c.message = u.message.clone();
            } else {
                c.reason = "MultipleReasons".into();
                c.message = format!("{}\n\n{}", u.message, c.message);
            }
            c.status = "False".into();
        }
        None => t.conditions.push(Condition {
            type_: "Recommended".into(),
            status: "False".into(),
            reason: u.reason.clone(),
            message: u.message.clone(),
            last_transition_time: None,
        }),
    }
}

/// The issues oc counts before any target: Failing, Progressing, each precheck condition
/// that is not True, and RetrievedUpdates not True.
pub fn issues(p: &Plan) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    if p.failing.as_ref().is_none_or(|c| c.status != "False") {
        s.insert("Failing".to_string());
    }
    if p.progressing
        .as_ref()
        .is_some_and(|c| c.status == "True" && !c.message.is_empty())
    {
        s.insert("Progressing".to_string());
    }
    match &p.precheck {
        Err(_) => {
            s.insert("FailedToCompletePrecheck".to_string());
        }
        Ok(checks) => {
            for c in checks.iter().filter(|c| c.status != "True") {
                s.insert(c.accept_as.clone());
            }
        }
    }
    if p.retrieved_updates
        .as_ref()
        .is_some_and(|c| c.status != "True")
    {
        s.insert("CannotRetrieveUpdates".to_string());
    }
    s
}

/// Where `--version V` lands: the target, or oc's error saying why there is none.
pub fn find_target<'a>(p: &'a Plan, v: &Version) -> Result<&'a Target, String> {
    let vs = v.to_string();
    if p.minors.is_empty() {
        return Err(format!(
            "no updates available, so cannot display context for the requested release {vs}"
        ));
    }
    if !p.minors.iter().any(|m| m.major == v.major) {
        return Err(format!(
            "no updates to {} available, so cannot display context for the requested release {vs}",
            v.major
        ));
    }
    let Some(m) = p
        .minors
        .iter()
        .find(|m| m.major == v.major && m.minor == v.minor)
    else {
        return Err(format!(
            "no updates to {}.{} available, so cannot display context for the requested release {vs}",
            v.major, v.minor
        ));
    };
    m.collected
        .iter()
        .find(|t| t.release.version == vs)
        .ok_or_else(|| {
            format!(
                "no update to {vs} available, so cannot display context for the requested release"
            )
        })
}

/// What `--version` asks about: `None` when no target is asked (no `--version`, or an empty
/// one, which oc takes for none), else the target or oc's error (a flag check, or the target
/// not offered).
pub fn requested_target<'a>(p: &'a Plan, o: &Options) -> Option<Result<&'a Target, String>> {
    match check_options(o) {
        Err(e) => Some(Err(e)),
        Ok(None) => None,
        Ok(Some(v)) => Some(find_target(p, &v)),
    }
}

/// The issues that apply to an update to `t`: the plan's, and `ConditionalUpdateRisk` when `t`
/// is not recommended; when the CVO evaluates risks, instead of `ConditionalUpdateRisk` the
/// name of each of `t`'s risks that applies or may apply (its `Applies` condition not
/// `False`).
pub fn target_issues(p: &Plan, t: &Target) -> BTreeSet<String> {
    let mut all = issues(p);
    if p.cvo_evaluates_risks {
        all.extend(
            t.risks
                .iter()
                .filter(|r| r.may_apply())
                .map(|r| r.name.clone()),
        );
    } else if t.not_recommended().is_some() {
        all.insert("ConditionalUpdateRisk".into());
    }
    all
}

/// The names that count as accepted: `spec.desiredUpdate.acceptRisks` when the CVO evaluates
/// risks (`--accept` is refused then), else `--accept`.
pub fn accepted<'a>(p: &'a Plan, o: &'a Options) -> &'a [String] {
    if p.cvo_evaluates_risks {
        &p.accepted_risks
    } else {
        &o.accept
    }
}

/// oc's refusal of `--accept` when the CVO evaluates risks.
pub fn accept_refused(p: &Plan, o: &Options) -> Option<String> {
    (p.cvo_evaluates_risks && !o.accept.is_empty()).then(|| {
        format!(
            "`oc adm upgrade accept` is used to accept when the feature gate {} is enabled",
            crate::model::ACCEPT_RISKS_GATE
        )
    })
}

/// The issues not accepted (see [`accepted`]), and oc's error when there are any (worded for
/// `oc adm upgrade accept` when the CVO evaluates risks, for `--accept` otherwise).
pub fn unaccepted(
    p: &Plan,
    issues: &BTreeSet<String>,
    o: &Options,
) -> (Vec<String>, Option<String>) {
    let accept = accepted(p, o);
    let left: Vec<String> = issues
        .iter()
        .filter(|i| !accept.contains(i))
        .cloned()
        .collect();
    let error = (!left.is_empty()).then(|| {
        if p.cvo_evaluates_risks {
            format!(
                "There are issues that apply to this cluster and have not been accepted. `oc adm upgrade accept` can be used to accept them: {}\n",
                left.join(",")
            )
        } else {
            format!(
                "issues that apply to this cluster but which were not included in --accept: {}",
                left.join(",")
            )
        }
    });
    (left, error)
}

/// The flag checks oc makes before reading anything; the parsed `--version`.
pub fn check_options(o: &Options) -> Result<Option<Version>, String> {
    match o.version.as_deref().filter(|v| !v.is_empty()) {
        None if o.quiet => Err("--quiet can only be set when --version is set".into()),
        None => Ok(None),
        Some(_) if o.show_outdated => {
            Err("when --version is set, --show-outdated-releases is unnecessary".into())
        }
        Some(v) => semver::parse(v).map(Some).map_err(|e| {
            format!(
                "cannot parse SemVer target {}: {e}",
                crate::vocab::text::go_quote(v)
            )
        }),
    }
}

/// What one run prints: standard output, standard error, and the error oc ends with (exit 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    pub out: String,
    pub err: String,
    pub error: Option<String>,
}

impl Answer {
    /// oc's exit code: 1 when it ends with an error.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.error.is_some())
    }
}
