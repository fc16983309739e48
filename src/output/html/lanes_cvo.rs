//! The Cluster Version Operator's lanes: reconciliation (stalls, spans with no leading CVO,
//! restarts), sync passes coloured by state and outcome, precondition and payload events
//! (runs of failures of one precondition drawn as one bar), and one lane per CVO container
//! instance (log span, leader lease, shutdown).

use super::lane_model::{Bar, Glyph, Group, Lane, Mark, hms, pack, se, span_text, where_};
use crate::model::Time;
use crate::timeline::{EpisodeKind, EventKind, Timeline, TimelineEvent, fmt_short, one_line};
use chrono::Duration;

fn pass_class(p: &crate::timeline::Pass) -> &'static str {
    if p.stuck_before_manifests() {
        return "pass-stuck";
    }
    match (p.state.as_str(), p.ok) {
        (_, Some(false)) => "pass-failed",
        ("Initializing", _) => "pass-init",
        ("Updating", _) => "pass-upd",
        ("Reconciling", _) => "pass-rec",
        _ => "neutral",
    }
}

pub fn cvo(tl: &Timeline, end: Time, lanes: &mut Vec<Lane>) {
    // Reconciliation: stalls and spans without a leading CVO, restarts as marks.
    let mut rec = Lane::new(Group::Cvo, "cvo/reconciliation", "reconciliation");
    rec.outside_labels = true;
    for e in &tl.episodes {
        let stop = e.end.unwrap_or(end).max(e.start);
        let open = e.end.is_none();
        let running = e
            .running_release
            .as_deref()
            .unwrap_or("the running release");
        match &e.kind {
            EpisodeKind::Stall { cause, detail } => {
                let mut data = se(&e.start, &stop);
                data.episode = Some("stall".into());
                data.release = Some(running.to_string());
                rec.bars.push(Bar {
                    start: e.start,
                    end: stop,
                    open,
                    class: "stall",
                    track: 0,
                    label: if open {
                        format!("{running} not reconciled since {}", hms(&e.start))
                    } else {
                        format!(
                            "{running} not reconciled {} → {}",
                            hms(&e.start),
                            hms(&stop)
                        )
                    },
                    tip: format!(
                        "stall ({}): {running} not reconciled\n{}\n{}\n{detail}",
                        serde_json::to_value(cause)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default(),
                        span_text(&e.start, &stop, open),
                        e.summary
                    ),
                    data,
                });
            }
            EpisodeKind::Unmanaged { cause } => {
                let mut data = se(&e.start, &stop);
                data.episode = Some("unmanaged".into());
                rec.bars.push(Bar {
                    start: e.start,
                    end: stop,
                    open,
                    class: "unmanaged",
                    track: 0,
                    label: "no leading CVO".into(),
                    tip: format!(
                        "no CVO leading\n{}\n{cause}",
                        span_text(&e.start, &stop, open)
                    ),
                    data,
                });
            }
            EpisodeKind::CvoRestart { .. } => rec.marks.push(
                Mark::new(
                    e.start,
                    "m-warn",
                    Glyph::Cross,
                    format!("{}\n{}", e.summary, where_(&e.evidence)),
                )
                .what("cvo-restart"),
            ),
            _ => {}
        }
    }
    rec.tracks = pack(&mut rec.bars, 2);
    lanes.push(rec);

    let mut passes = Lane::new(Group::Cvo, "cvo/passes", "sync passes");
    for p in &tl.passes {
        let stop = p.end.unwrap_or(p.start).max(p.start);
        let outcome = match (p.ok, p.stuck_before_manifests()) {
            (_, true) => "failed before any manifest".to_string(),
            (Some(true), _) => "completed".to_string(),
            (Some(false), _) => format!("failed: {}", p.errors.join("; ")),
            (None, _) => "no result line".to_string(),
        };
        let mut tip = format!(
            "{} pass for {} (attempt {}, generation {})\n{}\n{} of {} manifests done; {outcome}",
            p.state,
            p.target,
            p.attempt,
            p.generation.map_or_else(|| "?".into(), |g| g.to_string()),
            span_text(&p.start, &stop, false),
            p.manifests_done,
            p.total.map_or_else(|| "?".into(), |t| t.to_string()),
        );
        if let Some(e) = &p.sync_error {
            tip.push_str(&format!("\nsync error: {e}"));
        }
        tip.push_str(&format!("\npod {}\n{}", p.pod, where_(&p.evidence)));
        let mut data = se(&p.start, &stop);
        data.state = Some(p.state.clone());
        passes.bars.push(Bar {
            start: p.start,
            end: stop,
            open: false,
            class: pass_class(p),
            track: 0,
            label: format!("{} #{}", p.state, p.attempt),
            tip,
            data,
        });
    }
    passes.tracks = pack(&mut passes.bars, 2);
    lanes.push(passes);

    lanes.push(preconditions(tl));

    for i in &tl.instances {
        let key = if i.previous_log {
            format!("cvo-pod/{}/previous", i.pod)
        } else {
            format!("cvo-pod/{}", i.pod)
        };
        let label = if i.previous_log {
            format!("{} (previous)", i.pod)
        } else {
            i.pod.clone()
        };
        let mut lane = Lane::new(Group::Cvo, key, label);
        lane.bars.push(Bar {
            start: i.start,
            end: i.end.max(i.start),
            open: false,
            class: "pod-life",
            track: 0,
            label: i.build.clone().unwrap_or_else(|| "CVO".into()),
            tip: format!(
                "CVO pod {}{}\nlog {}\nbuild {}\n{}",
                i.pod,
                if i.previous_log {
                    " (previous container)"
                } else {
                    ""
                },
                span_text(&i.start, &i.end, false),
                i.build.as_deref().unwrap_or("?"),
                i.start_evidence.prov
            ),
            data: se(&i.start, &i.end),
        });
        if let Some(l) = i.leader {
            let tip = format!("leader lease acquired {}", fmt_short(&l));
            lane.marks
                .push(Mark::new(l, "m-good", Glyph::Dot, tip).what("leader"));
        }
        if let Some(s) = i.shutdown {
            let tip = format!("shutdown {}", fmt_short(&s));
            lane.marks
                .push(Mark::new(s, "m-warn", Glyph::Cross, tip).what("shutdown"));
        }
        lanes.push(lane);
    }
}

