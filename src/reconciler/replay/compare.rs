//! Running a (derived) scenario under both flavours and both history-fix settings, and as
//! each CVO generation, comparing each result with the dump's ClusterVersion field by field
//! (history entries aligned from the oldest, status.desired, observedGeneration, the computed
//! conditions by type), and the verdict: which settings and generations the dump is
//! consistent with, or the closest. A field the dump does not have (a partial transcription,
//! an object without conditions) is unknown: counted, never a deviation.

use super::field::{ConditionField, HistoryField, ReleaseField, StatusField};
use super::generation::{GENERATIONS, Generation};
use super::variant::Variant;
use crate::model::{ClusterVersion, Condition, HistoryEntry, find_condition, fmt_k8s};
use crate::reconciler::model::semantics::{Flavour, minor_label, parse_cvo_minor};
use crate::reconciler::{RunOptions, Scenario, run_events};

/// The conditions the model computes (inputs such as Upgradeable and RetrievedUpdates, and
/// ImplicitlyEnabledCapabilities, are not compared).
pub const COMPARED_CONDITIONS: [&str; 5] = [
    "Available",
    "Failing",
    "Progressing",
    "ReleaseAccepted",
    "Invalid",
];

/// One field where the dump and the model differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deviation {
    /// Relative to `status`: `history[2].completionTime`, `desired.image`,
    /// `conditions[Failing].reason`, `observedGeneration`; `history[1]` for a dump entry the
    /// model does not write, `history` for a model entry the dump lacks.
    pub field: StatusField,
    /// `None`: the dump has no such entry or condition.
    pub dump: Option<String>,
    /// `None`: the model writes no such entry or condition.
    pub model: Option<String>,
    /// A condition's lastTransitionTime: reported, but not used for the verdict (the
    /// derivation dates few condition changes exactly).
    pub timing: bool,
}

impl Deviation {
    /// `history[1].completionTime: dump 2019-09-27T21:45:59Z, a correct CVO (…) would have
    /// written 2019-09-27T21:41:05Z`.
    pub fn describe(&self, v: &Variant) -> String {
        let who = v.writer();
        let shown = |s: &Option<String>| {
            s.as_ref().map(|s| {
                if s.is_empty() {
                    "\"\"".to_string()
                } else {
                    s.clone()
                }
            })
        };
        match (shown(&self.dump), shown(&self.model)) {
            (Some(d), Some(m)) => format!("{}: dump {d}, {who} would have written {m}", self.field),
            (Some(d), None) => format!("{}: dump {d}, {who} would not have written it", self.field),
            (None, Some(m)) => format!(
                "{}: dump has none, {who} would have written {m}",
                self.field
            ),
            (None, None) => self.field.to_string(),
        }
    }
}

/// One run of the scenario and how it compares.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantRun {
    pub variant: Variant,
    /// The CVO version modelled (`4.N`), nearest to the dump's that the flavour can have.
    pub cvo_version: Option<String>,
    pub deviations: Vec<Deviation>,
    /// Fields compared (both sides known); condition transition times are not counted.
    pub compared: usize,
    /// Fields the dump does not have, so not compared.
    pub unknown: usize,
    pub cluster_version: ClusterVersion,
    pub notes: Vec<String>,
}

impl VariantRun {
    /// Deviations that count for the verdict.
    pub fn core(&self) -> impl Iterator<Item = &Deviation> {
        self.deviations.iter().filter(|d| !d.timing)
    }
    pub fn consistent(&self) -> bool {
        self.core().next().is_none()
    }
    /// Compared fields where the dump and the model agree.
    pub fn agree(&self) -> usize {
        self.compared.saturating_sub(self.core().count())
    }
    /// `412 of 414 fields agree`.
    pub fn agreement(&self) -> String {
        let mut s = format!("{} of {} fields agree", self.agree(), self.compared);
        if self.unknown > 0 {
            s.push_str(&format!(", {} not in the dump", self.unknown));
        }
        s
    }
}

/// One CVO generation modelled against the dump: each setting it can have, at the minor
/// nearest the dump's writer.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerationRun {
    pub generation: Generation,
    /// The CVO minor it is modelled as.
    pub minor: u32,
    /// One run per setting the generation admits (see [`Generation::settings`]).
    pub runs: Vec<VariantRun>,
}

