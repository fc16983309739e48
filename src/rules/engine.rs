//! The rule engine: the [`Rule`] trait and its static declaration ([`RuleMeta`]: code, slug,
//! severity, family, inputs, facts, page), the inputs a rule can need, the [`Context`] rules
//! read (bundle, timeline, the facts the rule declared, evidence helpers, the rule files that
//! could not be loaded), and running the selected rules, built-in and known-issue, into a
//! [`Report`]: the facts they need first ([`super::facts`]), then the rules on the pool.

use super::facts::{FactStore, Facts, Needs};
use super::model::*;
use super::selection::Selection;
use crate::bundle::Bundle;
use crate::model::{Provenance, Sourced, Time};
use crate::status::Assessment;
use crate::timeline::{Evidence, Timeline};
use crate::vocab::{FileTable, locate};

pub use super::facts::Fact;
pub use super::model::{Input, MetaRef, RuleMeta};

/// A lint rule: a pure function from the inputs to findings.
pub trait Rule: Send + Sync {
    /// The rule's declaration (dereferences to its [`RuleMeta`]; the reports it runs in
    /// keep a clone).
    fn meta(&self) -> &MetaRef;
    /// Appends findings. Called only when the needed inputs are present.
    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>);
}

/// What a rule reads: the bundle, the timeline and the facts it declared, all computed
/// before any rule ran.
pub struct Context<'a> {
    pub bundle: &'a Bundle,
    pub timeline: &'a Timeline,
    /// The facts the rule declared (`facts:` in its declaration); the others read as absent.
    facts: Facts<'a>,
    /// Rule files that could not be loaded (reported by `IN003`).
    pub rule_file_problems: &'a [super::known::RuleFileError],
}

/// What the cluster was doing at the end of the data, by the timeline's episodes (the one
/// source of truth for install versus update).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase<'a> {
    /// The install has not completed.
    Installing { version: &'a str, since: Time },
    /// An update (or a rollback) has not completed.
    Updating {
        from: &'a str,
        to: &'a str,
        since: Time,
    },
    /// Neither: the last install or update completed (or the data shows none).
    Settled,
}

impl Phase<'_> {
    /// ` during the install of `X`` / ` during the update to `X`` / ``.
    pub fn during(&self) -> String {
        match self {
            Phase::Installing { version, .. } if !version.is_empty() => {
                format!(" during the install of `{version}`")
            }
            Phase::Installing { .. } => " during the install".to_string(),
            Phase::Updating { to, .. } if !to.is_empty() => {
                format!(" during the update to `{to}`")
            }
            Phase::Updating { .. } => " during the update".to_string(),
            Phase::Settled => String::new(),
        }
    }
}

/// How long an install normally takes before the cluster settles: the installer waits up to
/// 30 minutes for the bootstrap to complete and then 40 for the cluster to initialize
/// (`openshift-install wait-for install-complete`); operators still coming up within this
/// window after the install started are not findings.
pub const INSTALL_WINDOW: chrono::TimeDelta = chrono::TimeDelta::minutes(70);

