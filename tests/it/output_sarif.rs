//! SARIF for code-scanning tools: every document valid against the OASIS SARIF 2.1.0 schema
//! (validated with the `jsonschema` crate), URIs relative to a base id declared in
//! `originalUriBaseIds`, archive members addressed as `archive!/member`, and fingerprints
//! that do not change when the same input is analysed from another place.

use crate::common;
use mglint::output::{Format, RenderOptions, render};
use serde_json::Value;

fn sarif(input: &str) -> Value {
    let r = common::report(&[input.to_string()], &[]);
    serde_json::from_str(&render(&r, Format::Sarif, &RenderOptions::default())).unwrap()
}

fn validator() -> jsonschema::Validator {
    let text =
        std::fs::read_to_string(common::root().join("tests/it/data/sarif-schema-2.1.0.json"))
            .unwrap();
    // The OASIS schema's `language` pattern has a stray `]` that JavaScript reads as a
    // literal and Rust's regex engine rejects; escape it (same meaning) so the schema compiles.
    let stray = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert_eq!(text.matches(stray).count(), 2, "the schema changed");
    let text = text.replace(stray, r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#);
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

fn uris(doc: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for res in doc["runs"][0]["results"].as_array().unwrap() {
        for key in ["locations", "relatedLocations"] {
            for l in res[key].as_array().into_iter().flatten() {
                let a = &l["physicalLocation"]["artifactLocation"];
                out.push((
                    a["uriBaseId"].as_str().unwrap_or("").to_string(),
                    a["uri"].as_str().unwrap().to_string(),
                ));
            }
        }
    }
    out
}

fn fingerprints(doc: &Value) -> Vec<String> {
    doc["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["partialFingerprints"]["mglint/v1"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn sarif_is_valid_against_the_oasis_schema() {
    let v = validator();
    for input in [
        "fixtures/must-gather/seed1-blocked",
        "fixtures/ci/seed2-rollback-4.3",
        "fixtures/files/cv-4.3-verification.yaml",
        "fixtures/bad",
    ] {
        let doc = sarif(input);
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{input}: {errors:#?}");
        let run = &doc["runs"][0];
        assert!(
            run["automationDetails"]["id"]
                .as_str()
                .unwrap()
                .starts_with("mglint/")
        );
        assert_eq!(run["tool"]["driver"]["name"], "mglint");
    }
}

#[test]
fn uris_are_relative_to_declared_bases() {
    let doc = sarif("fixtures/must-gather/seed1-blocked");
    let bases = doc["runs"][0]["originalUriBaseIds"].as_object().unwrap();
    let base = &bases["INPUT1"];
    let root = base["uri"].as_str().unwrap();
    assert!(
        root.starts_with("fixtures/must-gather/seed1-blocked/must-gather.local.")
            && root.ends_with('/'),
        "{root}"
    );
    assert_eq!(base["uriBaseId"], "%SRCROOT%");
    let all = uris(&doc);
    assert!(!all.is_empty());
    for (id, uri) in all {
        assert_eq!(id, "INPUT1");
        assert!(
            !uri.starts_with('/') && !uri.contains("://") && !uri.contains("must-gather.local"),
            "{uri}"
        );
        assert!(
            uri.starts_with("cluster-scoped-resources/") || uri.starts_with("namespaces/"),
            "{uri}"
        );
    }
}

#[test]
fn archive_members_are_addressed_inside_their_archive() {
    let dir = tempfile::tempdir().unwrap();
    let tar = common::tar_dir(&common::fixture("must-gather/seed1-blocked"), "mg");
    let archive = dir.path().join("case 0123.tar.gz");
    std::fs::write(&archive, common::gzip(&tar)).unwrap();
    let doc = sarif(archive.to_str().unwrap());
    let base = &doc["runs"][0]["originalUriBaseIds"]["INPUT1"]["uri"];
    assert!(base.as_str().unwrap().starts_with("file:///"), "{base}");
    for (_, uri) in uris(&doc) {
        assert!(uri.starts_with("case%200123.tar.gz!/mg/"), "{uri}");
    }
}

#[test]
fn fingerprints_are_stable_across_runs_and_places() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for d in [&a, &b] {
        common::copy_tree(&common::fixture("must-gather/seed1-blocked"), d.path());
    }
    let fa = fingerprints(&sarif(a.path().to_str().unwrap()));
    let fb = fingerprints(&sarif(b.path().to_str().unwrap()));
    assert!(!fa.is_empty());
    assert_eq!(fa, fb);
    assert_eq!(fa, fingerprints(&sarif(a.path().to_str().unwrap())));
    let unique: std::collections::BTreeSet<&String> = fa.iter().collect();
    assert_eq!(unique.len(), fa.len(), "one fingerprint per finding");
}