/// Failures of one precondition closer together than this form one run.
const RUN_GAP: Duration = Duration::minutes(15);

/// Precondition and payload events as marks (with short tips: there can be thousands), and
/// each run of three or more failures of one precondition as a bar carrying the message once.
fn preconditions(tl: &Timeline) -> Lane {
    let mut pre = Lane::new(Group::Cvo, "cvo/preconditions", "preconditions & payload");
    pre.outside_labels = true;
    let mut runs: Vec<(&str, Vec<&TimelineEvent>)> = Vec::new();
    for e in &tl.events {
        let (class, glyph, what) = match &e.kind {
            EventKind::PreconditionFailed { name, .. } => {
                match runs.iter_mut().rev().find(|(n, _)| *n == name.as_str()) {
                    Some((_, run)) if run.last().is_some_and(|l| e.time - l.time <= RUN_GAP) => {
                        run.push(e)
                    }
                    _ => runs.push((name.as_str(), vec![e])),
                }
                ("m-bad", Glyph::Cross, format!("precondition-failed {name}"))
            }
            EventKind::PreconditionWarning { .. } => ("m-warn", Glyph::Cross, "warning".into()),
            EventKind::PreconditionsPassed => ("m-good", Glyph::Dot, "passed".into()),
            EventKind::PayloadLoaded { .. } => ("m-good", Glyph::Tick, "payload-loaded".into()),
            EventKind::PayloadRejected { .. } => ("m-bad", Glyph::Tick, "payload-rejected".into()),
            _ => continue,
        };
        let tip = format!(
            "{}\n{}\n{}",
            fmt_short(&e.time),
            one_line(&e.message, 160),
            where_(&e.evidence)
        );
        pre.marks
            .push(Mark::new(e.time, class, glyph, tip).what(what));
    }
    for (name, run) in runs.into_iter().filter(|(_, r)| r.len() >= 3) {
        let (Some(first), Some(last)) = (run.first(), run.last()) else {
            continue;
        };
        let mut data = se(&first.time, &last.time);
        data.what = Some(format!("precondition-run {name}"));
        data.count = Some(run.len().to_string());
        pre.bars.push(Bar {
            start: first.time,
            end: last.time,
            open: false,
            class: "pre-run",
            track: 0,
            label: format!("{name} failed {}×", run.len()),
            tip: format!(
                "precondition {name} failed {} times\n{}\n{}\nfirst: {}\nlast: {}",
                run.len(),
                span_text(&first.time, &last.time, false),
                first.message,
                where_(&first.evidence),
                where_(&last.evidence)
            ),
            data,
        });
    }
    if !pre.bars.is_empty() {
        pre.tracks = 2;
        pre.marks_track = Some(1);
    }
    pre
}
