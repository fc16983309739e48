//! The machine formats parse back and have the structure their schemas require: JUnit XML as
//! Jenkins/Spyglass read it (testsuites > testsuite > testcase, counts that match, failure and
//! skipped with a message), SARIF 2.1.0 (version, runs, tool.driver with rules, results with
//! ruleId/ruleIndex/level/message/locations), and the mglint/report/v2 JSON report.

use crate::common;
use mglint::output::{Format, RenderOptions, render};
use mglint::rules::Report;
use quick_xml::events::Event;
use serde_json::Value;
use std::collections::BTreeMap;

fn report(inputs: &[&str]) -> Report {
    let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
    common::report(&inputs, &[])
}

const INPUTS: [&[&str]; 3] = [
    &["fixtures/must-gather/seed1-blocked"],
    &["fixtures/ci/seed2-rollback-4.3"],
    &["fixtures/files/cv-4.3-verification.yaml"],
];

#[derive(Debug, Default)]
struct Case {
    attrs: BTreeMap<String, String>,
    children: Vec<(String, BTreeMap<String, String>)>,
}

fn attrs(e: &quick_xml::events::BytesStart<'_>) -> BTreeMap<String, String> {
    e.attributes()
        .map(|a| {
            let a = a.unwrap();
            (
                String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                a.unescape_value().unwrap().to_string(),
            )
        })
        .collect()
}

/// Parses the JUnit document: (testsuites attrs, testsuite attrs, cases), checking nesting.
fn parse_junit(
    xml: &str,
) -> (
    BTreeMap<String, String>,
    BTreeMap<String, String>,
    Vec<Case>,
) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut stack: Vec<String> = Vec::new();
    let (mut suites, mut suite, mut cases) = (BTreeMap::new(), BTreeMap::new(), Vec::<Case>::new());
    loop {
        let ev = reader.read_event().expect("well-formed XML");
        let (name, a, empty) = match &ev {
            Event::Start(e) => (
                String::from_utf8(e.name().as_ref().to_vec()).unwrap(),
                attrs(e),
                false,
            ),
            Event::Empty(e) => (
                String::from_utf8(e.name().as_ref().to_vec()).unwrap(),
                attrs(e),
                true,
            ),
            Event::End(_) => {
                stack.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let parent = stack.last().map(String::as_str);
        match name.as_str() {
            "testsuites" => {
                assert_eq!(parent, None);
                suites = a;
            }
            "testsuite" => {
                assert_eq!(parent, Some("testsuites"));
                suite = a;
            }
            "properties" => assert_eq!(parent, Some("testsuite")),
            "property" => {
                assert_eq!(parent, Some("properties"));
                assert!(a.contains_key("name") && a.contains_key("value"));
            }
            "testcase" => {
                assert_eq!(parent, Some("testsuite"));
                cases.push(Case {
                    attrs: a,
                    children: Vec::new(),
                });
            }
            "failure" | "skipped" | "system-out" | "error" => {
                assert_eq!(parent, Some("testcase"), "{name}");
                cases.last_mut().unwrap().children.push((name.clone(), a));
            }
            other => panic!("unexpected element <{other}>"),
        }
        if !empty {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    (suites, suite, cases)
}

#[test]
fn junit_has_the_structure_prow_reads() {
    for inputs in INPUTS {
        let r = report(inputs);
        let xml = render(&r, Format::Junit, &RenderOptions::default());
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
        let (suites, suite, cases) = parse_junit(&xml);
        let count = |kind: &str| {
            cases
                .iter()
                .filter(|c| c.children.iter().any(|(n, _)| n == kind))
                .count()
        };
        for top in [&suites, &suite] {
            assert_eq!(top["tests"].parse::<usize>().unwrap(), cases.len());
            assert_eq!(top["failures"].parse::<usize>().unwrap(), count("failure"));
            assert_eq!(top["errors"], "0");
        }
        // Jenkins' junit-10.xsd has no `skipped` on `testsuites`; the suite carries it.
        assert!(!suites.contains_key("skipped"));
        assert_eq!(suite["skipped"].parse::<usize>().unwrap(), count("skipped"));
        assert_eq!(suite["name"], "mglint");
        for c in &cases {
            assert!(!c.attrs["name"].is_empty() && c.attrs["classname"].starts_with("mglint."));
            for (n, a) in &c.children {
                if n == "failure" {
                    assert!(!a["message"].is_empty() && !a["type"].is_empty());
                }
                if n == "skipped" {
                    assert!(a["message"].starts_with("needs "));
                }
            }
        }
        // One case per rule, plus the inputs case: failures are the rules with a finding at
        // or above the fail level, skipped cases the skipped rules.
        assert_eq!(cases.len(), r.rules.len() + 1);
        let mut failing: Vec<&str> = r
            .findings
            .iter()
            .filter(|f| f.severity >= r.fail_on)
            .map(|f| &*f.code)
            .collect();
        failing.sort();
        failing.dedup();
        assert_eq!(count("failure"), failing.len());
        assert_eq!(count("skipped"), r.summary.rules_skipped);
        let names: std::collections::BTreeSet<&str> =
            cases.iter().map(|c| c.attrs["name"].as_str()).collect();
        assert_eq!(names.len(), cases.len(), "case names are unique");
    }
}

fn s<'a>(v: &'a Value, ptr: &str) -> &'a str {
    v.pointer(ptr)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("missing string at {ptr}"))
}

