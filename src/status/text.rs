//! The text `oc adm upgrade status` prints, reproduced byte for byte from an [`Assessment`]:
//! the control plane block, the updating operators table, the node tables (ten nodes a pool
//! unless `--details=nodes`), the worker pools table and Update Health (a table, or one
//! block per insight with `--details=health`).

use super::godur::{Dur, MINUTE};
use super::insights::{ImpactLevel, Insight};
use super::nodes::PoolAssessment;
use super::tabwriter::align;
use super::{Assessment, ControlPlane, Details};
use std::fmt::Write;

const PADDING: usize = 3;

/// Renders the assessment as oc does with `--details=<details>`.
pub fn render_text(a: &Assessment, details: Details) -> String {
    // Text from the input reaches a terminal: its control characters are shown escaped.
    crate::vocab::text::show_controls(&render_text_unescaped(a, details)).into_owned()
}

fn render_text_unescaped(a: &Assessment, details: Details) -> String {
    if !a.updating {
        return "The cluster is not updating.\n".to_string();
    }
    let mut out = String::new();
    control_plane(
        &mut out,
        &a.control_plane,
        details.shows(Details::Operators),
        a,
    );
    if let Some(p) = &a.control_plane_nodes {
        pool_nodes(&mut out, p, details.shows(Details::Nodes));
    }
    if a.worker_pools.iter().any(|p| !p.nodes.is_empty()) {
        out.push_str("\n= Worker Upgrade =\n");
        worker_pools(&mut out, &a.worker_pools);
        for p in &a.worker_pools {
            pool_nodes(&mut out, p, details.shows(Details::Nodes));
        }
    }
    out.push('\n');
    health(
        &mut out,
        &a.insights,
        a,
        a.health_has_insights && details.shows(Details::Health),
    );
    out
}

/// oc's "Est. Time Remaining" wording.
fn vague_under(remaining: Dur, estimated: Dur, multi_arch: bool) -> String {
    if multi_arch {
        "N/A for Multi-Architecture Migration".to_string()
    } else if remaining < Dur::minutes(-10) {
        format!("N/A; estimate duration was {}", estimated.short())
    } else if remaining < Dur::minutes(10) {
        format!("<{}", Dur(10 * MINUTE).short())
    } else {
        remaining.short()
    }
}

fn ellipsis(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let keep = max.max(3) - 3;
    let mut t: String = s.chars().take(keep).collect();
    t.push_str("...");
    t
}

fn control_plane(out: &mut String, cp: &ControlPlane, detailed: bool, a: &Assessment) {
    if cp.is_completed() {
        let at = cp
            .completed_at
            .map_or("0001-01-01T00:00:00Z".to_string(), |t| {
                t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
            });
        let _ = writeln!(
            out,
            "= Control Plane =\nUpdate to {} successfully completed at {at} (duration: {})",
            cp.target.target,
            cp.duration.short()
        );
        return;
    }
    let ops = &cp.operators;
    let _ = writeln!(out, "= Control Plane =");
    let _ = writeln!(out, "Assessment:      {}", cp.state.as_str());
    let _ = writeln!(out, "Target Version:  {}", cp.target);
    if !ops.updating.is_empty() {
        let names: Vec<_> = ops.updating.iter().map(|o| name(&o.name)).collect();
        let _ = writeln!(out, "Updating:        {}", names.join(", "));
    }
    let _ = writeln!(
        out,
        "Completion:      {:.0}% ({} operators updated, {} updating, {} waiting)",
        cp.completion,
        ops.updated,
        ops.updating.len(),
        ops.waiting
    );
    let _ = write!(out, "Duration:        {}", cp.duration.short());
    if cp.estimated_remaining != Dur::ZERO {
        let _ = write!(
            out,
            " (Est. Time Remaining: {})",
            vague_under(
                cp.estimated_remaining,
                cp.estimated_duration,
                cp.multi_arch_migration
            )
        );
    }
    let _ = writeln!(out, "\nOperator Health: {}", ops.health_summary());
    if detailed && !ops.updating.is_empty() {
        out.push_str("\nUpdating Cluster Operators");
        let mut t = String::from("\nNAME\tSINCE\tREASON\tMESSAGE\n");
        for o in &ops.updating {
            let since = o
                .since
                .map_or(Dur(i64::MAX), |s| Dur::between(s, a.now.time));
            let reason = if o.reason.is_empty() { "-" } else { &o.reason };
            let _ = write!(
                t,
                "{}\t{}\t{}\t",
                name(&o.name),
                since.short(),
                ellipsis(reason, 20)
            );
            for (i, line) in o.message.split('\n').enumerate() {
                if i > 0 {
                    t.push_str("\t\t\t");
                }
                t.push_str(line);
                t.push('\n');
            }
        }
        out.push_str(&align(&t, PADDING));
    }
}

/// An object's name on its line and in its table cell: a newline or a tab in it (never in a
/// real name) shown as `\x0a`, `\x09`, so it cannot forge a line or a column; oc's bytes
/// for every real name.
fn name(s: &str) -> std::borrow::Cow<'_, str> {
    crate::vocab::escape::one_line(s)
}

