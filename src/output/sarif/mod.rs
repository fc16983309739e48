//! SARIF 2.1.0 for code-scanning tools, from the typed model in [`model`]: the selected rules
//! (summary, help, page), one result per finding with its evidence as locations, skipped rules
//! as tool configuration notifications, one run per analysed cluster.
//!
//! Locations are relative: each input gets a base id (`INPUT1`, …) in `originalUriBaseIds`,
//! the must-gather root (or the input directory) as a URI relative to `%SRCROOT%` (absolute
//! for an absolute input path); evidence URIs are relative to it, percent-encoded. A member of
//! an archive input is addressed inside its archive, `archive.tar.gz!/path/in/archive`, relative
//! to the directory holding the archive. `partialFingerprints` hash the rule, the object and the
//! evidence's relative path, so a finding keeps its fingerprint across runs and machines.

mod model;

use super::paths::Bases;
use crate::rules::{EvidenceItem, Finding, Report, ReportInput, RuleMeta, Severity};
use model::*;
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Where the rule pages are published: the repository of this build (`repository` in
/// Cargo.toml); SARIF gets `helpUri` and `informationUri` only when it is set.
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// What a URI path keeps literally: unreserved characters, `/` between segments, and the
/// sub-delimiters that are safe in a path (`!` separates an archive from its member).
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// A path as a relative URI reference (percent-encoded; `\` taken as `/`).
pub fn uri(path: &str) -> String {
    utf8_percent_encode(&path.replace('\\', "/"), PATH).to_string()
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
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

/// Where the rule pages are published: `MGLINT_RULES_URL` (the folder of the pages, for a
/// fork or a mirror), else the `rules/` folder of the build's repository.
fn rules_base() -> Option<String> {
    match std::env::var("MGLINT_RULES_URL") {
        Ok(u) if u.starts_with("https://") || u.starts_with("http://") => {
            Some(u.trim_end_matches('/').to_string())
        }
        _ => (!REPOSITORY.is_empty())
            .then(|| format!("{}/blob/main/rules", REPOSITORY.trim_end_matches('/'))),
    }
}

/// The published page of a rule, when the build (or `MGLINT_RULES_URL`) knows where it is.
fn help_uri(meta: &RuleMeta) -> Option<String> {
    rules_base().map(|base| format!("{base}/{}-{}.md", meta.code, meta.name))
}

/// GitHub's limit on `shortDescription` and `fullDescription`.
const MAX_DESCRIPTION: usize = 1024;

/// `s` cut to GitHub's description limit at a word, with an ellipsis when cut.
fn description(s: &str) -> String {
    if s.chars().count() <= MAX_DESCRIPTION {
        return s.to_string();
    }
    let cut: String = s.chars().take(MAX_DESCRIPTION - 1).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(a, _)| a);
    format!("{cut}…")
}

/// A rule's full description: its page's "What it flags", else (a known-issue rule, whose
/// page has no such section) its summary and help.
fn full_description(meta: &RuleMeta) -> String {
    let what = what_it_flags(&meta.page);
    if !what.trim().is_empty() {
        return description(&what);
    }
    let mut s = meta.summary.trim().to_string();
    if !meta.help.trim().is_empty() {
        if !s.is_empty() && !s.ends_with('.') {
            s.push('.');
        }
        s.push(' ');
        s.push_str(meta.help.trim());
    }
    description(s.trim())
}

/// A message as plain text (GitHub shows `text` only and drops Markdown's backticks itself)
/// with the Markdown beside it when the message has any; control characters shown
/// (`\x1b`), the Markdown escaped as the Markdown report's prose.
fn message(m: &str) -> Message {
    Message {
        text: shown(&m.replace('`', "")),
        markdown: m.contains('`').then(|| super::markdown::paragraph(m)),
    }
}

/// Text from the input with its control characters shown ([`crate::vocab::escape`]).
fn shown(s: &str) -> String {
    crate::vocab::escape::show_controls(s).into_owned()
}

fn rule(meta: &RuleMeta) -> Rule {
    Rule {
        id: meta.code.to_string(),
        name: meta.name.to_string(),
        short_description: Text {
            text: description(&meta.summary),
        },
        full_description: Text {
            text: full_description(meta),
        },
        help: MultiformatText {
            text: if meta.help.trim().is_empty() {
                full_description(meta)
            } else {
                meta.help.to_string()
            },
            markdown: meta.render_page(),
        },
        help_uri: help_uri(meta),
        default_configuration: Configuration {
            level: level(meta.severity),
        },
        properties: RuleProperties {
            category: meta.family.name(),
            tags: vec![meta.family.name()],
        },
    }
}

/// The base id of the `i`th input.
fn base_id(i: usize) -> String {
    format!("INPUT{}", i + 1)
}

fn is_archive(input: &ReportInput) -> bool {
    input.kind == "archive"
}

/// Where an input's URIs are relative to: the must-gather root (or the input) for a
/// directory, the directory holding it for an archive or a single file.
fn base_location(input: &ReportInput, bases: &Bases<'_>) -> ArtifactLocation {
    let name = input.name.trim_end_matches('/');
    let dir = if is_archive(input) || input.kind == "file" {
        name.rsplit_once('/').map_or("", |(d, _)| d).to_string()
    } else {
        let base = bases.base(input);
        if base.is_empty() {
            name.to_string()
        } else {
            format!("{name}/{base}")
        }
    };
    // No `.` or `..` segment in a base (GitHub refuses them, SARIF1004): a directory outside
    // the working directory (`../mg`) is named by its absolute path, as an absolute input is.
    let dir = match normalize(&dir) {
        Some(d) => d,
        None => std::env::current_dir()
            .ok()
            .and_then(|cwd| normalize(&format!("{}/{dir}", cwd.to_string_lossy())))
            .unwrap_or(dir),
    };
    let (uri, base_id) = if dir.starts_with('/') {
        (format!("file://{}/", self::uri(&dir)), None)
    } else if dir.is_empty() {
        (String::new(), Some("%SRCROOT%".to_string()))
    } else {
        (
            format!("{}/", self::uri(&dir)),
            Some("%SRCROOT%".to_string()),
        )
    };
    ArtifactLocation {
        uri: (!uri.is_empty()).then_some(uri),
        uri_base_id: base_id,
        description: Some(Text {
            text: shown(&format!("input `{}` ({})", input.name, input.kind_label())),
        }),
    }
}

/// `path` without `.` segments, empty segments or `..` segments that a segment before them
/// cancels; `None` when a `..` would climb above a relative path's start (or stays above
/// `/`: dropped, as the file system does).
fn normalize(path: &str) -> Option<String> {
    let absolute = path.starts_with('/');
    let mut kept: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if kept.pop().is_none() && !absolute {
                    return None;
                }
            }
            s => kept.push(s),
        }
    }
    let joined = kept.join("/");
    Some(if absolute {
        format!("/{joined}")
    } else {
        joined
    })
}

