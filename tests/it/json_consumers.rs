//! The JSON documents as their consumers take them: check-jsonschema (PyPI, installed by
//! `.ci/run`) validates every document of every fixture, one cluster and several, against the
//! published schemas; and one name keeps one type across every document (durations are integer
//! `*_seconds`, evidence is a list of `{input, path, line, span, text, label}` and objects
//! `{kind, namespace, name}` wherever they appear, no evidence path repeats its input's name,
//! and each field has one JSON type whatever the input).

use crate::common;
use crate::json_schemas::INPUTS;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every JSON document of the fixtures (several clusters as JSON Lines, split), by schema name.
fn documents() -> Vec<(&'static str, Value, String)> {
    let mut out = Vec::new();
    let mut inputs: Vec<Vec<&str>> = INPUTS.iter().map(|i| vec![*i]).collect();
    // Two clusters in one run; a tree of broken files read in part (its `unread` lists filled).
    inputs.push(vec![INPUTS[0], INPUTS[4]]);
    inputs.push(vec!["fixtures/bad", "--partial"]);
    // A management cluster and two hosted clusters in one must-gather: three lines.
    inputs.push(vec!["fixtures/must-gather/hypershift-mgmt-two-hosted"]);
    let verbs: [(&str, &[&str]); 6] = [
        ("report", &["analyze", "--exit-zero"]),
        ("summary", &["summary"]),
        ("timeline", &["timeline"]),
        ("replay", &["replay"]),
        ("status", &["status"]),
        ("recommend", &["recommend", "--partial"]),
    ];
    for args in &inputs {
        for (schema, verb) in verbs {
            let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
                .current_dir(common::root())
                .args(verb)
                .args(["--format", "json"])
                .args(args)
                .output()
                .unwrap();
            let text = String::from_utf8(o.stdout).unwrap();
            let what = format!("{verb:?} {args:?}");
            // One cluster: one pretty-printed document; several: one document per line.
            match serde_json::from_str::<Value>(&text) {
                Ok(v) => out.push((schema, v, what)),
                Err(_) => {
                    for line in text.lines().filter(|l| !l.trim().is_empty()) {
                        let v = serde_json::from_str(line)
                            .unwrap_or_else(|e| panic!("{what}: {e}: {line}"));
                        out.push((schema, v, what.clone()));
                    }
                }
            }
        }
    }
    out
}

/// `python3 -m check_jsonschema`, or `None` (with a note, and a failure under CI) when the
/// package is not installed.
fn check_jsonschema(schema: &Path, files: &[PathBuf]) -> Option<(bool, String)> {
    let o = Command::new("python3")
        .args(["-m", "check_jsonschema", "--schemafile"])
        .arg(schema)
        .args(files)
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    if err.contains("No module named check_jsonschema") {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "check-jsonschema missing under CI (.ci/run installs it)"
        );
        eprintln!("note: check-jsonschema is not installed; skipping");
        return None;
    }
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    Some((o.status.success(), format!("{out}{err}")))
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn check_jsonschema_takes_every_document_of_every_fixture() {
    if !crate::common::heavy("check_jsonschema_takes_every_document_of_every_fixture") {
        return;
    }
    let docs = documents();
    let dir = tempfile::tempdir().unwrap();
    let mut by_schema: BTreeMap<&str, Vec<PathBuf>> = BTreeMap::new();
    for (i, (schema, doc, _)) in docs.iter().enumerate() {
        let p = dir.path().join(format!("{schema}-{i}.json"));
        std::fs::write(&p, serde_json::to_vec(doc).unwrap()).unwrap();
        by_schema.entry(schema).or_default().push(p);
    }
    assert_eq!(by_schema.len(), 6, "every document kind was written");
    for (schema, files) in &by_schema {
        let path = common::root().join(format!("docs/schemas/{schema}.schema.json"));
        let Some((ok, out)) = check_jsonschema(&path, files) else {
            return;
        };
        assert!(ok, "check-jsonschema rejects {schema} documents:\n{out}");
        assert!(out.contains("ok -- validation done"), "{out}");
    }
    // The check is real: a report whose evidence still joins its input into the path fails.
    let (_, doc, _) = docs
        .iter()
        .find(|(s, d, _)| *s == "report" && d["findings"].as_array().is_some_and(|f| !f.is_empty()))
        .unwrap();
    let mut bad = doc.clone();
    let ev = &mut bad["findings"][0]["evidence"][0];
    ev.as_object_mut().unwrap().remove("input");
    let p = dir.path().join("bad-report.json");
    std::fs::write(&p, serde_json::to_vec(&bad).unwrap()).unwrap();
    let schema = common::root().join("docs/schemas/report.schema.json");
    let (ok, out) = check_jsonschema(&schema, &[p]).unwrap();
    assert!(!ok && out.contains("input"), "{out}");
}

