//! Checking a dump against the reference model: derive a scenario from what a bundle shows
//! ([`derive_scenario`]), run it in the fixed and legacy flavours with the Bug 1756461 history
//! fix on and off, compare each result with the dump's ClusterVersion, and say which setting
//! the dump is consistent with and every field where it deviates ([`replay`]). The derived
//! scenario is an ordinary scenario: written out, edited and re-run with `mglint reconcile`
//! (for example with `--flavour fixed`: "what would a fixed CVO have done here"), and
//! [`check`] reproduces the verdict from it.
//!
//! ```no_run
//! # let bundle = mglint::bundle::Bundle::default();
//! let tl = mglint::timeline::build(&bundle);
//! let r = mglint::reconciler::replay::replay(&bundle, &tl);
//! print!("{}", mglint::reconciler::replay::render_text(&r));
//! ```

mod basis;
mod compare;
mod completion;
mod cx;
mod derive;
mod field;
mod generation;
mod logevents;
mod logscan;
mod mask;
mod parse;
mod render;
mod requests;
mod state;
mod timing;
mod variant;
mod writer;

pub use basis::Basis;
pub use compare::{
    COMPARED_CONDITIONS, Comparison, Deviation, FieldComparison, GenerationRun, VariantRun,
    Verdict, check, compare, compare_fields,
};
pub use cx::{Inference, RejectedTarget};
pub use derive::{Derived, derive_scenario};
pub use field::{ConditionField, HistoryField, ReleaseField, StatusField};
pub use generation::{GENERATIONS, Generation};
pub use render::{render_json, render_text, scenario_yaml};
pub use timing::{CompletionTiming, CompletionWrite, Fit, RESYNC_MAX, STATUS_INTERVAL};
pub use variant::Variant;
pub use writer::Writer;

use crate::bundle::Bundle;
use crate::timeline::Timeline;

/// What replaying a bundle found.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayResult {
    /// The cluster replayed.
    pub cluster: crate::bundle::ClusterIdentity,
    /// The derived scenario (its flavour and history fix set to the verdict's, or the
    /// closest setting's) and what it rests on.
    pub derived: Derived,
    /// `None` when the bundle has no ClusterVersion to compare with, or when it was not
    /// compared ([`ReplayResult::skipped`] says why).
    pub comparison: Option<Comparison>,
    /// Why the ClusterVersion was not compared although there is one (a bound tripped).
    pub skipped: Option<String>,
    /// The inputs, as named.
    pub inputs: Vec<String>,
}

impl ReplayResult {
    pub fn verdict(&self) -> Option<&Verdict> {
        self.comparison.as_ref().map(|c| &c.verdict)
    }

    /// The run of one setting.
    pub fn run_of(&self, v: Variant) -> Option<&VariantRun> {
        self.comparison.as_ref().and_then(|c| c.run_of(v))
    }

    /// 0: consistent with some setting; 1: with none; 2: nothing to compare.
    pub fn exit_code(&self) -> u8 {
        match self.verdict() {
            Some(v) if !v.consistent.is_empty() => 0,
            Some(_) => 1,
            None => 2,
        }
    }
}

thread_local! {
    static RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many replays have run on this thread (instrumentation: the analysis shares one
/// replay between the RC rules and `mglint replay`; tests check it runs once).
pub fn runs_on_this_thread() -> u64 {
    RUNS.with(|r| r.get())
}

/// The longest history replayed: twice the most any CVO keeps (100 entries, the weighted
/// prune of 4.8+). Each step of a run compares the whole status, so a run costs time in
/// proportion to the history's length squared; a longer history was not written by a CVO
/// alone, and comparing it with one would only say so, slowly.
pub const MAX_REPLAYED_HISTORY: usize = 200;

/// Derives a scenario from the bundle and checks the newest ClusterVersion against it.
pub fn replay(bundle: &Bundle, timeline: &Timeline) -> ReplayResult {
    RUNS.with(|r| r.set(r.get() + 1));
    let mut derived = derive_scenario(bundle, timeline);
    let mut skipped = None;
    let comparison = bundle.cluster_version().and_then(|cv| {
        let n = cv.value.status.history.len();
        if n > MAX_REPLAYED_HISTORY {
            skipped = Some(format!(
                "the ClusterVersion's history has {n} entries, more than any CVO keeps (100); not compared (the replay bound is {MAX_REPLAYED_HISTORY} entries)"
            ));
            return None;
        }
        Some(check(&derived.scenario, &cv.value))
    });
    if let Some(c) = &comparison {
        let v = &c.verdict;
        derived.scenario.flavour = v.flavour.unwrap_or(v.closest.flavour);
        derived.scenario.history_fix = Some(v.history_fix.unwrap_or(v.closest.history_fix));
    }
    let mut result = ReplayResult {
        cluster: bundle.identity(),
        derived,
        comparison,
        skipped,
        inputs: bundle.inputs.iter().map(|i| i.name.clone()).collect(),
    };
    crate::vocab::secrets::Masked::mask_secrets(&mut result);
    result
}
