//! ClusterVersion lanes: `status.history` entries as bars (with the recorded completion drawn
//! apart when the evidence says the release was done earlier), the derived episodes
//! (install, update, cancel, rollback, with their milestones), and the Available,
//! Progressing, Failing, ReleaseAccepted and Upgradeable conditions.

use super::lane_model::{
    Bar, Data, Glyph, Group, Lane, Mark, cond_bar, cond_spans, hms, pack, se, span_text, where_,
};
use crate::model::Time;
use crate::timeline::{
    ConditionStretches, EpisodeKind, EpisodeTag, Evidence, MilestoneKind, Subject, Timeline,
    fmt_short, human_duration,
};

fn history_lane(tl: &Timeline, end: Time) -> Lane {
    let mut lane = Lane::new(Group::ClusterVersion, "cv/history", "history");
    // Installs whose recorded completion is later than the evidence allows.
    let bounds: Vec<(String, Time, Time, &[Evidence])> = tl
        .episodes_of(EpisodeTag::Install)
        .filter_map(|e| {
            let b = e.finished_before.as_ref()?;
            let claimed = b.claimed.filter(|_| b.contradicts_claim())?;
            let EpisodeKind::Install { version } = &e.kind else {
                return None;
            };
            Some((version.clone(), b.before, claimed, b.evidence.as_slice()))
        })
        .collect();
    for h in &tl.history {
        let Some(start) = h.started.or(h.completion) else {
            continue;
        };
        let open = h.completion.is_none();
        let stop = h.completion.unwrap_or(end).max(start);
        let class = match h.state.as_str() {
            "Completed" => "hist-completed",
            "Partial" => "hist-partial",
            _ => "neutral",
        };
        let mut tip = format!(
            "{} {} ({}verified)\n{}\nimage {}",
            h.label(),
            h.state,
            if h.verified { "" } else { "not " },
            span_text(&start, &stop, open),
            h.image
        );
        if h.completion_rewrites.len() > 1 {
            tip.push_str(&format!(
                "\ncompletionTime rewritten across snapshots: {}",
                h.completion_rewrites.join(" → ")
            ));
        }
        tip.push('\n');
        tip.push_str(&where_(&h.evidence));
        let bound = bounds
            .iter()
            .find(|(v, _, claimed, _)| v == h.label() && h.completion == Some(*claimed));
        let mut data = se(&start, &stop);
        data.version = Some(h.label().to_string());
        data.state = Some(h.state.clone());
        match bound {
            Some((_, actual, claimed, ev)) if *actual > start && actual < claimed => {
                tip.push_str(&format!(
                    "\nactually finished before {} ({}); the recorded completion {} is {} later",
                    fmt_short(actual),
                    where_(ev),
                    fmt_short(claimed),
                    human_duration(*claimed - *actual)
                ));
                lane.bars.push(Bar {
                    start,
                    end: *actual,
                    open: false,
                    class,
                    track: 0,
                    label: format!("{} {}", h.label(), h.state),
                    tip: tip.clone(),
                    data,
                });
                lane.bars.push(Bar {
                    start: *actual,
                    end: *claimed,
                    open: false,
                    class: "claimed",
                    track: 0,
                    label: "recorded".into(),
                    tip: format!(
                        "history records completion at {}, but {} was already done before {}\n{}",
                        fmt_short(claimed),
                        h.label(),
                        fmt_short(actual),
                        where_(ev)
                    ),
                    data: Data {
                        actual: Some(fmt_short(actual)),
                        recorded: Some(fmt_short(claimed)),
                        version: Some(h.label().to_string()),
                        ..Data::default()
                    },
                });
                let tip = format!(
                    "actual completion of {}: before {}\n{}",
                    h.label(),
                    fmt_short(actual),
                    where_(ev)
                );
                let mut m = Mark::new(*actual, "m-good", Glyph::Dot, tip).what("actual-completion");
                m.note = format!("actual ≤ {}", hms(actual));
                m.note_left = true;
                lane.marks.push(m);
                let tip = format!(
                    "recorded completion of {}: {} (rewritten)",
                    h.label(),
                    fmt_short(claimed)
                );
                let mut m =
                    Mark::new(*claimed, "m-bad", Glyph::Cross, tip).what("recorded-completion");
                m.note = format!("recorded {}", hms(claimed));
                lane.marks.push(m);
                lane.tracks = 2;
            }
            _ => lane.bars.push(Bar {
                start,
                end: stop,
                open,
                class,
                track: 0,
                label: format!("{} {}", h.label(), h.state),
                tip,
                data,
            }),
        }
    }
    lane
}

