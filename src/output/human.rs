//! The human view: one miette diagnostic per finding (code, message, labels pointing into the
//! YAML or log line that is the evidence, help), then a summary footer. No colour unless asked
//! for; fixed width.

use super::RenderOptions;
use crate::rules::{EvidenceItem, Finding, Report, Severity};
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};
use std::fmt;
use std::sync::Arc;

/// A file's text (or one line of it) shown under a name, with line numbers that start at
/// `first_line`.
///
/// A whole file is not scanned from its start for every finding: the lines around the span
/// are cut out and numbered from the nearest `anchor` (an offset whose line the evidence
/// already knows), so many findings in one big aggregate file render in linear time.
#[derive(Debug)]
struct Source {
    name: String,
    text: Arc<str>,
    first_line: u32,
    /// Known (byte offset, 1-based line) pairs in `text`.
    anchors: Vec<(usize, u32)>,
}

/// Texts at least this long are windowed around the span instead of scanned whole.
const WINDOW_MIN: usize = 16 << 10;

/// The start of the line holding byte `pos`.
fn line_start(text: &[u8], pos: usize) -> usize {
    memchr::memrchr(b'\n', &text[..pos]).map_or(0, |i| i + 1)
}

/// The end of the line holding byte `pos`, after its newline.
fn line_end(text: &[u8], pos: usize) -> usize {
    memchr::memchr(b'\n', &text[pos..]).map_or(text.len(), |i| pos + i + 1)
}

impl Source {
    /// The window of whole lines around `[start, end)` with `before`/`after` lines of context
    /// and one spare line each side, and the 0-based line number of its first line.
    fn window(
        &self,
        start: usize,
        end: usize,
        before: usize,
        after: usize,
    ) -> (usize, usize, usize) {
        let b = self.text.as_bytes();
        let mut ws = line_start(b, start);
        for _ in 0..=before {
            if ws == 0 {
                break;
            }
            ws = line_start(b, ws - 1);
        }
        let mut we = line_end(b, end);
        for _ in 0..=after {
            if we >= b.len() {
                break;
            }
            we = line_end(b, we);
        }
        let (at, line) = self
            .anchors
            .iter()
            .filter(|(o, _)| *o <= ws)
            .max_by_key(|(o, _)| *o)
            .copied()
            .unwrap_or((0, 1));
        let line0 =
            line.saturating_sub(1) as usize + memchr::memchr_iter(b'\n', &b[at..ws]).count();
        (ws, we, line0)
    }
}

impl SourceCode for Source {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text: &str = &self.text;
        let (start, end) = (span.offset(), span.offset() + span.len());
        let windowed = self.first_line == 1
            && text.len() >= WINDOW_MIN
            && end <= text.len()
            && text.is_char_boundary(start)
            && text.is_char_boundary(end);
        if !windowed {
            let inner = text.read_span(span, before, after)?;
            let shift = self.first_line.saturating_sub(1) as usize;
            return Ok(Box::new(MietteSpanContents::new_named(
                self.name.clone(),
                inner.data(),
                *inner.span(),
                inner.line() + shift,
                inner.column(),
                inner.line_count(),
            )));
        }
        let (ws, we, line0) = self.window(start, end, before, after);
        let part = &text[ws..we];
        let inner = part.read_span(
            &SourceSpan::new((start - ws).into(), end - start),
            before,
            after,
        )?;
        let at = inner.span().offset() + ws;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            SourceSpan::new(at.into(), inner.span().len()),
            inner.line() + line0,
            inner.column(),
            inner.line_count() + line0,
        )))
    }
}

/// Evidence from one file: its source and labels.
#[derive(Debug)]
struct Group {
    title: String,
    source: Option<Source>,
    labels: Vec<(String, (usize, usize))>,
    severity: miette::Severity,
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title)
    }
}

impl std::error::Error for Group {}

