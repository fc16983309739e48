//! Output does not depend on the thread count: every fixture (must-gathers, CI jobs, single
//! files, each rule's fail and pass inputs), a must-gather packed as a `.tar.gz`, and a CVO
//! log big enough to be parsed in many blocks give the same bytes with `-j 1` and `-j 2`
//! (`analyze` JSON and `timeline` JSON), so the ingestion pipeline, the block-parallel log
//! parser and the rules (run side by side on the pool) put everything back in order.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(args: &[&str], threads: &str, input: &Path) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(args)
        .args(["-j", threads, "--format", "json", "--partial"])
        .arg(input)
        .output()
        .expect("run mglint");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?} -j {threads} {}: {:?}\n{}",
        input.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn assert_same(input: &Path) {
    for verb in [&["analyze"][..], &["timeline"][..]] {
        let one = run(verb, "1", input);
        let two = run(verb, "2", input);
        assert!(
            !one.is_empty(),
            "{verb:?} {} printed nothing",
            input.display()
        );
        assert!(
            one == two,
            "{verb:?} {}: -j 1 and -j 2 differ",
            input.display()
        );
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn children(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    v.sort();
    v
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn every_fixture_is_the_same_with_one_and_two_threads() {
    if !crate::common::heavy("every_fixture_is_the_same_with_one_and_two_threads") {
        return;
    }
    let root = fixtures();
    let mut inputs = Vec::new();
    for group in ["must-gather", "ci", "files"] {
        inputs.extend(children(&root.join(group)));
    }
    for rule in children(&root.join("rules")) {
        for case in ["fail", "pass"] {
            let p = rule.join(case);
            if p.exists() {
                inputs.push(p);
            }
        }
    }
    assert!(inputs.len() > 80, "only {} fixture inputs", inputs.len());
    for input in &inputs {
        assert_same(input);
    }
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn a_packed_must_gather_and_a_many_block_log_are_the_same_with_one_and_two_threads() {
    if !crate::common::heavy(
        "a_packed_must_gather_and_a_many_block_log_are_the_same_with_one_and_two_threads",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    // The blocked seed must-gather with its CVO log grown past several parse blocks (4 MiB):
    // its lines again and again.
    let mg = tmp.path().join("mg");
    common::copy_tree(&fixtures().join("must-gather/seed1-blocked"), &mg);
    let log = find_cvo_log(&mg).expect("the fixture has a CVO log");
    let text = std::fs::read_to_string(&log).expect("read CVO log");
    let mut grown = String::with_capacity(12 << 20);
    while grown.len() < (12 << 20) {
        grown.push_str(&text);
    }
    std::fs::write(&log, &grown).expect("write CVO log");
    assert_same(&mg);
    let archive = tmp.path().join("mg.tar.gz");
    let status = Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(tmp.path())
        .arg("mg")
        .status()
        .expect("run tar");
    assert!(status.success());
    assert_same(&archive);
}

fn find_cvo_log(dir: &Path) -> Option<PathBuf> {
    for p in children(dir) {
        if p.is_dir() {
            if let Some(f) = find_cvo_log(&p) {
                return Some(f);
            }
        } else if p.to_string_lossy().contains("cluster-version-operator")
            && p.extension().is_some_and(|e| e == "log")
        {
            return Some(p);
        }
    }
    None
}
