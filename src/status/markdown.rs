//! Markdown for a support case: the verdict, the control plane, pools and Update Health as
//! tables (cells escaped by [`crate::vocab::escape`]'s policy), built from the same [`Assessment`] as the text.

use super::Assessment;
use super::godur::Dur;
use super::nodes::PoolAssessment;
use crate::model::fmt_k8s;
use std::fmt::Write;

/// Text from the input in a table cell: no markup, link, mention or control character left
/// live ([`crate::vocab::escape::markdown_text`]), its line breaks as `<br>`.
fn cell(s: &str) -> String {
    crate::vocab::escape::markdown_text(s).replace('\n', "<br>")
}

/// A name from the input as a code span in a table cell: one line, controls shown, `|`
/// escaped for the table (GFM reads `\|` before the code span).
fn code_cell(s: &str) -> String {
    crate::vocab::escape::markdown_code(s).replace('|', "\\|")
}

fn pool_table(out: &mut String, title: &str, p: &PoolAssessment) {
    let _ = writeln!(out, "\n### {title}\n");
    out.push_str(
        "| node | assessment | phase | version | est | message |\n|---|---|---|---|---|---|\n",
    );
    for n in &p.nodes {
        let version = if n.version.is_empty() {
            "?"
        } else {
            &n.version
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            code_cell(&n.name),
            n.state.as_str(),
            n.phase.as_str(),
            cell(version),
            cell(&n.estimate),
            cell(&n.message)
        );
    }
}

/// Renders the assessment as Markdown.
pub fn render_markdown(a: &Assessment) -> String {
    let mut out = String::from("## Update status\n\n");
    let cp = &a.control_plane;
    let _ = writeln!(
        out,
        "Assessed at {} ({}).\n",
        fmt_k8s(&a.now.time),
        a.now.source.describe()
    );
    if !a.updating {
        out.push_str("**The cluster is not updating.**\n");
    }
    out.push_str("\n### Control plane\n\n| | |\n|---|---|\n");
    let _ = writeln!(out, "| assessment | {} |", cp.state.as_str());
    let _ = writeln!(out, "| target version | {} |", cell(&cp.target.to_string()));
    let ops = &cp.operators;
    let _ = writeln!(
        out,
        "| completion | {:.0}% ({} of {} operators updated, {} updating, {} waiting) |",
        cp.completion,
        ops.updated,
        ops.total,
        ops.updating.len(),
        ops.waiting
    );
    if let Some(t) = cp.completed_at.filter(|_| cp.is_completed()) {
        let _ = writeln!(out, "| completed at | {} |", fmt_k8s(&t));
    }
    let _ = writeln!(out, "| duration | {} |", cp.duration.short());
    if cp.estimated_remaining != Dur::ZERO {
        let _ = writeln!(
            out,
            "| estimated time remaining | {} |",
            cp.estimated_remaining.short()
        );
    }
    let _ = writeln!(out, "| operator health | {} |", ops.health_summary());
    if !ops.updating.is_empty() {
        out.push_str("\n| updating operator | reason | message |\n|---|---|---|\n");
        for o in &ops.updating {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                code_cell(&o.name),
                cell(&o.reason),
                cell(&o.message)
            );
        }
    }
    if let Some(p) = &a.control_plane_nodes {
        pool_table(&mut out, "Control plane nodes", p);
    }
    if !a.worker_pools.is_empty() {
        out.push_str("\n### Worker pools\n\n| pool | assessment | completion | total | available | progressing | draining | excluded | degraded |\n|---|---|---|---|---|---|---|---|---|\n");
        for p in &a.worker_pools {
            let o = &p.overview;
            let (state, completion) = if p.nodes.is_empty() {
                ("Empty", "-".to_string())
            } else {
                (p.state.as_str(), format!("{:.0}%", p.completion))
            };
            let _ = writeln!(
                out,
                "| {} | {state} | {completion} | {} | {} | {} | {} | {} | {} |",
                code_cell(&p.name),
                o.total,
                o.available,
                o.progressing,
                o.draining,
                o.excluded,
                o.degraded
            );
        }
        for p in a.worker_pools.iter().filter(|p| !p.nodes.is_empty()) {
            let name = crate::vocab::escape::markdown_code(&p.name);
            pool_table(&mut out, &format!("Worker pool {name}"), p);
        }
    }
    out.push_str("\n### Update health\n\n| since | level | impact | message | reference |\n|---|---|---|---|---|\n");
    for i in &a.insights {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            super::text::since(i, a.now.time),
            i.level.as_str(),
            i.impact.as_str(),
            cell(&i.summary),
            cell(&i.reference)
        );
    }
    out
}