impl Diagnostic for Group {
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.source.is_none() || self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().map(|(l, (s, e))| {
            let label = (!l.is_empty()).then(|| l.clone());
            LabeledSpan::new_with_span(label, (*s, e.saturating_sub(*s)))
        })))
    }
}

/// One finding as a diagnostic: the first evidence file is its own source, the others are
/// related diagnostics.
#[derive(Debug)]
struct FindingDiag<'a> {
    finding: &'a Finding,
    head: String,
    main: Group,
    related: Vec<Group>,
}

impl fmt::Display for FindingDiag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.head)
    }
}

impl std::error::Error for FindingDiag<'_> {}

impl Diagnostic for FindingDiag<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!(
            "{}({})",
            self.finding.code, self.finding.name
        )))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(sev(self.finding.severity))
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        (!self.finding.help.is_empty())
            .then(|| Box::new(&self.finding.help) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.main.source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.main.labels()
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|g| g as &dyn Diagnostic)))
    }
}

fn sev(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    }
}

/// Lines of a label further apart than this start a new snippet.
const NEAR_LINES: u32 = 3;

/// Groups evidence into snippets: labels in the same file a few lines apart share one.
fn groups(f: &Finding) -> Vec<Group> {
    let mut out: Vec<(Group, String, Vec<u32>)> = Vec::new();
    for e in &f.evidence {
        let line = e.line.unwrap_or(0);
        let whole_file = e.snippet.as_ref().is_some_and(|s| s.first_line == 1);
        let near = |(g, path, lines): &(Group, String, Vec<u32>)| {
            whole_file
                && g.source.is_some()
                && *path == e.path
                && lines.iter().any(|l| l.abs_diff(line) <= NEAR_LINES)
        };
        let at = match out.iter().position(near) {
            Some(i) => i,
            None => {
                out.push((group_for(e), e.path.clone(), Vec::new()));
                out.len() - 1
            }
        };
        let (g, _, lines) = &mut out[at];
        lines.push(line);
        if let (Some(s), Some(src), Some(l)) = (&e.snippet, g.source.as_mut(), e.line)
            && s.first_line == 1
        {
            src.anchors.push((s.span.0, l));
        }
        if let Some(s) = &e.snippet {
            let label = e.label.clone().unwrap_or_default();
            if !g.labels.iter().any(|(_, sp)| *sp == s.span) {
                g.labels.push((label, s.span));
            }
        }
    }
    out.into_iter().map(|(g, _, _)| g).collect()
}

fn group_for(e: &EvidenceItem) -> Group {
    let loc = match e.line {
        Some(l) => format!("{}:{l}", e.path),
        None => e.path.clone(),
    };
    match &e.snippet {
        Some(s) => Group {
            title: e.label.clone().unwrap_or_else(|| "evidence".to_string()),
            source: Some(Source {
                name: e.path.clone(),
                text: s.text.clone(),
                first_line: s.first_line,
                anchors: Vec::new(),
            }),
            labels: Vec::new(),
            severity: miette::Severity::Advice,
        },
        None => Group {
            title: format!("evidence: {loc}: {}", e.text),
            source: None,
            labels: Vec::new(),
            severity: miette::Severity::Advice,
        },
    }
}

