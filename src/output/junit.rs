//! JUnit XML that Prow's Spyglass shows: one `<testsuite>` named `mglint`, one test case per
//! rule and object. A case fails when one of its findings is at or above the fail level; a
//! rule whose inputs were absent is one skipped case; a rule that ran clean is one passing
//! case. Findings below the fail level go to the case's `<system-out>`.

use super::xml::{escape, escape_text};
use crate::rules::{Finding, Report, Status};
use std::fmt::Write;

/// `[mglint] CODE slug[: object]`: the prefix attributes the case to mglint in Spyglass,
/// Sippy and CI search.
fn case_name(code: &str, name: &str, object: Option<&str>) -> String {
    match object {
        Some(o) => format!("[mglint] {code} {name}: {o}"),
        None => format!("[mglint] {code} {name}"),
    }
}

fn finding_text(f: &Finding) -> String {
    let mut t = format!(
        "{} {} [{}] {}: {}\n",
        f.code,
        f.name,
        f.severity,
        f.object.display(),
        f.message
    );
    if let Some(at) = f.at {
        let _ = writeln!(t, "at: {}", crate::rules::fmt_short(&at));
    }
    for e in &f.evidence {
        match e.line {
            Some(l) => {
                let _ = writeln!(t, "evidence: {}:{l}: {}", e.path, e.text);
            }
            None => {
                let _ = writeln!(t, "evidence: {}: {}", e.path, e.text);
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

pub fn render(report: &Report) -> String {
    let mut cases: Vec<Case> = Vec::new();
    for r in &report.rules {
        let classname = format!("mglint.{}", r.category);
        if r.status == Status::Skipped {
            cases.push(Case {
                classname,
                name: case_name(r.code, r.name, None),
                failure: None,
                skipped: Some(r.reason.clone().unwrap_or_else(|| "inputs absent".into())),
                out: String::new(),
            });
            continue;
        }
        let mine: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.code == r.code)
            .collect();
        if mine.is_empty() {
            cases.push(Case {
                classname,
                name: case_name(r.code, r.name, None),
                failure: None,
                skipped: None,
                out: String::new(),
            });
            continue;
        }
        let mut objects: Vec<String> = mine.iter().map(|f| f.object.display()).collect();
        objects.sort();
        objects.dedup();
        for o in objects {
            let group: Vec<&&Finding> = mine.iter().filter(|f| f.object.display() == o).collect();
            let failing: Vec<&&&Finding> = group
                .iter()
                .filter(|f| f.severity >= report.fail_on)
                .collect();
            let failure = failing.first().map(|first| {
                let body: String = failing
                    .iter()
                    .map(|f| finding_text(f))
                    .collect::<Vec<_>>()
                    .join("\n");
                (first.message.clone(), first.severity.to_string(), body)
            });
            let out = group
                .iter()
                .filter(|f| f.severity < report.fail_on)
                .map(|f| finding_text(f))
                .collect::<Vec<_>>()
                .join("\n");
            cases.push(Case {
                classname: classname.clone(),
                name: case_name(r.code, r.name, Some(&o)),
                failure,
                skipped: None,
                out,
            });
        }
    }
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let skipped = cases.iter().filter(|c| c.skipped.is_some()).count();
    let mut x = String::new();
    x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"mglint\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">",
        cases.len()
    );
    let _ = writeln!(
        x,
        "  <testsuite name=\"mglint\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"0\">",
        cases.len()
    );
    x.push_str("    <properties>\n");
    let _ = writeln!(
        x,
        "      <property name=\"schema\" value=\"{}\"/>",
        escape(report.schema)
    );
    let _ = writeln!(
        x,
        "      <property name=\"fail-on\" value=\"{}\"/>",
        report.fail_on
    );
    for i in &report.inputs {
        let _ = writeln!(
            x,
            "      <property name=\"input\" value=\"{}\"/>",
            escape(&i.name)
        );
    }
    x.push_str("    </properties>\n");
    for c in &cases {
        let open = format!(
            "    <testcase name=\"{}\" classname=\"{}\" time=\"0\"",
            escape(&c.name),
            escape(&c.classname)
        );
        if c.failure.is_none() && c.skipped.is_none() && c.out.is_empty() {
            let _ = writeln!(x, "{open}/>");
            continue;
        }
        let _ = writeln!(x, "{open}>");
        if let Some((msg, ty, body)) = &c.failure {
            let _ = writeln!(
                x,
                "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                escape(msg),
                escape(ty),
                escape_text(body)
            );
        }
        if let Some(reason) = &c.skipped {
            let _ = writeln!(x, "      <skipped message=\"{}\"/>", escape(reason));
        }
        if !c.out.is_empty() {
            let _ = writeln!(x, "      <system-out>{}</system-out>", escape_text(&c.out));
        }
        x.push_str("    </testcase>\n");
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}
