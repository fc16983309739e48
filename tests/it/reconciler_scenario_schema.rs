//! The scenario format's published schema (`docs/schemas/scenario.schema.json`): every scenario
//! fixture and conformance vector validates against it, and so does every scenario written back
//! by `Scenario::to_yaml`; the schema refuses what the loader refuses at the top level and in
//! the shape of an event.

use crate::common;
use mglint::reconciler::load_scenario;
use serde_json::Value;
use std::path::PathBuf;

fn validator() -> jsonschema::Validator {
    let path = common::root().join("docs/schemas/scenario.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn scenario_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "fixtures/scenarios",
        "fixtures/scenarios/upstream",
        "fuzz/seeds/scenario",
    ] {
        let mut here: Vec<PathBuf> = std::fs::read_dir(common::root().join(dir))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        here.sort();
        files.extend(here);
    }
    files
}

fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn every_scenario_fixture_and_its_written_back_form_match_the_schema() {
    let v = validator();
    let files = scenario_files();
    assert!(files.len() > 90, "only {} scenarios", files.len());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let doc: Value = mglint::yaml::from_str(&text).unwrap();
        let e = errors(&v, &doc);
        assert!(e.is_empty(), "{}: {e:#?}", f.display());
        let back = load_scenario(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
            .to_yaml()
            .unwrap();
        let doc: Value = mglint::yaml::from_str(&back).unwrap();
        let e = errors(&v, &doc);
        assert!(e.is_empty(), "{} written back: {e:#?}", f.display());
    }
}

#[test]
fn the_schema_refuses_what_the_loader_refuses() {
    let v = validator();
    let doc = |yaml: &str| -> Value { mglint::yaml::from_str(yaml).unwrap() };
    for bad in [
        "flavour: newest\n",
        "status_notifer: false\n",
        "events:\n  - {at: \"2020-01-01T00:00:00Z\", reboot: {}}\n",
        "events:\n  - {at: \"2020-01-01T00:00:00Z\", tick: {}, pass_result: {ok: true}}\n",
        "events:\n  - {at: \"2020-01-01T00:00:00Z\", pass_result: {okay: true}}\n",
        "events:\n  - {at: \"2020-01-01T00:00:00Z\", load_outcome: {step: RetrievePayload, verification_risk: quoted}}\n",
        "expect: {desired: {force: missing}}\n",
        "expect: {worker: {state: Waiting}}\n",
    ] {
        assert!(load_scenario(bad).is_err(), "the loader takes {bad:?}");
        assert!(!v.is_valid(&doc(bad)), "the schema takes {bad:?}");
    }
    for good in [
        "status_notifier: false\nworker_initialized: true\n",
        "events:\n  - {at: \"2020-01-01T00:00:00Z\", available_updates: {updates: [], current: {version: 1.0.0, image: x}}}\n",
        "expect: {desired: {force: absent}, worker: {state: none, completed: 0}}\n",
    ] {
        assert!(load_scenario(good).is_ok(), "the loader refuses {good:?}");
        let e = errors(&v, &doc(good));
        assert!(e.is_empty(), "{good:?}: {e:#?}");
    }
}
