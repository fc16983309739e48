//! Every rule on its own fixtures: it runs (inputs present) and reports on `fail/`, and runs
//! and stays silent on `pass/`. The failing findings are snapshotted (one file per rule), as
//! the JSON model and as the human text at width 80 without colour.

use crate::common;
use mglint::ingest::{IngestOptions, ingest};
use mglint::rules::{Finding, Report, Selection, Status, analyze, catalogue};
use std::path::Path;

/// Every top-level entry of a fixture directory is one input (paths relative to the crate).
fn inputs(rel: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let mut v: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
        .map(|e| format!("{rel}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    v.sort();
    v
}

fn run(code: &str, kind: &str) -> Report {
    let rel = format!("fixtures/rules/{code}/{kind}");
    common::report(&inputs(&rel), &[code])
}

/// One rule on its fixtures: it runs (inputs present) and reports on `fail/`, with evidence,
/// and runs and stays silent on `pass/`; the failing findings are snapshotted.
fn check_rule(code: &str) {
    let m = catalogue()
        .into_iter()
        .find(|m| m.code == code)
        .unwrap_or_else(|| panic!("no rule {code}"));
    let mut problems = Vec::new();
    for kind in ["fail", "pass"] {
        let r = run(&m.code, kind);
        let outcome = r.outcome(&m.code).expect("selected rule has an outcome");
        if outcome.status != Status::Ran {
            problems.push(format!("{} {kind}: skipped ({:?})", m.code, outcome.reason));
            continue;
        }
        let n = r.findings_of(&m.code).count();
        match kind {
            "fail" if n == 0 => problems.push(format!("{} fail: no finding", m.code)),
            "pass" if n > 0 => problems.push(format!(
                "{} pass: {n} finding(s): {}",
                m.code,
                r.findings_of(&m.code)
                    .map(|f| f.message.as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            )),
            _ => {}
        }
        if kind == "fail" {
            for f in r.findings_of(&m.code) {
                if f.evidence.is_empty() {
                    problems.push(format!("{} fail: a finding without evidence", m.code));
                }
            }
            let found: Vec<&Finding> = r.findings_of(&m.code).collect();
            insta::assert_yaml_snapshot!(format!("{}_fail", m.code), found);
            // The text people read, as `analyze` prints it at width 80 without colour.
            let human = mglint::output::render(
                &r,
                mglint::output::Format::Human,
                &mglint::output::RenderOptions {
                    color: false,
                    width: 80,
                    max_bytes: 0,
                },
            );
            insta::assert_snapshot!(format!("{}_fail_human", m.code), human);
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// One test per rule, named by its code, so `cargo test cv002` runs CV002's fixtures alone.
macro_rules! rule_tests {
    ($($code:ident),* $(,)?) => {
        $(
            #[test]
            fn $code() {
                check_rule(&stringify!($code).to_ascii_uppercase());
            }
        )*
        /// The codes the tests above cover.
        const COVERED: &[&str] = &[$(stringify!($code)),*];
    };
}

// `rule_tests!(ci001, ci002, …)`: every rule file's code, listed by build.rs as it lists the
// registry, so a new rule has its test without a line here.
include!(concat!(env!("OUT_DIR"), "/rule_tests.rs"));

#[test]
fn every_rule_has_its_own_test() {
    let mut want: Vec<String> = catalogue()
        .iter()
        .map(|m| m.code.to_ascii_lowercase())
        .collect();
    want.sort();
    let mut have: Vec<String> = COVERED.iter().map(|c| c.to_string()).collect();
    have.sort();
    assert_eq!(
        have, want,
        "the per-rule tests (build.rs's rule_tests.rs) and the registry list different rules"
    );
}

#[test]
fn a_rule_without_its_inputs_is_skipped_not_passed() {
    // A lone ClusterVersion: node, pool, operator, log and CI rules cannot run.
    let r = common::report(&inputs("fixtures/rules/CV005/pass"), &[]);
    for code in ["UH001", "MC001", "UH004", "LOG001", "CI001"] {
        let o = r.outcome(code).unwrap();
        assert_eq!(o.status, Status::Skipped, "{code}");
        assert!(
            o.reason.as_deref().is_some_and(|s| s.starts_with("needs ")),
            "{code}: {:?}",
            o.reason
        );
    }
    assert_eq!(r.outcome("CV005").unwrap().status, Status::Ran);
    assert_eq!(
        r.summary.rules_ran + r.summary.rules_skipped,
        catalogue().len()
    );
}

#[test]
fn select_and_ignore_by_prefix() {
    let b = ingest(
        &inputs("fixtures/rules/CV002/fail"),
        &IngestOptions::default(),
    )
    .unwrap();
    let tl = mglint::timeline::build(&b);
    let s = Selection {
        select: vec!["cv".into()],
        ignore: vec!["CV00".into()],
        ..Selection::default()
    };
    let r = analyze(&b, &tl, &s);
    assert!(
        r.rules
            .iter()
            .all(|o| o.code.starts_with("CV") && !o.code.starts_with("CV00"))
    );
    assert!(r.outcome("CV010").is_some());
    assert!(r.findings_of("CV002").next().is_none());
    assert_eq!(r.exit_code(), 0);
    let all = analyze(&b, &tl, &Selection::default());
    assert_eq!(all.exit_code(), 1, "CV002 is an error");
    let lenient = Selection {
        fail_on: mglint::rules::Severity::Error,
        ignore: vec!["CV002".into()],
        ..Selection::default()
    };
    assert_eq!(analyze(&b, &tl, &lenient).exit_code(), 0);
    // CV016 is a warning here: it fails the run at `warning`, not at `error`.
    let at = |fail_on| Selection {
        fail_on,
        select: vec!["CV016".into()],
        ..Selection::default()
    };
    assert_eq!(
        analyze(&b, &tl, &at(mglint::rules::Severity::Warning)).exit_code(),
        1
    );
    assert_eq!(
        analyze(&b, &tl, &at(mglint::rules::Severity::Error)).exit_code(),
        0
    );
}

/// Every damaged input of `fixtures/bad` (one broken file laid over a good must-gather): the
/// rules and every emitter run without panicking, and each file ingestion could not read, or
/// read only in part, is one IN001 or IN002 finding.
#[test]
fn rules_and_emitters_survive_damaged_inputs() {
    use mglint::output::{Format, RenderOptions, render};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bad");
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    let mut ran = 0;
    for case in cases.iter().filter(|p| p.join("files").is_dir()) {
        let dir = tempfile::tempdir().unwrap();
        common::copy_tree(&root.join("_base"), dir.path());
        common::copy_tree(&case.join("files"), dir.path());
        let run = common::load(&[dir.path().to_string_lossy().to_string()], &[]);
        let b = &run.analysis().bundle;
        let r = run.analysis().report();
        for f in [
            Format::Human,
            Format::Json,
            Format::Junit,
            Format::Markdown,
            Format::Sarif,
        ] {
            assert!(!render(r, f, &RenderOptions::default()).is_empty());
        }
        let reported = r
            .findings
            .iter()
            .filter(|f| f.code == "IN001" || f.code == "IN002")
            .count();
        assert_eq!(reported, b.diagnostics.len(), "{}", case.display());
        ran += 1;
    }
    assert!(ran >= 30, "only {ran} damaged inputs were analysed");
}
