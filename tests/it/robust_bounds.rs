//! Bounds on hostile or merely large inputs (issue #18): each case lays one file generated
//! here over the good must-gather in `fixtures/bad/_base`, runs the real binary under an
//! address-space limit (`prlimit --as`), and asserts that the run ends normally (exit 0 or
//! 1), that the bound's diagnostic names the file, and that the good ClusterVersion's
//! findings survive. Sizes are the smallest that showed the problem; no wall-clock asserts.

use crate::common;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const MG: &str = "must-gather.local.3319502838477283711/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1f2e3d4c5b6a79880f1e2d3c4b5a69788f9e0d1c2b3a4958677f8e9d0c1b2a39";

fn csr(rel: &str) -> String {
    format!("{MG}/cluster-scoped-resources/{rel}")
}

fn co(name: &str) -> String {
    csr(&format!("config.openshift.io/clusteroperators/{name}"))
}

/// The good must-gather with `files` laid over it.
fn case(files: &[(String, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(&common::fixture("bad/_base"), dir.path());
    for (rel, data) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    dir
}

/// 1 GiB of address space: far below what the quadratic cases needed (several GB), and well
/// above what a debug build needs for the good must-gather (threads, stacks, arenas).
pub const LIMIT: u64 = 1 << 30;

/// Runs mglint under `prlimit --as=<limit>` (callers pass `-j 1`, so the limit is not spent
/// on thread stacks and malloc arenas).
pub fn limited(limit: u64, args: &[&str]) -> std::process::Output {
    Command::new("prlimit")
        .arg(format!("--as={limit}"))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_mglint"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run prlimit (util-linux)")
}

/// `analyze --format json` under the limit; the report, after checking the exit code.
fn analyze(dir: &Path) -> Value {
    let out = limited(
        LIMIT,
        &[
            "analyze",
            "-j",
            "1",
            "--format",
            "json",
            dir.to_str().unwrap(),
        ],
    );
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json report")
}

fn codes(r: &Value) -> Vec<String> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

/// The good ClusterVersion's findings are still there.
fn good_survives(r: &Value) {
    let c = codes(r);
    assert!(c.iter().any(|c| c == "CV001"), "good findings lost: {c:?}");
}

/// The messages of findings about the file ending in `suffix`.
fn about(r: &Value, suffix: &str) -> Vec<String> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["object"]["name"]
                .as_str()
                .is_some_and(|n| n.ends_with(suffix))
        })
        .map(|f| f["message"].as_str().unwrap_or("").to_string())
        .collect()
}

fn assert_diag(r: &Value, suffix: &str, want: &str) {
    let got = about(r, suffix);
    assert!(
        got.iter().any(|m| m.contains(want)),
        "no diagnostic on `{suffix}` containing `{want}`: {got:?}"
    );
}

#[test]
fn alias_expansion_is_capped_by_the_expanded_size() {
    // 10,000 scalars aliased 10,000 times: 140 KB that expands to 10^8 values, within the
    // YAML library's alias-jump limit (each alias is one jump).
    let n = 10_000;
    let anchor = vec!["x"; n].join(",");
    let aliases = vec!["*a"; n].join(",");
    let text = format!(
        "kind: ClusterOperator\nmetadata:\n  name: lol\nanchor: &a [{anchor}]\nstatus:\n  many: [{aliases}]\n"
    );
    let dir = case(&[(co("lol.yaml"), text.into_bytes())]);
    let r = analyze(dir.path());
    assert_diag(&r, "lol.yaml", "the alias expansion bound");
    good_survives(&r);
}

#[test]
fn deep_nesting_is_checked_while_reading() {
    // 100k levels of flow nesting took over a minute before the library's depth check.
    let n = 100_000;
    let text = format!(
        "kind: ClusterOperator\nmetadata:\n  name: deep\nstatus: {}{}\n",
        "[".repeat(n),
        "]".repeat(n)
    );
    let dir = case(&[(co("deep.yaml"), text.into_bytes())]);
    let r = analyze(dir.path());
    assert_diag(&r, "deep.yaml", "nested deeper than 128 levels");
    good_survives(&r);
}

#[test]
fn duplicate_keys_give_one_warning_per_file_with_a_count() {
    // 200k duplicate keys used to give 200k identical warnings (an 84 MB JSON summary).
    let mut text = String::from("kind: ClusterOperator\nmetadata:\n  name: etcd\n  labels:\n");
    for _ in 0..200_000 {
        text.push_str("    a: b\n");
    }
    let dir = case(&[(co("etcd.yaml"), text.into_bytes())]);
    let r = analyze(dir.path());
    let got = about(&r, "etcd.yaml");
    assert_eq!(got.len(), 1, "{} warnings", got.len());
    assert!(got[0].contains("199999 duplicate keys: `a`"), "{}", got[0]);
    good_survives(&r);
}
