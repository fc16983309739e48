//! Markdown for pasting into a support case or bug: the inputs and result, a table of the
//! findings, one section per finding with its evidence and fix, and the rules that could not
//! run. Escaping cannot be switched off by the input (the policy is
//! [`crate::vocab::escape`]'s): text is backslash-escaped, names in backticks become code
//! spans whose fence is longer than any backtick run inside them, an unmatched backtick is
//! escaped, no link or mention is ever built from input, control characters are shown
//! (`\x1b`), evidence sits in a fence longer than any backtick run it holds, one line per
//! item. Paths are relative to each input's root. A paragraph is one line (GitHub renders a newline inside a comment's paragraph as a line break); the
//! input's own line breaks are hard breaks (`\`), never trailing spaces. [`render_capped`] cuts
//! at a finding boundary to stay under GitHub's 65,536-character comment limit.

use super::paths::Bases;
use crate::rules::{Finding, Report, fmt_short};
use crate::vocab::text::plural;
use std::fmt::Write;

/// The default cap of a Markdown report, under GitHub's 65,536-character comment limit.
pub const DEFAULT_MAX_BYTES: usize = 60_000;

use crate::vocab::escape::longest_backtick_run;

/// `s` as one code span (one line, controls shown, a fence longer than any backtick run):
/// [`crate::vocab::escape::markdown_code`].
pub fn code(s: &str) -> String {
    crate::vocab::escape::markdown_code(s)
}

/// Text from the input with no markup, link, autolink, mention or control character left
/// live: [`crate::vocab::escape::markdown_text`].
pub(crate) fn escape_text(s: &str) -> String {
    crate::vocab::escape::markdown_text(s)
}

