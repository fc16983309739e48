//! The published JSON contract: every JSON document mglint writes validates against its
//! schema in `docs/schemas/` (with the `jsonschema` crate), on every fixture and on inputs
//! that cannot be read; each document kind has its own id, and each id its schema file.

use crate::common;
use serde_json::Value;
use std::process::Command;

/// Every fixture input kind: three must-gathers, two CI jobs, a single file.
pub(crate) const INPUTS: [&str; 6] = [
    "fixtures/must-gather/seed1-blocked",
    "fixtures/must-gather/seed1-returned",
    "fixtures/must-gather/fixed-cvo-rejected-4.14",
    "fixtures/ci/seed2-rollback-4.3",
    "fixtures/ci/modern-upgrade-4.14",
    "fixtures/files/cv-4.3-verification.yaml",
];

fn schema(name: &str) -> (Value, jsonschema::Validator) {
    let path = common::root().join(format!("docs/schemas/{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let s: Value = serde_json::from_str(&text).unwrap();
    let v = jsonschema::validator_for(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
    (s, v)
}

fn mglint(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .current_dir(common::root())
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn check(name: &str, doc: &str, what: &str) {
    let (_, v) = schema(name);
    let doc: Value = serde_json::from_str(doc).unwrap_or_else(|e| panic!("{what}: {e}"));
    let errors: Vec<String> = v
        .iter_errors(&doc)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} does not match {name}.schema.json:\n{}",
        errors.join("\n")
    );
}

#[test]
fn every_json_document_matches_its_published_schema() {
    for input in INPUTS {
        check(
            "report",
            &mglint(&["analyze", input, "--format", "json", "--exit-zero"]),
            input,
        );
        check(
            "summary",
            &mglint(&["summary", input, "--format", "json"]),
            input,
        );
        check(
            "timeline",
            &mglint(&["timeline", input, "--format", "json"]),
            input,
        );
        check(
            "replay",
            &mglint(&["replay", input, "--format", "json"]),
            input,
        );
    }
    check("rules", &mglint(&["rules", "--format", "json"]), "rules");
    let mg = "fixtures/must-gather/fixed-cvo-rejected-4.14";
    check("status", &mglint(&["status", mg, "--format", "json"]), mg);
    for input in INPUTS {
        check(
            "recommend",
            &mglint(&["recommend", input, "--format", "json", "--partial"]),
            input,
        );
    }
    for input in INPUTS {
        check(
            "risks",
            &mglint(&["risks", input, "--format", "json", "--to", "4.14.12"]),
            input,
        );
    }
    // Every generated recommend set, with and without a --version target.
    for set in std::fs::read_dir(common::fixture("oc/recommend"))
        .unwrap()
        .flatten()
    {
        let p = set.path();
        if !p.is_dir() {
            continue;
        }
        let p = p.to_str().unwrap();
        check(
            "recommend",
            &mglint(&["recommend", p, "--format", "json", "--partial"]),
            p,
        );
        let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
            .args([
                "recommend",
                p,
                "--format",
                "json",
                "--partial",
                "--version",
                "4.16.11",
            ])
            .output()
            .unwrap();
        check("recommend", &String::from_utf8_lossy(&o.stdout), p);
    }
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("rows.jsonl");
    let mut args = vec!["batch", "--no-progress", "-o", rows.to_str().unwrap()];
    args.extend(INPUTS);
    args.push("/no/such/input");
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .current_dir(common::root())
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "one input errored");
    let text = std::fs::read_to_string(&rows).unwrap();
    assert_eq!(text.lines().count(), INPUTS.len() + 1);
    for (i, row) in text.lines().enumerate() {
        check("batch", row, &format!("batch row {i}"));
    }
}

#[test]
fn each_document_kind_has_its_own_id_and_schema() {
    use mglint::vocab::schema as id;
    let ids = [
        ("report", id::REPORT),
        ("summary", id::SUMMARY),
        ("timeline", id::TIMELINE),
        ("replay", id::REPLAY),
        ("rules", id::RULES),
        ("batch", id::BATCH_ROW),
        ("status", id::STATUS),
        ("recommend", id::RECOMMEND),
        ("risks", id::RISKS),
        ("fetch", id::FETCH),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (name, id) in ids {
        assert!(seen.insert(id), "{id} names two document kinds");
        let (s, _) = schema(name);
        // A schema with an error form keeps the document's own form first.
        let body = if s["anyOf"].is_array() {
            &s["anyOf"][0]
        } else {
            &s
        };
        assert_eq!(
            body["properties"]["schema"]["const"], id,
            "{name}.schema.json"
        );
        // Every document of a cluster says which cluster it speaks of, in one shape (the
        // rule catalogue and a fetch are of no cluster).
        if name == "rules" || name == "fetch" {
            continue;
        }
        assert_eq!(
            body["properties"]["cluster"]["required"],
            serde_json::json!(["id", "from", "to"]),
            "{name}.schema.json"
        );
    }
    // A document that is not the schema's kind is refused.
    let report = mglint(&["analyze", INPUTS[0], "--format", "json", "--exit-zero"]);
    let (_, summary) = schema("summary");
    assert!(!summary.is_valid(&serde_json::from_str(&report).unwrap()));
}

/// Every string value that is a time (starts with a date and `T`).
fn times(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s)
            if s.len() >= 11
                && s.as_bytes()[10] == b'T'
                && s[..10].bytes().all(|b| b.is_ascii_digit() || b == b'-') =>
        {
            out.push(s.clone())
        }
        Value::Array(a) => a.iter().for_each(|x| times(x, out)),
        Value::Object(o) => o.values().for_each(|x| times(x, out)),
        _ => {}
    }
}

