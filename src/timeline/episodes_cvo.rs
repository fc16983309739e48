//! CVO-side episodes: stalls (the CVO ran but reconciled no manifest of the running release,
//! and why), CVO container restarts and pod replacements, and spans in which no CVO
//! instance held the leader lease.

use super::episodes::{Inputs, human_duration, relabel, running_release_at};
use super::model::*;
use crate::model::Time;
use chrono::Duration;

/// Gaps in leadership shorter than this are not reported.
const MIN_GAP: Duration = Duration::seconds(5);

fn t(x: &Time) -> String {
    fmt_short(x)
}

fn cause_of(run: &[&Pass]) -> (StallCause, String) {
    if let Some(f) = run
        .iter()
        .flat_map(|p| p.precondition_failures.iter())
        .next()
    {
        let mut names: Vec<&str> = run
            .iter()
            .flat_map(|p| p.precondition_failures.iter())
            .map(|f| f.check.name.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        let list = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        return (
            StallCause::PreconditionFailed,
            format!(
                "precondition {list} failed: {}",
                one_line(f.check.message(), 200)
            ),
        );
    }
    let Some(err) = run.iter().find_map(|p| p.sync_error.as_deref()) else {
        return (
            StallCause::Unknown,
            "passes failed before any manifest".to_string(),
        );
    };
    (super::catalogue::sync_error_cause(err), one_line(err, 200))
}

/// Runs of consecutive passes that failed before touching any manifest, for one target.
/// The stall ends when a later pass (of any target) starts that is not stuck.
pub fn stalls(inp: &Inputs<'_>, out: &mut Vec<Episode>) {
    let passes = inp.passes;
    let mut i = 0;
    while i < passes.len() {
        if !passes[i].stuck_before_manifests() {
            i += 1;
            continue;
        }
        let target = passes[i].target.clone();
        let mut j = i;
        while j + 1 < passes.len()
            && passes[j + 1].stuck_before_manifests()
            && passes[j + 1].target == target
        {
            j += 1;
        }
        let run: Vec<&Pass> = passes[i..=j].iter().collect();
        let next = passes.get(j + 1);
        let start = run[0].start;
        let end = next.map(|n| n.start);
        let (cause, detail) = cause_of(&run);
        let running = running_release_at(passes, start).map(|p| relabel(&p.target, inp.history));
        let target_label = relabel(&target, inp.history);
        let mut evidence: Vec<Evidence> = run[0].evidence.iter().take(1).cloned().collect();
        if let Some(f) = run
            .iter()
            .flat_map(|p| p.precondition_failures.iter())
            .next()
        {
            evidence.push(f.evidence.clone());
        }
        if run.len() > 1 {
            evidence.extend(run[run.len() - 1].evidence.iter().take(1).cloned());
        }
        if let Some(n) = next {
            evidence.extend(n.evidence.iter().take(1).cloned());
        }
        let span = match end {
            Some(e) => format!(
                "from {} to {} ({})",
                t(&start),
                t(&e),
                human_duration(e - start)
            ),
            None => format!("from {} to the end of the log", t(&start)),
        };
        let mut summary = format!(
            "no manifest reconciled {span}: {} pass(es) for {target_label} failed before any manifest",
            run.len()
        );
        let headline_len = Some(summary.len());
        summary.push_str(&format!("; {detail}"));
        if let Some(r) = &running {
            summary.push_str(&format!("; {r} was left unmanaged"));
        }
        out.push(Episode {
            kind: EpisodeKind::Stall { cause, detail },
            start,
            end,
            running_release: running,
            target_release: Some(target_label),
            headline_len,
            summary,
            milestones: Vec::new(),
            finished_before: None,
            evidence,
        });
        i = j + 1;
    }
    snapshot_stalls(inp, out);
}

/// The legacy stuck-update signature in a snapshot (Failing and Progressing with a load or
/// precondition reason, `history[0]` Partial) when no CVO log covers it.
fn snapshot_stalls(inp: &Inputs<'_>, out: &mut Vec<Episode>) {
    for cv in &inp.bundle.objects.cluster_versions {
        let failing = cv.condition("Failing").filter(|c| c.is_true());
        let progressing = cv.condition("Progressing").filter(|c| c.is_true());
        let (Some(f), Some(_)) = (failing, progressing) else {
            continue;
        };
        let cause = match f.reason.as_str() {
            "UpgradePreconditionCheckFailed" => StallCause::PreconditionFailed,
            "ImageVerificationFailed" => StallCause::PayloadVerification,
            "UpdatePayloadRetrievalFailed" => StallCause::PayloadRetrieval,
            _ => continue,
        };
        let Some(h0) = cv.status.history.first().filter(|h| h.is_partial()) else {
            continue;
        };
        let Some(start) = h0.started_time else {
            continue;
        };
        if out
            .iter()
            .any(|e| e.tag() == EpisodeTag::Stall && e.contains(start + Duration::seconds(5)))
        {
            continue;
        }
        let end = inp
            .history
            .iter()
            .filter_map(|h| h.started)
            .find(|s| *s > start);
        let running = inp
            .history
            .iter()
            .rev()
            .find(|h| h.state == "Completed" && h.started.is_some_and(|s| s < start))
            .map(|h| h.label().to_string());
        let prov = super::locate::locate(&inp.bundle.files, &cv.prov, None, &f.reason, "Failing");
        let detail = one_line(&f.message, 200);
        let mut summary = format!(
            "the CVO was stuck on {} from {} ({}: {detail})",
            h0.label(),
            t(&start),
            f.reason
        );
        match end {
            Some(e) => summary.push_str(&format!(" until {}", t(&e))),
            None => summary.push_str(" at collection time"),
        }
        let headline_len = running.is_some().then_some(summary.len());
        if let Some(r) = &running {
            summary.push_str(&format!("; {r} was not being reconciled (legacy CVO)"));
        }
        out.push(Episode {
            kind: EpisodeKind::Stall { cause, detail },
            start,
            end,
            running_release: running,
            target_release: Some(h0.label().to_string()),
            headline_len,
            summary,
            milestones: Vec::new(),
            finished_before: None,
            evidence: vec![Evidence::new(
                prov,
                &format!("Failing True {}: {}", f.reason, f.message),
            )],
        });
    }
}

/// A restart between consecutive CVO instances (container restart with `previous.log`,
/// several banners, or a new pod), plus terminations known only from Pod objects.
pub fn restarts(inp: &Inputs<'_>, out: &mut Vec<Episode>) {
    let inst = inp.instances;
    let mut seen: Vec<Time> = Vec::new();
    for w in inst.windows(2) {
        let (prev, cur) = (&w[0], &w[1]);
        let stop = prev.shutdown.unwrap_or(prev.end).min(cur.start);
        let cause = if prev.pod != cur.pod {
            "pod replaced".to_string()
        } else if prev.previous_log && !cur.previous_log {
            "container restarted (previous.log)".to_string()
        } else {
            "container restarted (several start-up banners)".to_string()
        };
        let how = if prev.shutdown.is_some() {
            "shut down"
        } else {
            "last logged"
        };
        let mut summary = format!(
            "CVO {cause}: {} {how} {}, {} started {}",
            prev.pod,
            t(&stop),
            cur.pod,
            t(&cur.start)
        );
        if let Some(l) = cur.leader {
            summary.push_str(&format!(
                ", acquired the lease {} ({} after the restart)",
                t(&l),
                human_duration(l - cur.start)
            ));
        }
        seen.push(cur.start);
        out.push(Episode {
            kind: EpisodeKind::CvoRestart {
                pod: cur.pod.clone(),
                previous_pod: (prev.pod != cur.pod).then(|| prev.pod.clone()),
                cause,
            },
            start: stop,
            end: Some(cur.start),
            running_release: running_release_at(inp.passes, stop)
                .map(|p| relabel(&p.target, inp.history)),
            target_release: None,
            headline_len: None,
            summary,
            milestones: Vec::new(),
            finished_before: None,
            evidence: vec![prev.end_evidence.clone(), cur.start_evidence.clone()],
        });
    }
    for e in inp.events {
        let EventKind::ContainerState { state, .. } = &e.kind else {
            continue;
        };
        if *state != ContainerPhase::Terminated
            || seen
                .iter()
                .any(|s| (*s - e.time).abs() <= Duration::minutes(2))
        {
            continue;
        }
        // Container states are read from CVO pods only.
        let Subject::CvoPod(pod) = &e.subject else {
            continue;
        };
        let pod = pod.to_string();
        let restarted = inp.events.iter().find(|r| {
            r.subject == e.subject
                && r.time >= e.time
                && matches!(
                    &r.kind,
                    EventKind::ContainerState {
                        state: ContainerPhase::Running,
                        ..
                    }
                )
        });
        out.push(Episode {
            kind: EpisodeKind::CvoRestart {
                pod: pod.clone(),
                previous_pod: None,
                cause: "container restarted (pod status)".into(),
            },
            start: e.time,
            end: restarted.map(|r| r.time),
            running_release: running_release_at(inp.passes, e.time)
                .map(|p| relabel(&p.target, inp.history)),
            target_release: None,
            headline_len: None,
            summary: format!("CVO container of {pod} restarted: {}", e.message),
            milestones: Vec::new(),
            finished_before: None,
            evidence: e
                .evidence
                .iter()
                .chain(restarted.iter().flat_map(|r| r.evidence.iter()))
                .cloned()
                .collect(),
        });
    }
}

/// Spans between one instance's last sign of life and the next instance's lease in which no
/// instance (per the logs read) was leading.
pub fn unmanaged(inp: &Inputs<'_>, out: &mut Vec<Episode>) {
    let mut leading: Vec<&Instance> = inp
        .instances
        .iter()
        .filter(|i| i.leading_from().is_some())
        .collect();
    leading.sort_by_key(|i| (i.leading_from(), i.start));
    let mut covered: Option<(Time, &Instance)> = None;
    for cur in leading {
        let Some(from) = cur.leading_from() else {
            continue;
        };
        if let Some((until, prev)) = covered
            && from - until > MIN_GAP
        {
            out.push(Episode {
                kind: EpisodeKind::Unmanaged {
                    cause: "no CVO instance held the leader lease".into(),
                },
                start: until,
                end: Some(from),
                running_release: None,
                target_release: None,
                headline_len: None,
                summary: format!(
                    "no CVO was leading from {} ({} stopped) to {} ({} acquired the lease), {}",
                    t(&until),
                    prev.pod,
                    t(&from),
                    cur.pod,
                    human_duration(from - until)
                ),
                milestones: Vec::new(),
                finished_before: None,
                evidence: vec![
                    prev.end_evidence.clone(),
                    cur.leader_evidence
                        .clone()
                        .unwrap_or_else(|| cur.start_evidence.clone()),
                ],
            });
        }
        let stop = cur.shutdown.unwrap_or(cur.end).max(from);
        covered = match covered {
            Some((until, prev)) if until >= stop => Some((until, prev)),
            _ => Some((stop, cur)),
        };
    }
}
