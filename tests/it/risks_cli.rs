//! `mglint risks` on the fixtures: the candidate updates of a dump with the published risks
//! on their edges, `--to`, JSON, and `--risks DIR` with a bad file named and skipped.

use crate::common::mglint;

fn json(args: &[&str]) -> serde_json::Value {
    let o = mglint(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn target<'a>(doc: &'a serde_json::Value, version: &str) -> &'a serde_json::Value {
    doc["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["version"] == version)
        .unwrap_or_else(|| panic!("no target {version}: {doc:#}"))
}

#[test]
fn the_update_taken_and_the_one_requested_are_judged_with_evidence() {
    let mg = "fixtures/must-gather/fixed-cvo-rejected-4.14";
    let doc = json(&["risks", mg, "--format", "json", "--to", "4.16.0"]);
    assert_eq!(doc["schema"], "mglint/risks/v1");
    assert_eq!(
        doc["catalogue"]["commit"],
        "731d04247cc1f01bbeb4806755d80537d834c61d"
    );
    assert_eq!(doc["running"], "4.14.8");
    // The update taken, 4.14.6 -> 4.14.8: its one risk, judged on the ClusterOperators.
    let taken = target(&doc, "4.14.8");
    assert_eq!(taken["from"], "4.14.6");
    assert_eq!(taken["why"], serde_json::json!(["taken"]));
    let aro = &taken["risks"][0];
    assert_eq!(aro["name"], "AROBrokenDNSMasq");
    assert_eq!(aro["verdict"], "does-not-apply");
    assert!(
        aro["evidence"][0]
            .as_str()
            .unwrap()
            .contains("config.openshift.io/clusteroperators"),
        "{aro:#}"
    );
    // The requested and offered one: no Infrastructure in this dump, so the platform risks
    // cannot be evaluated, naming the metric.
    let next = target(&doc, "4.15.0");
    assert_eq!(next["why"], serde_json::json!(["requested", "offered"]));
    let azure = next["risks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "AzureRegistryImageMigrationUserProvisioned")
        .unwrap();
    assert_eq!(azure["verdict"], "unknown");
    assert_eq!(
        azure["missing"],
        serde_json::json!(["cluster_infrastructure_provider", "kube_secret_info"])
    );
    // --to adds a target whether offered or not.
    assert_eq!(target(&doc, "4.16.0")["why"], serde_json::json!(["asked"]));
}

#[test]
fn text_names_the_blocked_edge_and_each_verdict() {
    let o = mglint(&["risks", "fixtures/must-gather/seed1-blocked"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("4.3.10 -> 4.3.11 (taken, requested, offered)"),
        "{text}"
    );
    assert!(
        text.contains("blocked: the update is removed from the graph"),
        "{text}"
    );
    let o = mglint(&["risks", "fixtures/must-gather/fixed-cvo-rejected-4.14"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("  does-not-apply  AROBrokenDNSMasq"),
        "{text}"
    );
    assert!(
        text.contains(
            "cannot be evaluated offline: the dump does not give `csv_count`, `csv_succeeded`"
        ),
        "{text}"
    );
}

/// A risk on the update the fixture took (4.14.6 to 4.14.8), judged from its
/// ClusterOperators (the `etcd` operator is there).
const NEW_RISK: &str = "to: 4.14.8\nfrom: 4[.]14[.].*\nurl: https://issues.redhat.com/browse/X-1\nname: NewRisk\nmessage: Something new.\nmatchingRules:\n- type: PromQL\n  promql:\n    promql: group(cluster_operator_conditions{name=\"etcd\"}) or 0 * group(cluster_operator_conditions)\n";

#[test]
fn a_checkout_given_with_risks_is_read_and_a_bad_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let edges = dir.path().join("blocked-edges");
    std::fs::create_dir(&edges).unwrap();
    std::fs::write(edges.join("4.14.8-NewRisk.yaml"), NEW_RISK).unwrap();
    std::fs::write(edges.join("broken.yaml"), "to: [\n").unwrap();
    let d = dir.path().to_string_lossy().to_string();
    let mg = "fixtures/must-gather/fixed-cvo-rejected-4.14";
    let o = mglint(&["risks", mg, "--risks", &d, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("warning: cannot read update risk file `blocked-edges/broken.yaml`"),
        "{err}"
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["catalogue"]["risks"], 1);
    let r = &target(&doc, "4.14.8")["risks"][0];
    assert_eq!(r["name"], "NewRisk");
    assert_eq!(r["verdict"], "applies");
    // The ClusterOperators file the `etcd` operator was read from.
    assert!(
        r["evidence"][0]
            .as_str()
            .unwrap()
            .contains("config.openshift.io/clusteroperators"),
        "{r:#}"
    );
}

/// A cincinnati-graph-data checkout in a temporary directory: a risk on the update the
/// fixture took (4.14.6 to 4.14.8, judged from its ClusterOperators), one on an update it is
/// offered (4.14.8 to 4.14.12, for every cluster), and a `.git` naming its commit.
fn checkout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let edges = dir.path().join("blocked-edges");
    std::fs::create_dir(&edges).unwrap();
    std::fs::write(edges.join("4.14.8-NewRisk.yaml"), NEW_RISK).unwrap();
    std::fs::write(
        edges.join("4.14.12-OfferedRisk.yaml"),
        "to: 4.14.12\nfrom: 4[.]14[.]8\nurl: https://issues.redhat.com/browse/X-2\nname: OfferedRisk\nmessage: Offered and risky.\nmatchingRules:\n- type: Always\n",
    )
    .unwrap();
    let git = dir.path().join(".git");
    std::fs::create_dir(&git).unwrap();
    std::fs::write(
        git.join("HEAD"),
        format!("{}\n", "0123456789ab".repeat(3) + "cdef"),
    )
    .unwrap();
    dir
}

/// The risk names of the CV025 findings of a JSON report, in name order.
fn cv025_risks(doc: &serde_json::Value) -> Vec<String> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "CV025")
        .map(|f| f["details"]["risk"].as_str().unwrap().to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

#[test]
fn analyze_judges_the_risks_of_a_checkout_given_with_risks() {
    let cgd = checkout();
    let d = cgd.path().to_string_lossy().to_string();
    let mg = "fixtures/must-gather/fixed-cvo-rejected-4.14";
    let args = ["analyze", mg, "--select", "CV025", "--format", "json"];
    // The bundled snapshot has neither risk; its findings name the snapshot's commit.
    let bundled_doc = json(&args);
    let bundled = cv025_risks(&bundled_doc);
    assert_eq!(
        bundled_doc["findings"][0]["details"]["catalogue"],
        "731d04247cc1f01bbeb4806755d80537d834c61d",
        "{bundled_doc:#}"
    );
    assert!(
        !bundled.iter().any(|r| r == "NewRisk" || r == "OfferedRisk"),
        "{bundled:?}"
    );
    let doc = json(&[&args[..], &["--risks", &d]].concat());
    assert_eq!(cv025_risks(&doc), ["NewRisk", "OfferedRisk"], "{doc:#}");
    let f = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["details"]["risk"] == "NewRisk")
        .unwrap();
    assert_eq!(f["details"]["stage"], "taken-completed");
    assert_eq!(f["details"]["from"], "4.14.6");
    // The finding names the checkout's commit it was judged against.
    assert_eq!(
        f["details"]["catalogue"],
        "0123456789ab0123456789ab0123456789abcdef"
    );
    // The checkout's bug link leads the references, as a bundled risk's does.
    assert_eq!(f["references"][0], "https://issues.redhat.com/browse/X-1");
    // The Markdown report's section names the checkout's commit, not the snapshot's.
    let o = mglint(&[
        "analyze", mg, "--select", "CV025", "--format", "markdown", "--risks", &d,
    ]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("## Published update risks"), "{md}");
    assert!(md.contains("cincinnati-graph-data `0123456789ab`"), "{md}");
    assert!(md.contains("`OfferedRisk`"), "{md}");
}

#[test]
fn batch_judges_the_risks_of_a_checkout_given_with_risks() {
    let cgd = checkout();
    // A file that cannot be read is named in a warning; the others are judged.
    std::fs::write(cgd.path().join("blocked-edges/4.14.9-Bad.yaml"), "to: [").unwrap();
    let d = cgd.path().to_string_lossy().to_string();
    let mg = "fixtures/must-gather/fixed-cvo-rejected-4.14";
    let cv025 = |extra: &[&str]| {
        let o = mglint(&[&["batch", mg, "--select", "CV025"][..], extra].concat());
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let row: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let count = row["codes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["code"] == "CV025")
            .map_or(0, |c| c["count"].as_u64().unwrap());
        (count, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    // The bundled snapshot: one risk applies; the checkout's two (NewRisk, OfferedRisk), as
    // `analyze --risks` finds them.
    let (bundled, _) = cv025(&[]);
    let (checkout, err) = cv025(&["--risks", &d]);
    assert_eq!((bundled, checkout), (1, 2), "{err}");
    assert!(
        err.contains("warning: cannot read update risk file `blocked-edges/4.14.9-Bad.yaml`"),
        "{err}"
    );
}

#[test]
fn the_settings_file_names_the_checkout_with_risks_dir() {
    let cgd = checkout();
    let cfg = cgd.path().join("mglint.toml");
    // Relative to the settings file, as `rule-dirs` are.
    std::fs::write(&cfg, "risks-dir = \".\"\n").unwrap();
    let c = cfg.to_string_lossy().to_string();
    let mg = "fixtures/must-gather/fixed-cvo-rejected-4.14";
    let doc = json(&[
        "analyze", mg, "--select", "CV025", "--format", "json", "--config", &c,
    ]);
    assert_eq!(cv025_risks(&doc), ["NewRisk", "OfferedRisk"], "{doc:#}");
    // A missing directory there is named with the file that named it.
    std::fs::write(&cfg, "risks-dir = \"no-such-checkout\"\n").unwrap();
    let o = mglint(&["analyze", mg, "--config", &c]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    let missing = cgd.path().join("no-such-checkout");
    assert!(
        err.contains(&format!(
            "error: cannot read update risk file `{}`: No such file or directory",
            missing.display()
        )) && err.contains(&format!("(from {c})")),
        "{err}"
    );
}

#[test]
fn recommend_published_risks_reads_the_checkout_given_with_risks() {
    let cgd = checkout();
    let d = cgd.path().to_string_lossy().to_string();
    let mg = "fixtures/must-gather/fixed-cvo-rejected-4.14";
    let o = mglint(&["recommend", mg, "--published-risks", "--risks", &d]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("4.14.8 -> 4.14.12 (offered)"), "{text}");
    assert!(text.contains("OfferedRisk"), "{text}");
    // Without the section, the option has nothing to do: said, not ignored.
    let o = mglint(&["recommend", mg, "--risks", &d]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("add --published-risks"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_missing_checkout_is_named_alike_by_every_command() {
    let mg = "fixtures/must-gather/fixed-cvo-rejected-4.14";
    let missing = "/nonexistent/mglint-cgd";
    for args in [
        &["risks", mg, "--risks", missing][..],
        &["analyze", mg, "--risks", missing],
        &["recommend", mg, "--published-risks", "--risks", missing],
        &["batch", mg, "--risks", missing],
    ] {
        let o = mglint(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with(
                "error: cannot read update risk file `/nonexistent/mglint-cgd`: No such file or directory"
            ),
            "{args:?}: {err}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}
