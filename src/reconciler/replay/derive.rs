//! Deriving a reconciler scenario from what a dump shows: the install and every update from
//! `status.history`, completion times checked against independent evidence (Available's
//! transition, CVO log passes, CI monitor lines), update requests and their load results (log
//! passes and precondition lines, ReleaseAccepted, a legacy Failing), CVO pod starts, the log's
//! pass results, Upgradeable and available updates, generations. What was read and what was
//! inferred is written down in the notes.

use super::completion::Resolved;
use super::cx::*;
use super::logscan;
use super::requests::{self, Req};
use super::timing::CompletionTiming;
use crate::bundle::Bundle;
use crate::model::{HistoryEntry, Release, Time, fmt_k8s};
use crate::reconciler::model::semantics::Flavour;
use crate::reconciler::scenario::UpgradeableCondition;
use crate::reconciler::scenario::{
    AvailableUpdates, Event, PassResult, PodStart, Scenario, SpecChange, TimedEvent,
    UpgradeableChange,
};
use crate::timeline::Timeline;
use chrono::Duration;

/// A scenario derived from a dump, with what it rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    pub scenario: Scenario,
    /// One line per fact used: `seen: …` (read from the dump), `inferred: …` (concluded from
    /// other evidence or assumed), `not visible: …` (what the dump cannot tell).
    pub notes: Vec<String>,
    /// Times the derivation took from other evidence than the field that should hold them.
    pub inferences: Vec<Inference>,
    /// Targets whose payload checks failed.
    pub rejections: Vec<RejectedTarget>,
    /// Completions the CVO log shows, and how history's completionTime fits the status sync
    /// that recorded each.
    pub timings: Vec<CompletionTiming>,
    /// The CVO that wrote the dump, as far as the evidence shows.
    pub writer: Option<super::writer::Writer>,
    /// The last CVO log record, if there is a CVO log.
    pub log_until: Option<Time>,
    /// The moment the dump describes (collection time, else the latest time seen).
    pub reference: Option<Time>,
}

/// Derives a scenario from the newest ClusterVersion of the bundle and everything the
/// timeline knows. Never fails: what cannot be seen is left out and said in the notes.
/// The CVO feature gates the dump shows on: `ClusterUpdateAcceptRisks` when the FeatureGate
/// enables it for the desired version on a cluster that is not hosted, or, without a
/// FeatureGate in the input, when the status holds what only a CVO with the gate writes
/// (`conditionalUpdateRisks`, `riskNames`) or `acceptRisks` the CVO did not call `Invalid`.
fn accept_risks_gate(cx: &mut Cx<'_>) -> Vec<String> {
    let gate = crate::model::ACCEPT_RISKS_GATE;
    let on = match (cx.bundle.cvo_evaluates_risks(), cx.cv) {
        (Some(on), _) => on,
        (None, Some(cv)) => {
            let written = !cv.status.conditional_update_risks.is_empty()
                || cv
                    .status
                    .conditional_updates
                    .iter()
                    .any(|u| !u.risk_names.is_empty());
            let accepted = cv
                .spec
                .desired_update
                .as_ref()
                .is_some_and(|d| !d.accept_risks.is_empty())
                && !cv
                    .condition("Invalid")
                    .is_some_and(|c| c.status == "True" && c.message.contains("acceptRisks"));
            if written || accepted {
                cx.note(format!(
                    "inferred: the CVO's `{gate}` gate is on (no FeatureGate in the input; the status shows {})",
                    if written {
                        "`conditionalUpdateRisks`"
                    } else {
                        "`acceptRisks` accepted"
                    }
                ));
            }
            written || accepted
        }
        (None, None) => false,
    };
    if on {
        vec![gate.to_string()]
    } else {
        Vec::new()
    }
}

