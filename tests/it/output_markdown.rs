//! Markdown that is safe to paste: rendered by a CommonMark renderer (pulldown-cmark), a
//! hostile message (an unmatched backtick, then HTML, a link, emphasis) stays text, paths are
//! relative to the input's root, lines outside code stay within 100 columns, and no line
//! ends in the trailing spaces that make a hard break.

use crate::common;
use mglint::output::{Format, RenderOptions, render};
use mglint::rules::{EvidenceItem, Finding, ObjectRef, Report, Severity};

fn html(md: &str) -> String {
    let mut out = String::new();
    let parser = pulldown_cmark::Parser::new_ext(md, pulldown_cmark::Options::all());
    pulldown_cmark::html::push_html(&mut out, parser);
    out
}

fn hostile_report() -> Report {
    let mut r = common::report(&["fixtures/files/cv-4.3-verification.yaml".into()], &[]);
    let evil = "one ` unmatched <img src=x onerror=alert(1)> and [click](javascript:alert(2)) **bold** <script>x</script>";
    let mut f = Finding {
        code: "CV002".into(),
        name: "reconcile-stalled-on-preconditions".into(),
        severity: Severity::Error,
        category: "cluster-version",
        message: format!("{evil}\n- second line `x` ``` <b>y</b>"),
        object: ObjectRef::new(
            "ClusterVersion",
            "",
            "v<img src=y onerror=alert(3)>`</script><svg onload=alert(6)>",
        ),
        at: None,
        // An archive member's name may hold a newline and a fence; evidence text may hold fences.
        evidence: vec![EvidenceItem::new(
            "",
            "ns/a\n```\n<img src=w onerror=alert(5)>.yaml",
            Some(3),
            "```` <img src=z onerror=alert(4)>\n```\nnext",
        )],
        help: evil.to_string(),
        references: vec![],
        confidence: None,
        details: Default::default(),
    };
    f.evidence[0].label = Some("<b>label</b>".into());
    r.findings = vec![f];
    r
}

#[test]
fn hostile_text_stays_text_in_a_commonmark_renderer() {
    let md = render(
        &hostile_report(),
        Format::Markdown,
        &RenderOptions::default(),
    );
    let page = html(&md);
    // mglint's own labels are bold (`**Object:**`); nothing from the input becomes markup.
    for tag in [
        "<img",
        "<script",
        "</script",
        "<svg",
        "<b>",
        "<a ",
        "<strong>bold",
        "<em>",
    ] {
        assert!(
            !page.contains(tag),
            "{tag} became markup:\n{md}\n---\n{page}"
        );
    }
    for text in [
        "&lt;img src=x onerror=alert(1)&gt;",
        "[click](javascript:alert(2))",
        "**bold**",
        "&lt;img src=z onerror=alert(4)&gt;",
        "&lt;img src=w onerror=alert(5)&gt;",
        "&lt;b&gt;y&lt;/b&gt;",
    ] {
        assert!(page.contains(text), "{text} is not shown as text:\n{page}");
    }
    // The evidence fence is longer than any backtick run inside it, so it holds.
    assert!(md.contains("\n`````text\n"), "{md}");
}

#[test]
fn paths_are_relative_and_paragraphs_are_never_hard_wrapped() {
    // GitHub renders a newline inside a comment's paragraph as a line break: a paragraph is
    // one line, and a line that continues the one before is a hard break the input made.
    let r = common::report(&["fixtures/must-gather/seed1-blocked".into()], &[]);
    let md = render(&r, Format::Markdown, &RenderOptions::default());
    assert!(md.contains("paths below are relative to"), "{md}");
    let mut in_code = false;
    let mut prev: Option<&str> = None;
    for l in md.lines() {
        if l.starts_with("```") {
            in_code = !in_code;
            prev = None;
            continue;
        }
        if in_code {
            continue;
        }
        assert!(!l.ends_with("  "), "trailing-space break: {l:?}");
        let starts_block = l.is_empty()
            || l.trim_start().starts_with("- ")
            || l.starts_with('|')
            || l.starts_with('#')
            || l.starts_with("<sub>")
            || l.starts_with("**");
        if let Some(p) = prev
            && !p.is_empty()
            && !starts_block
        {
            assert!(p.ends_with('\\'), "a paragraph wrapped:\n{p}\n{l}");
        }
        prev = Some(l);
    }
    assert_eq!(
        md.matches("quay-io-openshift-release-dev").count(),
        1,
        "the root once"
    );
}

#[test]
fn several_clusters_are_one_document_with_contents_first() {
    let a = common::fixture("must-gather/seed1-blocked");
    let b = common::fixture("ci/modern-upgrade-4.14");
    let o = common::mglint(&[
        "analyze",
        "--format",
        "markdown",
        "--exit-zero",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    let md = String::from_utf8(o.stdout).unwrap();
    assert!(
        md.starts_with("# mglint report: 2 clusters\n\n1. ["),
        "{md}"
    );
    // Each entry links to its cluster's heading by GitHub's anchor of that heading.
    let link = regex::Regex::new(r"(?m)^\d\. \[[^\]]+\]\(#([^)]+)\)").unwrap();
    let anchors: Vec<String> = link.captures_iter(&md).map(|c| c[1].to_string()).collect();
    assert_eq!(anchors.len(), 2, "{md}");
    for (i, anchor) in anchors.iter().enumerate() {
        let heading = md
            .lines()
            .find(|l| l.starts_with(&format!("# Cluster {} of 2: ", i + 1)))
            .unwrap_or_else(|| panic!("no heading {i}: {md}"));
        let slug: String = heading[2..]
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        assert_eq!(&slug, anchor);
    }
}

/// The "Published update risks" section is there when CV025 ran and a published risk applies
/// or cannot be evaluated on the cluster's updates (the vSphere cluster updating 4.18.9 ->
/// 4.19.1: `VSphereStorageMountIssues` applies, the risks whose metrics a dump lacks cannot be
/// evaluated), and absent when CV025 is not selected (the catalogue is then not evaluated) or
/// when no update of the cluster has a published risk (the seed's 4.3 cluster).
#[test]
fn published_risks_section_only_when_there_is_something_to_say() {
    let md = |inputs: &[&str], select: &[&str]| {
        let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
        let r = common::report(&inputs, select);
        render(&r, Format::Markdown, &RenderOptions::default())
    };
    let fail = md(&["fixtures/rules/CV025/fail"], &[]);
    let at = fail
        .find("## Published update risks")
        .expect("a risk section");
    let sec = &fail[at..at + fail[at..].find("\n## ").unwrap()];
    assert!(
        sec.contains(
            "| `4.18.9` → `4.19.1` | in progress | `VSphereStorageMountIssues` | `AROMissingInternalLBSAN`, "
        ),
        "{sec}"
    );
    assert!(
        sec.contains("| `4.18.9` → `4.19.2` | offered | `VSphereStorageMountIssues` |"),
        "{sec}"
    );
    // Rendered, the section is a table and its names are code, nothing else.
    let h = html(sec);
    assert!(h.contains("<table>") && h.contains("<code>VSphereStorageMountIssues</code>"));
    // The AWS cluster: the risk does not apply, the unknown ones are still listed.
    let pass = md(&["fixtures/rules/CV025/pass"], &[]);
    assert!(
        pass.contains("| in progress | none | `AROMissingInternalLBSAN`"),
        "{pass}"
    );
    assert!(!md(&["fixtures/rules/CV025/fail"], &["CV022"]).contains("Published update risks"));
    assert!(!md(&["fixtures/must-gather/seed1-blocked"], &[]).contains("Published update risks"));
}