impl GenerationRun {
    /// The setting that fits the dump best.
    pub fn best(&self) -> Option<&VariantRun> {
        self.runs
            .iter()
            .enumerate()
            .min_by_key(|(i, r)| (r.core().count(), r.deviations.len(), *i))
            .map(|(_, r)| r)
    }
    pub fn consistent(&self) -> bool {
        self.runs.iter().any(VariantRun::consistent)
    }
}

/// Which settings the dump is consistent with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub consistent: Vec<Variant>,
    /// The one flavour every consistent setting has (`None`: none or both).
    pub flavour: Option<Flavour>,
    /// The one history-fix setting every consistent setting has (`None`: none or either).
    pub history_fix: Option<bool>,
    /// The consistent setting, or the one with the fewest deviations.
    pub closest: Variant,
    /// The CVO generations the dump is consistent with (labels, oldest first).
    pub generations: Vec<&'static str>,
    pub summary: String,
}

/// All four runs, the generation runs and the verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub runs: Vec<VariantRun>,
    pub generations: Vec<GenerationRun>,
    pub verdict: Verdict,
}

impl Comparison {
    pub fn run_of(&self, v: Variant) -> Option<&VariantRun> {
        self.runs.iter().find(|r| r.variant == v)
    }
}

/// The CVO minor a flavour models for a dump written by 4.`m`: the same when it can, else
/// the nearest it can have (4.11 for fixed, 4.10 for legacy).
fn modelled_minor(flavour: Flavour, m: u32) -> u32 {
    match flavour {
        Flavour::Fixed if m < 10 => 11,
        Flavour::Legacy if m > 10 => 10,
        _ => m,
    }
}

/// The settings and starting state of `scenario` as one setting at one CVO minor, without
/// its events, expectations or description (a run reads none of them). Every field is
/// named, so a field added to [`Scenario`] must be decided on here.
fn setting(scenario: &Scenario, v: Variant, minor: Option<u32>) -> Scenario {
    let Scenario {
        description: _,
        flavour: _,
        cvo_version: _,
        history_fix: _,
        prune,
        max_history,
        operator_release,
        initial_generation,
        initial_spec,
        initial_status,
        events: _,
        expect: _,
        capabilities,
        feature_gates,
        source,
        status_notifier,
        worker_initialized,
        cluster,
    } = scenario;
    Scenario {
        description: String::new(),
        flavour: v.flavour,
        cvo_version: minor.map(minor_label),
        history_fix: Some(v.history_fix),
        prune: *prune,
        max_history: *max_history,
        operator_release: operator_release.clone(),
        initial_generation: *initial_generation,
        initial_spec: initial_spec.clone(),
        initial_status: initial_status.clone(),
        events: Vec::new(),
        expect: None,
        capabilities: capabilities.clone(),
        feature_gates: feature_gates.clone(),
        source: source.clone(),
        status_notifier: *status_notifier,
        worker_initialized: *worker_initialized,
        cluster: cluster.clone(),
    }
}

/// Runs `scenario` as one setting at one CVO minor and compares the result with `dump`.
fn run_as(
    scenario: &Scenario,
    dump: &ClusterVersion,
    v: Variant,
    minor: Option<u32>,
) -> VariantRun {
    let s = setting(scenario, v, minor);
    // The replay compares results only: no trace. The events are read where they are (a
    // copy of a year of passes per run would be megabytes each, two runs at once).
    let out = run_events(
        &s,
        &scenario.events,
        &RunOptions {
            no_trace: true,
            ..RunOptions::default()
        },
    );
    let c = compare_fields(dump, &out.cluster_version);
    VariantRun {
        variant: v,
        cvo_version: s.cvo_version.clone(),
        deviations: c.deviations,
        compared: c.compared,
        unknown: c.unknown,
        cluster_version: out.cluster_version,
        notes: out.notes,
    }
}

