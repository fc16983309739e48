//! SARIF that GitHub code scanning ingests, checked by the rules GitHub's ingestion enforces
//! (written from GitHub's published SARIF support page and limits, and the checks of
//! Sarif.Multitool's GHAS rule kind, which needs .NET and does not run here):
//! - GH1011/GH1013: `$schema` names 2.1.0, `version` is 2.1.0, 1 to 20 runs;
//! - GH1014/GH1018: every run has `results` and `tool.driver` with a name and `rules`;
//! - GH1015/GH1016/GH1017: every result has a non-blank `message.text` and 1 to 1,000
//!   locations, each with `physicalLocation.artifactLocation.uri`;
//! - GH2012: every rule has non-blank `shortDescription`, `fullDescription` and `help` text,
//!   the descriptions at most 1,024 characters, the name at most 255, at most 20 tags;
//! - the same-category rule: no two runs share (driver name, version, semantic version,
//!   `automationDetails.id`) ("A delivery cannot contain multiple runs with the same
//!   category");
//! - a run that analysed nothing says `executionSuccessful: false` and why.
//!
//! Run on every fixture (built-in and the bundled known-issue rules), two clusters at once,
//! and a run whose only input cannot be read (exit 2, SARIF still written).

use crate::common;
use serde_json::Value;
use std::collections::BTreeSet;

fn blank(v: &Value) -> bool {
    v.as_str().is_none_or(|s| s.trim().is_empty())
}

/// Every problem GitHub's ingestion would have with `doc`, as `pointer: problem`.
fn github_problems(doc: &Value) -> Vec<String> {
    let mut p = Vec::new();
    let schema = doc["$schema"].as_str().unwrap_or("");
    if !(schema.ends_with("2.1.0") || schema.ends_with("2.1.0.json")) {
        p.push(format!("/$schema: {schema:?} does not name 2.1.0 (GH1011)"));
    }
    if doc["version"] != "2.1.0" {
        p.push("/version: not 2.1.0 (GH1013)".into());
    }
    let Some(runs) = doc["runs"].as_array() else {
        return vec!["/runs: missing (GH1013)".into()];
    };
    if runs.is_empty() || runs.len() > 20 {
        p.push(format!("/runs: {} runs, GitHub takes 1 to 20", runs.len()));
    }
    let mut keys = BTreeSet::new();
    for (i, run) in runs.iter().enumerate() {
        let at = format!("/runs/{i}");
        let d = &run["tool"]["driver"];
        if blank(&d["name"]) {
            p.push(format!("{at}/tool/driver/name: blank (GH1018)"));
        }
        let Some(rules) = d["rules"].as_array() else {
            p.push(format!("{at}/tool/driver/rules: missing (GH1018)"));
            continue;
        };
        if rules.len() > 25_000 {
            p.push(format!("{at}: {} rules, over 25,000", rules.len()));
        }
        let key = (
            d["name"].to_string(),
            d["fullName"].to_string(),
            d["version"].to_string(),
            d["semanticVersion"].to_string(),
            d["guid"].to_string(),
            run["automationDetails"]["id"].to_string(),
        );
        if !keys.insert(key) {
            p.push(format!(
                "{at}/automationDetails/id: {} repeats a run's category",
                run["automationDetails"]["id"]
            ));
        }
        for (j, r) in rules.iter().enumerate() {
            let at = format!("{at}/tool/driver/rules/{j} ({})", r["id"]);
            for key in ["shortDescription", "fullDescription", "help"] {
                let text = &r[key]["text"];
                if blank(text) {
                    p.push(format!("{at}/{key}/text: blank (GH2012)"));
                }
                if key != "help" && text.as_str().is_some_and(|t| t.chars().count() > 1024) {
                    p.push(format!("{at}/{key}/text: over 1,024 characters"));
                }
            }
            if r["name"].as_str().is_some_and(|n| n.chars().count() > 255) {
                p.push(format!("{at}/name: over 255 characters"));
            }
            if r["properties"]["tags"]
                .as_array()
                .is_some_and(|t| t.len() > 20)
            {
                p.push(format!("{at}/properties/tags: over 20 tags"));
            }
        }
        let Some(results) = run["results"].as_array() else {
            p.push(format!("{at}/results: missing (GH1014)"));
            continue;
        };
        if results.len() > 25_000 {
            p.push(format!("{at}: {} results, over 25,000", results.len()));
        }
        for (k, res) in results.iter().enumerate() {
            let at = format!("{at}/results/{k} ({})", res["ruleId"]);
            if blank(&res["message"]["text"]) {
                p.push(format!("{at}/message/text: blank (GH1015)"));
            }
            match res["locations"].as_array() {
                None => p.push(format!("{at}/locations: missing (GH1015)")),
                Some(l) if l.is_empty() || l.len() > 1000 => {
                    p.push(format!("{at}/locations: {} locations (GH1015)", l.len()));
                }
                Some(_) => {}
            }
            for key in ["locations", "relatedLocations"] {
                for (m, l) in res[key].as_array().into_iter().flatten().enumerate() {
                    if blank(&l["physicalLocation"]["artifactLocation"]["uri"]) {
                        p.push(format!(
                            "{at}/{key}/{m}: no artifactLocation.uri (GH1016/17)"
                        ));
                    }
                    let uri = l["physicalLocation"]["artifactLocation"]["uri"]
                        .as_str()
                        .unwrap_or("");
                    if uri.contains("://") && !uri.starts_with("file://") {
                        p.push(format!("{at}/{key}/{m}: absolute non-file URI (GH1005)"));
                    }
                }
            }
        }
        // SARIF1004: a base's URI ends with `/`, has no `.` or `..` segment, and is absolute
        // when it is relative to no other base.
        for (id, base) in run["originalUriBaseIds"].as_object().into_iter().flatten() {
            let Some(uri) = base["uri"].as_str() else {
                continue;
            };
            let path = uri.strip_prefix("file://").unwrap_or(uri);
            if path.split('/').any(|s| s == ".." || s == ".") || !uri.ends_with('/') {
                p.push(format!("{at}/originalUriBaseIds/{id}: {uri} (SARIF1004)"));
            }
            if base["uriBaseId"].is_null() && !uri.starts_with("file:///") {
                p.push(format!(
                    "{at}/originalUriBaseIds/{id}: {uri} is relative (SARIF1004)"
                ));
            }
        }
        for inv in run["invocations"].as_array().into_iter().flatten() {
            if !inv["executionSuccessful"].is_boolean() {
                p.push(format!("{at}/invocations: executionSuccessful missing"));
            }
            for n in inv["toolExecutionNotifications"]
                .as_array()
                .into_iter()
                .flatten()
            {
                if blank(&n["message"]["text"]) {
                    p.push(format!("{at}: a notification with a blank message"));
                }
            }
        }
    }
    p
}

