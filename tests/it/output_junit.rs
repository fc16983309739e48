//! JUnit as CI dashboards need it: case names that never change between a passing and a
//! failing run of a rule, multi-line failure messages kept, the document valid against the
//! Jenkins xunit schema (checked by xmllint, an independent validator), and a JUnit file with
//! a failing case when the input cannot be read.

use crate::common;
use mglint::output::{Format, RenderOptions, render};
use std::collections::BTreeSet;

fn junit(input: &str) -> String {
    render(
        &common::report(&[input.to_string()], &[]),
        Format::Junit,
        &RenderOptions::default(),
    )
}

fn case_names(xml: &str) -> BTreeSet<String> {
    let mut r = quick_xml::Reader::from_str(xml);
    let mut names = BTreeSet::new();
    loop {
        match r.read_event().expect("well-formed XML") {
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)
                if e.name().as_ref() == b"testcase" =>
            {
                let a = e.try_get_attribute("name").unwrap().unwrap();
                names.insert(a.unescape_value().unwrap().into_owned());
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    names
}

/// The `<testcase>` element of one case, as text.
fn case<'a>(xml: &'a str, name: &str) -> &'a str {
    let start = xml
        .find(&format!("<testcase name=\"{name}\""))
        .unwrap_or_else(|| panic!("no case {name}"));
    let rest = &xml[start..];
    let tag_end = rest.find('>').unwrap();
    if rest[..tag_end].ends_with('/') {
        return &rest[..tag_end];
    }
    &rest[..rest.find("</testcase>").unwrap()]
}

#[test]
fn a_rule_is_the_same_test_whether_it_passes_or_fails() {
    let failing = junit("fixtures/rules/CV002/fail/clusterversion.yaml");
    let passing = junit("fixtures/rules/CV002/pass/clusterversion.yaml");
    let name = "[mglint] CV002 reconcile-stalled-on-preconditions";
    assert!(case(&failing, name).contains("<failure "));
    assert!(!case(&passing, name).contains("<failure "));
    // The same set of tests in both runs: names carry no object, so their number is bounded.
    assert_eq!(case_names(&failing), case_names(&passing));
    // The objects and evidence are in the failure body.
    let body = case(&failing, name);
    assert!(
        body.contains("clusterversion/version") && body.contains("evidence: "),
        "{body}"
    );
}

#[test]
fn multi_line_failure_messages_are_kept() {
    let xml = junit("fixtures/rules/CI001/fail");
    let body = case(&xml, "[mglint] CI001 upgrade-test-failed");
    let lines = body.lines().filter(|l| l.starts_with("  ")).count();
    assert!(lines >= 2, "the failure message lost its lines:\n{body}");
}

