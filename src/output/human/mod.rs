//! The human view, laid out for a terminal of the given width: an overview (the inputs, each
//! with the root its paths are shown from, and a table of the findings by severity), then each
//! finding (severity, code and object; the message with its lines kept, wrapped and indented;
//! when and how sure; the evidence lines cut around what they point at; one `help`), then the
//! counts. Colour only when asked for; no trailing spaces; control characters from the input
//! shown escaped (`\x1b`), never sent to the terminal.

mod snippet;

use super::RenderOptions;
use super::paths::Bases;
use crate::rules::{ConfidenceLevel, EvidenceItem, Finding, Report, Severity, fmt_short};
use crate::vocab::text::{plural, show_controls};
use anstyle::{AnsiColor, Style};
use std::fmt::Write;

/// Styles, or none of them without colour.
struct Paint {
    on: bool,
}

impl Paint {
    fn paint(&self, style: Style, s: &str) -> String {
        if self.on && !s.is_empty() {
            format!("{}{s}{}", style.render(), style.render_reset())
        } else {
            s.to_string()
        }
    }
    fn sev(&self, sev: Severity, s: &str) -> String {
        let c = match sev {
            Severity::Error => AnsiColor::Red,
            Severity::Warning => AnsiColor::Yellow,
            Severity::Info => AnsiColor::Cyan,
        };
        self.paint(Style::new().bold().fg_color(Some(c.into())), s)
    }
    fn bold(&self, s: &str) -> String {
        self.paint(Style::new().bold(), s)
    }
    fn dim(&self, s: &str) -> String {
        self.paint(Style::new().dimmed(), s)
    }
    fn accent(&self, s: &str) -> String {
        self.paint(Style::new().fg_color(Some(AnsiColor::Blue.into())), s)
    }
}

/// Wraps `text` to `width` columns, keeping its own line breaks, each line prefixed with
/// `indent`.
fn wrap_into(out: &mut String, text: &str, indent: &str, width: usize) {
    let w = width.saturating_sub(indent.chars().count()).max(20);
    // Long tokens (an image pullspec in a command) overflow rather than break: they must stay
    // copyable. Hyphens are not break points either (times, names).
    let opts = textwrap::Options::new(w)
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    for para in text.lines() {
        if para.trim().is_empty() {
            out.push_str(indent.trim_end());
            out.push('\n');
            continue;
        }
        // A continuation line keeps its own indentation.
        let lead: String = para.chars().take_while(|c| *c == ' ').collect();
        let sub = format!("{indent}{lead}");
        let opts = opts.clone().initial_indent(&sub).subsequent_indent(&sub);
        for l in textwrap::wrap(para.trim_start(), opts) {
            out.push_str(l.trim_end());
            out.push('\n');
        }
    }
}

/// The first line of `s` in at most `room` chars, with `…` when anything was left out.
fn first_line_within(s: &str, room: usize) -> String {
    let first = s.lines().next().unwrap_or("");
    let n = first.chars().count();
    if n <= room && !s.trim_end().contains('\n') {
        return first.to_string();
    }
    let keep: String = first.chars().take(room.saturating_sub(1).min(n)).collect();
    format!("{}…", keep.trim_end())
}

/// `label` cut to `max` characters, with `…` when cut.
fn fit_label(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        return label.to_string();
    }
    let mut out: String = label.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

fn sev_label(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

fn overview(out: &mut String, report: &Report, bases: &Bases<'_>, p: &Paint, width: usize) {
    for i in &report.inputs {
        let what = format!(
            "({}, {})",
            i.kind_label(),
            plural(
                usize::try_from(i.files_read).unwrap_or(usize::MAX),
                "file read",
                "files read"
            )
        );
        // What the input is goes on the next line when the name is long.
        let fits = "input: ".len() + i.name.chars().count() + 1 + what.len() <= width;
        let sep = if fits { " " } else { "\n  " };
        let _ = writeln!(out, "{} {}{sep}{what}", p.bold("input:"), i.name);
        let base = bases.base(i);
        if !base.is_empty() {
            // A must-gather root is long (the image directory holds a digest): on its own
            // line when it does not fit, cut with `…` when even that is too narrow.
            let label = "paths below are relative to";
            let n = base.chars().count() + 1;
            if 2 + label.len() + 1 + n <= width {
                let _ = writeln!(out, "  {} {base}/", p.dim(label));
            } else if 4 + n <= width {
                let _ = writeln!(out, "  {}\n    {base}/", p.dim(label));
            } else {
                let keep = width.saturating_sub(4 + 2).max(8);
                let cut: String = base.chars().take(keep).collect();
                let _ = writeln!(out, "  {}\n    {cut}…/", p.dim(label));
            }
        }
    }
    // A whole kind of input missing: said up front, not only in the skipped rules below.
    for a in &report.absent {
        let line = format!(
            "note: {}: {} could not run",
            a.headline(),
            plural(a.rules.len(), "rule", "rules")
        );
        let opts = textwrap::Options::new(width.max(20)).subsequent_indent("  ");
        for (i, l) in textwrap::wrap(&line, opts).iter().enumerate() {
            match (i, l.strip_prefix("note:")) {
                (0, Some(rest)) => {
                    let _ = writeln!(out, "{}{rest}", p.sev(Severity::Warning, "note:"));
                }
                _ => {
                    let _ = writeln!(out, "{l}");
                }
            }
        }
    }
    if report.findings.is_empty() {
        out.push_str("no findings\n\n");
        return;
    }
    let _ = writeln!(
        out,
        "{}",
        p.bold(&plural(report.findings.len(), "finding", "findings"))
    );
    let code_w = report
        .findings
        .iter()
        .map(|f| f.code.len())
        .max()
        .unwrap_or(5);
    for sev in [Severity::Error, Severity::Warning, Severity::Info] {
        for f in report.findings.iter().filter(|f| f.severity == sev) {
            let head = format!(
                "  {:<7} {:<code_w$} {}: ",
                sev_label(sev),
                f.code,
                f.object.display()
            );
            let room = width.saturating_sub(head.chars().count()).max(10);
            let msg = first_line_within(&f.message, room);
            let head = head.replacen(sev_label(sev), &p.sev(sev, sev_label(sev)), 1);
            let _ = writeln!(out, "{head}{msg}");
        }
    }
    out.push('\n');
}

/// Evidence of one file: its shown path and the items, in line order.
struct FileEvidence<'a> {
    path: String,
    items: Vec<&'a EvidenceItem>,
}

