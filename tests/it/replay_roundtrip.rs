//! The derived scenario is an ordinary scenario: written as YAML (its notes in the description),
//! loaded back with `load_scenario`, it reproduces the verdict and every deviation; and the
//! `mglint replay` command writes it, prints the verdict as text or `mglint/v1` JSON, and exits
//! 0 when the dump is consistent with some setting.

use mglint::reconciler::load_scenario;
use mglint::reconciler::replay::{check, replay, scenario_yaml};
use std::path::Path;
use std::process::Command;

const FIXTURES: [&str; 7] = [
    "must-gather/seed1-blocked",
    "must-gather/seed1-returned",
    "ci/seed2-rollback-4.3",
    "ci/modern-upgrade-4.14",
    "must-gather/fixed-cvo-rejected-4.14",
    "files/cv-4.1.18-4.1.20-4.1.18-legacy.yaml",
    "rules/RC003/fail/clusterversion.yaml",
];

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
        .display()
        .to_string()
}

#[test]
fn the_derived_scenario_reloads_and_reproduces_the_verdict() {
    for rel in FIXTURES {
        let b = mglint::ingest::ingest(&[fixture(rel)], &Default::default()).unwrap();
        let r = replay(&b, &mglint::timeline::build(&b));
        let yaml = scenario_yaml(&r).unwrap();
        assert!(yaml.starts_with("# Derived by `mglint replay`"), "{rel}");
        let mut back = load_scenario(&yaml).unwrap_or_else(|e| panic!("{rel}: {e}\n{yaml}"));
        // The verdict and the derivation notes are written into the description.
        let want = &r.derived.scenario;
        assert!(
            back.description.starts_with(&want.description)
                && back.description.contains("\nVerdict: ")
                && r.derived
                    .notes
                    .iter()
                    .all(|n| back.description.contains(n.as_str())),
            "{rel}: {}",
            back.description
        );
        back.description = want.description.clone();
        assert_eq!(&back, want, "{rel}: the scenario survives YAML");
        let again = check(&back, &b.cluster_version().unwrap().value);
        let first = r.comparison.as_ref().unwrap();
        assert_eq!(again.verdict, first.verdict, "{rel}");
        for (a, b) in again.runs.iter().zip(&first.runs) {
            assert_eq!(a.deviations, b.deviations, "{rel}: {}", a.variant.label());
        }
        // The scenario is written in the verdict's (or the closest) setting.
        let v = &first.verdict;
        assert_eq!(
            back.flavour,
            v.flavour.unwrap_or(v.closest.flavour),
            "{rel}"
        );
    }
}

#[test]
fn replay_is_deterministic() {
    let rel = fixture("must-gather/seed1-returned");
    let b = mglint::ingest::ingest(std::slice::from_ref(&rel), &Default::default()).unwrap();
    let tl = mglint::timeline::build(&b);
    let a = mglint::reconciler::replay::render_json(
        &replay(&b, &tl),
        mglint::vocab::text::JsonLayout::Pretty,
    );
    let b2 = mglint::ingest::ingest(&[rel], &Default::default()).unwrap();
    let c = mglint::reconciler::replay::render_json(
        &replay(&b2, &mglint::timeline::build(&b2)),
        mglint::vocab::text::JsonLayout::Pretty,
    );
    assert_eq!(a, c);
}