/// Runs `scenario` under the four settings and as each CVO generation, and compares each
/// result with `dump`.
///
/// Every distinct run (a setting at a minor) is made once, the runs in parallel on the
/// current pool: a year of steady passes is tens of thousands of events, run up to a dozen
/// times. The caller must not hold a lock that a job of the pool could wait for (the
/// rules' engine replays before it runs its rules, not from within one).
pub fn check(scenario: &Scenario, dump: &ClusterVersion) -> Comparison {
    use rayon::prelude::*;
    let minor = scenario.cvo_version.as_deref().and_then(parse_cvo_minor);
    // The four settings first (as the writer's minor allows each), then what each
    // generation adds: a setting at a minor no run before has.
    let mut wanted: Vec<(Variant, Option<u32>)> = Variant::ALL
        .iter()
        .map(|v| (*v, minor.map(|m| modelled_minor(v.flavour, m))))
        .collect();
    // Each generation's settings, as indices into `wanted`.
    let per_generation: Vec<(&Generation, u32, Vec<usize>)> = GENERATIONS
        .iter()
        .map(|g| {
            let m = g.modelled_minor(minor);
            let at = g
                .settings(m)
                .into_iter()
                .map(|v| {
                    let run = (v, Some(m));
                    wanted.iter().position(|w| *w == run).unwrap_or_else(|| {
                        wanted.push(run);
                        wanted.len() - 1
                    })
                })
                .collect();
            (g, m, at)
        })
        .collect();
    let mut all: Vec<VariantRun> = wanted
        .par_iter()
        .map(|(v, m)| run_as(scenario, dump, *v, *m))
        .collect();
    let generations: Vec<GenerationRun> = per_generation
        .into_iter()
        .map(|(g, m, at)| GenerationRun {
            generation: *g,
            minor: m,
            runs: at.into_iter().map(|i| all[i].clone()).collect(),
        })
        .collect();
    all.truncate(Variant::ALL.len());
    let runs = all;
    let verdict = verdict(&runs, &generations);
    Comparison {
        runs,
        generations,
        verdict,
    }
}

fn verdict(runs: &[VariantRun], generations: &[GenerationRun]) -> Verdict {
    let consistent: Vec<Variant> = runs
        .iter()
        .filter(|r| r.consistent())
        .map(|r| r.variant)
        .collect();
    let common = |f: &dyn Fn(&Variant) -> bool| -> Option<bool> {
        let first = f(consistent.first()?);
        consistent.iter().all(|v| f(v) == first).then_some(first)
    };
    let fixed = common(&|v| v.flavour == Flavour::Fixed);
    let flavour = fixed.map(|f| if f { Flavour::Fixed } else { Flavour::Legacy });
    let history_fix = common(&|v| v.history_fix);
    let closest = runs
        .iter()
        .enumerate()
        .min_by_key(|(i, r)| (r.core().count(), r.deviations.len(), *i))
        .map_or(Variant::ALL[0], |(_, r)| r.variant);
    let summary = if consistent.is_empty() {
        let n = runs
            .iter()
            .find(|r| r.variant == closest)
            .map_or(0, |r| r.core().count());
        format!(
            "consistent with neither flavour; closest: {} ({n} deviation{})",
            closest.label(),
            if n == 1 { "" } else { "s" }
        )
    } else {
        let fl = match flavour {
            Some(Flavour::Fixed) => "the fixed flavour (4.11+)",
            Some(Flavour::Legacy) => "the legacy flavour (4.1-4.10)",
            None => "both flavours",
        };
        let fix = match history_fix {
            Some(true) => ", history fix on".to_string(),
            Some(false) => ", history fix off (Bug 1756461)".to_string(),
            None => "; the dump does not show whether the history fix was in".to_string(),
        };
        format!("consistent with {fl}{fix}")
    };
    let gens: Vec<&'static str> = generations
        .iter()
        .filter(|g| g.consistent())
        .map(|g| g.generation.label)
        .collect();
    let summary = match gens.as_slice() {
        [] if generations.is_empty() => summary,
        [] => format!("{summary}; no CVO generation fits every field"),
        [one] => format!("{summary}; CVO generation {one}"),
        many => format!("{summary}; CVO generations {}", many.join(", ")),
    };
    Verdict {
        consistent,
        flavour,
        history_fix,
        closest,
        generations: gens,
        summary,
    }
}

fn time(t: Option<crate::model::Time>) -> String {
    t.map_or_else(|| "null".to_string(), |t| fmt_k8s(&t))
}

fn entry(h: &HistoryEntry) -> String {
    format!(
        "{} `{}` {} → {}",
        if h.state.is_empty() {
            "(no state)"
        } else {
            &h.state
        },
        h.label(),
        time(h.started_time),
        time(h.completion_time)
    )
}

fn condition(c: &Condition) -> String {
    let mut s = c.status.clone();
    if !c.reason.is_empty() {
        s.push_str(&format!(" ({})", c.reason));
    }
    if !c.message.is_empty() {
        s.push_str(&format!(": {}", c.message));
    }
    s
}