/// An evidence path as (base id, URI relative to it).
fn artifact(e: &EvidenceItem, report: &Report, bases: &Bases<'_>) -> ArtifactLocation {
    let l = bases.locate(&e.input, &e.path);
    let Some(input) = l.input else {
        return ArtifactLocation {
            uri: Some(uri(&e.display_path())),
            ..ArtifactLocation::default()
        };
    };
    let index = report
        .inputs
        .iter()
        .position(|i| std::ptr::eq(i, input))
        .unwrap_or(0);
    let file_name = input
        .name
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("");
    let rel = if is_archive(input) {
        format!("{}!/{}", uri(file_name), uri(&l.inside))
    } else if l.inside.is_empty() {
        uri(file_name)
    } else {
        uri(&l.rel)
    };
    ArtifactLocation {
        uri: Some(rel),
        uri_base_id: Some(base_id(index)),
        description: None,
    }
}

/// The root of the first input: `.` relative to its base (the must-gather root, or the
/// directory holding an archive or file, which is then named).
fn root_location(report: &Report) -> Location {
    let uri = match report.inputs.first() {
        Some(i) if is_archive(i) || i.kind == "file" => self::uri(
            i.name
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or("."),
        ),
        _ => ".".to_string(),
    };
    Location {
        id: None,
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: Some(uri),
                uri_base_id: (!report.inputs.is_empty()).then(|| base_id(0)),
                description: None,
            },
            region: None,
        },
        message: None,
    }
}