#[test]
fn one_time_format_everywhere() {
    // RFC 3339, UTC, milliseconds, `Z`: no `…:47Z` beside `…:47.544Z` for the same value.
    let ms = regex::Regex::new(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$").unwrap();
    for input in INPUTS {
        for args in [
            vec!["analyze", input, "--format", "json", "--exit-zero"],
            vec!["summary", input, "--format", "json"],
            vec!["timeline", input, "--format", "json"],
        ] {
            let mut found = Vec::new();
            times(&serde_json::from_str(&mglint(&args)).unwrap(), &mut found);
            assert!(
                !found.is_empty() || input.ends_with(".yaml"),
                "{args:?}: no times"
            );
            for t in found {
                assert!(
                    ms.is_match(&t),
                    "{args:?}: time `{t}` is not RFC 3339 UTC ms Z"
                );
            }
        }
    }
}

/// Runs mglint from the project root and returns its stdout whatever the exit code.
fn stdout(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .current_dir(common::root())
        .args(args)
        .output()
        .unwrap();
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn several_clusters_are_json_lines_of_the_single_cluster_documents() {
    // Two clusters (different cluster IDs): each verb writes one line per cluster, each line
    // the document one cluster gives, valid against the same schema, with its cluster.
    let (a, b) = (INPUTS[0], INPUTS[4]);
    let verbs: [(&str, Vec<&str>); 6] = [
        ("report", vec!["analyze", "--format", "json", "--exit-zero"]),
        ("summary", vec!["summary", "--format", "json"]),
        ("timeline", vec!["timeline", "--format", "json"]),
        ("replay", vec!["replay", "--format", "json"]),
        ("status", vec!["status", "--format", "json"]),
        (
            "recommend",
            vec!["recommend", "--format", "json", "--partial"],
        ),
    ];
    for (name, mut args) in verbs {
        args.extend([a, b]);
        let out = stdout(&args);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {out}");
        let mut ids = Vec::new();
        for l in &lines {
            check(name, l, &format!("{args:?}"));
            let v: Value = serde_json::from_str(l).unwrap();
            ids.push(v["cluster"]["id"].as_str().unwrap_or("").to_string());
        }
        assert!(ids[0] != ids[1] && !ids[0].is_empty(), "{args:?}: {ids:?}");
    }
    // The cluster a single document names is its ClusterVersion's.
    let one: Value = serde_json::from_str(&mglint(&["summary", a, "--format", "json"])).unwrap();
    assert_eq!(one["cluster"]["id"], one["cluster_id"]);
    assert_eq!(one["cluster"]["to"], one["desired"]);
}

#[test]
fn a_run_that_read_nothing_writes_a_valid_report_saying_so() {
    let out = stdout(&["analyze", "/no/such/input", "--format", "json"]);
    check("report", &out, "exit-2 report");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["input_errors"][0]
            .as_str()
            .unwrap()
            .contains("/no/such/input")
    );
    assert!(
        v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["status"] == "skipped")
    );
    assert_eq!(v["summary"]["rules_ran"], 0);
}