impl<'a> Context<'a> {
    /// A context over a bundle, its timeline and computed facts.
    pub fn new(
        bundle: &'a Bundle,
        timeline: &'a Timeline,
        facts: Facts<'a>,
        rule_file_problems: &'a [super::known::RuleFileError],
    ) -> Context<'a> {
        Context {
            bundle,
            timeline,
            facts,
            rule_file_problems,
        }
    }

    /// This context for a rule that declared `declared`: the other facts read as absent.
    fn for_rule(&self, declared: &[Fact]) -> Context<'a> {
        Context {
            facts: self.facts.only(declared),
            ..*self
        }
    }

    /// The published update risks (the bundled cincinnati-graph-data snapshot) that the
    /// update the cluster took last, the one it was asked for and the ones it is offered were
    /// exposed to, as `mglint risks` judges them. Declared as [`Fact::PublishedRisks`].
    pub fn published_risks(&self) -> &'a [crate::risks::exposure::Exposure] {
        self.facts.risks.unwrap_or(&[])
    }

    /// The catalogue [`Context::published_risks`] were judged against (the bundled snapshot
    /// or the run's `--risks` checkout). Declared as [`Fact::PublishedRisks`].
    pub fn risks_catalogue(&self) -> Option<&'a crate::risks::catalogue::Catalogue> {
        self.facts.catalogue
    }

    /// What `oc adm upgrade recommend` knows of the bundle (the offered targets with their
    /// risks, the precheck, the conditions it reads), as `mglint recommend` prints it; `None`
    /// without a ClusterVersion. Declared as [`Fact::Recommendation`].
    pub fn recommendation(&self) -> Option<&'a crate::recommend::Plan> {
        self.facts.plan
    }

    /// oc's `oc adm upgrade status` assessment of the bundle at its "now" (the collection
    /// time, else the latest condition transition), as `mglint status` prints it; `None`
    /// when oc could not assess it (no ClusterVersion, ClusterOperators or `Progressing`).
    /// The `UH` rules turn its Update Health into findings, and every rule that judges the
    /// same objects reads its levels, thresholds and "now". Declared as
    /// [`Fact::UpdateHealth`].
    pub fn update_health(&self) -> Option<&'a Assessment> {
        self.facts.health
    }

    /// Whether the cluster was installing, updating or neither at the end of the data.
    pub fn phase(&self) -> Phase<'a> {
        use crate::timeline::EpisodeKind;
        let open = self.timeline.episodes.iter().rev().find(|e| {
            e.end.is_none()
                && matches!(
                    e.kind,
                    EpisodeKind::Install { .. }
                        | EpisodeKind::Update { .. }
                        | EpisodeKind::Rollback { .. }
                )
        });
        match open.map(|e| (&e.kind, e.start)) {
            Some((EpisodeKind::Install { version }, since)) => Phase::Installing {
                version: version.as_str(),
                since,
            },
            Some((
                EpisodeKind::Update { from, to } | EpisodeKind::Rollback { from, to },
                since,
            )) => Phase::Updating {
                from: from.as_str(),
                to: to.as_str(),
                since,
            },
            _ => Phase::Settled,
        }
    }

    /// Whether the install is in progress and still within [`INSTALL_WINDOW`] at "now".
    pub fn installing_within_window(&self) -> bool {
        match (self.phase(), self.now()) {
            (Phase::Installing { since, .. }, Some(now)) => *now - *since <= INSTALL_WINDOW,
            (Phase::Installing { .. }, None) => true,
            _ => false,
        }
    }

    /// The dump replayed through the reference reconciler (computed once per analysis).
    /// Declared as [`Fact::Replay`].
    pub fn replay(&self) -> Option<&'a crate::reconciler::replay::ReplayResult> {
        self.facts.replay
    }

    /// The moment the data describes (collection time, else the latest time seen).
    pub fn now(&self) -> Option<Time> {
        self.timeline
            .reference
            .or_else(|| self.bundle.reference_time())
    }

    /// A new finding of `meta` about `object`, with the rule's defaults.
    pub fn finding(
        &self,
        meta: &RuleMeta,
        object: ObjectRef,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            code: meta.code.clone(),
            name: meta.name.clone(),
            severity: meta.severity,
            category: meta.family.name(),
            message: message.into(),
            object,
            at: None,
            evidence: Vec::new(),
            help: meta.help.to_string(),
            references: meta.references.texts(),
            confidence: None,
            details: Default::default(),
        }
    }

    /// Evidence at a field of a resource (`status.history[1].completionTime`): the line found
    /// by walking the object's indentation, else the first occurrence of `fallback` in the
    /// object, else the whole file.
    pub fn field<T>(
        &self,
        obj: &Sourced<T>,
        name: Option<&str>,
        path: &str,
        fallback: &str,
    ) -> EvidenceItem {
        field_evidence(&self.bundle.files, obj, name, path, fallback)
    }

    /// Evidence from a timeline evidence record (a log line, an event, an interval…).
    pub fn from_timeline(&self, ev: &Evidence) -> EvidenceItem {
        prov_evidence(&self.bundle.files, &ev.prov, &ev.text)
    }
}