fn episode_lane(tl: &Timeline, end: Time) -> Lane {
    let mut lane = Lane::new(Group::ClusterVersion, "cv/episodes", "episodes");
    for e in &tl.episodes {
        let (class, label) = match &e.kind {
            EpisodeKind::Install { version } => ("ep-install", format!("install {version}")),
            EpisodeKind::Update { from, to } => ("ep-update", format!("update {from} → {to}")),
            EpisodeKind::Cancel { from, to } => {
                ("ep-cancel", format!("cancel {from} → {to} → {from}"))
            }
            EpisodeKind::Rollback { from, to } => {
                ("ep-rollback", format!("rollback {from} → {to} → {from}"))
            }
            _ => continue,
        };
        let stop = e.end.unwrap_or(end).max(e.start);
        let mut tip = format!(
            "{label}\n{}\n{}",
            span_text(&e.start, &stop, e.end.is_none()),
            e.summary
        );
        for m in &e.milestones {
            tip.push_str(&format!("\n{:?}: {}", m.kind, fmt_short(&m.time)));
        }
        let mut data = se(&e.start, &stop);
        data.episode = Some(format!("{:?}", e.tag()).to_ascii_lowercase());
        lane.bars.push(Bar {
            start: e.start,
            end: stop,
            open: e.end.is_none(),
            class,
            track: 0,
            label,
            tip,
            data,
        });
        for m in &e.milestones {
            if matches!(m.kind, MilestoneKind::Requested | MilestoneKind::Completed) {
                continue;
            }
            let tip = format!(
                "{:?} ({})\n{}\n{}",
                m.kind,
                e.headline(),
                fmt_short(&m.time),
                where_(&m.evidence)
            );
            lane.marks
                .push(Mark::new(m.time, "m-milestone", Glyph::Tick, tip));
        }
    }
    lane.tracks = pack(&mut lane.bars, 3);
    lane
}

/// Colour of a ClusterVersion condition's status.
fn cv_class(cond: &str, status: &str) -> &'static str {
    match (cond, status) {
        ("Available", "True") | ("ReleaseAccepted", "True") => "good",
        ("Available", "False") | ("ReleaseAccepted", "False") | ("Failing", "True") => "bad",
        ("Progressing", "True") => "prog",
        ("Upgradeable", "False") => "warn",
        (_, "True") | (_, "False") => "neutral",
        _ => "unknown",
    }
}

pub fn cluster_version(
    tl: &Timeline,
    stretches: &ConditionStretches,
    end: Time,
    lanes: &mut Vec<Lane>,
) {
    lanes.push(history_lane(tl, end));
    lanes.push(episode_lane(tl, end));
    for cond in [
        "Available",
        "Progressing",
        "Failing",
        "ReleaseAccepted",
        "Upgradeable",
    ] {
        let mut lane = Lane::new(
            Group::ClusterVersion,
            format!("cv/{cond}"),
            cond.to_string(),
        );
        for s in cond_spans(tl, stretches, &Subject::cluster_version(), cond, end) {
            let class = cv_class(cond, s.status);
            lane.bars
                .push(cond_bar("clusterversion", cond, &s, class, 0));
        }
        lanes.push(lane);
    }
}