pub fn derive_scenario(bundle: &Bundle, timeline: &Timeline) -> Derived {
    let sourced = bundle.cluster_version();
    let cv = sourced.map(|s| &s.value);
    let empty: &[HistoryEntry] = &[];
    let mut cx = Cx {
        bundle,
        timeline,
        cv,
        hist: cv.map_or(empty, |c| c.status.history.as_slice()),
        facts: logscan::scan(timeline),
        events: Vec::new(),
        notes: Vec::new(),
        inferences: Vec::new(),
        rejections: Vec::new(),
        completions: Vec::new(),
        timings: Vec::new(),
        cv_evidence: sourced.map(|s| s.prov.clone()),
        kept: None,
    };
    if bundle.objects.cluster_versions.len() > 1 {
        cx.note(format!(
            "seen: {} ClusterVersion snapshots; the newest is compared, history is read from it",
            bundle.objects.cluster_versions.len()
        ));
    }
    let install = install(&mut cx);
    completions(&mut cx);
    let reqs = requests::build(&mut cx, install.as_ref());
    super::logevents::pods(&mut cx, install.as_ref(), &reqs);
    if install.is_none() && !cx.events.iter().any(|e| matches!(e.3, Event::PodStart(_))) {
        cx.note("not visible: the release the CVO runs (no history, no CVO Pod object); `operator_release` is empty".into());
    }
    super::logevents::passes(&mut cx, &reqs);
    inputs(&mut cx);
    super::state::last_pass(&mut cx, &reqs);
    idle_pass(&mut cx, &reqs);
    generation_bump(&mut cx, &reqs);
    let writer = super::writer::infer(&cx, &reqs);
    finish(cx, install, writer, reqs.is_empty())
}

/// The oldest history entry: the install, or the oldest one kept.
fn install(cx: &mut Cx<'_>) -> Option<(Time, Release)> {
    let n = cx.hist.len();
    let Some(e) = cx.hist.last() else {
        cx.note("not visible: `status.history` is empty; only CVO log events are replayed".into());
        return None;
    };
    let Some(start) = e.started_time else {
        cx.note(format!(
            "not visible: `status.history[{}]` has no startedTime; the install is not replayed",
            n - 1
        ));
        return None;
    };
    let release = Release {
        version: e.version.clone(),
        image: e.image.clone(),
        ..Default::default()
    };
    if let Some(why) = pruned(cx, e, start) {
        cx.note(format!(
            "seen: `status.history[{}]` (`{}`, from {}) is not the install: {why}; older entries were pruned, and the replay starts from it as written",
            n - 1,
            e.label(),
            fmt_k8s(&start)
        ));
        cx.kept = Some(e.clone());
        return Some((sec(start), release));
    }
    let mut pod = PodStart {
        version: e.version.clone(),
        image: e.image.clone(),
        ..Default::default()
    };
    if let Some(p) = cx.facts.payload(&e.image) {
        pod.architecture = p.architecture.clone();
        pod.hash = p.hash.clone();
    }
    cx.push(start, POD, Event::PodStart(pod));
    cx.note(format!(
        "seen: install of `{}` from {} (`status.history[{}].startedTime`), by the CVO of that release",
        e.label(),
        fmt_k8s(&start),
        n - 1
    ));
    Some((sec(start), release))
}

/// Why the oldest history entry, started at `start`, cannot be the install: the installer
/// creates the ClusterVersion seconds before the CVO's first status sync writes the install
/// entry, and an install runs from the CVO's own payload, which is never signature-verified.
fn pruned(cx: &Cx<'_>, e: &HistoryEntry, start: Time) -> Option<String> {
    let created = cx.cv.and_then(|c| c.metadata.creation_timestamp);
    if let Some(c) = created.filter(|c| start - *c > Duration::hours(1)) {
        return Some(format!(
            "it started {} after the ClusterVersion was created ({})",
            crate::timeline::human_duration(start - c),
            fmt_k8s(&c)
        ));
    }
    e.verified
        .then(|| "it is verified, and an install from the CVO's own payload never is".to_string())
}