fn by_file<'a>(f: &'a Finding, bases: &Bases<'_>) -> Vec<FileEvidence<'a>> {
    let mut out: Vec<FileEvidence<'a>> = Vec::new();
    for e in &f.evidence {
        let path = bases.short(e);
        match out.iter_mut().find(|g| g.path == path) {
            Some(g) => g.items.push(e),
            None => out.push(FileEvidence {
                path,
                items: vec![e],
            }),
        }
    }
    for g in &mut out {
        g.items.sort_by_key(|e| e.line.unwrap_or(0));
    }
    out
}

fn evidence(out: &mut String, g: &FileEvidence<'_>, p: &Paint, width: usize) {
    let first_line = g.items.iter().find_map(|e| e.line);
    let loc = match first_line {
        Some(l) => format!("{}:{l}", g.path),
        None => g.path.clone(),
    };
    // A long path keeps its end (the file name and line), cut from the left with `…`.
    let room = width.saturating_sub(5).max(16);
    let n = loc.chars().count();
    let loc = if n > room {
        let tail: String = loc.chars().skip(n - (room - 1)).collect();
        format!("…{tail}")
    } else {
        loc
    };
    let _ = writeln!(out, "  {} {}", p.dim("╭─"), p.accent(&loc));
    let mut shown: Vec<(snippet::ShownLine, Option<&str>)> = Vec::new();
    for e in &g.items {
        let label = e.label.as_deref();
        let lines = match &e.snippet {
            Some(s) => snippet::lines(s, e.line, s.first_line == 1),
            None => vec![snippet::ShownLine {
                number: e.line.unwrap_or(0),
                text: e.text.clone(),
                mark: None,
            }],
        };
        for l in lines {
            let marked = l.mark.is_some() || e.snippet.is_none();
            match shown
                .iter_mut()
                .find(|(s, _)| s.number == l.number && l.number > 0)
            {
                Some((s, lab)) if marked && s.mark.is_none() => {
                    *s = l;
                    *lab = label;
                }
                Some(_) => {}
                None => shown.push((l, if marked { label } else { None })),
            }
        }
    }
    shown.sort_by_key(|(l, _)| l.number);
    let num_w = shown
        .iter()
        .map(|(l, _)| l.number.to_string().len())
        .max()
        .unwrap_or(1);
    let mut last: Option<u32> = None;
    for (l, label) in &shown {
        if let Some(prev) = last
            && l.number > prev + 1
        {
            let _ = writeln!(out, "  {:>num_w$} {}", "", p.dim("┆"));
        }
        last = Some(l.number);
        let num = if l.number > 0 {
            l.number.to_string()
        } else {
            String::new()
        };
        let gutter = 2 + num_w + 3;
        let (text, mark) = snippet::cut(&l.text, l.mark, width.saturating_sub(gutter));
        let line = format!(
            "  {}{} {text}",
            p.dim(&format!("{num:>num_w$} ")),
            p.dim("│")
        );
        out.push_str(line.trim_end());
        out.push('\n');
        // A label longer than the line is cut (the finding's details hold it whole).
        let own_line = width.saturating_sub(gutter + 3).max(20);
        let label = label.map(|l| fit_label(l, own_line));
        let label = label.as_deref();
        let Some((col, len)) = mark else {
            if let Some(label) = label {
                let _ = writeln!(
                    out,
                    "  {:>num_w$} {} {}",
                    "",
                    p.dim("│"),
                    p.dim(&format!("↑ {label}"))
                );
            }
            continue;
        };
        let under = format!("{}{}", " ".repeat(col), "^".repeat(len));
        let label = label.unwrap_or("");
        let room = width.saturating_sub(gutter + col + len + 1);
        let text = if label.is_empty() {
            p.accent(&under)
        } else if label.chars().count() <= room {
            format!("{} {}", p.accent(&under), p.bold(label))
        } else {
            format!(
                "{}\n  {:>num_w$} {} {}",
                p.accent(&under),
                "",
                p.dim("│"),
                p.bold(label)
            )
        };
        let _ = writeln!(out, "  {:>num_w$} {} {text}", "", p.dim("│"));
    }
}