/// See [`Context::field`].
pub fn field_evidence<T>(
    files: &FileTable,
    obj: &Sourced<T>,
    name: Option<&str>,
    path: &str,
    fallback: &str,
) -> EvidenceItem {
    let found = locate::field(files, &obj.prov, name, path)
        .or_else(|| locate::text(files, &obj.prov, name, fallback));
    match (found, files.text(&obj.prov.file)) {
        (Some(f), Some(text)) => {
            let mut e = EvidenceItem::at(&f.prov, f.text.as_str());
            if let Some((s, en)) = f.prov.span {
                e.snippet = Some(Snippet {
                    text: text.clone(),
                    first_line: 1,
                    span: (s as usize, en as usize),
                });
            }
            e
        }
        _ => EvidenceItem::at(&obj.prov, format!("{path}: {fallback}")),
    }
}

/// Evidence for a provenance with a line; points into the file text when the table keeps it.
pub fn prov_evidence(files: &FileTable, prov: &Provenance, text: &str) -> EvidenceItem {
    let mut e = EvidenceItem::at(prov, text);
    let span = prov
        .span
        .and_then(|(s, en)| Some((usize::try_from(s).ok()?, usize::try_from(en).ok()?)));
    match (files.text(&prov.file), span) {
        (Some(f), Some((s, en))) if en <= f.len() && s <= en && f.is_char_boundary(s) => {
            let line_end = f[s..]
                .find('\n')
                .map_or(f.len(), |i| s + i)
                .min(en.max(s + 1))
                .min(f.len());
            let line_end = if f.is_char_boundary(line_end) {
                line_end
            } else {
                en
            };
            e.snippet = Some(Snippet {
                text: f.clone(),
                first_line: 1,
                span: (s, line_end),
            });
        }
        _ => {
            if let Some(line) = prov.line {
                let t = crate::vocab::files::FileText::from(format!("{}\n", e.text));
                let len = e.text.len();
                e.snippet = Some(Snippet {
                    text: t,
                    first_line: line,
                    span: (0, len),
                });
            }
        }
    }
    e
}

/// During an update, a finding about a ClusterOperator, Node or MachineConfigPool is never
/// above the level oc's Update Health gives the same object (its insights' highest; none
/// when oc lists nothing for it): a built-in or known-issue rule may add what it knows, never
/// contradict oc. The finding keeps its
/// message, says oc's level, and records the level it would have had.
fn cap_at_oc_level(cx: &Context<'_>, health: Option<&Assessment>, f: &mut Finding) {
    if !capped(f) {
        return;
    }
    let Some(a) = health else {
        return; // oc could not assess these inputs: nothing to agree with
    };
    // oc's Update Health speaks of an update in progress. Not updating, it says nothing;
    // with a requested target not yet accepted, what blocks its acceptance (an operator's
    // Upgradeable=False, a mutated SCC) is not something Update Health judges.
    if !a.updating || super::pending::pending_target(cx.bundle, cx.timeline).is_some() {
        return;
    }
    let oc_level = a
        .insights
        .iter()
        .filter(|i| {
            i.resources
                .iter()
                .any(|r| r.kind == f.object.kind && r.name == f.object.name)
        })
        .map(|i| crate::rules::uh::severity_of(i.level))
        .max();
    let cap = oc_level.unwrap_or(Severity::Info);
    if f.severity > cap {
        f.details
            .insert("severity_before_oc_cap", f.severity.as_str());
        f.message.push_str(&match oc_level {
            Some(l) => format!(" (oc's Update Health rates this object {l})"),
            None => " (oc's Update Health lists nothing for this object)".to_string(),
        });
        f.severity = cap;
    }
}