/// A completion for every Completed entry, at the time it really completed as far as the
/// evidence shows (history may have rewritten it: Bug 1756461).
fn completions(cx: &mut Cx<'_>) {
    let n = cx.hist.len();
    for i in (0..n).rev() {
        let e = &cx.hist[i];
        if !e.is_completed() {
            continue;
        }
        let Some(claimed) = e.completion_time else {
            cx.note(format!(
                "not visible: `status.history[{i}]` is Completed without a completionTime"
            ));
            continue;
        };
        let (at, resolved) = super::completion::resolve(cx, i, claimed);
        match resolved {
            Resolved::Inferred(inf) => {
                cx.note(format!(
                    "inferred: `{}` completed at {} ({}); `{}` says {}",
                    e.label(),
                    fmt_k8s(&inf.value),
                    inf.basis,
                    inf.field.object_path(),
                    fmt_k8s(&claimed)
                ));
                cx.inferences.push(inf);
            }
            Resolved::Claimed => cx.note(format!(
                "seen: `{}` completed at {} (`status.history[{i}].completionTime`)",
                e.label(),
                fmt_k8s(&at)
            )),
            Resolved::Unverifiable => cx.note(format!(
                "not visible: whether `status.history[{i}].completionTime` ({}) of `{}` is its real completion or was overwritten with the next entry's start; it is replayed as written",
                fmt_k8s(&at),
                e.label()
            )),
        }
        cx.completions.push(Completion {
            index: i,
            at: sec(at),
            event: cx.events.len(),
        });
        cx.push(
            at,
            PASS,
            Event::PassResult(PassResult {
                ok: Some(true),
                ..Default::default()
            }),
        );
    }
}

/// Upgradeable and the available updates, as inputs at their transition times.
fn inputs(cx: &mut Cx<'_>) {
    let Some(cv) = cx.cv else { return };
    let floor = cx.events.iter().map(|e| e.0).min();
    let clamp = |t: Option<Time>| match (t, floor) {
        (Some(t), Some(f)) => Some(t.max(f)),
        (t, _) => t,
    };
    if let Some(u) = cx.cond("Upgradeable")
        && let Some(at) = clamp(u.last_transition_time)
    {
        // Per-check conditions beside the aggregate are part of the set the CVO computed:
        // given whole, so that none is taken for stale.
        let mut family: Vec<UpgradeableCondition> = cv
            .status
            .conditions
            .iter()
            .filter(|c| c.type_.starts_with("Upgradeable"))
            .map(|c| UpgradeableCondition {
                type_: c.type_.clone(),
                status: c.status.clone(),
                reason: c.reason.clone(),
                message: c.message.clone(),
            })
            .collect();
        let event = if family.len() > 1 {
            family.sort_by(|a, b| a.type_.cmp(&b.type_));
            Event::UpgradeableConditions(family)
        } else {
            Event::Upgradeable(Some(UpgradeableChange {
                status: u.status.clone(),
                reason: u.reason.clone(),
                message: u.message.clone(),
            }))
        };
        cx.push(at, INPUT, event);
        cx.note(format!(
            "seen: `Upgradeable={}` since {} (an input to the model, not computed)",
            u.status,
            fmt_k8s(&at)
        ));
    }
    if let Some(r) = cx.cond("RetrievedUpdates").filter(|r| r.is_true())
        && let Some(at) = clamp(r.last_transition_time)
    {
        let updates = cv.status.available_updates.clone();
        cx.push(
            at,
            INPUT,
            Event::AvailableUpdates(AvailableUpdates {
                updates,
                current: None,
                conditional_updates: None,
                ..Default::default()
            }),
        );
        cx.note(format!(
            "seen: `RetrievedUpdates=True` since {}; `status.availableUpdates` as of the dump",
            fmt_k8s(&at)
        ));
    }
}

