//! JUnit XML for CI dashboards (Prow's Spyglass, TestGrid, Sippy, Jenkins), written with
//! quick-xml's writer. One suite `mglint`; one test case per selected rule whose name never
//! changes (`[mglint] CV002 reconcile-stalled-on-preconditions`, so a dashboard sees the same
//! test turn red), plus `[mglint] inputs can be read`. A rule's case fails when it has findings
//! at or above the fail level (its objects, messages and evidence in the failure body), is
//! skipped when its inputs were absent, and passes otherwise; findings below the fail level go
//! to the case's `<system-out>` and are counted in the suite's properties. Valid against the
//! Jenkins xunit plugin's `junit-10.xsd`.

use super::paths::Bases;
use crate::rules::{Finding, Report, Severity, Status};
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};
use std::fmt::Write as _;
use std::io;

/// The name of the case that says whether every input could be read.
pub const INPUTS_CASE: &str = "[mglint] inputs can be read";

/// `[mglint] CODE slug`: the prefix attributes the case to mglint in Spyglass, Sippy and CI
/// search; the name depends on the rule only.
pub fn case_name(code: &str, name: &str) -> String {
    format!("[mglint] {code} {name}")
}

/// What XML 1.0 can carry: control characters other than tab and newline (ANSI escapes,
/// which XML 1.0 cannot hold) and bidirectional overrides shown as `\x1b`, `\u{202e}`
/// ([`crate::vocab::escape::show_controls`]), the non-characters U+FFFE/U+FFFF dropped; the
/// writer escapes the rest.
fn xml_chars(s: &str) -> String {
    crate::vocab::escape::show_controls(s)
        .chars()
        .filter(|&c| c != '\u{FFFE}' && c != '\u{FFFF}')
        .collect()
}

/// One line for an attribute (parsers turn a newline in an attribute into a space).
fn attr(s: &str) -> String {
    xml_chars(&s.replace(['\n', '\t'], " "))
}

fn finding_text(f: &Finding, bases: &Bases<'_>) -> String {
    let mut t = format!("{} [{}] {}\n", f.object.display(), f.severity, f.code);
    for l in f.message.lines() {
        let _ = writeln!(t, "  {l}");
    }
    if let Some(at) = f.at {
        let _ = writeln!(t, "at: {}", crate::rules::fmt_short(&at));
    }
    for e in &f.evidence {
        let path = bases.short(e);
        match e.line {
            Some(l) => {
                let _ = writeln!(t, "evidence: {path}:{l}: {}", e.text);
            }
            None => {
                let _ = writeln!(t, "evidence: {path}: {}", e.text);
            }
        }
    }
    if !f.help.is_empty() {
        let _ = writeln!(t, "help: {}", f.help);
    }
    t
}

struct Case {
    classname: String,
    name: String,
    /// (message, type, body) of the failure.
    failure: Option<(String, String, String)>,
    skipped: Option<String>,
    out: String,
}

impl Case {
    fn passing(classname: &str, name: String) -> Case {
        Case {
            classname: classname.to_string(),
            name,
            failure: None,
            skipped: None,
            out: String::new(),
        }
    }
}

/// The case of one rule.
fn rule_case(report: &Report, r: &crate::rules::RuleOutcome, bases: &Bases<'_>) -> Case {
    let mut case = Case::passing(
        &format!("mglint.{}", r.category),
        case_name(&r.code, &r.name),
    );
    if r.status == Status::Skipped {
        case.skipped = Some(r.reason.clone().unwrap_or_else(|| "inputs absent".into()));
        return case;
    }
    let (failing, below): (Vec<&Finding>, Vec<&Finding>) = report
        .findings_of(&r.code)
        .partition(|f| f.severity >= report.fail_on);
    if let Some(first) = failing.first() {
        let first_line = first.message.lines().next().unwrap_or("");
        let mut message = format!("{}: {first_line}", first.object.display());
        if failing.len() > 1 {
            let _ = write!(message, " (and {} more)", failing.len() - 1);
        }
        let body: Vec<String> = failing.iter().map(|f| finding_text(f, bases)).collect();
        case.failure = Some((message, first.severity.to_string(), body.join("\n")));
    }
    let out: Vec<String> = below.iter().map(|f| finding_text(f, bases)).collect();
    case.out = out.join("\n");
    case
}