fn finding(out: &mut String, f: &Finding, bases: &Bases<'_>, p: &Paint, width: usize) {
    let sev = sev_label(f.severity);
    let head = format!("{sev}[{}]", f.code);
    let object = f.object.display();
    // `error[CODE] name: object`, the object on a line of its own when that is too wide.
    let fits = head.len() + f.name.len() + object.chars().count() + 3 <= width;
    let _ = writeln!(
        out,
        "{} {}:{}{}",
        p.sev(f.severity, &head),
        p.bold(&f.name),
        if fits { " " } else { "\n  " },
        p.bold(&object)
    );
    wrap_into(out, &f.message, "  ", width);
    let mut facts = Vec::new();
    if let Some(at) = f.at {
        facts.push(format!("at {}", fmt_short(&at)));
    }
    if let Some(c) = &f.confidence {
        let level = match c.level {
            ConfidenceLevel::High => "high",
            ConfidenceLevel::Medium => "medium",
            ConfidenceLevel::Low => "low",
        };
        facts.push(format!("confidence {level} ({})", c.basis.join(", ")));
    }
    if !facts.is_empty() {
        wrap_into(out, &p.dim(&facts.join(" · ")), "  ", width);
    }
    for g in by_file(f, bases) {
        evidence(out, &g, p, width);
    }
    if !f.help.is_empty() {
        let mut help = String::new();
        wrap_into(&mut help, &f.help, "        ", width);
        let help = help.trim_start();
        let _ = write!(
            out,
            "  {} {help}",
            p.paint(
                Style::new().fg_color(Some(AnsiColor::Green.into())),
                "help:"
            )
        );
    }
    out.push('\n');
}

/// ": N input files could not be read (IN001)" when the report is incomplete.
fn incomplete_clause(report: &Report) -> String {
    report
        .incomplete_reason()
        .map(|r| format!(": {r}"))
        .unwrap_or_default()
}

fn counts(out: &mut String, report: &Report, p: &Paint, width: usize) {
    let s = &report.summary;
    let verdict = report.verdict();
    let _ = writeln!(
        out,
        "{}, {}, {} ({verdict} at --fail-on {}{})",
        p.sev(Severity::Error, &plural(s.errors, "error", "errors")),
        p.sev(
            Severity::Warning,
            &plural(s.warnings, "warning", "warnings")
        ),
        p.sev(Severity::Info, &format!("{} info", s.info)),
        report.fail_on,
        incomplete_clause(report)
    );
    let _ = writeln!(
        out,
        "{} ran, {} skipped",
        plural(s.rules_ran, "rule", "rules"),
        s.rules_skipped
    );
    let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
    for r in report.skipped() {
        let reason = r.reason.as_deref().unwrap_or("inputs absent");
        match reasons.iter_mut().find(|(x, _)| *x == reason) {
            Some((_, codes)) => codes.push(&r.code),
            None => reasons.push((reason, vec![&r.code])),
        }
    }
    for (reason, codes) in reasons {
        let line = format!("skipped ({reason}): {}", codes.join(", "));
        wrap_into(out, &line, "  ", width);
    }
}

/// The report with every text that came from the input made safe for a terminal (control
/// characters shown escaped, `\x1b`), before any colour of ours is added.
fn terminal_safe(report: &Report) -> Report {
    let t = |s: &mut String| {
        if let std::borrow::Cow::Owned(o) = show_controls(s) {
            *s = o;
        }
    };
    let mut r = report.clone();
    for i in &mut r.inputs {
        t(&mut i.name);
        t(&mut i.kind);
        t(&mut i.label);
        i.must_gather_roots.iter_mut().for_each(t);
    }
    for f in &mut r.findings {
        t(&mut f.message);
        t(&mut f.help);
        t(&mut f.object.kind);
        t(&mut f.object.namespace);
        t(&mut f.object.name);
        for e in &mut f.evidence {
            t(&mut e.input);
            t(&mut e.path);
            t(&mut e.text);
            if let Some(l) = &mut e.label {
                t(l);
            }
        }
        if let Some(c) = &mut f.confidence {
            c.basis.iter_mut().for_each(t);
        }
    }
    for o in &mut r.rules {
        if let Some(reason) = &mut o.reason {
            t(reason);
        }
    }
    r
}

/// Renders the report for a terminal of `opts.width` columns.
pub fn render(report: &Report, opts: &RenderOptions) -> String {
    let report = &terminal_safe(report);
    let p = Paint { on: opts.color };
    let width = opts.width.max(40);
    let bases = Bases::of(report);
    let mut out = String::new();
    overview(&mut out, report, &bases, &p, width);
    for f in &report.findings {
        finding(&mut out, f, &bases, &p, width);
    }
    counts(&mut out, report, &p, width);
    out
}
