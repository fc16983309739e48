//! Exit codes of `mglint analyze`: 1 when a finding reaches `--fail-on`, 0 below it or with
//! `--exit-zero`, 2 for input errors whatever the findings.

mod common;

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
    // Only CV003 (a warning) when CV002 is ignored; fails only at --fail-on warning.
    assert_eq!(
        common::mglint(&["analyze", "--format", "json", "--ignore", "CV002,RC,LOG", b])
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
            "CV002,RC,LOG",
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