fn sarif(args: &[&str]) -> (Value, Option<i32>) {
    let mut all = vec!["analyze", "--format", "sarif", "--exit-zero"];
    all.extend(args);
    let o = common::mglint(&all);
    let text = String::from_utf8(o.stdout).unwrap();
    let doc = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{args:?}: {e}: {text}\n{}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    (doc, o.status.code())
}

#[test]
fn every_fixture_gives_sarif_that_github_ingests() {
    let inputs = crate::json_schemas::INPUTS
        .into_iter()
        .chain(["fixtures/files/cv-healthy-4.14.yaml"]);
    for input in inputs {
        let path = common::root().join(input);
        let (doc, code) = sarif(&[path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{input}");
        let problems = github_problems(&doc);
        assert!(problems.is_empty(), "{input}:\n{}", problems.join("\n"));
        let run = &doc["runs"][0];
        assert_eq!(run["automationDetails"]["id"], "mglint/analyze/");
        assert_eq!(run["invocations"][0]["executionSuccessful"], true);
        // The known-issue rules (bundled catalogue) are among the rules and described.
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert!(
            rules
                .iter()
                .any(|r| r["id"].as_str().unwrap().starts_with("KI")),
            "{input}: no known-issue rule"
        );
    }
}

#[test]
fn messages_carry_markdown_beside_plain_text() {
    let path = common::root().join("fixtures/must-gather/seed1-blocked");
    let (doc, _) = sarif(&[path.to_str().unwrap()]);
    let results = doc["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        let text = r["message"]["text"].as_str().unwrap();
        assert!(!text.contains('`'), "{text}");
        if let Some(md) = r["message"]["markdown"].as_str() {
            assert!(md.contains('`'));
            // The Markdown (escaped as the Markdown report's prose) reads as the text.
            assert_eq!(markdown_as_text(md), text);
        }
    }
}

/// What a reader sees of inline Markdown: its text and code spans, breaks as newlines.
fn markdown_as_text(md: &str) -> String {
    use pulldown_cmark::{Event, Parser};
    Parser::new(md)
        .map(|e| match e {
            Event::Text(t) | Event::Code(t) => t.to_string(),
            Event::SoftBreak | Event::HardBreak => "\n".to_string(),
            _ => String::new(),
        })
        .collect()
}

#[test]
fn inputs_outside_the_working_directory_get_absolute_bases() {
    // `../mg` gave the base `../mg/…/` relative to %SRCROOT%, which GitHub refuses
    // (SARIF1004); outside the working directory the base is absolute, as for an absolute
    // input, and both name the same directory.
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let mg = dir.path().join("mg");
    std::fs::create_dir(&mg).unwrap();
    common::copy_tree(&common::fixture("must-gather/seed1-blocked"), &mg);
    let run = |input: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_mglint"))
            .current_dir(&work)
            .args(["analyze", "--format", "sarif", "--exit-zero", input])
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{input}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
        let problems = github_problems(&doc);
        assert!(problems.is_empty(), "{input}:\n{}", problems.join("\n"));
        doc["runs"][0]["originalUriBaseIds"]["INPUT1"].clone()
    };
    let absolute = mg.to_str().unwrap().to_string();
    let (up, abs, dotted) = (
        run("../mg"),
        run(&absolute),
        run(&format!("{absolute}/../mg")),
    );
    let uri = up["uri"].as_str().unwrap();
    assert!(uri.starts_with("file:///") && !uri.contains("/../"), "{up}");
    assert!(up["uriBaseId"].is_null(), "{up}");
    assert_eq!(up["uri"], abs["uri"]);
    assert_eq!(dotted["uri"], abs["uri"]);
    assert!(run("../work/../mg")["uri"] == abs["uri"]);
}

#[test]
fn two_clusters_are_two_runs_of_different_categories() {
    let a = common::root().join("fixtures/must-gather/seed1-blocked");
    let b = common::root().join("fixtures/ci/modern-upgrade-4.14");
    let (doc, _) = sarif(&[a.to_str().unwrap(), b.to_str().unwrap()]);
    let problems = github_problems(&doc);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    let ids: BTreeSet<&str> = runs
        .iter()
        .map(|r| r["automationDetails"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    for r in runs {
        let id = r["properties"]["cluster"]["id"].as_str().unwrap();
        assert_eq!(
            r["automationDetails"]["id"],
            format!("mglint/analyze/{id}/"),
            "the category names the cluster"
        );
    }
}

#[test]
fn a_run_that_read_nothing_still_writes_sarif_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.sarif");
    let o = common::mglint(&[
        "analyze",
        "/no/such/must-gather",
        "-o",
        &format!("sarif={}", out.display()),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let problems = github_problems(&doc);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let inv = &doc["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    let why = inv["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(why.contains("/no/such/must-gather"), "{why}");
    // Every rule is still declared, and each is skipped with the reason.
    let rules = doc["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.len() > 30, "{}", rules.len());
    let skipped = inv["toolConfigurationNotifications"].as_array().unwrap();
    assert_eq!(skipped.len(), rules.len());
}

#[test]
fn the_checker_sees_what_github_refuses() {
    // The checker itself: a log with a blank description, a result with no location and two
    // runs of one category is refused on each count.
    let run = serde_json::json!({
        "tool": {"driver": {"name": "mglint", "version": "1", "rules": [
            {"id": "X1", "shortDescription": {"text": "s"}, "fullDescription": {"text": ""},
             "help": {"text": "h"}}
        ]}},
        "automationDetails": {"id": "mglint/analyze/"},
        "results": [{"ruleId": "X1", "message": {"text": "m"}, "locations": []}],
    });
    let doc = serde_json::json!({"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0", "runs": [run.clone(), run]});
    let p = github_problems(&doc).join("\n");
    assert!(p.contains("fullDescription/text: blank"), "{p}");
    assert!(p.contains("0 locations"), "{p}");
    assert!(p.contains("repeats a run's category"), "{p}");
}

#[test]
fn more_clusters_than_github_takes_runs_give_one_file_per_cluster() {
    // 21 clusters (GitHub takes 20 runs a file): one SARIF per cluster, each in its own
    // category, said on stderr.
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    for i in 0..21 {
        let p = dir.path().join(format!("cv{i}.yaml"));
        let cv = common::healthy_cv_of_cluster(&format!("00000000-0000-4000-8000-{i:012}"));
        std::fs::write(&p, cv).unwrap();
        inputs.push(p.to_string_lossy().into_owned());
    }
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let target = format!("sarif={}", out.join("r.sarif").display());
    let mut args = vec!["analyze", "--exit-zero", "-o", &target];
    args.extend(inputs.iter().map(String::as_str));
    let o = common::mglint(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("at most 20 runs"));
    let mut categories = BTreeSet::new();
    for i in 1..=21 {
        let text = std::fs::read_to_string(out.join(format!("r.{i}.sarif"))).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        let problems = github_problems(&doc);
        assert!(problems.is_empty(), "{i}: {}", problems.join("\n"));
        assert_eq!(doc["runs"].as_array().unwrap().len(), 1);
        categories.insert(
            doc["runs"][0]["automationDetails"]["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(categories.len(), 21);
    assert!(!out.join("r.sarif").exists());
}
