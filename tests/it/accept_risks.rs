//! A 4.22+/5.x cluster whose CVO evaluates update risks (`ClusterUpdateAcceptRisks` on, not
//! hosted) and whose `spec.desiredUpdate` holds only `acceptRisks`: oc's own example set
//! `5.0.0-includes-graph-and-alert-risks-accept` (fixtures/oc/newest/), a real 5.0.0-ec.2
//! ClusterVersion the real CVO accepted. `analyze` judges it as the CVO and oc do: no
//! reconciler finding (the model once called the ClusterVersion `Invalid`), CV023 names the
//! alert risk not accepted and never the accepted one, and the same cluster with the gate off
//! is `Invalid` as the CVO would call it.

use crate::common;
use std::path::PathBuf;

const SET: &str = "5.0.0-includes-graph-and-alert-risks-accept";

fn files(with: &[&str]) -> Vec<String> {
    let dir: PathBuf = common::fixture("oc/newest").join(SET);
    with.iter()
        .map(|s| {
            dir.join(format!("{SET}-{s}"))
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

#[test]
fn accepted_risks_only_desired_update_gives_no_reconciler_finding() {
    let all = files(&["cv.yaml", "featuregate.yaml", "infrastructure.yaml"]);
    let r = common::report(&all, &[]);
    let rc: Vec<String> = r
        .findings
        .iter()
        .filter(|f| f.code.starts_with("RC"))
        .map(|f| format!("{} {}", f.code, f.message))
        .collect();
    assert!(rc.is_empty(), "{rc:#?}");
    // Without a FeatureGate the gate is inferred from what only a gated CVO writes.
    let r = common::report(&files(&["cv.yaml"]), &["RC"]);
    assert!(r.findings.is_empty(), "{:#?}", r.findings);
}

#[test]
fn cv023_names_the_unaccepted_alert_risk_and_not_the_accepted_one() {
    let all = files(&["cv.yaml", "featuregate.yaml", "infrastructure.yaml"]);
    let r = common::report(&all, &["CV023"]);
    let msgs: Vec<&str> = r.findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(msgs.len(), 1, "{msgs:#?}");
    assert!(
        msgs[0].contains("`TestAlertA` (alert risk the CVO evaluates, Alert:firing)"),
        "{}",
        msgs[0]
    );
    assert!(!msgs[0].contains("TestAlertB"), "{}", msgs[0]);
    assert!(!msgs[0].contains("SyntheticRisk"), "{}", msgs[0]);
}

#[test]
fn with_the_gate_off_accept_risks_is_forbidden_as_the_cvo_says() {
    use mglint::reconciler::model::semantics::{Flavour, Semantics};
    use mglint::reconciler::model::validation::validate;
    let text = std::fs::read_to_string(&files(&["cv.yaml"])[0]).unwrap();
    let cv: mglint::model::ClusterVersion = yaml_serde::from_str(&text).unwrap();
    let mut sem = Semantics::new(Flavour::Fixed, Some(100));
    let forbidden = vec![
        "spec.desiredUpdate.acceptRisks: Forbidden: acceptRisks must not be specified".to_string(),
    ];
    let msgs = |s: &Semantics| {
        validate(&cv, s)
            .into_iter()
            .map(|e| e.message)
            .collect::<Vec<_>>()
    };
    assert_eq!(msgs(&sem), forbidden);
    sem.gates.enable("ClusterUpdateAcceptRisks");
    assert_eq!(msgs(&sem), Vec::<String>::new());
    // Before 4.22 the field is unknown: an empty desired update, as 4.13-4.21 word it.
    let old = Semantics::new(Flavour::Fixed, Some(21));
    assert_eq!(
        msgs(&old),
        vec![
            "spec.desiredUpdate: Required value: must specify architecture, version, or image"
                .to_string()
        ]
    );
    // The gate on and nothing at all requested.
    let mut empty = cv.clone();
    empty
        .spec
        .desired_update
        .as_mut()
        .unwrap()
        .accept_risks
        .clear();
    assert_eq!(
        validate(&empty, &sem).into_iter().map(|e| e.message).collect::<Vec<_>>(),
        vec!["spec.desiredUpdate: Required value: must specify architecture, version, image, or acceptRisks".to_string()]
    );
}

#[test]
fn summary_shows_no_target_and_the_accepted_risks() {
    let cv = &files(&["cv.yaml"])[0];
    let out = common::mglint(&["summary", cv]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\n  spec target      -\n"), "{text}");
    assert!(
        text.contains("\n  accepted risks   SyntheticRiskB, TestAlertB\n"),
        "{text}"
    );
    let out = common::mglint(&["summary", cv, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["desired_update"], serde_json::Value::Null);
    assert_eq!(
        doc["accepted_risks"],
        serde_json::json!(["SyntheticRiskB", "TestAlertB"])
    );
}

/// CV022 on a requested target that is not recommended names the risks the administrator
/// accepted as accepted (the same cluster asking for 5.1.0 while accepting SyntheticRiskB and
/// TestAlertB; 5.1.0's other risks still apply).
#[test]
fn cv022_marks_the_accepted_risks_of_a_requested_target() {
    let cv = &files(&["cv.yaml"])[0];
    let text = std::fs::read_to_string(cv).unwrap();
    let asked = text.replacen(
        "  desiredUpdate:\n    acceptRisks:\n",
        "  desiredUpdate:\n    version: 5.1.0\n    acceptRisks:\n    - name: TestAlertA\n",
        1,
    );
    assert_ne!(asked, text, "the fixture's desiredUpdate moved");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{SET}-cv.yaml"));
    std::fs::write(&path, asked).unwrap();
    let mut all = files(&["featuregate.yaml", "infrastructure.yaml"]);
    all.push(path.to_string_lossy().into_owned());
    let r = common::report(&all, &["CV022"]);
    let msgs: Vec<&str> = r.findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(msgs.len(), 1, "{msgs:#?}");
    assert!(
        msgs[0].contains("requested update to `5.1.0`"),
        "{}",
        msgs[0]
    );
    assert!(
        msgs[0].contains("`TestAlertA` (") && msgs[0].contains("; accepted)"),
        "{}",
        msgs[0]
    );
    let unaccepted = msgs[0]
        .split("`SyntheticRiskA` (")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .unwrap_or("");
    assert!(
        !unaccepted.is_empty() && !unaccepted.contains("accepted"),
        "{}",
        msgs[0]
    );
}
