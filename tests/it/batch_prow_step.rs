//! The Prow post-step contract: `mglint analyze <job artifacts> --format junit --output
//! $ARTIFACT_DIR/junit_mglint.xml` writes well-formed JUnit that Spyglass's JUnit lens picks up
//! (a `junit*.xml` file, one suite named `mglint`), with unique case names that depend on the
//! rule only (`[mglint] CODE slug`, plus `[mglint] inputs can be read`), one failing case per
//! rule with a finding at or above the fail level, and the exit code a step script can tell
//! apart from a crash (1 = findings, 2 = input error, with the JUnit still written).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The value of attribute `name` in the tag that starts at the beginning of `tag`.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = start + tag[start..].find('"')?;
    Some(unescape(&tag[start..end]))
}

fn object_display(o: &Value) -> String {
    let kind = o["kind"].as_str().unwrap().to_ascii_lowercase();
    let (ns, name) = (
        o["namespace"].as_str().unwrap(),
        o["name"].as_str().unwrap(),
    );
    if ns.is_empty() {
        format!("{kind}/{name}")
    } else {
        format!("{kind}/{ns}/{name}")
    }
}

fn well_formed(xml: &str) {
    let mut r = quick_xml::Reader::from_str(xml);
    loop {
        match r.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!(
                "junit is not well-formed XML at {}: {e}",
                r.buffer_position()
            ),
        }
    }
}

#[test]
fn batch_prow_step_junit_reads_well_in_spyglass() {
    let job = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ci/modern-upgrade-4.14");
    let artifact_dir = tempfile::tempdir().unwrap();
    let junit = artifact_dir.path().join("junit_mglint.xml");
    let json = artifact_dir.path().join("mglint.json");
    let out = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .arg("analyze")
        .arg(&job)
        .args(["--format", "junit", "--output"])
        .arg(&junit)
        .arg(format!("--output=json={}", json.display()))
        .output()
        .unwrap();
    // Error findings: exit 1, not 2 (a step script keeps going on 1, fails on 2).
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout.is_empty(),
        "with --output nothing goes to standard output"
    );

    // Spyglass's JUnit lens reads `artifacts/**/junit*.xml`.
    let file = junit.file_name().unwrap().to_str().unwrap();
    assert!(file.starts_with("junit") && file.ends_with(".xml"));
    let xml = std::fs::read_to_string(&junit).unwrap();
    well_formed(&xml);
    let suites: Vec<&str> = xml
        .match_indices("<testsuite ")
        .map(|(i, _)| &xml[i..])
        .collect();
    assert_eq!(suites.len(), 1, "one suite");
    assert_eq!(attr(suites[0], "name").as_deref(), Some("mglint"));

    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let shape = regex::Regex::new(
        r"^\[mglint\] (([A-Z]+[0-9]{3}) ([a-z0-9]+(-[a-z0-9]+)*)|inputs can be read)$",
    )
    .unwrap();
    let mut names = BTreeSet::new();
    let mut failing = BTreeSet::new();
    let mut codes_seen = BTreeSet::new();
    for (i, _) in xml.match_indices("<testcase ") {
        let tag = &xml[i..];
        let name = attr(tag, "name").unwrap();
        let caps = shape
            .captures(&name)
            .unwrap_or_else(|| panic!("case name reads badly: {name:?}"));
        if let Some(code) = caps.get(2) {
            codes_seen.insert(code.as_str().to_string());
        }
        assert!(names.insert(name.clone()), "duplicate case name {name:?}");
        let body_end = tag.find("</testcase>").unwrap_or(0);
        let self_closing = tag[..tag.find('>').unwrap()].ends_with('/');
        if !self_closing && tag[..body_end].contains("<failure ") {
            failing.insert(name.trim_start_matches("[mglint] ").to_string());
        }
    }
    // Every rule of the report is a case.
    let rules: BTreeSet<String> = report["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(codes_seen, rules);
    // One failing case per rule with a finding at or above the fail level.
    assert_eq!(report["fail_on"], "error");
    let expected: BTreeSet<String> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .map(|f| {
            format!(
                "{} {}",
                f["code"].as_str().unwrap(),
                f["name"].as_str().unwrap()
            )
        })
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(failing, expected);
    // The objects are in the failure body (the first failing rule's).
    let first = expected.iter().next().unwrap().clone();
    let code = first.split(' ').next().unwrap().to_string();
    let co002 = &xml[xml.find(&format!("{first}\"")).unwrap()..];
    let co002 = &co002[..co002.find("</testcase>").unwrap()];
    let objects: BTreeSet<String> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == code.as_str())
        .map(|f| object_display(&f["object"]))
        .collect();
    for o in &objects {
        assert!(co002.contains(o.as_str()), "{o} in {co002}");
    }
    assert_eq!(
        attr(suites[0], "failures"),
        Some(expected.len().to_string())
    );
}

#[test]
fn batch_prow_step_missing_artifacts_exit_2_and_still_write_junit() {
    let artifact_dir = tempfile::tempdir().unwrap();
    let junit = artifact_dir.path().join("junit_mglint.xml");
    let out = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args([
            "analyze",
            "/nonexistent/artifacts",
            "--format",
            "junit",
            "--output",
        ])
        .arg(&junit)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/artifacts"));
    // The dashboard sees why: one failing case naming the unreadable input.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let case = &xml[xml
        .find("<testcase name=\"[mglint] inputs can be read\"")
        .unwrap()..];
    let case = &case[..case.find("</testcase>").unwrap()];
    assert!(
        case.contains("<failure ") && case.contains("/nonexistent/artifacts"),
        "{xml}"
    );
    assert_eq!(
        attr(&xml[xml.find("<testsuite ").unwrap()..], "failures").as_deref(),
        Some("1")
    );
}
