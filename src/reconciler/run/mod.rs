//! Running a scenario: the engine that plays its events against the operator and the sync
//! worker ([`engine`]), the per-event trace ([`trace`]), the run's settings and outcome, and
//! the resulting ClusterVersion written as YAML or JSON. The top of the reconciler: it uses
//! the model, the worker and the scenario, and nothing below imports it.

pub mod engine;
pub mod trace;

use super::model::capabilities::CapabilitiesStatus;
use super::model::semantics::{self, Flavour, Semantics};
use super::scenario::expect::{self, Mismatch};
use super::scenario::{Scenario, TimedEvent};
use crate::model::ClusterVersion;
use trace::TraceStep;

/// Overrides applied on top of a scenario's own settings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunOptions {
    pub flavour: Option<Flavour>,
    pub history_fix: Option<bool>,
    /// Run for the result alone: no trace (each trace step copies and diffs the whole
    /// status, which a scenario of thousands of updates pays for every event).
    pub no_trace: bool,
}

/// The result of running a scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The final ClusterVersion (apiVersion, kind, metadata, spec, status).
    pub cluster_version: ClusterVersion,
    /// The final `status.capabilities` (4.11+), which the ClusterVersion type does not hold.
    pub capabilities: CapabilitiesStatus,
    pub trace: Vec<TraceStep>,
    /// Empty when the scenario has no `expect` or everything matched.
    pub expect_mismatches: Vec<Mismatch>,
    /// The behaviour that was modelled.
    pub semantics: Semantics,
    /// Remarks about the settings (for example a `cvo_version` the chosen flavour cannot have).
    pub notes: Vec<String>,
}

/// The behaviour a run models: the scenario's settings with the options applied.
pub fn semantics_for(s: &Scenario, opts: &RunOptions) -> (Semantics, Vec<String>) {
    let mut notes = Vec::new();
    let flavour = opts.flavour.unwrap_or(s.flavour);
    let mut minor = s
        .cvo_version
        .as_deref()
        .and_then(semantics::parse_cvo_minor);
    if let Some(m) = minor.filter(|m| !flavour.admits_minor(*m)) {
        notes.push(format!(
            "`cvo_version` {} cannot behave as the {} flavour; modelling {} instead",
            semantics::minor_label(m),
            flavour.as_str(),
            semantics::minor_label(flavour.default_minor())
        ));
        minor = None;
    }
    let mut sem = Semantics::new(flavour, minor);
    if let Some(p) = s.prune {
        sem.prune = p;
        sem.max_history = p.default_max();
    }
    if let Some(m) = s.max_history {
        sem.max_history = m.max(1);
    }
    sem.history_fix = opts.history_fix.or(s.history_fix).unwrap_or(true);
    for g in &s.feature_gates {
        if !sem.gates.enable(g) {
            notes.push(format!("unknown feature gate `{g}` ignored"));
        }
    }
    let reconciliation_gates = s
        .feature_gates
        .iter()
        .any(|g| g == "ReconciliationIssuesCondition" || g == "UnknownVersion");
    if reconciliation_gates && !sem.reconciliation_issues() {
        notes.push(format!(
            "feature gates have no effect on CVO {}: `ReconciliationIssues` exists in 4.16-4.19",
            semantics::minor_label(sem.minor)
        ));
    }
    (sem, notes)
}

/// Runs a scenario to its end.
pub fn run(s: &Scenario, opts: &RunOptions) -> Outcome {
    run_events(s, &s.events, opts)
}

/// Runs `events` from the settings and starting state of `s` (whose own events are not
/// read): one list of events run under several settings without a copy of it for each
/// (the replay runs a year of passes up to a dozen times).
pub fn run_events(s: &Scenario, events: &[TimedEvent], opts: &RunOptions) -> Outcome {
    let (sem, notes) = semantics_for(s, opts);
    let mut engine = engine::Engine::new(s, sem);
    let trace: Vec<TraceStep> = if opts.no_trace {
        events.iter().for_each(|ev| engine.advance(ev));
        Vec::new()
    } else {
        events
            .iter()
            .enumerate()
            .map(|(i, ev)| engine.step(i, ev))
            .collect()
    };
    let expect_mismatches = s
        .expect
        .as_ref()
        .map(|e| {
            expect::compare(
                e,
                &engine.cv,
                &engine.caps_status,
                &engine.worker_view(),
                engine.checks_run.as_deref(),
            )
        })
        .unwrap_or_default();
    Outcome {
        cluster_version: engine.cv,
        capabilities: engine.caps_status,
        trace,
        expect_mismatches,
        semantics: sem,
        notes,
    }
}

/// The resulting ClusterVersion could not be written out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot render `ClusterVersion` as {format}: {message}")]
pub struct RenderError {
    pub format: &'static str,
    pub message: String,
}

/// The ClusterVersion as YAML (what `mglint analyze` reads back).
pub fn render_yaml(cv: &ClusterVersion) -> Result<String, RenderError> {
    yaml_serde::to_string(cv).map_err(|e| RenderError {
        format: "YAML",
        message: e.to_string(),
    })
}

/// The ClusterVersion as pretty JSON.
pub fn render_json(cv: &ClusterVersion) -> Result<String, RenderError> {
    crate::vocab::escape::to_json(cv, true)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| RenderError {
            format: "JSON",
            message: e.to_string(),
        })
}