/// The case that fails when some input (the report's `input_errors`), else some file inside
/// one (its `unread`), could not be read.
fn inputs_case(report: &Report) -> Case {
    let mut case = Case::passing("mglint.input", INPUTS_CASE.to_string());
    let unread: Vec<String>;
    let input_errors = if report.input_errors.is_empty() {
        unread = report
            .unread
            .iter()
            .map(|u| format!("could not read {}", u.describe()))
            .collect();
        &unread[..]
    } else {
        &report.input_errors[..]
    };
    if let Some(first) = input_errors.first() {
        let mut message = first.lines().next().unwrap_or("").to_string();
        if input_errors.len() > 1 {
            let _ = write!(message, " (and {} more)", input_errors.len() - 1);
        }
        case.failure = Some((message, "error".into(), input_errors.join("\n") + "\n"));
    }
    case
}

fn write_case(w: &mut Writer<Vec<u8>>, c: &Case) -> io::Result<()> {
    let el = w
        .create_element("testcase")
        .with_attribute(("name", attr(&c.name).as_str()))
        .with_attribute(("classname", attr(&c.classname).as_str()))
        .with_attribute(("time", "0"));
    if c.failure.is_none() && c.skipped.is_none() && c.out.is_empty() {
        el.write_empty()?;
        return Ok(());
    }
    el.write_inner_content(|w| {
        if let Some((msg, ty, body)) = &c.failure {
            w.create_element("failure")
                .with_attribute(("message", attr(msg).as_str()))
                .with_attribute(("type", attr(ty).as_str()))
                .write_text_content(BytesText::new(&xml_chars(body)))?;
        }
        if let Some(reason) = &c.skipped {
            w.create_element("skipped")
                .with_attribute(("message", attr(reason).as_str()))
                .write_empty()?;
        }
        if !c.out.is_empty() {
            w.create_element("system-out")
                .write_text_content(BytesText::new(&xml_chars(&c.out)))?;
        }
        Ok(())
    })?;
    Ok(())
}

/// One `<testsuite>`: its name, the report it comes from, its cases, and what its property
/// names start with.
struct Suite<'a> {
    name: String,
    report: &'a Report,
    cases: Vec<Case>,
    /// Empty for a document of one suite; `cluster<n>.` in a document of several, so that
    /// every property name is unique in the whole document (xunitparser reads the suites of
    /// a `<testsuites>` into one suite and refuses a name it has already seen).
    prefix: String,
}