/// Inline Markdown for a message: `` `name` `` pairs as code spans, everything else escaped.
/// Returns the pieces, each either a code span or an escaped word run, so that wrapping never
/// breaks inside a code span.
fn inline_tokens(s: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut rest = s;
    let mut text = String::new();
    let flush = |text: &mut String, tokens: &mut Vec<String>| {
        for w in text.split(' ').filter(|w| !w.is_empty()) {
            tokens.push(escape_text(w));
        }
        text.clear();
    };
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        match after.find('`') {
            Some(close) if close > 0 => {
                text.push_str(&rest[..open]);
                let glued = !text.is_empty() && !text.ends_with(' ');
                flush(&mut text, &mut tokens);
                let span = code(&after[..close]);
                match tokens.last_mut() {
                    Some(last) if glued => last.push_str(&span),
                    _ => tokens.push(span),
                }
                rest = &after[close + 1..];
                // Text glued to the span's end (`x`: or `x`,) stays on its token.
                let tail_len = rest.find(' ').unwrap_or(rest.len());
                let tail = &rest[..tail_len];
                if !tail.is_empty() && !tail.contains('`') {
                    if let Some(last) = tokens.last_mut() {
                        last.push_str(&escape_text(tail));
                    }
                    rest = &rest[tail_len..];
                }
            }
            _ => {
                text.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    text.push_str(rest);
    flush(&mut text, &mut tokens);
    tokens
}

/// A line must not start a block (a list item, heading, quote, setext underline or
/// thematic break) by accident of wrapping.
fn guard_line_start(line: &str) -> String {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if line.starts_with(['-', '+', '=']) {
        format!("\\{line}")
    } else if digits > 0 && line[digits..].starts_with(['.', ')']) {
        format!("{}\\{}", &line[..digits], &line[digits..])
    } else {
        line.to_string()
    }
}

/// Prose: each line of `s` on one line after `first` (a prefix such as `- **Fix:** `), never
/// wrapped; the input's own line breaks are kept as hard breaks (a backslash at the end of
/// the line), the next line indented by `indent`.
fn prose(out: &mut String, first: &str, indent: &str, s: &str) {
    let paras: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut line = first.to_string();
    let mut fresh = true;
    for (i, para) in paras.iter().enumerate() {
        for t in inline_tokens(para.trim()) {
            if fresh && line.trim().is_empty() {
                line = format!("{line}{}", guard_line_start(&t));
            } else {
                if !fresh {
                    line.push(' ');
                }
                line.push_str(&t);
            }
            fresh = false;
        }
        if i + 1 < paras.len() {
            line.push('\\');
            out.push_str(&line);
            out.push('\n');
            line = indent.to_string();
            fresh = true;
        }
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// `s` as Markdown prose without a final newline (lines joined by hard breaks), as a
/// finding's message is written here: for other formats' Markdown fields (SARIF).
pub(crate) fn paragraph(s: &str) -> String {
    let mut out = String::new();
    prose(&mut out, "", "", s);
    out.truncate(out.trim_end().len());
    out
}

/// A table cell: one line, escaped, with `|` escaped even inside code spans.
fn cell(s: &str) -> String {
    inline_tokens(&s.replace('\n', " "))
        .join(" ")
        .replace("\\|", "|")
        .replace('|', "\\|")
}

/// `s` on one line, controls shown: [`crate::vocab::escape::one_line`].
fn one_line(s: &str) -> String {
    crate::vocab::escape::one_line(s).into_owned()
}

/// A fenced block holding `lines` literally: the fence is longer than any backtick run.
fn fenced(out: &mut String, info: &str, lines: &[String]) {
    let longest = lines
        .iter()
        .map(|l| longest_backtick_run(l))
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(out, "{fence}{info}");
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    let _ = writeln!(out, "{fence}");
}

fn finding_section(out: &mut String, f: &Finding, bases: &Bases<'_>) {
    let _ = writeln!(out, "### {} {} ({})\n", f.code, code(&f.name), f.severity);
    prose(out, "", "", &f.message);
    out.push('\n');
    let _ = writeln!(out, "- **Object:** {}", code(&f.object.display()));
    if let Some(at) = f.at {
        let _ = writeln!(out, "- **When:** {}", fmt_short(&at));
    }
    if let Some(c) = &f.confidence {
        let level = serde_json::to_value(c.level)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let basis: Vec<String> = c.basis.iter().map(|b| escape_text(b)).collect();
        let _ = writeln!(out, "- **Confidence:** {level} ({})", basis.join(", "));
    }
    if !f.help.is_empty() {
        prose(out, "- **Fix:** ", "  ", &f.help);
    }
    if !f.references.is_empty() {
        // References come from the rule's declaration, never from the input.
        let _ = writeln!(out, "- **References:**");
        for r in &f.references {
            let _ = writeln!(out, "  - <{r}>");
        }
    }
    if !f.evidence.is_empty() {
        out.push_str("\nEvidence:\n\n");
        let lines: Vec<String> = f
            .evidence
            .iter()
            .map(|e| {
                // One line per item: a newline in a path (an archive member may have one)
                // is shown escaped.
                let path = one_line(&bases.short(e));
                let loc = match e.line {
                    Some(l) => format!("{path}:{l}"),
                    None => path,
                };
                let label = e
                    .label
                    .as_deref()
                    .map_or_else(String::new, |l| format!("  ({})", one_line(l)));
                format!("{loc}: {}{label}", one_line(&e.text))
            })
            .collect();
        fenced(out, "text", &lines);
    }
    out.push('\n');
}

fn header(out: &mut String, report: &Report, bases: &Bases<'_>) {
    for i in &report.inputs {
        let read = usize::try_from(i.files_read).unwrap_or(usize::MAX);
        let base = bases.base(i);
        let root = if base.is_empty() {
            String::new()
        } else {
            format!(
                "; paths below are relative to {}",
                code(&format!("{base}/"))
            )
        };
        let _ = writeln!(
            out,
            "- **Input:** {} ({}, {}){root}",
            code(&i.name),
            escape_text(i.kind_label()),
            plural(read, "file read", "files read")
        );
    }
    if let Some(t) = report.collected_at {
        let _ = writeln!(out, "- **Collected:** {}", fmt_short(&t));
    }
    let s = &report.summary;
    let verdict = report.verdict();
    let incomplete = report
        .incomplete_reason()
        .map(|r| format!(" ({})", r.replace(" (IN001)", ": `IN001`")))
        .unwrap_or_default();
    for e in &report.input_errors {
        let _ = writeln!(out, "- **Not read:** {}", escape_text(&one_line(e)));
    }
    for a in &report.absent {
        let _ = writeln!(
            out,
            "- **Missing:** {}: {} could not run",
            escape_text(&one_line(&a.headline())),
            plural(a.rules.len(), "rule", "rules")
        );
    }
    let _ = writeln!(
        out,
        "- **Result:** {}, {}, {} info; {verdict} at `--fail-on {}`{incomplete}; {} ran, {} skipped\n",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        s.info,
        report.fail_on,
        plural(s.rules_ran, "rule", "rules"),
        s.rules_skipped
    );
}

pub fn render(report: &Report) -> String {
    render_first(report, report.findings.len(), None)
}

/// The heading of the `i`th (from 0) of `n` clusters in a Markdown document of several.
pub fn cluster_heading(i: usize, n: usize, label: &str) -> String {
    format!("Cluster {} of {n}: {label}", i + 1)
}

/// GitHub's anchor of a heading: lowercase, punctuation other than `-` and `_` dropped,
/// spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The table of contents of a document of several clusters: each cluster linked to its
/// section, with its counts and verdict.
pub fn contents(clusters: &[super::ClusterPage<'_>]) -> String {
    let mut out = format!("# mglint report: {} clusters\n\n", clusters.len());
    for (i, p) in clusters.iter().enumerate() {
        let (label, r) = (p.label, p.report);
        let h = cluster_heading(i, clusters.len(), label);
        let s = &r.summary;
        let _ = writeln!(
            out,
            "{}. [{}](#{}): {}, {}; {}",
            i + 1,
            escape_text(label),
            anchor(&h),
            plural(s.errors, "error", "errors"),
            plural(s.warnings, "warning", "warnings"),
            r.verdict()
        );
    }
    out.push('\n');
    out
}

/// The report with at most `max_bytes` bytes (0: no cap): when the whole report is longer,
/// the findings after the last that fits are left out, table rows and sections alike, and
/// an "N more findings" line says how many and where they are.
pub fn render_capped(report: &Report, max_bytes: usize) -> String {
    let all = render(report);
    if max_bytes == 0 || all.len() <= max_bytes {
        return all;
    }
    // The most findings that fit: rendering grows with each finding, so search for it.
    let (mut lo, mut hi) = (0, report.findings.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if render_first(report, mid, Some(max_bytes)).len() <= max_bytes {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    render_first(report, lo, Some(max_bytes))
}

/// Several clusters' reports in one document of at most `max_bytes` bytes (0: no cap; over
/// it only when even every cluster's header and summary do not fit): a table of contents,
/// then a section per cluster. The cap is shared by need, not evenly: every cluster keeps
/// its header, summary and every findings-table row, and the findings' sections (with their
/// evidence) are cut first, as many as fit, the same number for every cluster while they
/// last and then one more at a time to each cluster in turn while any fits. Only when the
/// tables alone do not fit are table rows cut, the same way.
pub fn render_clusters_capped(clusters: &[super::ClusterPage<'_>], max_bytes: usize) -> String {
    let total = |n: usize| clusters.iter().map(|p| p.report.findings.len()).nth(n);
    let all: Vec<Shown> = clusters
        .iter()
        .map(|p| Shown::first(p.report.findings.len()))
        .collect();
    let cap = (max_bytes > 0).then_some(max_bytes);
    let heads: Vec<String> = clusters
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let h = cluster_heading(i, clusters.len(), p.label);
            format!("# {}\n\n", escape_text(&h))
        })
        .collect();
    let body = |i: usize, s: Shown| render_shown(clusters[i].report, s, cap) + "\n";
    let toc = contents(clusters);
    let doc = |shown: &[Shown]| -> String {
        let mut out = toc.clone();
        for (i, s) in shown.iter().enumerate() {
            out.push_str(&heads[i]);
            out.push_str(&body(i, *s));
        }
        out
    };
    let whole = doc(&all);
    if max_bytes == 0 || whole.len() <= max_bytes {
        return whole;
    }
    // Sizes add up cluster by cluster: each cluster's size is measured alone.
    let size = |i: usize, s: Shown| heads[i].len() + body(i, s).len();
    let fixed = toc.len();
    let fits = |shown: &[Shown]| {
        fixed
            + shown
                .iter()
                .enumerate()
                .map(|(i, s)| size(i, *s))
                .sum::<usize>()
            <= max_bytes
    };
    // First the sections (evidence) go, keeping every row; if the rows alone do not fit,
    // rows go too.
    let rows_only: Vec<Shown> = all.iter().map(|s| Shown { sections: 0, ..*s }).collect();
    let step = |k: usize, i: usize| -> Shown {
        let n = total(i).unwrap_or(0);
        if fits(&rows_only) {
            Shown {
                rows: n,
                sections: k.min(n),
            }
        } else {
            Shown {
                rows: k.min(n),
                sections: 0,
            }
        }
    };
    let most = all.iter().map(|s| s.rows).max().unwrap_or(0);
    let with = |k: usize| -> Vec<Shown> { (0..clusters.len()).map(|i| step(k, i)).collect() };
    // The largest number every cluster can show.
    let (mut lo, mut hi) = (0, most);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(&with(mid)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let mut shown = with(lo);
    // The rest of the budget, one more finding at a time to each cluster in turn, while any
    // still fits.
    let mut sizes: Vec<usize> = shown.iter().enumerate().map(|(i, s)| size(i, *s)).collect();
    let mut used = fixed + sizes.iter().sum::<usize>();
    let mut grew = true;
    while grew {
        grew = false;
        for i in 0..clusters.len() {
            let n = total(i).unwrap_or(0);
            let s = shown[i];
            let next = if s.rows < n {
                Shown {
                    rows: s.rows + 1,
                    sections: 0,
                }
            } else if s.sections < n {
                Shown {
                    sections: s.sections + 1,
                    ..s
                }
            } else {
                continue;
            };
            let bigger = size(i, next);
            if used - sizes[i] + bigger <= max_bytes {
                used = used - sizes[i] + bigger;
                sizes[i] = bigger;
                shown[i] = next;
                grew = true;
            }
        }
    }
    doc(&shown)
}

/// The published update risks on the cluster's last, requested and offered updates that
/// apply or cannot be evaluated (CV025's evaluation); nothing when there is none.
fn published_risks(out: &mut String, report: &Report) {
    use crate::risks::exposure::{names, shown};
    use crate::risks::verdict::Verdict;
    if report.published_risks.is_empty() {
        return;
    }
    let commit: String = report.published_risks_commit.chars().take(12).collect();
    let _ = writeln!(
        out,
        "## Published update risks\n\nRed Hat's published update risks (cincinnati-graph-data{}) judged offline from the dump, as it was when gathered; `mglint risks` shows every verdict, and the metrics a risk that cannot be evaluated needs.\n",
        // A checkout without `.git` has no commit to name.
        if commit.is_empty() {
            String::new()
        } else {
            format!(" {}", code(&commit))
        }
    );
    out.push_str("| Update | Stage | Applies | Cannot be evaluated |\n|---|---|---|---|\n");
    let list = |v: Vec<&str>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter().map(|n| code(n)).collect::<Vec<_>>().join(", ")
        }
    };
    let (rows, left) = shown(&report.published_risks);
    for x in rows {
        let _ = writeln!(
            out,
            "| {} → {} | {} | {} | {} |",
            code(&x.from).replace('|', "\\|"),
            code(&x.version).replace('|', "\\|"),
            x.stage.short(),
            list(names(x, Verdict::Applies)).replace('|', "\\|"),
            list(names(x, Verdict::Unknown)).replace('|', "\\|"),
        );
    }
    if left > 0 {
        let _ = writeln!(
            out,
            "\n{} not shown (`mglint risks` lists them).",
            plural(left, "more offered update", "more offered updates")
        );
    }
    out.push('\n');
}

/// The report showing its first `shown` findings (the rest counted in one line).
fn render_first(report: &Report, shown: usize, cap: Option<usize>) -> String {
    render_shown(report, Shown::first(shown), cap)
}

/// How much of a report's findings a capped document shows: the first `rows` in the
/// findings table, and the first `sections` of those with their section (message, fix and
/// evidence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shown {
    rows: usize,
    sections: usize,
}

impl Shown {
    fn first(n: usize) -> Shown {
        Shown {
            rows: n,
            sections: n,
        }
    }
}

/// The report showing the findings `shown` says (the rest counted in one line each).
fn render_shown(report: &Report, shown: Shown, cap: Option<usize>) -> String {
    let bases = Bases::of(report);
    let mut out = String::from("# mglint report\n\n");
    header(&mut out, report, &bases);
    let findings = &report.findings[..shown.rows.min(report.findings.len())];
    let detailed = &findings[..shown.sections.min(findings.len())];
    let more = report.findings.len() - findings.len();
    if report.findings.is_empty() {
        out.push_str("No findings.\n\n");
    } else {
        out.push_str("| Severity | Code | Object | Finding |\n|---|---|---|---|\n");
        for f in findings {
            let first = f.message.lines().next().unwrap_or("");
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                f.severity,
                f.code,
                cell(&format!("`{}`", f.object.display().replace('`', "'"))),
                cell(first)
            );
        }
        if !detailed.is_empty() {
            out.push_str("\n## Findings\n\n");
        }
        for f in detailed {
            finding_section(&mut out, f, &bases);
        }
        let undetailed = findings.len() - detailed.len();
        if undetailed > 0 {
            let _ = writeln!(
                out,
                "\n**Details of {} not shown:** this document was cut to {} bytes (`--max-bytes`); the table above lists them, and the JSON, SARIF and HTML reports hold their evidence.\n",
                plural(undetailed, "finding", "findings"),
                cap.unwrap_or(0)
            );
        }
        if more > 0 {
            let _ = writeln!(
                out,
                "\n**{} not shown:** this report was cut to {} bytes (`--max-bytes`); the JSON, SARIF and HTML reports hold every finding.\n",
                plural(more, "more finding", "more findings"),
                cap.unwrap_or(0)
            );
        }
    }
    published_risks(&mut out, report);
    let skipped: Vec<_> = report.skipped().collect();
    if !skipped.is_empty() {
        out.push_str("## Rules not run\n\n");
        for r in skipped {
            prose(
                &mut out,
                &format!("- {} {}: ", r.code, code(&r.name)),
                "  ",
                r.reason.as_deref().unwrap_or("inputs absent"),
            );
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "<sub>{} {} · schema {}</sub>",
        report.tool.name, report.tool.version, report.schema
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_outlast_any_backtick_run() {
        assert_eq!(code("x"), "`x`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("``x"), "``` ``x ```");
    }

    /// What a CommonMark renderer makes of inline Markdown.
    fn html(md: &str) -> String {
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, pulldown_cmark::Parser::new(md));
        out
    }

    #[test]
    fn an_unmatched_backtick_does_not_switch_escaping_off() {
        for hostile in [
            "a ` <img src=x onerror=alert(1)> `b`",
            "one ` and <img src=x onerror=alert(1)>",
            "``` <img src=x onerror=alert(1)> `",
            "[x](javascript:alert(1)) *y* <b>z</b> &amp;",
        ] {
            let t = inline_tokens(hostile).join(" ");
            let h = html(&t);
            assert!(
                !h.contains("<img") && !h.contains("<b>") && !h.contains("<a "),
                "{t} → {h}"
            );
            assert!(!h.contains("<em>"), "{t} → {h}");
        }
    }

    #[test]
    fn paragraphs_are_one_line_and_hard_breaks_never_start_a_block() {
        let mut out = String::new();
        let long = format!("{} - not a list 1. nor this", "word ".repeat(40));
        prose(&mut out, "", "", &long);
        assert_eq!(out.lines().count(), 1, "{out}");
        // The input's own line breaks: hard breaks, the next line guarded.
        let mut out = String::new();
        prose(&mut out, "- **Fix:** ", "  ", "first\n- second\n1. third");
        assert_eq!(out, "- **Fix:** first\\\n  \\- second\\\n  1\\. third\n");
    }

    #[test]
    fn a_capped_report_cuts_at_a_finding_and_says_how_many_more() {
        let f = |i: usize| crate::rules::Finding {
            code: "CV002".into(),
            name: "reconcile-stalled-on-preconditions".into(),
            severity: crate::rules::Severity::Error,
            category: "cv",
            message: format!("finding number {i} {}", "x".repeat(400)),
            object: crate::rules::ObjectRef::default(),
            at: None,
            evidence: Vec::new(),
            help: String::new(),
            references: Vec::new(),
            confidence: None,
            details: Default::default(),
        };
        let report = Report {
            findings: (0..200).map(f).collect(),
            ..Report::empty()
        };
        let whole = render(&report);
        assert!(whole.len() > 100_000);
        let cut = render_capped(&report, DEFAULT_MAX_BYTES);
        assert!(cut.len() <= DEFAULT_MAX_BYTES, "{}", cut.len());
        let shown = cut.matches("\n### ").count();
        assert!(shown > 10, "{shown}");
        assert!(
            cut.contains(&format!("**{} more findings not shown:**", 200 - shown)),
            "{}",
            &cut[cut.len() - 400..]
        );
        // Sections are whole: the last shown finding's section is complete.
        assert!(cut.contains(&format!("finding number {}", shown - 1)));
        assert!(!cut.contains(&format!("finding number {shown} ")));
        assert_eq!(render_capped(&report, 0), whole);
    }
}
