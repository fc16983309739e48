//! A dump that lacks a whole kind of input (a component must-gather with no ClusterVersion,
//! a must-gather without the CVO's logs) is analysed for what it holds, and every output
//! says up front what is missing and how many rules that kept from running.

use crate::common;

/// seed 1's must-gather without its ClusterVersion and CVO logs (what a component
/// must-gather, an `oc adm inspect` of operators, holds).
fn component_dump(dir: &std::path::Path) {
    common::copy_tree(&common::fixture("must-gather/seed1-blocked"), dir);
    for e in walk(dir) {
        let s = e.to_string_lossy();
        if s.contains("clusterversions")
            || (s.contains("cluster-version-operator") && s.ends_with(".log"))
        {
            let _ = std::fs::remove_file(&e);
        }
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_dump_without_a_cluster_version_is_analysed_and_says_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    component_dump(dir.path());
    let input = dir.path().to_str().unwrap();
    let o = common::mglint(&["analyze", input]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    let head: Vec<&str> = text.lines().take(6).collect();
    assert!(
        head.iter()
            .any(|l| l.starts_with("note: no ClusterVersion in the input: ")
                && l.ends_with("rules could not run")),
        "{text}"
    );
    assert!(
        head.iter()
            .any(|l| l.starts_with("note: no CVO log in the input")),
        "{text}"
    );
    // What it holds is still analysed: the operator that blocks updates.
    assert!(text.contains("clusteroperator/kube-apiserver"), "{text}");
    // JSON and Markdown say the same.
    let o = common::mglint(&["analyze", input, "--format", "json", "--exit-zero"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let absent = v["absent"].as_array().unwrap();
    assert_eq!(absent[0]["input"], "a ClusterVersion");
    assert!(
        absent[0]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "CV001")
    );
    let o = common::mglint(&["analyze", input, "--format", "markdown", "--exit-zero"]);
    let md = String::from_utf8(o.stdout).unwrap();
    assert!(
        md.contains("- **Missing:** no ClusterVersion in the input: "),
        "{md}"
    );
}

#[test]
fn a_complete_must_gather_names_nothing_it_does_not_need() {
    // A must-gather is no CI job: its missing JUnit and test logs are no news.
    let o = common::mglint(&[
        "analyze",
        "--format",
        "json",
        "--exit-zero",
        common::fixture("must-gather/fixed-cvo-rejected-4.14")
            .to_str()
            .unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for a in v["absent"].as_array().unwrap() {
        let what = a["input"].as_str().unwrap();
        assert!(
            !what.contains("JUnit")
                && !what.contains("CI test log")
                && !what.contains("ClusterVersion"),
            "{what}"
        );
    }
}
