//! Exit codes of `mglint analyze`: 1 when a finding reaches `--fail-on`, 0 below it or with
//! `--exit-zero`, 2 for input errors whatever the findings.

use crate::common;

#[test]
fn analyze_exit_codes() {
    let blocked = common::fixture("must-gather/seed1-blocked");
    let b = blocked.to_str().unwrap();
    let returned = common::fixture("must-gather/seed1-returned");
    let r = returned.to_str().unwrap();
    // CV002 is an error on the blocked dump.
    assert_eq!(
        common::mglint(&["analyze", "--format", "json", b])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        common::mglint(&["analyze", "--format", "json", "--exit-zero", b])
            .status
            .code(),
        Some(0)
    );
    // Only CV003 (a warning) when CV002 and the catalogue's KI004 (the seed bug's blocker, a
    // mutated default SCC) are ignored; fails only at --fail-on warning.
    assert_eq!(
        common::mglint(&["analyze", "--format", "json", "--select", "KI004", b])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        common::mglint(&[
            "analyze",
            "--format",
            "json",
            "--ignore",
            "CV002,RC,LOG,KI004",
            b
        ])
        .status
        .code(),
        Some(0)
    );
    assert_eq!(
        common::mglint(&[
            "analyze",
            "--format",
            "json",
            "--ignore",
            "CV002,RC,LOG,KI004",
            "--fail-on",
            "warning",
            b
        ])
        .status
        .code(),
        Some(1)
    );
    // Input errors win, even with --exit-zero.
    let o = common::mglint(&[
        "analyze",
        "--format",
        "json",
        "--exit-zero",
        r,
        "/no/such/input",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/no/such/input"));
}

/// A selector that names no rule is a usage error wherever it comes from: a CI gate must not
/// pass by running nothing.
#[test]
fn unknown_rule_selectors_exit_2_and_name_the_selector() {
    let blocked = common::fixture("must-gather/seed1-blocked");
    let b = blocked.to_str().unwrap();
    for args in [
        vec!["analyze", "--select", "BOGUS", b],
        vec!["analyze", "--ignore", "CV002,NOPE9", b],
        vec!["batch", "--select", "BOGUS", b],
    ] {
        let o = common::mglint(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        let named = args
            .iter()
            .find(|a| a.contains("BOGUS") || a.contains("NOPE9"))
            .unwrap();
        let bad = if named.contains("NOPE9") {
            "NOPE9"
        } else {
            "BOGUS"
        };
        assert!(err.contains(&format!("`{bad}`")), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: nothing reported");
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mglint.toml"), "select = [\"XX1\"]\n").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["analyze", b])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("`XX1`"));
}