/// Every document in `out` (one, or JSON Lines of several) checked against `name`'s schema.
fn check_all(name: &str, out: &str, what: &str) {
    let docs: Vec<&str> = if out.trim_start().starts_with("{\n") {
        vec![out]
    } else {
        out.lines().filter(|l| !l.trim().is_empty()).collect()
    };
    for d in docs {
        check(name, d, what);
    }
}

/// Each JSON-writing verb as (schema, arguments before the input).
const JSON_VERBS: [(&str, &[&str]); 6] = [
    ("report", &["analyze", "--format", "json"]),
    ("summary", &["summary", "--format", "json"]),
    ("timeline", &["timeline", "--format", "json"]),
    ("replay", &["replay", "--format", "json"]),
    ("status", &["status", "--format", "json"]),
    ("recommend", &["recommend", "--format", "json"]),
];

/// Runs every JSON-writing verb on `input` and checks what it wrote against its schema,
/// whatever the exit code; returns (verb, exit code, whether a document was written).
fn every_verb_on(input: &str) -> Vec<(&'static str, Option<i32>, bool)> {
    JSON_VERBS
        .iter()
        .map(|(name, args)| {
            let mut all = args.to_vec();
            all.push(input);
            let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
                .current_dir(common::root())
                .args(&all)
                .output()
                .unwrap();
            let out = String::from_utf8(o.stdout).unwrap();
            let what = format!("{all:?} (exit {:?})", o.status.code());
            check_all(name, &out, &what);
            (*name, o.status.code(), !out.trim().is_empty())
        })
        .collect()
}

#[test]
fn documents_match_their_schemas_on_every_exit_code() {
    // An input with no ClusterVersion: replay has nothing to compare (exit 2, `verdict` null,
    // which its schema refused), status and recommend cannot assess (exit 2, their `error`
    // form; status wrote nothing at all); the others read what there is (exit 0).
    let dir = tempfile::tempdir().unwrap();
    let base = common::fixture("bad/_base");
    let co = common::dir_files(&base, "")
        .into_iter()
        .find(|(p, _)| p.ends_with("clusteroperators/dns.yaml"))
        .unwrap();
    std::fs::write(dir.path().join("dns.yaml"), co.1).unwrap();
    let runs = every_verb_on(dir.path().to_str().unwrap());
    for (name, code, wrote) in &runs {
        let want = if matches!(*name, "replay" | "status" | "recommend") {
            2
        } else {
            0
        };
        assert_eq!(*code, Some(want), "{name}: {runs:?}");
        assert!(wrote, "{name} wrote no document: {runs:?}");
    }
    // The corrupted-input corpus (each case over the good base): every document valid.
    let cases: Vec<_> = std::fs::read_dir(common::fixture("bad"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.join("files").is_dir() && !p.file_name().unwrap().to_string_lossy().starts_with('_')
        })
        .collect();
    assert!(cases.len() >= 30, "{}", cases.len());
    // A few cases on every run; every case in the heavy run.
    let all = common::heavy("documents_match_their_schemas_on_every_exit_code (every bad case)");
    let mut codes = std::collections::BTreeSet::new();
    for (i, case) in cases.iter().enumerate() {
        if !all && i % 10 != 0 {
            continue;
        }
        let d = tempfile::tempdir().unwrap();
        common::copy_tree(&base, d.path());
        common::copy_tree(&case.join("files"), d.path());
        for (_, code, _) in every_verb_on(d.path().to_str().unwrap()) {
            codes.insert(code);
        }
    }
    // A path that does not exist: analyze writes its report saying so (exit 2).
    every_verb_on("/no/such/input");
    assert!(codes.contains(&Some(0)), "{codes:?}");
}
