//! Reference model of how the Cluster Version Operator computes ClusterVersion status
//! (../shared/spec/cvo-reference.md): the sync worker, the load pipeline and preconditions as
//! scripted outcomes, history merging and pruning, and the conditions with their exact
//! wording, in the fixed (4.11+) and legacy (4.1-4.10) flavours. A [`Scenario`] (YAML or
//! built in Rust) is run into a ClusterVersion object, a per-event trace and the mismatches
//! against the scenario's expectations.
//!
//! Split by job, each part using only those before it: [`model`] (the CVO's computations),
//! [`worker`] (the sync worker, its state in the leaf [`worker::state`]), [`scenario`] (the
//! format and its expectations), [`run`](mod@run) (the engine and the trace), and [`replay`](mod@replay) (a
//! bundle's ClusterVersion checked against the model).
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use mglint::reconciler::{RunOptions, load_scenario, render_trace, render_yaml, run};
//! let s = load_scenario(&std::fs::read_to_string("fixtures/scenarios/tv02-install-complete-reconcile.yaml").map_err(|e| e.to_string())?)?;
//! let out = run(&s, &RunOptions::default());
//! print!("{}{}", render_yaml(&out.cluster_version)?, render_trace(&out.trace));
//! # Ok(()) }
//! ```

pub mod model;
pub mod replay;
pub mod run;
pub mod scenario;
pub mod worker;

pub use model::semantics::{Flavour, PruneVariant, Semantics};
pub use replay::{ReplayResult, derive_scenario, replay};
pub use run::trace::{Change, TraceStep, render_trace};
pub use run::{
    Outcome, RenderError, RunOptions, render_json, render_yaml, run, run_events, semantics_for,
};
pub use scenario::expect::{Expect, Mismatch, render_mismatches};
pub use scenario::{Event, Scenario, ScenarioError, TimedEvent, load_scenario};
