//! Rules: the engine (a [`Rule`] trait, a registry, selection by code or prefix, inputs each
//! rule needs), one file per rule grouped by family (CV ClusterVersion, CO ClusterOperator,
//! MC pools and nodes, LOG CVO log, CI CI artifacts, IN ingestion; RC is reserved for the
//! reference reconciler), the finding and report model every emitter reads, and each rule's
//! page (`rules/<CODE>-<slug>.md`, embedded).
//!
//! ```no_run
//! # let bundle = mglint::bundle::Bundle::default();
//! let timeline = mglint::timeline::build(&bundle);
//! let settings = mglint::rules::Settings::default();
//! let report = mglint::rules::analyze(&bundle, &timeline, &settings);
//! std::process::exit(i32::from(report.exit_code()));
//! ```

mod ci;
mod co;
mod cv;
mod engine;
mod inp;

mod log;
mod mc;
mod model;
mod rc;
mod registry;
mod settings;
mod util;

pub use engine::{Context, Input, Rule, RuleMeta};
pub use model::*;
pub use settings::{CONFIG_FILE, Settings};

use crate::bundle::Bundle;
use crate::timeline::Timeline;

/// Runs the rules selected by `settings` over a bundle and its timeline.
pub fn analyze(bundle: &Bundle, timeline: &Timeline, settings: &Settings) -> Report {
    engine::run(registry::all(), bundle, timeline, settings)
}

/// Every rule's declaration, in catalogue order (for `mglint rules`).
pub fn catalogue() -> Vec<&'static RuleMeta> {
    registry::all().iter().map(|r| r.meta()).collect()
}

/// A rule's page (Markdown with front matter), by code (any case) or slug.
pub fn explain(code: &str) -> Option<&'static str> {
    let c = code.trim();
    catalogue()
        .into_iter()
        .find(|m| m.code.eq_ignore_ascii_case(c) || m.name == c)
        .map(|m| m.page)
}