#[test]
fn junit_is_valid_against_the_jenkins_schema() {
    let Ok(probe) = std::process::Command::new("xmllint")
        .arg("--version")
        .output()
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have xmllint (libxml2-utils)"
        );
        eprintln!("note: xmllint not installed; skipping the XSD check");
        return;
    };
    assert!(probe.status.success());
    let xsd = common::root().join("tests/it/data/junit-jenkins.xsd");
    let dir = tempfile::tempdir().unwrap();
    for input in [
        "fixtures/must-gather/seed1-blocked",
        "fixtures/ci/seed2-rollback-4.3",
        "fixtures/rules/CI001/fail",
        "fixtures/bad",
    ] {
        let file = dir.path().join("junit.xml");
        std::fs::write(&file, junit(input)).unwrap();
        let o = std::process::Command::new("xmllint")
            .args(["--noout", "--schema"])
            .arg(&xsd)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{input}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // The exit-2 document too.
    let file = dir.path().join("unreadable.xml");
    let o = common::mglint(&["analyze", "/no/such/input", "-o", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let o = std::process::Command::new("xmllint")
        .args(["--noout", "--schema"])
        .arg(&xsd)
        .arg(&file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn an_unreadable_input_is_a_failing_case_next_to_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("junit_mglint.xml");
    let blocked = common::fixture("must-gather/seed1-blocked");
    let o = common::mglint(&[
        "analyze",
        blocked.to_str().unwrap(),
        "/no/such/input",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let xml = std::fs::read_to_string(&file).unwrap();
    let inputs = case(&xml, "[mglint] inputs can be read");
    assert!(
        inputs.contains("<failure ") && inputs.contains("/no/such/input"),
        "{inputs}"
    );
    assert!(case(&xml, "[mglint] CV002 reconcile-stalled-on-preconditions").contains("<failure "));
}

#[test]
fn a_run_that_read_nothing_keeps_every_rule_case_skipped_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, bad) = (dir.path().join("ok.xml"), dir.path().join("bad.xml"));
    let blocked = common::fixture("must-gather/seed1-blocked");
    let o = common::mglint(&[
        "analyze",
        blocked.to_str().unwrap(),
        "-o",
        ok.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = common::mglint(&["analyze", "/no/such/input", "-o", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let (ok, bad) = (
        std::fs::read_to_string(ok).unwrap(),
        std::fs::read_to_string(bad).unwrap(),
    );
    // The same test names as a run that analysed, so the dashboard's history continues.
    let names = case_names(&bad);
    assert_eq!(names, case_names(&ok));
    assert!(names.len() > 30, "{}", names.len());
    let skipped = bad
        .matches("<skipped message=\"not run: no input could be read\"")
        .count();
    assert_eq!(skipped, names.len() - 1, "{bad}");
    assert!(case(&bad, "[mglint] inputs can be read").contains("/no/such/input"));
}

#[test]
fn property_names_are_unique_in_every_suite() {
    let a = common::fixture("must-gather/seed1-blocked");
    let b = common::fixture("ci/modern-upgrade-4.14");
    let c = common::fixture("files/cv-4.3-verification.yaml");
    let o = common::mglint(&[
        "analyze",
        "--format",
        "junit",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        c.to_str().unwrap(),
    ]);
    let xml = String::from_utf8(o.stdout).unwrap();
    let re = regex::Regex::new(r#"<property name="([^"]*)""#).unwrap();
    let suites: Vec<&str> = xml.split("<testsuite ").skip(1).collect();
    assert!(suites.len() >= 2, "{xml}");
    // Unique in the whole document, not only in each suite: xunitparser reads every suite's
    // properties into one map and refuses a name it has seen.
    let mut seen = std::collections::BTreeSet::new();
    for (i, s) in suites.iter().enumerate() {
        let names: Vec<&str> = re
            .captures_iter(s)
            .map(|c| c.get(1).unwrap().as_str())
            .collect();
        for n in &names {
            assert!(seen.insert(n.to_string()), "{n} repeated: {names:?}");
        }
        let id = format!("cluster{}.cluster.id", i + 1);
        assert!(names.contains(&id.as_str()), "{names:?}");
    }
}

/// What xunitparser (PyPI) reads from a JUnit file: its tests, failures and property count,
/// or `None` when it is not installed (a failure under `CI=true`: `.ci/run` installs it).
/// It reads a `<testsuites>` document into one suite and asserts that the counts the root
/// states are the counts of its cases and that no property name repeats.
fn xunitparser(file: &std::path::Path) -> Option<String> {
    let script = r#"import sys
import xunitparser
ts, tr = xunitparser.parse(open(sys.argv[1]))
print(len(list(ts)), len(tr.failures), len(ts.properties))
"#;
    common::python_with("xunitparser", script, file)
}

#[test]
fn xunitparser_reads_a_document_of_several_clusters() {
    // The HyperShift dump (three clusters), and a must-gather beside a CI job of another
    // cluster (two): every suite is read, each with its properties.
    let dir = tempfile::tempdir().unwrap();
    let mixed = dir.path().join("mixed");
    std::fs::create_dir_all(mixed.join("job")).unwrap();
    common::copy_tree(&common::fixture("must-gather/seed1-blocked"), &mixed);
    common::copy_tree(
        &common::fixture("ci/modern-upgrade-4.14"),
        &mixed.join("job"),
    );
    let hypershift = common::fixture("must-gather/hypershift-mgmt-two-hosted");
    for (input, suites) in [(hypershift.as_path(), 3), (mixed.as_path(), 2)] {
        let file = dir.path().join(format!("{suites}.xml"));
        common::mglint(&[
            "analyze",
            "--exit-zero",
            input.to_str().unwrap(),
            "-o",
            file.to_str().unwrap(),
        ]);
        let xml = std::fs::read_to_string(&file).unwrap();
        assert_eq!(xml.matches("<testsuite ").count(), suites, "{xml}");
        let Some(out) = xunitparser(&file) else {
            return;
        };
        let n: Vec<usize> = out.split_whitespace().map(|x| x.parse().unwrap()).collect();
        assert_eq!(n[0], xml.matches("<testcase ").count(), "{out}");
        assert_eq!(n[2], xml.matches("<property ").count(), "{out}");
    }
}

/// What junitparser (PyPI, the parser Python CI tooling uses) reads from a JUnit file: per
/// suite `name tests failures skipped` and its property names, or `None` when it is not
/// installed (a failure under `CI=true`: `.ci/run` installs it).
fn junitparser(file: &std::path::Path) -> Option<String> {
    let script = r#"import sys
from junitparser import JUnitXml
xml = JUnitXml.fromfile(sys.argv[1])
for s in xml:
    names = [p.name for p in s.properties()]
    assert len(names) == len(set(names)), names
    cases = list(s)
    skipped = sum(1 for c in cases if any(r._tag == 'skipped' for r in c.result))
    failed = sum(1 for c in cases if any(r._tag == 'failure' for r in c.result))
    print(s.name, len(cases), s.tests, failed, s.failures, skipped, s.skipped)
"#;
    common::python_with("junitparser", script, file)
}

#[test]
fn junitparser_reads_every_suite_with_its_counts() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.xml");
    let two = dir.path().join("two.xml");
    let none = dir.path().join("none.xml");
    let a = common::fixture("must-gather/seed1-blocked");
    let b = common::fixture("ci/modern-upgrade-4.14");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    common::mglint(&["analyze", a, "-o", one.to_str().unwrap()]);
    common::mglint(&["analyze", a, b, "-o", two.to_str().unwrap()]);
    common::mglint(&["analyze", "/no/such/input", "-o", none.to_str().unwrap()]);
    for (file, suites) in [(&one, 1), (&two, 2), (&none, 1)] {
        let Some(out) = junitparser(file) else { return };
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), suites, "{out}");
        for l in lines {
            // The counts the suite states are the counts of its cases.
            let n: Vec<&str> = l.rsplitn(7, ' ').collect();
            assert_eq!(n[5], n[4], "tests: {l}");
            assert_eq!(n[3], n[2], "failures: {l}");
            assert_eq!(n[1], n[0], "skipped: {l}");
            assert!(n[5].parse::<usize>().unwrap() > 30, "{l}");
        }
    }
}