/// What comparing two ClusterVersions found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldComparison {
    pub deviations: Vec<Deviation>,
    /// Fields compared (both sides known), condition transition times not counted.
    pub compared: usize,
    /// Fields the dump does not have.
    pub unknown: usize,
}

impl FieldComparison {
    fn field(&mut self, field: StatusField, dump: &str, model: &str) {
        self.compared += 1;
        if dump != model {
            self.deviations.push(Deviation {
                field,
                dump: Some(dump.to_string()),
                model: Some(model.to_string()),
                timing: false,
            });
        }
    }

    /// A field compared only when the dump has it.
    fn known(&mut self, known: bool, field: StatusField, dump: &str, model: &str) {
        match known {
            true => self.field(field, dump, model),
            false => self.unknown += 1,
        }
    }

    fn entry(&mut self, d: Deviation) {
        self.compared += 1;
        self.deviations.push(d);
    }
}

/// Every field where `model` differs from `dump`.
pub fn compare(dump: &ClusterVersion, model: &ClusterVersion) -> Vec<Deviation> {
    compare_fields(dump, model).deviations
}

/// Compares `model` with `dump` field by field. What a CVO always writes but the dump lacks
/// (observedGeneration, `status.desired`, conditions, history, an entry's state, image or
/// start, a superseded or Completed entry's completionTime) is unknown, not a deviation.
pub fn compare_fields(dump: &ClusterVersion, model: &ClusterVersion) -> FieldComparison {
    let mut out = FieldComparison::default();
    history(&mut out, &dump.status.history, &model.status.history);
    let (dd, md) = (&dump.status.desired, &model.status.desired);
    let has_desired = !dd.version.is_empty() || !dd.image.is_empty();
    let force = |r: &crate::model::Release| r.force.map_or("absent".to_string(), |f| f.to_string());
    out.known(
        has_desired,
        StatusField::Desired(ReleaseField::Version),
        &dd.version,
        &md.version,
    );
    out.known(
        has_desired,
        StatusField::Desired(ReleaseField::Image),
        &dd.image,
        &md.image,
    );
    // `force` is part of status.desired up to 4.5 only: its absence in a written desired is
    // what a 4.6+ CVO writes.
    out.known(
        has_desired,
        StatusField::Desired(ReleaseField::Force),
        &force(dd),
        &force(md),
    );
    let g = |c: &ClusterVersion| {
        c.status
            .observed_generation
            .map_or_else(|| "none".into(), |g| g.to_string())
    };
    out.known(
        dump.status.observed_generation.is_some(),
        StatusField::ObservedGeneration,
        &g(dump),
        &g(model),
    );
    let has_conditions = ["Available", "Failing", "Progressing"]
        .iter()
        .any(|t| find_condition(&dump.status.conditions, t).is_some());
    for t in COMPARED_CONDITIONS {
        let a = find_condition(&dump.status.conditions, t);
        let b = find_condition(&model.status.conditions, t);
        if !has_conditions {
            out.unknown += usize::from(b.is_some());
            continue;
        }
        match (a, b) {
            (Some(a), Some(b)) => {
                let f = |n: ConditionField| StatusField::Condition(t.to_string(), n);
                out.field(f(ConditionField::Status), &a.status, &b.status);
                out.field(f(ConditionField::Reason), &a.reason, &b.reason);
                out.field(f(ConditionField::Message), &a.message, &b.message);
                let (ta, tb) = (time(a.last_transition_time), time(b.last_transition_time));
                if a.status == b.status && ta != tb && a.last_transition_time.is_some() {
                    out.deviations.push(Deviation {
                        field: f(ConditionField::LastTransitionTime),
                        dump: Some(ta),
                        model: Some(tb),
                        timing: true,
                    });
                }
            }
            (a, b) if a.is_some() || b.is_some() => out.entry(Deviation {
                field: StatusField::ConditionEntry(t.to_string()),
                dump: a.map(condition),
                model: b.map(condition),
                timing: false,
            }),
            _ => {}
        }
    }
    out
}

