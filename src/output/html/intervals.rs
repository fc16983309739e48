//! CI monitor intervals as the chart draws them, from the timeline's spans
//! ([`MonitorSpan`]: both ends, where the events keep only a condition interval's start), so an operator that was Available=False
//! for 48 s is drawn for 48 s. Condition intervals land on their operator, ClusterVersion,
//! pool or node lane; node update phases on the node; alerts, disruption and the rest on CI
//! lanes. Pod and container intervals are left out (thousands in a real job).

use super::lane_model::{Bar, Glyph, Group, Lane, Mark, se, span_text};
use crate::model::Time;
use crate::timeline::MonitorSpan;
use std::collections::BTreeMap;

/// The tooltip of an interval drawn up to `end`.
fn tip(iv: &MonitorSpan, end: &Time) -> String {
    let open = iv.to.is_none();
    format!(
        "{}\n{} {}\n{}\n{}\n{}",
        iv.locator,
        iv.level,
        iv.reason,
        span_text(&iv.from, end, open),
        iv.message,
        iv.file
    )
}
/// Where an interval goes: a lane key and a track, or nothing.
fn place(iv: &MonitorSpan) -> Option<(String, usize, &'static str)> {
    let k = &iv.keys;
    if k.contains_key("e2e-test") || k.contains_key("pod") || k.contains_key("container") {
        return None;
    }
    let cond = iv.annotations.get("condition").map(String::as_str);
    let status = iv.annotations.get("status").map_or("", String::as_str);
    if k.contains_key("clusterversion") {
        if iv.reason.starts_with("Upgrade") {
            return None; // the timeline's upgrade events cover these
        }
        let c = cond?;
        let class = match (c, status) {
            ("Available", "True") | ("ReleaseAccepted", "True") => "good",
            ("Available", "False") | ("ReleaseAccepted", "False") | ("Failing", "True") => "bad",
            ("Progressing", "True") => "prog",
            ("Upgradeable", "False") => "warn",
            _ => "neutral",
        };
        return Some((format!("cv/{c}"), 0, class));
    }
    if let Some(co) = k.get("clusteroperator") {
        let (track, class) = match (cond?, status) {
            ("Progressing", "True") => (0, "prog"),
            ("Degraded", "True") => (1, "warn"),
            ("Available", s) if s != "True" => (2, "bad"),
            ("Upgradeable", "False") => (3, "upg"),
            _ => return None,
        };
        return Some((format!("co/{co}"), track, class));
    }
    if let Some(n) = k.get("node") {
        let what = format!("{} {}", iv.reason, iv.message).to_ascii_lowercase();
        if what.contains("notready") || what.contains("not ready") {
            return Some((format!("node/{n}"), 1, "bad"));
        }
        if iv.annotations.contains_key("phase") || iv.reason.contains("Update") {
            return Some((format!("node/{n}"), 0, "prog"));
        }
        return None;
    }
    if k.contains_key("alert") || iv.locator.starts_with("alert/") {
        let class = match iv.level.as_str() {
            "Error" => "bad",
            "Warning" => "warn",
            _ => "neutral",
        };
        return Some(("ci/alerts".into(), 0, class));
    }
    if k.keys().any(|k| k.contains("disruption")) || iv.locator.contains("disruption") {
        return Some(("ci/disruption".into(), 0, "bad"));
    }
    let class = match iv.level.as_str() {
        "Error" => "bad",
        "Warning" => "warn",
        _ => "neutral",
    };
    Some(("ci/intervals".into(), 0, class))
}

/// A lane for an interval whose subject has no lane yet.
fn new_lane(key: &str) -> Lane {
    let (group, name) = key.split_once('/').unwrap_or(("ci", key));
    let mut lane = match group {
        "co" => Lane::new(Group::Operators, key, name),
        "node" => Lane::new(Group::Machines, key, name),
        "cv" => Lane::new(Group::ClusterVersion, key, name),
        _ => Lane::new(
            Group::Ci,
            key,
            match key {
                "ci/alerts" => "alerts",
                "ci/disruption" => "disruption",
                _ => "other intervals",
            },
        ),
    };
    match group {
        "co" => {
            lane.tracks = 4;
            lane.track_h = 5.0;
        }
        "node" => {
            lane.tracks = 2;
            lane.track_h = 7.0;
        }
        _ => {}
    }
    lane
}

/// Adds every interval to its lane (creating the CI lanes it needs).
pub fn add(intervals: &[MonitorSpan], end: Time, lanes: &mut Vec<Lane>) {
    let mut extra: BTreeMap<String, Lane> = BTreeMap::new();
    for iv in intervals {
        let Some((key, track, class)) = place(iv) else {
            continue;
        };
        let stop = iv.to.unwrap_or(end).max(iv.from);
        if !key.starts_with("ci/") && !lanes.iter().any(|l| l.key == key) {
            lanes.push(new_lane(&key));
        }
        let lane = match lanes.iter_mut().find(|l| l.key == key) {
            Some(l) => l,
            None => extra.entry(key.clone()).or_insert_with(|| new_lane(&key)),
        };
        if stop == iv.from {
            let class = if class == "bad" {
                "m-bad"
            } else {
                "m-milestone"
            };
            lane.marks
                .push(Mark::new(iv.from, class, Glyph::Tick, tip(iv, &stop)).what("interval"));
            continue;
        }
        let mut data = se(&iv.from, &stop);
        data.interval = Some(iv.reason.clone());
        let label = if key.starts_with("cv/") {
            format!(
                "{}={}",
                iv.annotations.get("condition").map_or("", String::as_str),
                iv.annotations.get("status").map_or("", String::as_str)
            )
        } else if key.starts_with("ci/") {
            iv.keys
                .get("alert")
                .cloned()
                .unwrap_or_else(|| iv.locator.clone())
        } else {
            String::new()
        };
        lane.bars.push(Bar {
            start: iv.from,
            end: stop,
            open: iv.to.is_none(),
            class,
            track,
            label,
            tip: tip(iv, &stop),
            data,
        });
    }
    for (_, mut l) in extra {
        l.tracks = super::lane_model::pack(&mut l.bars, 4);
        lanes.push(l);
    }
}