/// Whether `f` is held to oc's level (see [`cap_at_oc_level`]): a warning or an error about
/// a ClusterOperator, Node or MachineConfigPool.
fn capped(f: &Finding) -> bool {
    matches!(
        f.object.kind.as_str(),
        "ClusterOperator" | "Node" | "MachineConfigPool"
    ) && f.severity != Severity::Info
}

/// Drops evidence that points at a place already cited (same file, line and text), keeping the
/// first label given.
fn dedup_evidence(items: &mut Vec<EvidenceItem>) {
    let mut out: Vec<EvidenceItem> = Vec::with_capacity(items.len());
    for e in items.drain(..) {
        match out.iter_mut().find(|o| {
            o.input == e.input && o.path == e.path && o.line == e.line && o.text == e.text
        }) {
            Some(o) => {
                if o.label.is_none() {
                    o.label = e.label;
                }
            }
            None => out.push(e),
        }
    }
    *items = out;
}

/// What the header says is missing: each absent group of the inputs an analysis rests on
/// (the ClusterVersion, ClusterOperators, the CVO log; a CI job's test logs and JUnit when
/// the input is a CI job) with the rules it stopped, most rules first, leaving out "A or B"
/// when A and B are each said missing already. Lesser inputs (alerts, events) are only in
/// the skipped rules' reasons.
fn absent_inputs(bundle: &Bundle, groups: Vec<(&[Input], Vec<Text>)>) -> Vec<AbsentInput> {
    let ci = bundle.prow.is_some() || bundle.inputs.iter().any(|i| i.ci_job);
    let alone: Vec<Input> = groups
        .iter()
        .filter_map(|(g, _)| match g {
            [one] => Some(*one),
            _ => None,
        })
        .collect();
    let mut out: Vec<AbsentInput> = groups
        .into_iter()
        .filter(|(g, _)| {
            g.iter().all(|i| match i {
                Input::ClusterVersion | Input::ClusterOperators | Input::CvoLog => true,
                Input::Junit | Input::CiTestLog => ci,
                _ => false,
            })
        })
        .filter(|(g, _)| g.len() == 1 || !g.iter().all(|i| alone.contains(i)))
        .map(|(g, rules)| AbsentInput {
            input: g
                .iter()
                .map(|i| i.describe())
                .collect::<Vec<_>>()
                .join(" or "),
            rules,
        })
        .collect();
    out.sort_by(|a, b| {
        b.rules
            .len()
            .cmp(&a.rules.len())
            .then(a.input.cmp(&b.input))
    });
    out
}

/// The facts the rules of `rules` that `selection` selects and `bundle` lets run declare.
fn needs(rules: &[&dyn Rule], bundle: &Bundle, selection: &Selection) -> Needs {
    let mut n = Needs::default();
    for meta in rules.iter().map(|r| r.meta()) {
        if selection.selects(meta) && meta.missing_inputs(bundle).is_none() {
            meta.facts.iter().for_each(|f| n.add(*f));
        }
    }
    n
}