/// History entries aligned from the oldest.
fn history(out: &mut FieldComparison, d: &[HistoryEntry], m: &[HistoryEntry]) {
    if d.is_empty() {
        // No history in the dump: a transcription without it, not a CVO that wrote none.
        out.unknown += m.len();
        return;
    }
    for k in 0..d.len().max(m.len()) {
        let di = d.len().checked_sub(k + 1);
        let mi = m.len().checked_sub(k + 1);
        match (di, mi) {
            (Some(di), Some(mi)) => {
                let (a, b) = (&d[di], &m[mi]);
                let f = |n: HistoryField| StatusField::History(di, n);
                out.known(
                    !a.state.is_empty(),
                    f(HistoryField::State),
                    &a.state,
                    &b.state,
                );
                out.field(f(HistoryField::Version), &a.version, &b.version);
                out.known(
                    !a.image.is_empty(),
                    f(HistoryField::Image),
                    &a.image,
                    &b.image,
                );
                out.known(
                    a.started_time.is_some(),
                    f(HistoryField::StartedTime),
                    &time(a.started_time),
                    &time(b.started_time),
                );
                // A CVO always dates a Completed or superseded entry: a missing time there is
                // a field the dump lacks; only the newest Partial entry has a real null.
                let completion_known =
                    a.completion_time.is_some() || (di == 0 && !a.is_completed());
                out.known(
                    completion_known,
                    f(HistoryField::CompletionTime),
                    &time(a.completion_time),
                    &time(b.completion_time),
                );
                out.field(
                    f(HistoryField::Verified),
                    &a.verified.to_string(),
                    &b.verified.to_string(),
                );
            }
            (Some(di), None) => out.entry(Deviation {
                field: StatusField::HistoryEntry(di),
                dump: Some(entry(&d[di])),
                model: None,
                timing: false,
            }),
            (None, Some(mi)) => out.entry(Deviation {
                field: StatusField::HistoryMissing,
                dump: None,
                model: Some(format!("history[{mi}] = {}", entry(&m[mi]))),
                timing: false,
            }),
            (None, None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{HistoryEntry, parse_rfc3339};

    fn entry(state: &str, version: &str, start: &str, end: Option<&str>) -> HistoryEntry {
        HistoryEntry {
            state: state.into(),
            version: version.into(),
            image: format!("quay.io/x:{version}"),
            started_time: parse_rfc3339(start),
            completion_time: end.and_then(parse_rfc3339),
            ..Default::default()
        }
    }

    fn cv(history: Vec<HistoryEntry>) -> ClusterVersion {
        let mut c = ClusterVersion::default();
        c.status.history = history;
        c
    }

    #[test]
    fn history_is_aligned_from_the_oldest_entry() {
        let install = entry(
            "Completed",
            "4.3.10",
            "2020-04-09T17:35:48Z",
            Some("2020-04-09T18:00:34Z"),
        );
        let target = entry("Partial", "4.3.11", "2020-04-09T18:27:49Z", None);
        let dump = cv(vec![target, install.clone()]);
        let model = cv(vec![install]);
        let d = compare(&dump, &model);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].field.to_string(), "history[0]");
        assert_eq!(d[0].model, None);
        assert!(
            d[0].dump
                .as_deref()
                .is_some_and(|s| s.starts_with("Partial `4.3.11` 2020-04-09T18:27:49Z"))
        );
        // The other way round: the model writes an entry the dump lacks.
        let d = compare(&model, &dump);
        assert_eq!(
            (d[0].field.to_string().as_str(), d[0].dump.as_deref()),
            ("history", None)
        );
        assert!(
            d[0].model
                .as_deref()
                .is_some_and(|s| s.starts_with("history[0] = Partial"))
        );
    }

    #[test]
    fn transition_times_do_not_decide_the_verdict() {
        let mut dump = cv(Vec::new());
        let c = |t: &str| Condition {
            type_: "Available".into(),
            status: "True".into(),
            message: "Done applying 4.14.8".into(),
            last_transition_time: parse_rfc3339(t),
            ..Default::default()
        };
        dump.status.conditions.push(c("2024-01-02T09:41:20Z"));
        let mut model = dump.clone();
        model.status.conditions[0] = c("2024-01-16T11:05:41Z");
        let d = compare(&dump, &model);
        assert_eq!(d.len(), 1);
        assert!(d[0].timing);
        let run = VariantRun {
            variant: Variant::ALL[0],
            cvo_version: None,
            deviations: d,
            compared: 3,
            unknown: 0,
            cluster_version: model,
            notes: Vec::new(),
        };
        assert!(run.consistent());
        assert_eq!(run.agreement(), "3 of 3 fields agree");
        let v = verdict(&[run], &[]);
        assert_eq!(
            (v.flavour, v.history_fix),
            (Some(Flavour::Fixed), Some(true))
        );
    }

    #[test]
    fn fields_a_partial_transcription_lacks_are_unknown_not_deviations() {
        // A history-only transcription: no observedGeneration, desired or conditions, and a
        // superseded entry whose completionTime was left out.
        let done = entry(
            "Completed",
            "4.14.7",
            "2024-01-02T09:12:55Z",
            Some("2024-01-02T09:41:20Z"),
        );
        let next = entry(
            "Completed",
            "4.14.8",
            "2024-01-16T10:21:14Z",
            Some("2024-01-16T11:05:41Z"),
        );
        let mut lacking = done.clone();
        lacking.completion_time = None;
        let dump = cv(vec![next.clone(), lacking]);
        let mut model = cv(vec![next, done]);
        model.status.observed_generation = Some(4);
        model.status.desired.version = "4.14.8".into();
        model.status.desired.image = "quay.io/x:4.14.8".into();
        model.status.conditions.push(Condition {
            type_: "Available".into(),
            status: "True".into(),
            message: "Done applying 4.14.8".into(),
            ..Default::default()
        });
        let c = compare_fields(&dump, &model);
        assert_eq!(c.deviations, Vec::new());
        // desired (3), observedGeneration, Available, history[1].completionTime.
        assert_eq!(c.unknown, 6);
        assert_eq!(c.compared, 11, "every other field of both entries");
        // The same entry with the time written differently is a deviation.
        let mut wrong = dump.clone();
        wrong.status.history[1].completion_time = parse_rfc3339("2024-01-02T09:50:00Z");
        let d = compare(&wrong, &model);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].field.to_string(), "history[1].completionTime");
    }

    #[test]
    fn deviations_order_by_position_with_numeric_history_indexes() {
        let mut fields = [
            StatusField::ObservedGeneration,
            StatusField::History(10, HistoryField::State),
            StatusField::Condition("Available".into(), ConditionField::Message),
            StatusField::History(2, HistoryField::CompletionTime),
            StatusField::History(2, HistoryField::State),
            StatusField::HistoryEntry(11),
        ];
        fields.sort();
        let shown: Vec<String> = fields.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "history[2].state",
                "history[2].completionTime",
                "history[10].state",
                "history[11]",
                "observedGeneration",
                "conditions[Available].message"
            ]
        );
    }

    /// Each setting runs the scenario's events in place, from its settings alone: the same
    /// outcome as a whole copy of the scenario with the setting written into it (what the
    /// replay ran before), on the scenarios of the conformance suite.
    #[test]
    fn a_setting_runs_the_events_in_place_as_a_copy_with_the_setting_would() {
        use crate::reconciler::{load_scenario, run};
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/scenarios");
        let mut seen = 0;
        for name in [
            "seed-1756461-4.1.18-4.1.20-4.1.18.yaml",
            "seed-1822752-blocked-4.3.11-then-return.yaml",
            "fixed-4.14.1-degraded-operators-wait-exceeded.yaml",
            "cvo-5.0-accepted-risks-alerts-and-gated-capabilities.yaml",
        ] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let scenario = load_scenario(&text).unwrap();
            assert!(scenario.events.len() > 1, "{name}");
            for v in Variant::ALL {
                for minor in [None, Some(3), Some(10), Some(14)] {
                    let mut copy = scenario.clone();
                    copy.flavour = v.flavour;
                    copy.history_fix = Some(v.history_fix);
                    copy.cvo_version = minor.map(minor_label);
                    copy.expect = None;
                    let opts = RunOptions {
                        no_trace: true,
                        ..RunOptions::default()
                    };
                    let before = run(&copy, &opts);
                    let s = setting(&scenario, v, minor);
                    assert!(s.events.is_empty() && s.expect.is_none());
                    let now = run_events(&s, &scenario.events, &opts);
                    assert_eq!(now, before, "{name} {v:?} {minor:?}");
                    seen += 1;
                }
            }
        }
        assert_eq!(seen, 4 * 4 * 4);
    }

    #[test]
    fn modelled_versions_stay_within_what_a_flavour_can_be() {
        assert_eq!(modelled_minor(Flavour::Fixed, 3), 11);
        assert_eq!(modelled_minor(Flavour::Fixed, 14), 14);
        assert_eq!(modelled_minor(Flavour::Legacy, 14), 10);
        assert_eq!(modelled_minor(Flavour::Legacy, 3), 3);
    }
}