/// The JSON type name of a value (integers apart from other numbers).
fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "float",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Records every key's types (null aside) and checks the shapes named alike.
fn walk(v: &Value, at: &str, key: &str, what: &str, inputs: &[String], types: &mut Types) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let here = format!("{at}.{k}");
                if !x.is_null() {
                    types
                        .entry(here.clone())
                        .or_default()
                        .insert((type_of(x), what.to_string()));
                }
                if k == "evidence" {
                    assert!(x.is_array(), "{what}: `{here}` is one item, not a list");
                }
                if k.ends_with("_seconds") && !x.is_null() {
                    assert_eq!(type_of(x), "integer", "{what}: `{k}` is {x}");
                }
                assert!(
                    !matches!(k.as_str(), "prov" | "subject" | "seconds") && !k.ends_with("_secs"),
                    "{what}: `{k}` is the old name of a shared idea"
                );
                walk(x, &here, k, what, inputs, types);
            }
            let keys: BTreeSet<&str> = m.keys().map(String::as_str).collect();
            if key == "evidence" {
                let allowed = ["input", "path", "line", "span", "text", "label"];
                assert!(
                    keys.iter().all(|k| allowed.contains(k))
                        && keys.contains("input")
                        && keys.contains("path"),
                    "{what}: evidence {v}"
                );
                let path = m["path"].as_str().unwrap();
                for i in inputs.iter().filter(|i| !i.is_empty()) {
                    assert!(!path.starts_with(i.as_str()), "{what}: {path} repeats {i}");
                }
            }
            if key == "object" {
                assert_eq!(
                    keys,
                    BTreeSet::from(["kind", "namespace", "name"]),
                    "{what}: object {v}"
                );
            }
        }
        Value::Array(a) => {
            let here = format!("{at}[]");
            a.iter()
                .for_each(|x| walk(x, &here, key, what, inputs, types))
        }
        _ => {}
    }
}

type Types = BTreeMap<String, BTreeSet<(&'static str, String)>>;

#[test]
fn one_name_has_one_type_in_every_document() {
    let mut types = Types::new();
    for (schema, doc, what) in documents() {
        let inputs: Vec<String> = doc["inputs"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|i| i["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        walk(
            &doc,
            schema,
            "",
            &format!("{schema} {what}"),
            &inputs,
            &mut types,
        );
    }
    // A field keeps one JSON type in every document of its kind, whatever the input (a
    // warehouse infers one column type per field), save the fields that are typed per rule.
    let per_rule = |k: &str| k.contains(".details.");
    let mixed: Vec<String> = types
        .iter()
        .filter(|(k, _)| !per_rule(k))
        .filter_map(|(k, seen)| {
            let kinds: BTreeSet<&str> = seen.iter().map(|(t, _)| *t).collect();
            (kinds.len() > 1).then(|| {
                let eg: Vec<String> = kinds
                    .iter()
                    .map(|t| {
                        let w = seen.iter().find(|(x, _)| x == t).map_or("", |(_, w)| w);
                        format!("{t} in {w}")
                    })
                    .collect();
                format!("`{k}`: {}", eg.join("; "))
            })
        })
        .collect();
    assert!(
        mixed.is_empty(),
        "keys with more than one type:\n{}",
        mixed.join("\n")
    );
}