fn location(e: &EvidenceItem, report: &Report, bases: &Bases<'_>) -> Location {
    Location {
        id: None,
        physical_location: PhysicalLocation {
            artifact_location: artifact(e, report, bases),
            region: e.line.filter(|l| *l >= 1).map(|l| Region {
                start_line: l,
                snippet: Text {
                    text: e.text.clone(),
                },
            }),
        },
        message: e.label.as_ref().map(|l| Text { text: shown(l) }),
    }
}

/// A fingerprint that survives reruns, other machines and other input locations: the rule,
/// the object and where the first evidence is, relative to its input's root.
fn fingerprint(f: &Finding, bases: &Bases<'_>) -> String {
    let mut h = Sha256::new();
    h.update(f.code.as_bytes());
    h.update([0]);
    h.update(f.object.display().as_bytes());
    h.update([0]);
    if let Some(e) = f.evidence.first() {
        h.update(bases.short(e).as_bytes());
    }
    let digest = h.finalize();
    digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
}

fn result(f: &Finding, index: usize, report: &Report, bases: &Bases<'_>) -> SarifResult {
    let mut locations: Vec<Location> = f
        .evidence
        .iter()
        .map(|e| location(e, report, bases))
        .collect();
    if locations.is_empty() {
        // GitHub takes only results with a location: a finding with no evidence is placed
        // at the root of its first input.
        locations.push(root_location(report));
    }
    let mut related = if locations.len() > 1 {
        locations.split_off(1)
    } else {
        Vec::new()
    };
    for (i, l) in related.iter_mut().enumerate() {
        l.id = Some(i + 1);
    }
    let mut properties = serde_json::json!({
        "object": f.object,
        "at": f.at,
        "help": f.help,
    });
    if let Some(c) = &f.confidence {
        properties["confidence"] = serde_json::json!(c);
    }
    if !f.details.is_empty() {
        properties["details"] = serde_json::json!(f.details);
    }
    let mut partial_fingerprints = BTreeMap::new();
    partial_fingerprints.insert("mglint/v1", fingerprint(f, bases));
    SarifResult {
        rule_id: f.code.to_string(),
        rule_index: index,
        level: level(f.severity),
        message: message(&f.message),
        locations,
        related_locations: related,
        partial_fingerprints,
        properties,
    }
}

/// The automation id of a single-cluster run (category `mglint/analyze`).
pub const RUN_ID: &str = "mglint/analyze/";

/// The SARIF log of one report: one run, category `mglint/analyze`.
pub fn render(report: &Report) -> String {
    log(vec![run(report, RUN_ID.to_string())])
}

/// The SARIF log of several clusters' reports: one run each, each with its own category
/// (`mglint/analyze/<label>`), as GitHub refuses two runs of one category in one upload.
pub fn render_clusters(clusters: &[crate::output::ClusterPage<'_>]) -> String {
    let mut seen = std::collections::BTreeSet::new();
    let runs = clusters
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (label, report) = (p.label, p.report);
            let mut id = format!("mglint/analyze/{}/", category_part(label));
            if !seen.insert(id.clone()) {
                id = format!("mglint/analyze/{}-{}/", category_part(label), i + 1);
            }
            run(report, id)
        })
        .collect();
    log(runs)
}

/// The SARIF log of one cluster of several, in its own category (`mglint/analyze/<label>`),
/// for a file of its own when the clusters are more than one file may hold.
pub fn render_cluster(label: &str, report: &Report) -> String {
    log(vec![run(
        report,
        format!("mglint/analyze/{}/", category_part(label)),
    )])
}

