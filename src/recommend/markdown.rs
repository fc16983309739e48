//! Markdown for a support case: where the cluster can go and what stands in the way, as
//! tables (every cell escaped), from the same [`Plan`] as oc's text; every target of every
//! minor is listed, none cut.

use super::{Options, Plan, issues, requested_target};
use std::fmt::Write;

/// Text safe in a table cell and in running text: Markdown's active characters escaped,
/// HTML's brackets as entities, control characters shown, newlines as `<br>`, no link or
/// mention built from it.
fn cell(s: &str) -> String {
    let s = crate::vocab::text::show_controls(s);
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '|' | '`' | '*' | '_' | '[' | ']' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' => out.push_str("<br>"),
            // No autolink (`scheme://`, GFM's `www.`) and no mention (`@name`) from the input.
            c => {
                if !crate::vocab::escape::push_inert(&mut out, c, chars.peek().copied()) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Renders the plan (and the `--version` answer, when asked) as Markdown.
pub fn render_markdown(p: &Plan, o: &Options) -> String {
    let mut out = String::from("## Update recommendations\n\n");
    let _ = writeln!(
        out,
        "- **Current version:** {}",
        cell(if p.current.is_empty() {
            "unknown"
        } else {
            &p.current
        })
    );
    if p.channel.is_empty() {
        out.push_str("- **Channel:** none (the cluster is offered no updates)\n");
    } else {
        let _ = writeln!(out, "- **Channel:** {}", cell(&p.channel));
        let upstream = if p.upstream.is_empty() {
            "the default"
        } else {
            &p.upstream
        };
        let _ = writeln!(out, "- **Update service:** {}", cell(upstream));
    }
    let base = issues(p);
    if base.is_empty() {
        out.push_str("- **Issues:** none\n");
    } else {
        let names: Vec<String> = base.iter().map(|i| cell(i)).collect();
        let _ = writeln!(out, "- **Issues:** {}", names.join(", "));
    }
    out.push_str("\n### Checks before updating\n\n| check | status | reason | message |\n|---|---|---|---|\n");
    for (name, c) in [
        ("Failing", &p.failing),
        ("Progressing", &p.progressing),
        ("RetrievedUpdates", &p.retrieved_updates),
        ("Upgradeable", &p.upgradeable),
    ] {
        match c {
            Some(c) => {
                let _ = writeln!(
                    out,
                    "| {name} | {} | {} | {} |",
                    cell(&c.status),
                    cell(&c.reason),
                    cell(&c.message)
                );
            }
            None => {
                let _ = writeln!(out, "| {name} | absent | | |");
            }
        }
    }
    match &p.precheck {
        Err(e) => {
            let _ = writeln!(out, "| alerts | unknown | | {} |", cell(e));
        }
        Ok(checks) => {
            for c in checks {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    cell(&c.type_),
                    cell(&c.status),
                    cell(&c.reason),
                    cell(&c.message)
                );
            }
        }
    }
    if p.minors.is_empty() {
        out.push_str("\n**No updates available.**\n");
    }
    for m in &p.minors {
        let _ = write!(
            out,
            "\n### Updates to {}.{}\n\n| version | recommended | reason | risks |\n|---|---|---|---|\n",
            m.major, m.minor
        );
        for t in &m.sorted {
            let c = t.not_recommended();
            let risks: Vec<String> = t.risks.iter().map(|r| cell(&r.name)).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&t.release.version),
                if c.is_none() { "yes" } else { "no" },
                c.as_ref().map(|c| cell(&c.reason)).unwrap_or_default(),
                risks.join(", ")
            );
        }
    }
    if let Some(answer) = requested_target(p, o) {
        let raw = o.version.as_deref().unwrap_or_default();
        let _ = write!(out, "\n### Update to {}\n\n", cell(raw));
        match answer {
            Err(e) => {
                let _ = writeln!(out, "{}", cell(&e));
            }
            Ok(t) => {
                match t.not_recommended() {
                    None => out.push_str("No known issues relevant to this cluster.\n"),
                    Some(c) => {
                        let _ = writeln!(
                            out,
                            "**Not recommended** ({}): {}",
                            cell(&c.reason),
                            cell(&c.message)
                        );
                    }
                }
                let _ = writeln!(
                    out,
                    "\n- **Image:** {}\n- **Release URL:** {}",
                    cell(&t.release.image),
                    cell(&t.release.url)
                );
            }
        }
    }
    out
}