fn worker_pools(out: &mut String, pools: &[PoolAssessment]) {
    let mut t = String::from("\nWORKER POOL\tASSESSMENT\tCOMPLETION\tSTATUS\n");
    for p in pools {
        let o = &p.overview;
        if p.nodes.is_empty() {
            let _ = writeln!(t, "{}\tEmpty\t\t{} Total", name(&p.name), o.total);
            continue;
        }
        let _ = write!(
            t,
            "{}\t{}\t{:.0}% ({}/{})\t{} Available, {} Progressing, {} Draining",
            name(&p.name),
            p.state.as_str(),
            p.completion,
            o.total - o.outdated,
            o.total,
            o.available,
            o.progressing,
            o.draining
        );
        // oc iterates a map here, so its order is random when both are present.
        for (n, what) in [(o.excluded, "Excluded"), (o.degraded, "Degraded")] {
            if n > 0 {
                let _ = write!(t, ", {n} {what}");
            }
        }
        t.push('\n');
    }
    out.push_str(&align(&t, PADDING));
}

fn pool_nodes(out: &mut String, p: &PoolAssessment, detailed: bool) {
    if p.nodes.is_empty() {
        return;
    }
    if p.name == "master" {
        if p.completion == 100.0 {
            let _ = writeln!(
                out,
                "\nAll control plane nodes successfully updated to {}",
                p.nodes[0].version
            );
            return;
        }
        out.push_str("\nControl Plane Nodes");
    } else {
        let _ = write!(out, "\nWorker Pool Nodes: {}", name(&p.name));
    }
    let mut t = String::from("\nNAME\tASSESSMENT\tPHASE\tVERSION\tEST\tMESSAGE\n");
    let mut omitted = [0usize; 7];
    for (i, n) in p.nodes.iter().enumerate() {
        // Past ten nodes, only those in an undesired state are shown.
        if !detailed && i >= 10 && !n.degraded && (!n.unavailable || n.updating) {
            let [
                total,
                completed,
                available,
                progressing,
                outdated,
                draining,
                excluded,
            ] = &mut omitted;
            *total += 1;
            if n.updated {
                *completed += 1;
            } else {
                *outdated += 1;
            }
            if !n.unavailable {
                *available += 1;
            }
            if n.phase == super::NodePhase::Draining {
                *draining += 1;
            }
            if n.phase == super::NodePhase::Paused {
                *excluded += 1;
            }
            if n.state == super::NodeState::Progressing {
                *progressing += 1;
            }
            continue;
        }
        let version = if n.version.is_empty() {
            "?"
        } else {
            &n.version
        };
        let _ = writeln!(
            t,
            "{}\t{}\t{}\t{version}\t{}\t{}",
            name(&n.name),
            n.state.as_str(),
            n.phase.as_str(),
            n.estimate,
            n.message
        );
    }
    out.push_str(&align(&t, PADDING));
    let [
        total,
        completed,
        available,
        progressing,
        outdated,
        draining,
        excluded,
    ] = omitted;
    if total > 0 {
        let _ = write!(
            out,
            "...\nOmitted additional {total} Total, {completed} Completed, {available} Available, {progressing} Progressing, {outdated} Outdated, {draining} Draining, {excluded} Excluded, and 0 Degraded nodes.\nPass along --details=nodes to see all information.\n"
        );
    }
}

/// oc's "since" column: time from the insight's start to now, truncated to seconds.
pub fn since(i: &Insight, now: crate::model::Time) -> String {
    match i.started_at {
        None => "-".to_string(),
        Some(s) => Dur::between(s, now).truncate(super::godur::SECOND).short(),
    }
}

fn health(out: &mut String, insights: &[Insight], a: &Assessment, detailed: bool) {
    out.push_str("= Update Health =\n");
    if detailed {
        let pad = "Description: ".len();
        for (i, it) in insights.iter().enumerate() {
            let _ = writeln!(out, "Message: {}", it.summary);
            let _ = writeln!(out, "  {:<pad$}{}", "Since:", since(it, a.now.time));
            let _ = writeln!(out, "  {:<pad$}{}", "Level:", it.level.as_str());
            let _ = writeln!(out, "  {:<pad$}{}", "Impact:", it.impact.as_str());
            let _ = writeln!(out, "  {:<pad$}{}", "Reference:", it.reference);
            if !it.resources.is_empty() {
                out.push_str("  Resources:\n");
                // One line per resource (as oc, which repeats a kind's line per resource).
                let mut kinds: Vec<String> = it
                    .resources
                    .iter()
                    .map(|r| format!("{}: ", r.kind_label()))
                    .collect();
                let kind_pad = kinds.iter().map(String::len).max().unwrap_or(0);
                kinds.sort();
                for k in &kinds {
                    let mut names: Vec<String> = it
                        .resources
                        .iter()
                        .filter(|r| format!("{}: ", r.kind_label()) == *k)
                        .map(|r| r.namespaced_name())
                        .collect();
                    names.sort();
                    let _ = writeln!(out, "    {k:<kind_pad$}{}", names.join(", "));
                }
            }
            let indent = format!("\n{}, ", " ".repeat(pad + 2));
            let _ = writeln!(
                out,
                "  {:<pad$}{}",
                "Description:",
                it.description.replace('\n', &indent)
            );
            if i + 1 < insights.len() {
                out.push('\n');
            }
        }
        return;
    }
    let mut t = String::from("SINCE\tLEVEL\tIMPACT\tMESSAGE\n");
    for it in insights {
        let _ = writeln!(
            t,
            "{}\t{}\t{}\t{}",
            since(it, a.now.time),
            it.level.as_str(),
            it.impact.as_str(),
            it.summary
        );
    }
    out.push_str(&align(&t, PADDING));
    if insights.len() > 1
        || insights
            .first()
            .is_some_and(|i| i.level != ImpactLevel::Info)
    {
        out.push_str(
            "\nRun with --details=health for additional description and links to related online documentation\n",
        );
    }
}
