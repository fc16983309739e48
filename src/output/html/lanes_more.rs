//! Lanes for ClusterOperators (Available=False, Degraded=True, Progressing=True,
//! Upgradeable=False), MachineConfigPools and nodes (updating, degraded, not ready, drain to
//! ready), CI (Prow job, the upgrade as CI saw it, e2e test intervals, JUnit failures) and the
//! findings' markers.

use super::lane_model::{
    Bar, Glyph, Group, Lane, Mark, cond_bar, cond_spans, pack, se, span_text, where_,
};
use crate::model::Time;
use crate::rules::{Report, Severity};
use crate::timeline::{ConditionStretches, EventKind, Subject, Timeline, TimelineEvent, fmt_short};
use std::collections::BTreeMap;

/// A ClusterOperator's name.
fn operator(s: &Subject) -> Option<&str> {
    match s {
        Subject::ClusterOperator(n) => Some(n),
        _ => None,
    }
}

/// A MachineConfigPool's name.
fn pool(s: &Subject) -> Option<&str> {
    match s {
        Subject::MachineConfigPool(n) => Some(n),
        _ => None,
    }
}

/// A Node's name.
fn node(s: &Subject) -> Option<&str> {
    match s {
        Subject::Node(n) => Some(n),
        _ => None,
    }
}

/// The subjects `of` picks (their name) that have a condition, by name.
fn subjects(
    stretches: &ConditionStretches,
    of: fn(&Subject) -> Option<&str>,
) -> Vec<(&Subject, &str)> {
    stretches
        .subjects()
        .filter_map(|s| of(s).map(|name| (s, name)))
        .collect()
}

/// Adds one bar per stretch in which `cond` had a status that `class` colours.
#[allow(clippy::too_many_arguments)] // the lane's cell: where, what, when, how drawn
fn add_cond_bars(
    lane: &mut Lane,
    (tl, stretches): (&Timeline, &ConditionStretches),
    subject: &Subject,
    cond: &str,
    end: Time,
    track: usize,
    class: impl Fn(&str) -> Option<&'static str>,
) {
    let text = subject.to_string();
    for s in cond_spans(tl, stretches, subject, cond, end) {
        if let Some(c) = class(s.status) {
            lane.bars.push(cond_bar(&text, cond, &s, c, track));
        }
    }
}

pub fn operators(tl: &Timeline, stretches: &ConditionStretches, end: Time, lanes: &mut Vec<Lane>) {
    let idx = (tl, stretches);
    for (subject, name) in subjects(stretches, operator) {
        let mut lane = Lane::new(Group::Operators, format!("co/{name}"), name);
        lane.tracks = 4;
        lane.track_h = 5.0;
        let prog = |s: &str| (s == "True").then_some("prog");
        let degr = |s: &str| (s == "True").then_some("warn");
        let avail = |s: &str| (s != "True").then_some("bad");
        let upgr = |s: &str| (s == "False").then_some("upg");
        add_cond_bars(&mut lane, idx, subject, "Progressing", end, 0, prog);
        add_cond_bars(&mut lane, idx, subject, "Degraded", end, 1, degr);
        add_cond_bars(&mut lane, idx, subject, "Available", end, 2, avail);
        add_cond_bars(&mut lane, idx, subject, "Upgradeable", end, 3, upgr);
        for b in &mut lane.bars {
            b.label.clear();
        }
        lanes.push(lane);
    }
}

/// Node lifecycle phases that start a node update, and those that end it.
const UPDATE_START: [&str; 3] = ["Drain", "OSUpdateStarted", "Reboot"];
const UPDATE_END: [&str; 3] = ["NodeReady", "Uncordon", "NodeDone"];
/// Phases every install logs for every node: not worth a mark.
const NOISE: [&str; 2] = ["RegisteredNode", "Starting"];