/// Runs the rules selected by `settings` and builds the report: first the facts the rules
/// that can run declared (into `store`, where a fact already made is reused), then the
/// rules.
pub fn run(
    rules: &[&dyn Rule],
    bundle: &Bundle,
    timeline: &Timeline,
    store: &FactStore,
    settings: &Selection,
    rule_file_problems: &[super::known::RuleFileError],
) -> Report {
    use rayon::prelude::*;
    let facts = store.compute(bundle, timeline, needs(rules, bundle, settings));
    let cx = Context::new(bundle, timeline, facts, rule_file_problems);
    // The selected rules run on the pool, each reading the bundle, the timeline and its
    // facts alone; their results are taken in catalogue order, as when they ran one after
    // another.
    let mut results: Vec<(&MetaRef, Result<Vec<Finding>, String>)> = rules
        .par_iter()
        .filter(|rule| settings.selects(rule.meta()))
        .map(|rule| {
            let meta = rule.meta();
            if let Some(reason) = meta.missing_inputs(bundle) {
                return (meta, Err(reason));
            }
            let mut out = Vec::new();
            rule.check(&cx.for_rule(meta.facts), &mut out);
            for f in &mut out {
                dedup_evidence(&mut f.evidence);
            }
            (meta, Ok(out))
        })
        .collect();
    // Findings held to oc's level need oc's assessment: the one the rules read, else made
    // now (into the store), and only when some finding is held to it (most analyses have
    // none).
    let to_cap = |meta: &RuleMeta, out: &[Finding]| {
        meta.family != Family::UpdateHealth && out.iter().any(capped)
    };
    let any_capped = results
        .iter()
        .any(|(meta, r)| r.as_ref().is_ok_and(|out| to_cap(meta, out)));
    let health = if any_capped {
        store.assessment(bundle)
    } else {
        None
    };
    for (meta, result) in &mut results {
        let Ok(out) = result else { continue };
        if to_cap(meta, out) {
            for f in out.iter_mut() {
                cap_at_oc_level(&cx, health, f);
            }
        }
        out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        out.dedup_by(|a, b| a.sort_key() == b.sort_key());
    }
    let mut findings = Vec::new();
    let mut outcomes = Vec::new();
    let mut absent: Vec<(&[Input], Vec<Text>)> = Vec::new();
    for (meta, result) in results {
        match result {
            Err(reason) => {
                for group in meta.absent_groups(bundle) {
                    match absent.iter_mut().find(|(g, _)| *g == group) {
                        Some((_, rules)) => rules.push(meta.code.clone()),
                        None => absent.push((group, vec![meta.code.clone()])),
                    }
                }
                outcomes.push(RuleOutcome::new(meta, Status::Skipped, Some(reason), 0));
            }
            Ok(out) => {
                outcomes.push(RuleOutcome::new(meta, Status::Ran, None, out.len()));
                findings.extend(out);
            }
        }
    }
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    outcomes.sort_by(|a, b| a.code.cmp(&b.code));
    let mut summary = Counts::default();
    for f in &findings {
        match f.severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Info => summary.info += 1,
        }
    }
    summary.rules_ran = outcomes.iter().filter(|o| o.status == Status::Ran).count();
    summary.rules_skipped = outcomes.len() - summary.rules_ran;
    let mut inputs: Vec<ReportInput> = bundle
        .inputs
        .iter()
        .map(|i| ReportInput {
            name: i.name.clone(),
            kind: serde_json::to_value(i.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            files_read: i.files_read,
            must_gather_roots: i.must_gather_roots.clone(),
            insights_roots: i.insights_roots.clone(),
            label: i.kind_label(),
        })
        .collect();
    inputs.sort_by(|a, b| a.name.cmp(&b.name));
    let mut report = Report {
        schema: SCHEMA,
        tool: Tool::default(),
        cluster: bundle.identity(),
        inputs,
        input_errors: bundle.input_errors.clone(),
        absent: absent_inputs(bundle, absent),
        collected_at: cx.now(),
        fail_on: settings.fail_on,
        settings: ReportSettings {
            file: None,
            select: settings.select.clone(),
            ignore: settings.ignore.clone(),
        },
        unread: crate::bundle::unread_files(bundle),
        summary,
        findings,
        rules: outcomes,
        published_risks: facts.risks.map(<[_]>::to_vec).unwrap_or_default(),
        published_risks_commit: facts
            .catalogue
            .map(|c| c.commit.clone())
            .unwrap_or_default(),
    };
    // Secrets are masked where they enter the report, so no format can unmask them.
    report.mask_secrets();
    report
}