/// Spec generations beyond the requests (channel or upstream edits, overrides…): the one
/// the CVO observed before its last report, then one it had not observed yet.
fn generation_bump(cx: &mut Cx<'_>, reqs: &[Req]) {
    let Some(g) = cx.cv.and_then(|c| c.metadata.generation) else {
        return;
    };
    let observed = cx
        .cv
        .and_then(|c| c.status.observed_generation)
        .unwrap_or(g)
        .min(g);
    let modelled = reqs
        .iter()
        .fold(1i64, |acc, r| r.generation.unwrap_or(acc.saturating_add(1)));
    let channel = cx
        .cv
        .map(|c| c.spec.channel.clone())
        .filter(|c| !c.is_empty());
    let bump = |generation: i64| {
        Event::SpecChange(SpecChange {
            generation: Some(generation),
            channel: channel.clone(),
            ..Default::default()
        })
    };
    if observed > modelled {
        let after = reqs.last().map(|r| r.at);
        let seen = cx
            .timeline
            .passes
            .iter()
            .find(|p| p.generation == Some(observed) && after.is_none_or(|a| p.start >= a))
            .map(|p| p.start);
        let before_last_pass = cx
            .events
            .iter()
            .filter(|e| e.1 == PASS && after.is_none_or(|a| e.0 > a))
            .map(|e| e.0 - Duration::seconds(1))
            .max();
        match (seen, before_last_pass) {
            (Some(t), _) => {
                cx.push(t, SPEC, bump(observed));
                cx.note(format!(
                    "seen: generation {observed} first in the CVO log at {} (a spec change other than the target)",
                    fmt_k8s(&t)
                ));
            }
            (None, Some(t)) => {
                cx.push(t, SPEC, bump(observed));
                cx.note(format!(
                    "inferred: generation {observed} from a spec change not otherwise visible, placed at {} (before the last pass, which observed it)",
                    fmt_k8s(&t)
                ));
            }
            (None, None) => cx.note(format!(
                "not visible: when `metadata.generation` became {observed} (no pass after the last request)"
            )),
        }
    }
    if g > observed.max(modelled)
        && let Some(at) = cx.last_event_time()
    {
        cx.push(at, SPEC, bump(g));
        cx.note(format!(
            "inferred: `metadata.generation` {g} from a spec change after the CVO's last report (observedGeneration {observed})"
        ));
    }
}

/// After a rejected last target with no later pass, one more pass before the dump: a CVO
/// wakes up at least once per reconcile period (2-4 minutes).
fn idle_pass(cx: &mut Cx<'_>, reqs: &[Req]) {
    let Some(last) = reqs.last() else { return };
    let Some(fail) = last.first_failure.filter(|_| !last.accepted_later) else {
        return;
    };
    if cx.events.iter().any(|e| e.1 == PASS && e.0 > fail) {
        return;
    }
    let reference = cx.bundle.collection_time().or(cx.timeline.reference);
    let at = reference
        .filter(|r| sec(*r) > fail)
        .unwrap_or(fail + Duration::seconds(1));
    cx.push(
        at,
        PASS,
        Event::PassResult(PassResult {
            ok: Some(true),
            ..Default::default()
        }),
    );
    cx.note(format!(
        "inferred: the apply loop woke up once more at {} after the last failed check (no log covers it)",
        fmt_k8s(&at)
    ));
}

/// The sorted working events as the scenario's, held in as much memory as they take: the
/// working vector grew by doubling, and its elements are larger than the scenario's, so the
/// events are moved in place and the spare capacity handed back (shrinking a block in place
/// copies nothing, where a second vector of them would be held beside the first).
fn timed(events: Vec<(Time, u8, usize, Event)>) -> Vec<TimedEvent> {
    let mut v: Vec<TimedEvent> = events
        .into_iter()
        .map(|(at, _, _, event)| TimedEvent { at, event })
        .collect();
    v.shrink_to_fit();
    v
}