pub fn machines(tl: &Timeline, stretches: &ConditionStretches, end: Time, lanes: &mut Vec<Lane>) {
    let idx = (tl, stretches);
    for (subject, name) in subjects(stretches, pool) {
        let mut lane = Lane::new(
            Group::Machines,
            format!("mcp/{name}"),
            format!("pool {name}"),
        );
        lane.tracks = 2;
        lane.track_h = 7.0;
        let upd = |s: &str| (s == "True").then_some("prog");
        let deg = |s: &str| (s == "True").then_some("bad");
        add_cond_bars(&mut lane, idx, subject, "Updating", end, 0, upd);
        add_cond_bars(&mut lane, idx, subject, "Degraded", end, 1, deg);
        for b in &mut lane.bars {
            b.label.clear();
        }
        lanes.push(lane);
    }
    // Nodes: from conditions and from lifecycle events.
    let mut lifecycle: BTreeMap<&Subject, Vec<&TimelineEvent>> = BTreeMap::new();
    for e in &tl.events {
        if matches!(e.kind, EventKind::NodeLifecycle { .. })
            && matches!(e.subject, Subject::Node(_))
        {
            lifecycle.entry(&e.subject).or_default().push(e);
        }
    }
    let mut nodes: BTreeMap<&Subject, &str> = subjects(stretches, node).into_iter().collect();
    nodes.extend(lifecycle.keys().filter_map(|s| Some((*s, node(s)?))));
    for (subject, name) in nodes {
        let mut lane = Lane::new(Group::Machines, format!("node/{name}"), name);
        lane.tracks = 2;
        lane.track_h = 7.0;
        let not_ready = |s: &str| (s != "True").then_some("bad");
        add_cond_bars(&mut lane, idx, subject, "Ready", end, 1, not_ready);
        let evs = lifecycle.get(subject).map_or(&[][..], Vec::as_slice);
        // Every transition to Ready=True (one setting it again included).
        let ready: Vec<Time> = stretches
            .of(subject, "Ready")
            .unwrap_or_default()
            .iter()
            .filter(|s| s.status(tl).0 == "True")
            .flat_map(|s| s.transitions(tl).map(|e| e.time))
            .collect();
        let mut open_since: Option<&TimelineEvent> = None;
        for e in evs {
            let EventKind::NodeLifecycle { phase } = &e.kind else {
                continue;
            };
            if NOISE.contains(&phase.as_str()) {
                continue;
            }
            let tip = format!(
                "{name}: {}\n{}\n{}",
                e.message,
                fmt_short(&e.time),
                where_(&e.evidence)
            );
            lane.marks
                .push(Mark::new(e.time, "m-node", Glyph::Tick, tip).what(phase.clone()));
            if open_since.is_none() && UPDATE_START.contains(&phase.as_str()) {
                open_since = Some(e);
            } else if let Some(s) = open_since.filter(|_| UPDATE_END.contains(&phase.as_str())) {
                lane.bars.push(node_update(name, s, e.time, false));
                open_since = None;
            }
        }
        if let Some(s) = open_since {
            // Ended by the node turning Ready, else still going.
            match ready.iter().find(|t| **t > s.time) {
                Some(t) => lane.bars.push(node_update(name, s, *t, false)),
                None => lane.bars.push(node_update(name, s, end.max(s.time), true)),
            }
        }
        lanes.push(lane);
    }
}

fn node_update(name: &str, from: &TimelineEvent, to: Time, open: bool) -> Bar {
    Bar {
        start: from.time,
        end: to,
        open,
        class: "prog",
        track: 0,
        label: String::new(),
        tip: format!(
            "{name} updating (drain to ready)\n{}\n{}",
            span_text(&from.time, &to, open),
            where_(&from.evidence)
        ),
        data: se(&from.time, &to),
    }
}