fn head(f: &Finding) -> String {
    let mut h = format!("{}: {}", f.object.display(), f.message);
    if let Some(at) = f.at {
        h.push_str(&format!(" [at {}]", crate::rules::fmt_short(&at)));
    }
    if let Some(c) = &f.confidence {
        let level = match c.level {
            crate::rules::ConfidenceLevel::High => "high",
            crate::rules::ConfidenceLevel::Medium => "medium",
            crate::rules::ConfidenceLevel::Low => "low",
        };
        h.push_str(&format!(" [confidence {level}: {}]", c.basis.join(", ")));
    }
    h
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn render(report: &Report, opts: &RenderOptions) -> String {
    let theme = if opts.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(opts.width)
        .with_context_lines(1)
        .with_links(false)
        .with_urls(false)
        .without_syntax_highlighting();
    let mut out = String::new();
    for f in &report.findings {
        let mut gs = groups(f).into_iter();
        let main = gs.next().unwrap_or(Group {
            title: String::new(),
            source: None,
            labels: Vec::new(),
            severity: miette::Severity::Advice,
        });
        let mut related: Vec<Group> = Vec::new();
        if main.source.is_none() && !main.title.is_empty() {
            related.push(main);
            related.extend(gs);
            let d = FindingDiag {
                finding: f,
                head: head(f),
                main: empty(),
                related,
            };
            write_diag(&handler, &d, &mut out);
        } else {
            related.extend(gs);
            let d = FindingDiag {
                finding: f,
                head: head(f),
                main,
                related,
            };
            write_diag(&handler, &d, &mut out);
        }
    }
    out.push_str(&footer(report));
    out
}

fn empty() -> Group {
    Group {
        title: String::new(),
        source: None,
        labels: Vec::new(),
        severity: miette::Severity::Advice,
    }
}

fn write_diag(handler: &GraphicalReportHandler, d: &FindingDiag<'_>, out: &mut String) {
    let mut s = String::new();
    if handler.render_report(&mut s, d).is_err() {
        s = format!("{}: {}\n", d.finding.code, d.head);
    }
    // Trailing spaces vary with terminal width handling; drop them for stable output.
    for line in s.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

fn footer(report: &Report) -> String {
    let s = &report.summary;
    let mut out = String::new();
    let verdict = if report.failed() { "fails" } else { "passes" };
    out.push_str(&format!(
        "{}, {}, {} ({verdict} at --fail-on {})\n",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.info, "info", "info"),
        report.fail_on
    ));
    out.push_str(&format!(
        "{} ran, {} skipped\n",
        plural(s.rules_ran, "rule", "rules"),
        s.rules_skipped
    ));
    let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
    for r in report.skipped() {
        let reason = r.reason.as_deref().unwrap_or("inputs absent");
        match reasons.iter_mut().find(|(x, _)| *x == reason) {
            Some((_, codes)) => codes.push(r.code),
            None => reasons.push((reason, vec![r.code])),
        }
    }
    for (reason, codes) in reasons {
        out.push_str(&format!("  skipped ({reason}): {}\n", codes.join(", ")));
    }
    if report.inputs.is_empty() {
        return out;
    }
    let names: Vec<String> = report
        .inputs
        .iter()
        .map(|i| format!("{} ({})", i.name, i.kind))
        .collect();
    out.push_str(&format!("inputs: {}\n", names.join(", ")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_windowed_span_reads_as_the_whole_text_does() {
        let text: String = (1..=5000)
            .map(|i| format!("line {i}: value {i}\n"))
            .collect();
        let text: Arc<str> = Arc::from(text);
        let at = text.find("line 4321:").unwrap();
        let anchor = text.find("line 4000:").unwrap();
        let src = Source {
            name: "f".into(),
            text: text.clone(),
            first_line: 1,
            anchors: vec![(anchor, 4000)],
        };
        let span = SourceSpan::new(at.into(), 10);
        let whole = text.as_ref().read_span(&span, 1, 1).unwrap();
        let cut = src.read_span(&span, 1, 1).unwrap();
        assert_eq!(whole.data(), cut.data());
        assert_eq!(whole.line(), cut.line());
        assert_eq!(whole.column(), cut.column());
        assert_eq!(whole.span(), cut.span());
        assert_eq!(whole.line_count(), cut.line_count());
        // Without an anchor the line is counted from the start.
        let bare = Source {
            name: "f".into(),
            text: text.clone(),
            first_line: 1,
            anchors: Vec::new(),
        };
        assert_eq!(bare.read_span(&span, 1, 1).unwrap().line(), whole.line());
    }
}
