//! Markdown for pasting into a support case or bug: a verdict line, a table of findings, one
//! section per finding with its evidence and fix, and the rules that could not run.

use crate::rules::{Finding, Report, fmt_short};
use std::fmt::Write;

/// Escapes HTML-significant characters outside inline code spans, so a hostile message
/// (`<img onerror=…>`) shows as text in a Markdown viewer; code spans render literally.
fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_code = false;
    for ch in s.chars() {
        match ch {
            '`' => {
                in_code = !in_code;
                out.push(ch);
            }
            '<' if !in_code => out.push_str("&lt;"),
            '>' if !in_code => out.push_str("&gt;"),
            '&' if !in_code => out.push_str("&amp;"),
            _ => out.push(ch),
        }
    }
    out
}

fn cell(s: &str) -> String {
    md_text(s).replace('|', "\\|").replace('\n', " ")
}

fn finding_section(out: &mut String, f: &Finding) {
    let _ = writeln!(out, "### {} `{}` ({})\n", f.code, f.name, f.severity);
    let _ = writeln!(out, "{}\n", md_text(&f.message));
    let _ = writeln!(out, "- **Object:** `{}`", f.object.display());
    if let Some(at) = f.at {
        let _ = writeln!(out, "- **When:** {}", fmt_short(&at));
    }
    if let Some(c) = &f.confidence {
        let level = serde_json::to_value(c.level)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let _ = writeln!(out, "- **Confidence:** {level} ({})", c.basis.join(", "));
    }
    if !f.help.is_empty() {
        let _ = writeln!(out, "- **Fix:** {}", md_text(&f.help));
    }
    if !f.references.is_empty() {
        let _ = writeln!(out, "- **References:** {}", f.references.join(", "));
    }
    if !f.evidence.is_empty() {
        out.push_str("\nEvidence:\n\n```text\n");
        for e in &f.evidence {
            let loc = match e.line {
                Some(l) => format!("{}:{l}", e.path),
                None => e.path.clone(),
            };
            let label = e
                .label
                .as_deref()
                .map_or_else(String::new, |l| format!("  ({l})"));
            let _ = writeln!(out, "{loc}: {}{label}", e.text.replace("```", "'''"));
        }
        out.push_str("```\n");
    }
    out.push('\n');
}

pub fn render(report: &Report) -> String {
    let mut out = String::from("# mglint report\n\n");
    let s = &report.summary;
    let inputs: Vec<String> = report
        .inputs
        .iter()
        .map(|i| format!("`{}` ({})", i.name, i.kind))
        .collect();
    if !inputs.is_empty() {
        let _ = writeln!(out, "**Inputs:** {}  ", inputs.join(", "));
    }
    if let Some(t) = report.collected_at {
        let _ = writeln!(out, "**Collected:** {}  ", fmt_short(&t));
    }
    let verdict = if report.failed() { "fails" } else { "passes" };
    let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let _ = writeln!(
        out,
        "**Result:** {}, {}, {} info; {verdict} at `--fail-on {}`; {} ran, {} skipped\n",
        n(s.errors, "error", "errors"),
        n(s.warnings, "warning", "warnings"),
        s.info,
        report.fail_on,
        n(s.rules_ran, "rule", "rules"),
        s.rules_skipped
    );
    if report.findings.is_empty() {
        out.push_str("No findings.\n\n");
    } else {
        out.push_str("| Severity | Code | Object | Finding |\n|---|---|---|---|\n");
        for f in &report.findings {
            let _ = writeln!(
                out,
                "| {} | {} | `{}` | {} |",
                f.severity,
                f.code,
                cell(&f.object.display()),
                cell(&f.message)
            );
        }
        out.push_str("\n## Findings\n\n");
        for f in &report.findings {
            finding_section(&mut out, f);
        }
    }
    let skipped: Vec<_> = report.skipped().collect();
    if !skipped.is_empty() {
        out.push_str("## Rules not run\n\n");
        for r in skipped {
            let _ = writeln!(
                out,
                "- {} `{}`: {}",
                r.code,
                r.name,
                r.reason.as_deref().unwrap_or("inputs absent")
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
    use super::md_text;

    #[test]
    fn markup_is_escaped_outside_code_spans() {
        assert_eq!(
            md_text("a <img src=x onerror=alert(1)> & `x<y`"),
            "a &lt;img src=x onerror=alert(1)&gt; &amp; `x<y`"
        );
    }
}
