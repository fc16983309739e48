//! Outputs never destroy what the user did not name and never block: an `-o` onto an input,
//! into an input directory, or twice onto one file is refused before any work (exit 2, the
//! input unchanged); a FIFO is refused instead of blocking; `-o -` is standard output; one
//! output that cannot be written does not cost the others; a report is replaced whole.

use crate::common;
use std::path::Path;
use std::process::{Command, Stdio};

fn run(args: &[&str]) -> (i32, String, String) {
    let o = common::mglint(args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn copy_of(fixture: &str, dir: &Path, name: &str) -> String {
    let p = dir.join(name);
    std::fs::copy(common::fixture(fixture), &p).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn an_output_onto_an_input_or_inside_one_is_refused_and_the_input_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let cv = copy_of(
        "rules/CV005/pass/clusterversion.yaml",
        tmp.path(),
        "cv.yaml",
    );
    let before = std::fs::read(&cv).unwrap();
    for verb in [
        vec!["analyze", &cv, "-o", &cv, "--format", "json"],
        vec!["summary", &cv, "-o", &cv, "--format", "json"],
        vec!["timeline", &cv, "-o", &cv, "--format", "json"],
        vec!["status", &cv, "-o", &cv, "--format", "json"],
        vec!["recommend", &cv, "-o", &cv, "--format", "json"],
        vec!["replay", &cv, "-o", &cv],
    ] {
        let (rc, _, err) = run(&verb);
        assert_eq!(rc, 2, "{verb:?}: {err}");
        assert!(err.contains("it is an input"), "{verb:?}: {err}");
        assert_eq!(
            std::fs::read(&cv).unwrap(),
            before,
            "{verb:?} changed the input"
        );
    }
    // Spelt another way, and into a must-gather directory.
    let other = format!(
        "{}/./../{}/cv.yaml",
        tmp.path().display(),
        tmp.path().file_name().unwrap().to_string_lossy()
    );
    let (rc, _, err) = run(&["analyze", &cv, "-o", &other, "--format", "json"]);
    assert_eq!(rc, 2, "{err}");
    let mg = tmp.path().join("mg");
    common::copy_tree(&common::fixture("rules/UH002/fail"), &mg);
    let inside = mg.join("report.json");
    let (rc, _, err) = run(&[
        "analyze",
        mg.to_str().unwrap(),
        "-o",
        inside.to_str().unwrap(),
    ]);
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("inside the input"), "{err}");
    assert!(!inside.exists());
    // reconcile -o onto its own scenario.
    let sc = copy_of(
        "scenarios/force-past-blocking-precondition.yaml",
        tmp.path(),
        "s.yaml",
    );
    let before = std::fs::read(&sc).unwrap();
    let (rc, _, err) = run(&["reconcile", &sc, "-o", &sc]);
    assert_eq!(rc, 2, "{err}");
    assert_eq!(std::fs::read(&sc).unwrap(), before);
}

#[test]
fn one_file_named_twice_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cv = common::fixture("rules/CV005/pass/clusterversion.yaml");
    let a = tmp.path().join("r.json");
    let b = format!("{}/./r.json", tmp.path().display());
    let (rc, _, err) = run(&[
        "analyze",
        cv.to_str().unwrap(),
        "-o",
        &format!("json={}", a.display()),
        "-o",
        &format!("sarif={b}"),
    ]);
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("names the same file"), "{err}");
    assert!(!a.exists());
}

#[test]
fn a_fifo_is_refused_instead_of_blocking() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("out.json");
    assert!(common::mkfifo(&fifo));
    let cv = common::fixture("rules/CV005/pass/clusterversion.yaml");
    // `timeout` bounds the test if the refusal regressed into a block.
    let o = Command::new("timeout")
        .arg("20")
        .arg(env!("CARGO_BIN_EXE_mglint"))
        .args(["summary", cv.to_str().unwrap(), "--format", "json", "-o"])
        .arg(&fifo)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("FIFO"), "{err}");
}

#[test]
fn dash_is_standard_output_and_a_failed_output_does_not_cost_the_others() {
    let cv = common::fixture("rules/CV005/pass/clusterversion.yaml");
    let cv = cv.to_str().unwrap();
    let (rc, out, err) = run(&["summary", cv, "--format", "json", "-o", "-"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("\"schema\": \"mglint/summary/v2\""), "{out}");
    assert!(!Path::new("-").exists());
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("r.json");
    let bad = tmp.path().join("missing/r.sarif");
    let good_s = good.to_str().unwrap();
    let bad_s = bad.to_str().unwrap();
    let (rc, _, err) = run(&["analyze", cv, "-o", bad_s, "-o", good_s]);
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("missing/r.sarif"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&good).unwrap()).unwrap();
    assert_eq!(v["schema"], "mglint/report/v2");
    // Replacing a report leaves no temporary file beside it.
    let (rc, _, _) = run(&["analyze", cv, "-o", good_s]);
    assert_eq!(rc, 0);
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn huge_numbers_in_flags_are_refused_not_a_panic() {
    let (rc, _, err) = run(&[
        "fetch",
        "gs://bucket-x/p",
        "-o",
        "/nonexistent",
        "--timeout",
        "18446744073709551615",
    ]);
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("is not in 1..=604800"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The small files named beside the inputs (settings, rule files, scenarios, input lists) are
/// read only when regular and under their bound: a FIFO or `/dev/zero` is refused by name
/// at once instead of blocking or filling memory.
#[test]
fn fifos_and_devices_named_as_settings_rules_or_scenarios_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("f.yaml");
    assert!(common::mkfifo(&fifo));
    let f = fifo.to_str().unwrap();
    let cv = common::fixture("rules/CV005/pass/clusterversion.yaml");
    let cv = cv.to_str().unwrap();
    for (args, want) in [
        (
            vec!["rules", "check", f],
            "it is a FIFO, not a regular file",
        ),
        (vec!["reconcile", f], "it is a FIFO, not a regular file"),
        (
            vec!["reconcile", "/dev/zero"],
            "it is a device, not a regular file",
        ),
        (
            vec!["analyze", cv, "--config", f],
            "it is a FIFO, not a regular file",
        ),
        (
            vec!["batch", "--no-progress", "--from", "/dev/zero"],
            "it is a device, not a regular file",
        ),
    ] {
        let o = Command::new("timeout")
            .arg("20")
            .arg(env!("CARGO_BIN_EXE_mglint"))
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // An implicit ./mglint.toml that is a FIFO: named, not waited on.
    std::fs::rename(&fifo, tmp.path().join("mglint.toml")).unwrap();
    let o = Command::new("timeout")
        .arg("20")
        .arg(env!("CARGO_BIN_EXE_mglint"))
        .args(["summary", cv])
        .current_dir(tmp.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("mglint.toml") && err.contains("FIFO"), "{err}");
}