#[test]
fn the_command_prints_the_verdict_and_writes_a_scenario_reconcile_can_run() {
    let exe = env!("CARGO_BIN_EXE_mglint");
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("scenario.yaml");
    let out = Command::new(exe)
        .args(["replay", &fixture("ci/seed2-rollback-4.3"), "--scenario"])
        .arg(&scenario)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "verdict: consistent with the legacy flavour (4.1-4.10), history fix off (Bug 1756461)"
        ),
        "{text}"
    );
    assert!(text.contains("history[1].completionTime: dump 2019-09-27T21:45:59Z, a correct CVO (fixed flavour, history fix on) would have written 2019-09-27T21:41:05Z"), "{text}");
    // QE's question: what would a correct CVO have written here?
    let fixed = Command::new(exe)
        .args(["reconcile", "--flavour", "fixed", "--history-fix", "on"])
        .arg(&scenario)
        .output()
        .unwrap();
    assert_eq!(
        fixed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&fixed.stderr)
    );
    let cv = String::from_utf8(fixed.stdout).unwrap();
    assert!(cv.contains("completionTime: 2019-09-27T21:41:05Z"), "{cv}");
    let json = Command::new(exe)
        .args([
            "replay",
            "--format",
            "json",
            &fixture("rules/RC003/fail/clusterversion.yaml"),
        ])
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(1), "consistent with nothing");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        (v["schema"].as_str(), v["kind"].as_str()),
        (Some("mglint/replay/v1"), Some("replay"))
    );
    assert_eq!(v["verdict"]["consistent"].as_array().map(Vec::len), Some(0));
    assert_eq!(v["verdict"]["closest"]["flavour"].as_str(), Some("fixed"));
    assert_eq!(v["runs"].as_array().map(Vec::len), Some(4));
    let core: Vec<&str> = v["runs"][0]["deviations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["timing"] == false)
        .filter_map(|d| d["field"].as_str())
        .collect();
    assert_eq!(core, ["conditions[Progressing].message"]);
}

#[test]
fn replay_o_keeps_hostile_dump_text_inside_the_description() {
    // A history version carrying YAML line breaks and a key: copied into a `# seen:` comment
    // verbatim, `\r` ended the comment and `max_history: 1` became part of the scenario.
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_tree(&crate::common::fixture("bad/_base"), dir.path());
    let cv = walk_for(dir.path(), "version.yaml").expect("the base ClusterVersion");
    let text = std::fs::read_to_string(&cv).unwrap();
    let hostile = "4.1.20\rmax_history: 1\r# \u{85}flavour: legacy\u{2028}x";
    let yaml_escaped = "\"4.1.20\\rmax_history: 1\\r# \\Nflavour: legacy\\Lx\"";
    assert!(text.contains("version: 4.1.20"));
    std::fs::write(
        &cv,
        text.replace("version: 4.1.20", &format!("version: {yaml_escaped}")),
    )
    .unwrap();
    // Outside the analysed directory (an output inside an input is refused).
    let out_dir = tempfile::tempdir().unwrap();
    let out_file = out_dir.path().join("out.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["replay", "-q", "--scenario"])
        .arg(&out_file)
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(&out_file).unwrap();
    let s = load_scenario(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(s.max_history, None, "{written}");
    assert!(s.description.contains(hostile), "{}", s.description);
    // Only the two fixed header lines are comments.
    let comments: Vec<&str> = written.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(comments.len(), 2, "{comments:?}");
    let run = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["reconcile"])
        .arg(&out_file)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// The first file called `name` under `dir`.
fn walk_for(dir: &Path, name: &str) -> Option<std::path::PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Some(f) = walk_for(&p, name) {
                return Some(f);
            }
        } else if p.file_name().is_some_and(|n| n == name) {
            return Some(p);
        }
    }
    None
}

#[test]
fn replay_writes_the_verdict_to_o_and_takes_a_yaml_o_as_the_scenario_with_a_note() {
    let exe = env!("CARGO_BIN_EXE_mglint");
    let dir = tempfile::tempdir().unwrap();
    let (verdict, scenario) = (dir.path().join("v.json"), dir.path().join("s.yaml"));
    let out = Command::new(exe)
        .args([
            "replay",
            &fixture("ci/seed2-rollback-4.3"),
            "--format",
            "json",
            "-o",
        ])
        .arg(&verdict)
        .arg("--scenario")
        .arg(&scenario)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "the verdict went to -o");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&verdict).unwrap()).unwrap();
    assert_eq!(v["schema"], "mglint/replay/v1");
    assert!(load_scenario(&std::fs::read_to_string(&scenario).unwrap()).is_ok());
    // The old spelling still writes the scenario, and says which flag to use.
    let old = dir.path().join("old.yaml");
    let out = Command::new(exe)
        .args(["replay", &fixture("ci/seed2-rollback-4.3"), "-o"])
        .arg(&old)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--scenario"));
    assert!(load_scenario(&std::fs::read_to_string(&old).unwrap()).is_ok());
    assert!(String::from_utf8_lossy(&out.stdout).contains("verdict:"));
}
