//! Running a (derived) scenario under both flavours and both history-fix settings, comparing
//! each result with the dump's ClusterVersion field by field (history entries aligned from
//! the oldest, status.desired, observedGeneration, the computed conditions by type), and the
//! verdict: which settings the dump is consistent with, or the closest.

use super::field::{ConditionField, HistoryField, ReleaseField, StatusField};
use crate::model::{ClusterVersion, Condition, HistoryEntry, find_condition, fmt_k8s};
use crate::reconciler::semantics::{Flavour, parse_cvo_minor};
use crate::reconciler::{RunOptions, Scenario, run};

/// The conditions the model computes (inputs such as Upgradeable and RetrievedUpdates, and
/// ImplicitlyEnabledCapabilities, are not compared).
pub const COMPARED_CONDITIONS: [&str; 5] = [
    "Available",
    "Failing",
    "Progressing",
    "ReleaseAccepted",
    "Invalid",
];

/// One modelled CVO behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    pub flavour: Flavour,
    pub history_fix: bool,
}

impl Variant {
    /// The four settings, the correct CVO first.
    pub const ALL: [Variant; 4] = [
        Variant {
            flavour: Flavour::Fixed,
            history_fix: true,
        },
        Variant {
            flavour: Flavour::Fixed,
            history_fix: false,
        },
        Variant {
            flavour: Flavour::Legacy,
            history_fix: true,
        },
        Variant {
            flavour: Flavour::Legacy,
            history_fix: false,
        },
    ];

    /// `fixed, history fix on`.
    pub fn label(&self) -> String {
        let fix = if self.history_fix { "on" } else { "off" };
        format!("{}, history fix {fix}", self.flavour.as_str())
    }

    /// Who writes the model's values, for deviation messages.
    pub fn writer(&self) -> &'static str {
        match (self.flavour, self.history_fix) {
            (Flavour::Fixed, true) => "a correct CVO (fixed flavour, history fix on)",
            (Flavour::Fixed, false) => "a fixed CVO without the history fix",
            (Flavour::Legacy, true) => "a legacy CVO (4.1-4.10) with the history fix",
            (Flavour::Legacy, false) => "a legacy CVO without the history fix (Bug 1756461)",
        }
    }
}

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
    pub summary: String,
}

/// All four runs and the verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub runs: Vec<VariantRun>,
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

/// Runs `scenario` under the four settings and compares each result with `dump`.
pub fn check(scenario: &Scenario, dump: &ClusterVersion) -> Comparison {
    let minor = scenario.cvo_version.as_deref().and_then(parse_cvo_minor);
    let runs: Vec<VariantRun> = Variant::ALL
        .iter()
        .map(|v| {
            let mut s = scenario.clone();
            s.flavour = v.flavour;
            s.history_fix = Some(v.history_fix);
            s.cvo_version = minor.map(|m| format!("4.{}", modelled_minor(v.flavour, m)));
            s.expect = None;
            let out = run(&s, &RunOptions::default());
            VariantRun {
                variant: *v,
                cvo_version: s.cvo_version.clone(),
                deviations: compare(dump, &out.cluster_version),
                cluster_version: out.cluster_version,
                notes: out.notes,
            }
        })
        .collect();
    let verdict = verdict(&runs);
    Comparison { runs, verdict }
}

fn verdict(runs: &[VariantRun]) -> Verdict {
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
    Verdict {
        consistent,
        flavour,
        history_fix,
        closest,
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

struct Out(Vec<Deviation>);

impl Out {
    fn field(&mut self, field: StatusField, dump: &str, model: &str) {
        if dump != model {
            self.0.push(Deviation {
                field,
                dump: Some(dump.to_string()),
                model: Some(model.to_string()),
                timing: false,
            });
        }
    }
}

/// Every field where `model` differs from `dump`.
pub fn compare(dump: &ClusterVersion, model: &ClusterVersion) -> Vec<Deviation> {
    let mut out = Out(Vec::new());
    let (d, m) = (&dump.status.history, &model.status.history);
    for k in 0..d.len().max(m.len()) {
        let di = d.len().checked_sub(k + 1);
        let mi = m.len().checked_sub(k + 1);
        match (di, mi) {
            (Some(di), Some(mi)) => {
                let (a, b) = (&d[di], &m[mi]);
                let f = |n: HistoryField| StatusField::History(di, n);
                out.field(f(HistoryField::State), &a.state, &b.state);
                out.field(f(HistoryField::Version), &a.version, &b.version);
                out.field(f(HistoryField::Image), &a.image, &b.image);
                out.field(
                    f(HistoryField::StartedTime),
                    &time(a.started_time),
                    &time(b.started_time),
                );
                out.field(
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
            (Some(di), None) => out.0.push(Deviation {
                field: StatusField::HistoryEntry(di),
                dump: Some(entry(&d[di])),
                model: None,
                timing: false,
            }),
            (None, Some(mi)) => out.0.push(Deviation {
                field: StatusField::HistoryMissing,
                dump: None,
                model: Some(format!("history[{mi}] = {}", entry(&m[mi]))),
                timing: false,
            }),
            (None, None) => {}
        }
    }
    let (dd, md) = (&dump.status.desired, &model.status.desired);
    out.field(
        StatusField::Desired(ReleaseField::Version),
        &dd.version,
        &md.version,
    );
    out.field(
        StatusField::Desired(ReleaseField::Image),
        &dd.image,
        &md.image,
    );
    let g = |c: &ClusterVersion| {
        c.status
            .observed_generation
            .map_or_else(|| "none".into(), |g| g.to_string())
    };
    out.field(StatusField::ObservedGeneration, &g(dump), &g(model));
    for t in COMPARED_CONDITIONS {
        let a = find_condition(&dump.status.conditions, t);
        let b = find_condition(&model.status.conditions, t);
        match (a, b) {
            (Some(a), Some(b)) => {
                let f = |n: ConditionField| StatusField::Condition(t.to_string(), n);
                out.field(f(ConditionField::Status), &a.status, &b.status);
                out.field(f(ConditionField::Reason), &a.reason, &b.reason);
                out.field(f(ConditionField::Message), &a.message, &b.message);
                let (ta, tb) = (time(a.last_transition_time), time(b.last_transition_time));
                if a.status == b.status && ta != tb {
                    out.0.push(Deviation {
                        field: f(ConditionField::LastTransitionTime),
                        dump: Some(ta),
                        model: Some(tb),
                        timing: true,
                    });
                }
            }
            (a, b) if a.is_some() || b.is_some() => out.0.push(Deviation {
                field: StatusField::ConditionEntry(t.to_string()),
                dump: a.map(condition),
                model: b.map(condition),
                timing: false,
            }),
            _ => {}
        }
    }
    out.0
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
            cluster_version: model,
            notes: Vec::new(),
        };
        assert!(run.consistent());
        let v = verdict(&[run]);
        assert_eq!(
            (v.flavour, v.history_fix),
            (Some(Flavour::Fixed), Some(true))
        );
    }

    #[test]
    fn modelled_versions_stay_within_what_a_flavour_can_be() {
        assert_eq!(modelled_minor(Flavour::Fixed, 3), 11);
        assert_eq!(modelled_minor(Flavour::Fixed, 14), 14);
        assert_eq!(modelled_minor(Flavour::Legacy, 14), 10);
        assert_eq!(modelled_minor(Flavour::Legacy, 3), 3);
    }
}
