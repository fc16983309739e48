//! Rules: the engine (a [`Rule`] trait, a registry, selection by code or prefix, inputs each
//! rule needs), one file per rule grouped by family (CV ClusterVersion, CO ClusterOperator,
//! MC pools and nodes, LOG CVO log, CI CI artifacts, IN ingestion; RC is reserved for the
//! reference reconciler), the finding and report model every emitter reads, and each rule's
//! page (`rules/<CODE>-<slug>.md`, embedded). Known-issue rules (`KI…` bundled, `X-…` local)
//! are data, loaded from YAML by [`known`] and run by the same engine.
//!
//! ```no_run
//! # let bundle = mglint::bundle::Bundle::default();
//! let timeline = mglint::timeline::build(&bundle);
//! let selection = mglint::rules::Selection::default();
//! let report = mglint::rules::analyze(&bundle, &timeline, &selection);
//! std::process::exit(i32::from(report.exit_code()));
//! ```

#[macro_use]
mod declare;
mod ci;
mod co;
mod cv;
mod engine;
mod facts;
mod inp;
pub mod known;
mod mask;

mod log;
mod mc;
mod model;
mod pending;
mod rc;
mod registry;
mod selection;
pub(crate) mod uh;
mod util;

pub use engine::{Context, INSTALL_WINDOW, Input, Phase, Rule, RuleMeta};
pub use facts::{Fact, FactStore, Facts, Needs};
pub use model::*;
pub use registry::files as rule_files;
pub use selection::{RETIRED, Selection, UnknownSelector, successor};

use crate::bundle::Bundle;
use crate::timeline::Timeline;

/// Runs the rules selected by `settings` over a bundle and its timeline.
pub fn analyze(bundle: &Bundle, timeline: &Timeline, settings: &Selection) -> Report {
    analyze_with(bundle, timeline, &FactStore::default(), settings)
}

/// [`analyze`], with the caller's store of facts: the facts the selected rules declare are
/// made into it before they run, and a fact already in it is reused.
pub fn analyze_with(
    bundle: &Bundle,
    timeline: &Timeline,
    store: &FactStore,
    settings: &Selection,
) -> Report {
    engine::run(registry::all(), bundle, timeline, store, settings, &[])
}

/// [`analyze_with`], running the loaded known-issue rules after the built-in ones (and
/// reporting the rule files that could not be loaded, `IN003`).
pub fn analyze_known(
    bundle: &Bundle,
    timeline: &Timeline,
    store: &FactStore,
    settings: &Selection,
    known: &known::KnownSet,
) -> Report {
    let mut rules: Vec<&dyn Rule> = registry::all().to_vec();
    rules.extend(known.rules.iter().map(|r| &**r as &dyn Rule));
    engine::run(&rules, bundle, timeline, store, settings, &known.problems)
}

/// The report of a run that could not analyse anything (no input could be read): every
/// selected rule, built-in and loaded known-issue, is skipped with `reason`, so each output
/// still names every rule (a JUnit dashboard keeps its test history) and says why none ran.
pub fn not_run(settings: &Selection, known: &known::KnownSet, reason: &str) -> Report {
    let mut rules: Vec<&MetaRef> = registry::all().iter().map(|r| r.meta()).collect();
    rules.extend(known.rules.iter().map(|r| r.meta()));
    let mut outcomes: Vec<RuleOutcome> = rules
        .into_iter()
        .filter(|m| settings.selects(m))
        .map(|m| RuleOutcome::new(m, Status::Skipped, Some(format!("not run: {reason}")), 0))
        .collect();
    outcomes.sort_by(|a, b| a.code.cmp(&b.code));
    let mut report = Report {
        fail_on: settings.fail_on,
        ..Report::empty()
    };
    report.summary.rules_skipped = outcomes.len();
    report.rules = outcomes;
    report
}

/// Every built-in rule's declaration, in catalogue order.
pub fn catalogue() -> Vec<&'static RuleMeta> {
    registry::all().iter().map(|r| &**r.meta()).collect()
}

/// The built-in rules and the loaded known-issue rules (for `mglint rules`).
pub fn catalogue_with(known: &known::KnownSet) -> Vec<&RuleMeta> {
    let mut v = catalogue();
    v.extend(known.metas());
    v
}

/// A built-in rule's declaration by code (any case) or slug.
pub fn find(code: &str) -> Option<&'static RuleMeta> {
    find_in(catalogue(), code)
}

fn find_in<'a>(metas: impl IntoIterator<Item = &'a RuleMeta>, code: &str) -> Option<&'a RuleMeta> {
    let c = code.trim();
    metas
        .into_iter()
        .find(|m| m.code.eq_ignore_ascii_case(c) || m.name == c)
}

/// A rule's whole page (see [`RuleMeta::render_page`]), by code (any case) or slug: a
/// built-in rule or one of the `known` rules (a retired code explains its successor).
pub fn explain(code: &str, known: &known::KnownSet) -> Option<String> {
    let find = |c: &str| find_in(catalogue_with(known), c);
    if let Some(page) = find(code).map(RuleMeta::render_page) {
        return Some(page);
    }
    let new = selection::successor(code)?;
    let page = find(new)?.render_page();
    Some(format!(
        "`{}` was retired: `{new}` replaced it (its levels are oc's Update Health). \
         Selecting or ignoring `{}` applies to `{new}`.\n\n{page}",
        code.trim().to_ascii_uppercase(),
        code.trim().to_ascii_uppercase()
    ))
}

/// The catalogue as text: one rule a line (`mglint rules`).
pub fn render_catalogue_text() -> String {
    render_rules_text(&catalogue())
}

/// Rules as text: one rule a line.
pub fn render_rules_text(cat: &[&RuleMeta]) -> String {
    let mut s = String::new();
    for m in cat {
        s.push_str(&format!(
            "{:<7} {:<8} {:<40} {}\n",
            m.code,
            m.severity.to_string(),
            m.name,
            m.summary
        ));
    }
    s.push_str(&format!(
        "\n{} rules. `mglint explain CODE` prints a rule's page.\n",
        cat.len()
    ));
    s
}

/// The catalogue as JSON (`mglint/rules/v1`).
pub fn render_catalogue_json() -> String {
    render_rules_json(&catalogue())
}

/// Rules as JSON (`mglint/rules/v1`).
pub fn render_rules_json(cat: &[&RuleMeta]) -> String {
    let rows: Vec<_> = cat
        .iter()
        .map(|m| {
            serde_json::json!({"code": m.code, "name": m.name, "severity": m.severity, "summary": m.summary})
        })
        .collect();
    let doc =
        serde_json::json!({"schema": crate::vocab::schema::RULES, "kind": "rules", "rules": rows});
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}
