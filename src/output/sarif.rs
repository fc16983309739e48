//! SARIF 2.1.0: the rules that were selected (with their summary, help and page), one result
//! per finding with its evidence as locations, and skipped rules as tool configuration
//! notifications.

use crate::rules::{Finding, Report, RuleMeta, Severity, catalogue, fmt_short};
use serde_json::{Value, json};

const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A URI reference for a display path: relative paths as they are (percent-encoding what a
/// URI cannot hold), absolute paths as `file://` URIs.
pub fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.replace('\\', "/").bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b':'
            | b'@'
            | b'+'
            | b'='
            | b',' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    if out.starts_with('/') {
        format!("file://{out}")
    } else {
        out
    }
}

/// The "What it flags" section of a rule page, as one paragraph.
fn what_it_flags(page: &str) -> String {
    let mut lines = page
        .lines()
        .skip_while(|l| !l.starts_with("## What it flags"))
        .skip(1);
    let mut out = Vec::new();
    for l in lines.by_ref() {
        if l.starts_with("## ") {
            break;
        }
        out.push(l.trim());
    }
    out.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn rule(meta: &RuleMeta) -> Value {
    json!({
        "id": meta.code,
        "name": meta.name,
        "shortDescription": { "text": meta.summary },
        "fullDescription": { "text": what_it_flags(meta.page) },
        "help": { "text": meta.help, "markdown": meta.render_page() },
        "defaultConfiguration": { "level": level(meta.severity) },
        "properties": { "category": meta.family.name(), "tags": [meta.family.name()] }
    })
}

fn location(e: &crate::rules::EvidenceItem) -> Value {
    let mut phys = json!({ "artifactLocation": { "uri": uri(&e.path) } });
    if let Some(l) = e.line.filter(|l| *l >= 1) {
        phys["region"] = json!({ "startLine": l, "snippet": { "text": e.text } });
    }
    let mut loc = json!({ "physicalLocation": phys });
    if let Some(label) = &e.label {
        loc["message"] = json!({ "text": label });
    }
    loc
}

fn result(f: &Finding, index: usize) -> Value {
    let mut locations: Vec<Value> = f.evidence.iter().map(location).collect();
    let related: Vec<Value> = if locations.len() > 1 {
        locations
            .split_off(1)
            .into_iter()
            .enumerate()
            .map(|(i, mut l)| {
                l["id"] = json!(i + 1);
                l
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut r = json!({
        "ruleId": f.code,
        "ruleIndex": index,
        "level": level(f.severity),
        "message": { "text": f.message },
        "locations": locations,
        "properties": {
            "object": f.object,
            "at": f.at.map(|t| fmt_short(&t)),
            "help": f.help,
        }
    });
    if !related.is_empty() {
        r["relatedLocations"] = Value::Array(related);
    }
    if let Some(c) = &f.confidence {
        r["properties"]["confidence"] = json!(c);
    }
    if !f.details.is_empty() {
        r["properties"]["details"] = json!(f.details);
    }
    r
}

pub fn render(report: &Report) -> String {
    let all = catalogue();
    let metas: Vec<&RuleMeta> = report
        .rules
        .iter()
        .filter_map(|o| all.iter().find(|m| m.code == o.code).copied())
        .collect();
    let rules: Vec<Value> = metas.iter().map(|m| rule(m)).collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| result(f, metas.iter().position(|m| m.code == f.code).unwrap_or(0)))
        .collect();
    let notes: Vec<Value> = report.skipped()
        .map(|r| {
            json!({
                "level": "note",
                "message": { "text": format!("{} skipped: {}", r.code, r.reason.as_deref().unwrap_or("inputs absent")) },
                "descriptor": { "id": r.code }
            })
        })
        .collect();
    let doc = json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": report.tool.name,
                "version": report.tool.version,
                "rules": rules
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolConfigurationNotifications": notes
            }],
            "results": results,
            "properties": { "schema": report.schema, "failOn": report.fail_on, "summary": report.summary }
        }]
    });
    match serde_json::to_string_pretty(&doc) {
        Ok(s) => s + "\n",
        Err(_) => String::from("{}\n"),
    }
}