pub fn ci(tl: &Timeline, end: Time, lanes: &mut Vec<Lane>) {
    let mut prow = Lane::new(Group::Ci, "ci/prow", "prow job");
    let mut upgrade = Lane::new(Group::Ci, "ci/upgrade", "upgrade (CI)");
    let mut tests = Lane::new(Group::Ci, "ci/tests", "e2e tests");
    let mut junit = Lane::new(Group::Ci, "ci/junit", "junit failures");
    let mut prow_start: Option<&TimelineEvent> = None;
    let mut up_start: Option<&TimelineEvent> = None;
    let mut test_open: BTreeMap<&str, &TimelineEvent> = BTreeMap::new();
    let mark = |e: &TimelineEvent, class: &'static str, glyph: Glyph, what: &str| {
        let tip = format!(
            "{}\n{}\n{}",
            fmt_short(&e.time),
            e.message,
            where_(&e.evidence)
        );
        Mark::new(e.time, class, glyph, tip).what(what)
    };
    for e in &tl.events {
        match &e.kind {
            EventKind::ProwStart { .. } => prow_start = prow_start.or(Some(e)),
            EventKind::ProwEnd { passed, result, .. } => {
                let s = prow_start.map_or(e.time, |s| s.time);
                prow.bars.push(Bar {
                    start: s,
                    end: e.time,
                    open: false,
                    class: if *passed == Some(true) { "good" } else { "bad" },
                    track: 0,
                    label: format!("job {result}"),
                    tip: format!(
                        "{}\n{}\n{}",
                        e.message,
                        span_text(&s, &e.time, false),
                        where_(&e.evidence)
                    ),
                    data: se(&s, &e.time),
                });
                prow_start = None;
            }
            EventKind::UpgradeStarted { .. } => {
                up_start = up_start.or(Some(e));
                upgrade
                    .marks
                    .push(mark(e, "m-milestone", Glyph::Tick, "upgrade-started"));
            }
            EventKind::UpgradeComplete { version, .. }
            | EventKind::UpgradeFailed { version, .. }
            | EventKind::UpgradeRollback { version, .. } => {
                let ok = matches!(e.kind, EventKind::UpgradeComplete { .. });
                let what = e.kind.name();
                upgrade.marks.push(mark(
                    e,
                    if ok { "m-good" } else { "m-bad" },
                    Glyph::Tick,
                    what,
                ));
                if let Some(s) = up_start.take() {
                    upgrade.bars.push(Bar {
                        start: s.time,
                        end: e.time,
                        open: false,
                        class: if ok { "ci-upgrade" } else { "bad" },
                        track: 0,
                        label: format!("upgrade to {version}"),
                        tip: format!(
                            "CI: {} → {}\n{}\n{}",
                            s.message,
                            e.message,
                            span_text(&s.time, &e.time, false),
                            where_(&e.evidence)
                        ),
                        data: se(&s.time, &e.time),
                    });
                }
            }
            EventKind::E2eOutputStart | EventKind::E2eWaitingForNodes { .. } => {
                upgrade
                    .marks
                    .push(mark(e, "m-milestone", Glyph::Dot, e.kind.name()));
            }
            EventKind::TestStart { test } => {
                test_open.insert(test.as_str(), e);
            }
            EventKind::TestEnd { test, status } => {
                let s = test_open.remove(test.as_str()).map_or(e.time, |s| s.time);
                let class = match status.as_str() {
                    "Passed" | "passed" => "good",
                    "Skipped" | "skipped" => "neutral",
                    _ => "bad",
                };
                tests.bars.push(Bar {
                    start: s,
                    end: e.time,
                    open: false,
                    class,
                    track: 0,
                    label: test.clone(),
                    tip: format!(
                        "{test}\n{status}\n{}\n{}",
                        span_text(&s, &e.time, false),
                        where_(&e.evidence)
                    ),
                    data: se(&s, &e.time),
                });
            }
            EventKind::JunitResult { status, .. } if status != "passed" && status != "skipped" => {
                junit
                    .marks
                    .push(mark(e, "m-bad", Glyph::Cross, "junit-failure"));
            }
            _ => {}
        }
    }
    if let Some(s) = up_start {
        upgrade.bars.push(Bar {
            start: s.time,
            end: end.max(s.time),
            open: true,
            class: "ci-upgrade",
            track: 0,
            label: "upgrade (no completion seen)".into(),
            tip: format!("{}\n{}", s.message, span_text(&s.time, &end, true)),
            data: se(&s.time, &end),
        });
    }
    for (test, s) in test_open {
        tests.bars.push(Bar {
            start: s.time,
            end: end.max(s.time),
            open: true,
            class: "neutral",
            track: 0,
            label: test.to_string(),
            tip: format!("{test}\nno end seen\n{}", span_text(&s.time, &end, true)),
            data: se(&s.time, &end),
        });
    }
    tests.tracks = pack(&mut tests.bars, 4);
    lanes.extend([prow, upgrade, tests, junit]);
}

fn sev_class(s: Severity) -> &'static str {
    match s {
        Severity::Error => "sev-error",
        Severity::Warning => "sev-warning",
        Severity::Info => "sev-info",
    }
}

/// The lane a finding's object is drawn on, if that lane exists.
fn object_lane(kind: &str, name: &str) -> String {
    match kind.to_ascii_lowercase().as_str() {
        "clusterversion" => "cv/history".into(),
        "clusteroperator" => format!("co/{name}"),
        "node" => format!("node/{name}"),
        "machineconfigpool" => format!("mcp/{name}"),
        "pod" => format!("cvo-pod/{name}"),
        _ => String::new(),
    }
}

/// Marks every timed finding on the findings lane and on its object's lane.
pub fn findings(report: &Report, lanes: &mut [Lane]) {
    let pos: BTreeMap<String, usize> = lanes
        .iter()
        .enumerate()
        .map(|(i, l)| (l.key.clone(), i))
        .collect();
    for (n, f) in report.findings.iter().enumerate() {
        let Some(at) = f.at else { continue };
        let tip = format!(
            "{} {} ({}) at {}\n{}\n{}",
            f.code,
            f.name,
            f.severity,
            fmt_short(&at),
            f.object.display(),
            f.message
        );
        let mut mark = Mark::new(at, sev_class(f.severity), Glyph::Diamond, tip);
        mark.link = Some(format!("#f-{}", n + 1));
        mark.data.code = Some(f.code.to_string());
        if let Some(i) = pos.get(&object_lane(&f.object.kind, &f.object.name)) {
            lanes[*i].marks.push(mark.clone());
        }
        if let Some(i) = pos.get("findings") {
            lanes[*i].marks.push(mark);
        }
    }
}