fn finish(
    mut cx: Cx<'_>,
    install: Option<(Time, Release)>,
    writer: Option<super::writer::Writer>,
    no_requests: bool,
) -> Derived {
    let reference = cx.bundle.collection_time().or(cx.timeline.reference);
    if let (Some(r), Some(last)) = (reference, cx.last_event_time())
        && sec(r) > last
    {
        cx.push(r, TICK, Event::Tick);
        cx.note(format!(
            "seen: the dump describes {} (a final `tick`)",
            fmt_k8s(&sec(r))
        ));
    }
    // The keys are unique (`.2` is the order of pushing), so an unstable sort gives the
    // stable sort's order without its scratch (half the events, megabytes for a year).
    cx.events.sort_unstable_by_key(|a| (a.0, a.1, a.2));
    let operator_release = install.map(|(_, r)| r).unwrap_or_default();
    let minor = writer.as_ref().map(|w| w.minor);
    if let Some(w) = &writer {
        cx.note(format!(
            "inferred: the CVO that wrote the dump is {} ({}); its wording and rules are modelled",
            w.release, w.basis
        ));
    }
    let mut initial_status = crate::model::ClusterVersionStatus::default();
    if let Some(k) = cx.kept.take() {
        initial_status.desired = Release {
            version: k.version.clone(),
            image: k.image.clone(),
            ..Default::default()
        };
        initial_status.history = vec![k];
    }
    let cv = cx.cv;
    let mut initial_spec = crate::model::ClusterVersionSpec::default();
    if let Some(cv) = cv {
        initial_spec.channel = cv.spec.channel.clone();
        initial_spec.upstream = cv.spec.upstream.clone();
        // A desired update naming no release, only `acceptRisks` (4.22+): held from the start
        // when no request replaces it (nothing dates it; it changes no target).
        if let Some(u) = cv
            .spec
            .desired_update
            .as_ref()
            .filter(|u| !u.names_release())
            && no_requests
        {
            initial_spec.desired_update = Some(u.clone());
            let names: Vec<&str> = u.accept_risks.iter().map(|r| r.name.as_str()).collect();
            cx.note(format!(
                "seen: `spec.desiredUpdate` names no release, only `acceptRisks` ({}); held from the start",
                names.join(", ")
            ));
        }
    }
    let feature_gates = accept_risks_gate(&mut cx);
    let inputs: Vec<&str> = cx.bundle.inputs.iter().map(|i| i.name.as_str()).collect();
    let scenario = Scenario {
        description: format!(
            "derived by `mglint replay` from {}; edit it and re-run it with `mglint reconcile`",
            if inputs.is_empty() {
                "the inputs".to_string()
            } else {
                inputs.join(", ")
            }
        ),
        flavour: Flavour::Fixed,
        cvo_version: minor.map(crate::reconciler::model::semantics::minor_label),
        feature_gates,
        history_fix: Some(true),
        operator_release,
        initial_spec,
        initial_status,
        events: timed(cx.events),
        ..Scenario::default()
    };
    Derived {
        scenario,
        notes: cx.notes,
        inferences: cx.inferences,
        rejections: cx.rejections,
        timings: cx.timings,
        writer,
        log_until: cx.timeline.instances.iter().map(|i| i.end).max(),
        reference,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scenario_holds_its_events_in_order_and_no_spare_room() {
        let t = |s: &str| crate::model::parse_rfc3339(s).unwrap();
        let mut working = Vec::with_capacity(64);
        working.push((t("2024-01-02T09:00:00Z"), POD, 0, Event::Tick));
        let pass = Event::PassResult(PassResult {
            ok: Some(true),
            ..Default::default()
        });
        working.push((t("2024-01-02T09:00:01Z"), PASS, 1, pass.clone()));
        working.push((t("2024-01-02T09:00:02Z"), TICK, 2, Event::Tick));
        let events = timed(working);
        assert_eq!(events.capacity(), events.len());
        let got: Vec<(Time, &Event)> = events.iter().map(|e| (e.at, &e.event)).collect();
        assert_eq!(
            got,
            [
                (t("2024-01-02T09:00:00Z"), &Event::Tick),
                (t("2024-01-02T09:00:01Z"), &pass),
                (t("2024-01-02T09:00:02Z"), &Event::Tick),
            ]
        );
    }
}
