//! The human view in a terminal: a 1,400-character evidence line stays within `COLUMNS=100`,
//! cut around what it points at with `…`; the overview comes first and the counts last; paths
//! are relative to the root, which is named once; one `help` per finding; plurals agree.

use crate::common;
use std::process::Command;

fn analyze(input: &str, columns: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["analyze", input, "--exit-zero", "--color", "never"])
        .env("COLUMNS", columns)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn a_very_long_evidence_line_fits_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!(
        "Cluster operator etcd is degraded: {}",
        "lorem ipsum dolor ".repeat(76)
    );
    assert!(long.len() > 1_350);
    let input = common::failing_update_with_message(dir.path(), &format!("message: '{long}'"));
    let out = analyze(&input, "100");
    for l in out.lines() {
        assert!(
            l.chars().count() <= 100,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    let cut = out
        .lines()
        .find(|l| l.contains("│ ") && l.contains("lorem ipsum") && l.ends_with('…'));
    assert!(cut.is_some(), "the evidence line is cut with …:\n{out}");
    // Narrower terminals too.
    assert!(
        analyze(&input, "60")
            .lines()
            .all(|l| l.chars().count() <= 60)
    );
}

#[test]
fn overview_first_counts_last_paths_relative_one_help_each() {
    let out = analyze(
        common::fixture("must-gather/seed1-blocked")
            .to_str()
            .unwrap(),
        "100",
    );
    let first: Vec<&str> = out.lines().take(4).collect();
    assert!(
        first[0].starts_with("input: ") && first[0].ends_with("files read)"),
        "{first:?}"
    );
    assert!(
        first[1].contains("paths below are relative to"),
        "{first:?}"
    );
    // The must-gather root is long: on its own line at 100 columns.
    let first: Vec<&str> = out.lines().take(5).collect();
    assert!(
        first[2].trim_start().starts_with("must-gather.local."),
        "{first:?}"
    );
    assert!(first[3].ends_with(" findings"), "{first:?}");
    assert!(
        first[4].trim_start().starts_with("error ") && first[4].contains("CV002"),
        "{first:?}"
    );
    let last: Vec<&str> = out.lines().rev().take(8).collect();
    assert!(
        last.iter()
            .any(|l| l.starts_with("2 errors, 4 warnings, 1 info")),
        "{last:?}"
    );
    assert_eq!(
        out.matches("quay-io-openshift-release-dev-ocp").count(),
        1,
        "the root once"
    );
    let findings = out
        .lines()
        .filter(|l| {
            l.contains("[CV") || l.contains("[RC") || l.contains("[CO") || l.contains("[KI")
        })
        .filter(|l| !l.starts_with(' '))
        .count();
    assert_eq!(
        out.matches("  help: ").count(),
        findings,
        "one help per finding"
    );
    assert!(!out.contains("Advice:") && !out.contains("1 errors"));
}

#[test]
fn multi_line_messages_keep_their_lines() {
    let out = analyze(common::fixture("rules/CI001/fail").to_str().unwrap(), "100");
    let block: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("error[CI001]"))
        .take_while(|l| !l.trim_start().starts_with("╭─"))
        .collect();
    assert!(block.len() >= 3, "{out}");
    assert!(
        block[1..].iter().all(|l| l.starts_with("  ")),
        "indented: {block:?}"
    );
}