#[test]
fn sarif_has_the_structure_of_2_1_0() {
    for inputs in INPUTS {
        let r = report(inputs);
        let doc: Value =
            serde_json::from_str(&render(&r, Format::Sarif, &RenderOptions::default())).unwrap();
        assert_eq!(s(&doc, "/version"), "2.1.0");
        assert_eq!(
            s(&doc, "/$schema"),
            "https://json.schemastore.org/sarif-2.1.0.json"
        );
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1);
        let run = &runs[0];
        assert_eq!(s(run, "/tool/driver/name"), "mglint");
        let rules = run
            .pointer("/tool/driver/rules")
            .and_then(Value::as_array)
            .unwrap();
        assert_eq!(rules.len(), r.rules.len());
        for rule in rules {
            assert!(!s(rule, "/id").is_empty());
            assert!(!s(rule, "/shortDescription/text").is_empty());
            assert!(["error", "warning", "note"].contains(&s(rule, "/defaultConfiguration/level")));
        }
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), r.findings.len());
        for (res, f) in results.iter().zip(&r.findings) {
            assert_eq!(s(res, "/ruleId"), f.code);
            let idx = res["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(
                s(&rules[idx], "/id"),
                f.code,
                "ruleIndex points at the rule"
            );
            assert!(["error", "warning", "note"].contains(&s(res, "/level")));
            // Plain text for GitHub's title, the Markdown (backticks, the rest escaped)
            // beside it, reading the same.
            assert_eq!(s(res, "/message/text"), f.message.replace('`', ""));
            if f.message.contains('`') {
                let md = s(res, "/message/markdown");
                let read: String = pulldown_cmark::Parser::new(md)
                    .map(|e| match e {
                        pulldown_cmark::Event::Text(t) => t.to_string(),
                        pulldown_cmark::Event::Code(t) => format!("`{t}`"),
                        pulldown_cmark::Event::SoftBreak | pulldown_cmark::Event::HardBreak => {
                            "\n".to_string()
                        }
                        _ => String::new(),
                    })
                    .collect();
                // Prose keeps the message's lines, not its blank ones.
                let lines: Vec<&str> = f
                    .message
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect();
                assert_eq!(read, lines.join("\n"));
            }
            for loc in res["locations"]
                .as_array()
                .unwrap()
                .iter()
                .chain(res["relatedLocations"].as_array().into_iter().flatten())
            {
                let uri = s(loc, "/physicalLocation/artifactLocation/uri");
                assert!(!uri.is_empty() && !uri.contains(' '), "{uri}");
                if let Some(line) = loc.pointer("/physicalLocation/region/startLine") {
                    assert!(line.as_u64().unwrap() >= 1);
                }
            }
            if let Some(rel) = res["relatedLocations"].as_array() {
                for (i, loc) in rel.iter().enumerate() {
                    assert_eq!(loc["id"].as_u64(), Some(i as u64 + 1));
                }
            }
        }
        let notes = run
            .pointer("/invocations/0/toolConfigurationNotifications")
            .and_then(Value::as_array)
            .unwrap();
        assert_eq!(notes.len(), r.summary.rules_skipped);
        for n in notes {
            assert!(!s(n, "/message/text").is_empty() && !s(n, "/descriptor/id").is_empty());
        }
        assert_eq!(
            run.pointer("/invocations/0/executionSuccessful"),
            Some(&Value::Bool(true))
        );
    }
}

#[test]
fn json_report_is_versioned_and_self_describing() {
    let r = report(INPUTS[0]);
    let doc: Value =
        serde_json::from_str(&render(&r, Format::Json, &RenderOptions::default())).unwrap();
    assert_eq!(s(&doc, "/schema"), "mglint/report/v2");
    assert_eq!(s(&doc, "/tool/name"), "mglint");
    assert_eq!(s(&doc, "/fail_on"), "error");
    let findings = doc["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        for key in ["code", "name", "severity", "category", "message", "help"] {
            assert!(f[key].is_string(), "{key}");
        }
        for key in ["kind", "namespace", "name"] {
            assert!(f["object"][key].is_string(), "object.{key}");
        }
        assert!(f["at"].is_string() || f["at"].is_null());
        assert!(f["references"].is_array());
        for e in f["evidence"].as_array().unwrap() {
            assert!(e["path"].is_string() && e["text"].is_string());
            assert!(e["line"].is_u64() || e["line"].is_null());
        }
    }
    for rule in doc["rules"].as_array().unwrap() {
        assert!(["ran", "skipped"].contains(&s(rule, "/status")));
    }
    let sum = &doc["summary"];
    assert_eq!(sum["errors"].as_u64().unwrap() as usize, r.summary.errors);
}