/// A cluster label as one category segment: `/` and whitespace become `-`.
fn category_part(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c == '/' || c.is_whitespace() {
                '-'
            } else {
                c
            }
        })
        .collect()
}

fn log(runs: Vec<Run>) -> String {
    let log = Log {
        schema: SCHEMA_URI,
        version: "2.1.0",
        runs,
    };
    match crate::vocab::escape::to_json(&log, true) {
        Ok(s) => s + "\n",
        Err(_) => String::from("{}\n"),
    }
}

/// Why a run is incomplete, as execution notifications: each input that could not be
/// opened (error) and each file that could not be read (warning, `IN001`).
fn execution_notes(report: &Report) -> Vec<Notification> {
    let mut notes: Vec<Notification> = report
        .input_errors
        .iter()
        .map(|e| Notification {
            level: "error",
            message: Text { text: shown(e) },
            descriptor: None,
        })
        .collect();
    notes.extend(report.unread.iter().map(|u| Notification {
        level: "warning",
        message: Text {
            text: shown(&format!("could not read {}", u.describe())),
        },
        descriptor: Some(Descriptor {
            id: "IN001".to_string(),
        }),
    }));
    notes
}

fn run(report: &Report, automation_id: String) -> Run {
    let bases = Bases::of(report);
    // Built-in and known-issue rules alike: each outcome carries its declaration.
    let metas: Vec<&RuleMeta> = report.rules.iter().map(|o| &*o.meta).collect();
    let results = report
        .findings
        .iter()
        .map(|f| {
            let index = metas.iter().position(|m| m.code == f.code).unwrap_or(0);
            result(f, index, report, &bases)
        })
        .collect();
    let notes = report
        .skipped()
        .map(|r| Notification {
            level: "note",
            message: Text {
                text: shown(&format!(
                    "{} skipped: {}",
                    r.code,
                    r.reason.as_deref().unwrap_or("inputs absent")
                )),
            },
            descriptor: Some(Descriptor {
                id: r.code.to_string(),
            }),
        })
        .collect();
    let original_uri_base_ids = report
        .inputs
        .iter()
        .enumerate()
        .map(|(i, input)| (base_id(i), base_location(input, &bases)))
        .collect();
    // Nothing was analysed when no input could be read at all.
    let analysed = !report.inputs.is_empty() || report.input_errors.is_empty();
    Run {
        tool: Tool {
            driver: Driver {
                name: report.tool.name,
                version: report.tool.version,
                semantic_version: report.tool.version,
                information_uri: (!REPOSITORY.is_empty()).then(|| REPOSITORY.to_string()),
                rules: metas.iter().map(|m| rule(m)).collect(),
            },
        },
        automation_details: AutomationDetails { id: automation_id },
        original_uri_base_ids,
        invocations: vec![Invocation {
            execution_successful: analysed,
            tool_execution_notifications: execution_notes(report),
            tool_configuration_notifications: notes,
        }],
        results,
        properties: serde_json::json!({
            "schema": report.schema,
            "cluster": report.cluster,
            "fail_on": report.fail_on,
            "summary": report.summary,
            "collected_at": report.collected_at,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{normalize, uri};

    #[test]
    fn bases_have_no_dot_segments() {
        assert_eq!(normalize("./mg/../mg2/x").as_deref(), Some("mg2/x"));
        assert_eq!(normalize("/a/b/../../../c/.").as_deref(), Some("/c"));
        assert_eq!(normalize("a/../..").as_deref(), None);
        assert_eq!(normalize("").as_deref(), Some(""));
        assert_eq!(normalize("..").as_deref(), None);
    }

    #[test]
    fn uris_are_percent_encoded_paths() {
        assert_eq!(uri("a b/c#d%e"), "a%20b/c%23d%25e");
        assert_eq!(uri("dir\\x.yaml"), "dir/x.yaml");
        assert_eq!(uri("mg.tar.gz!/é"), "mg.tar.gz!/%C3%A9");
    }
}