fn suite_props(report: &Report) -> Vec<(String, String)> {
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    let below = report
        .findings
        .iter()
        .filter(|f| f.severity < report.fail_on)
        .count();
    let mut props: Vec<(String, String)> = [
        ("schema", report.schema.to_string()),
        ("fail_on", report.fail_on.to_string()),
        ("findings_error", count(Severity::Error).to_string()),
        ("findings_warning", count(Severity::Warning).to_string()),
        ("findings_info", count(Severity::Info).to_string()),
        ("findings_below_fail_on", below.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let c = &report.cluster;
    for (k, v) in [
        ("cluster.id", &c.id),
        ("cluster.from", &c.from),
        ("cluster.to", &c.to),
    ] {
        if let Some(v) = v {
            props.push((k.to_string(), v.clone()));
        }
    }
    // One property per input, each name once in the suite (`input.1`, `input.2`, …).
    props.extend(
        report
            .inputs
            .iter()
            .enumerate()
            .map(|(i, input)| (format!("input.{}", i + 1), input.name.clone())),
    );
    props
}

fn write_doc(suites: &[Suite<'_>]) -> io::Result<Vec<u8>> {
    let failures = |cs: &[Case]| cs.iter().filter(|c| c.failure.is_some()).count();
    let all_tests: usize = suites.iter().map(|s| s.cases.len()).sum();
    let all_failures: usize = suites.iter().map(|s| failures(&s.cases)).sum();
    let (all_tests, all_failures) = (all_tests.to_string(), all_failures.to_string());
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.create_element("testsuites")
        .with_attribute(("name", "mglint"))
        .with_attribute(("tests", all_tests.as_str()))
        .with_attribute(("failures", all_failures.as_str()))
        .with_attribute(("errors", "0"))
        .with_attribute(("time", "0"))
        .write_inner_content(|w| {
            for suite in suites {
                let tests = suite.cases.len().to_string();
                let fails = failures(&suite.cases).to_string();
                let skipped = suite
                    .cases
                    .iter()
                    .filter(|c| c.skipped.is_some())
                    .count()
                    .to_string();
                let props = suite_props(suite.report);
                w.create_element("testsuite")
                    .with_attribute(("name", attr(&suite.name).as_str()))
                    .with_attribute(("tests", tests.as_str()))
                    .with_attribute(("failures", fails.as_str()))
                    .with_attribute(("errors", "0"))
                    .with_attribute(("skipped", skipped.as_str()))
                    .with_attribute(("time", "0"))
                    .write_inner_content(|w| {
                        w.create_element("properties").write_inner_content(|w| {
                            for (name, value) in &props {
                                let name = format!("{}{name}", suite.prefix);
                                w.create_element("property")
                                    .with_attribute(("name", name.as_str()))
                                    .with_attribute(("value", attr(value).as_str()))
                                    .write_empty()?;
                            }
                            Ok(())
                        })?;
                        for c in &suite.cases {
                            write_case(w, c)?;
                        }
                        Ok(())
                    })?;
            }
            Ok(())
        })?;
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    Ok(bytes)
}

fn cases_of(report: &Report) -> Vec<Case> {
    let bases = Bases::of(report);
    let mut cases = vec![inputs_case(report)];
    cases.extend(report.rules.iter().map(|r| rule_case(report, r, &bases)));
    cases
}

fn document(suites: &[Suite<'_>]) -> String {
    match write_doc(suites) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        // Writing into memory cannot fail; say so in XML all the same.
        Err(e) => format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mglint\" tests=\"0\" failures=\"0\" errors=\"0\"><!-- {} --></testsuites>\n",
            attr(&e.to_string()).replace("--", "- -")
        ),
    }
}

/// Several clusters in one document: one `<testsuite>` per cluster, named
/// `mglint: <label>`, its property names prefixed `cluster<n>.` (`cluster2.cluster.id`) so
/// that no name repeats in the document; case names stay the rule's, so each cluster's suite has the same tests.
/// The run's inputs that could not be opened are the first cluster's report's, so they fail
/// the first suite's inputs case.
pub fn render_clusters(clusters: &[super::ClusterPage<'_>]) -> String {
    let suites: Vec<Suite<'_>> = clusters
        .iter()
        .enumerate()
        .map(|(i, p)| Suite {
            name: format!("mglint: {}", p.label),
            report: p.report,
            cases: cases_of(p.report),
            prefix: if clusters.len() > 1 {
                format!("cluster{}.", i + 1)
            } else {
                String::new()
            },
        })
        .collect();
    document(&suites)
}

/// The JUnit document of a report; its `input_errors` (inputs that could not be opened at
/// all), else its unread files, fail the inputs case.
pub fn render(report: &Report) -> String {
    document(&[Suite {
        name: "mglint".to_string(),
        report,
        cases: cases_of(report),
        prefix: String::new(),
    }])
}
