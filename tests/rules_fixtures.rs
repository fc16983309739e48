//! Every rule on its own fixtures: it runs (inputs present) and reports on `fail/`, and runs
//! and stays silent on `pass/`. The failing findings are snapshotted (one file per rule).

use mglint::ingest::{IngestOptions, ingest};
use mglint::rules::{Finding, Report, Settings, Status, analyze, catalogue};
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
    let b =
        ingest(&inputs(&rel), &IngestOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let tl = mglint::timeline::build(&b);
    let settings = Settings {
        select: vec![code.to_string()],
        ..Settings::default()
    };
    analyze(&b, &tl, &settings)
}

#[test]
fn each_rule_fails_on_fail_and_passes_on_pass() {
    let mut problems = Vec::new();
    for m in catalogue() {
        for kind in ["fail", "pass"] {
            let r = run(m.code, kind);
            let outcome = r.outcome(m.code).expect("selected rule has an outcome");
            if outcome.status != Status::Ran {
                problems.push(format!("{} {kind}: skipped ({:?})", m.code, outcome.reason));
                continue;
            }
            let n = r.findings_of(m.code).count();
            match kind {
                "fail" if n == 0 => problems.push(format!("{} fail: no finding", m.code)),
                "pass" if n > 0 => problems.push(format!(
                    "{} pass: {n} finding(s): {}",
                    m.code,
                    r.findings_of(m.code)
                        .map(|f| f.message.as_str())
                        .collect::<Vec<_>>()
                        .join(" | ")
                )),
                _ => {}
            }
            if kind == "fail" {
                for f in r.findings_of(m.code) {
                    if f.evidence.is_empty() {
                        problems.push(format!("{} fail: a finding without evidence", m.code));
                    }
                }
                let found: Vec<&Finding> = r.findings_of(m.code).collect();
                insta::assert_yaml_snapshot!(format!("{}_fail", m.code), found);
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn a_rule_without_its_inputs_is_skipped_not_passed() {
    // A lone ClusterVersion: node, pool, operator, log and CI rules cannot run.
    let b = ingest(
        &inputs("fixtures/rules/CV005/pass"),
        &IngestOptions::default(),
    )
    .unwrap();
    let r = analyze(&b, &mglint::timeline::build(&b), &Settings::default());
    for code in ["CO001", "MC001", "MC003", "LOG001", "CI001"] {
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
    let s = Settings {
        select: vec!["cv".into()],
        ignore: vec!["CV00".into()],
        ..Settings::default()
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
    let all = analyze(&b, &tl, &Settings::default());
    assert_eq!(all.exit_code(), 1, "CV002 is an error");
    let lenient = Settings {
        fail_on: mglint::rules::Severity::Error,
        ignore: vec!["CV002".into()],
        ..Settings::default()
    };
    assert_eq!(analyze(&b, &tl, &lenient).exit_code(), 0);
    // CV016 is a warning here: it fails the run at `warning`, not at `error`.
    let at = |fail_on| Settings {
        fail_on,
        select: vec!["CV016".into()],
        ..Settings::default()
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
