//! Assembles the chart from the timeline and the report: the time window, then the lanes
//! each builder gives (`lanes_cv`, `lanes_cvo`, `lanes_more`, `intervals`), in their groups'
//! order. The lane model the builders share is `lane_model`.

use super::intervals;
use super::lane_model::*;
use super::lanes_cv;
use super::lanes_cvo;
use super::lanes_more;
use crate::model::Time;
use crate::rules::Report;
use crate::timeline::{ConditionStretches, Timeline};

/// The last moment anything is known about: collection time or the latest time seen.
fn window_end(tl: &Timeline, report: &Report) -> Option<Time> {
    let mut end = tl.reference;
    let mut see = |t: Option<Time>| {
        if let Some(t) = t {
            end = Some(end.map_or(t, |e| e.max(t)));
        }
    };
    see(tl.events.last().map(|e| e.time));
    for p in &tl.passes {
        see(p.end.or(Some(p.start)));
    }
    for i in &tl.instances {
        see(Some(i.end));
    }
    for h in &tl.history {
        see(h.started);
        see(h.completion);
    }
    for e in &tl.episodes {
        see(e.end.or(Some(e.start)));
    }
    for f in &report.findings {
        see(f.at);
    }
    see(tl.monitor.end);
    end
}

/// Builds every lane (quiet ones included) and the time window; condition bars from the
/// timeline's condition stretches.
pub fn build(tl: &Timeline, stretches: &ConditionStretches, report: &Report) -> Option<Chart> {
    let end = window_end(tl, report)?;
    let mut lanes = vec![Lane::new(Group::Findings, "findings", "findings")];
    lanes_cv::cluster_version(tl, stretches, end, &mut lanes);
    lanes_cvo::cvo(tl, end, &mut lanes);
    lanes_more::operators(tl, stretches, end, &mut lanes);
    lanes_more::machines(tl, stretches, end, &mut lanes);
    lanes_more::ci(tl, end, &mut lanes);
    intervals::add(&tl.monitor.spans, end, &mut lanes);
    // Operators, pools and nodes by name; everything else as built.
    let mut order: Vec<(usize, Lane)> = lanes.into_iter().enumerate().collect();
    order.sort_by(|(i, a), (j, b)| {
        let by_name = |l: &Lane| matches!(l.group, Group::Operators | Group::Machines);
        let ka = if by_name(a) { a.key.as_str() } else { "" };
        let kb = if by_name(b) { b.key.as_str() } else { "" };
        (a.group, ka, i).cmp(&(b.group, kb, j))
    });
    let mut lanes: Vec<Lane> = order.into_iter().map(|(_, l)| l).collect();
    lanes_more::findings(report, &mut lanes);
    let start = lanes
        .iter()
        .flat_map(|l| {
            l.bars
                .iter()
                .map(|b| b.start)
                .chain(l.marks.iter().map(|m| m.time))
        })
        .min()?;
    Some(Chart {
        lanes,
        start: start.min(end),
        end,
        reference: tl.reference,
    })
}
