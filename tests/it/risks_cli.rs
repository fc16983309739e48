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

#[test]
fn a_checkout_given_with_risks_is_read_and_a_bad_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let edges = dir.path().join("blocked-edges");
    std::fs::create_dir(&edges).unwrap();
    std::fs::write(
        edges.join("4.14.8-NewRisk.yaml"),
        "to: 4.14.8\nfrom: 4[.]14[.].*\nurl: https://issues.redhat.com/browse/X-1\nname: NewRisk\nmessage: Something new.\nmatchingRules:\n- type: PromQL\n  promql:\n    promql: group(cluster_operator_conditions{name=\"etcd\"}) or 0 * group(cluster_operator_conditions)\n",
    )
    .unwrap();
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
