//! Update requests and what loading each target came to. A request is a history entry after
//! the install (requested at its startedTime), a target the CVO log shows being asked for that
//! never reached history, or the dump's own `spec.desiredUpdate`. Its load results come from
//! passes that stopped at the payload checks (legacy), `Precondition error` lines (fixed), and
//! for the last request the dump's ReleaseAccepted=False or legacy Failing condition.

use super::cx::{Cx, LOAD, RejectedTarget, SPEC, log_sightings, sec};
use super::parse;
use crate::model::{ConditionField, Release, Time, fmt_k8s};
use crate::reconciler::scenario::{DesiredUpdate, Event, LoadOutcome, LoadStep, SpecChange};
use crate::timeline::{Evidence, Pass, same_release};
use chrono::Duration;

/// One result of loading a request's target.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub at: Time,
    pub load: LoadOutcome,
    pub what: String,
    pub evidence: Vec<Evidence>,
}

/// One update request.
#[derive(Debug, Clone)]
pub struct Req {
    /// When the spec change is replayed (whole seconds).
    pub at: Time,
    /// The earliest evidence of the request (a log line may precede the history entry).
    pub seen_at: Time,
    pub update: DesiredUpdate,
    /// Its entry in the dump's history (newest first).
    pub hist: Option<usize>,
    pub generation: Option<i64>,
    pub outcomes: Vec<Outcome>,
    /// The first failed check (whole seconds).
    pub first_failure: Option<Time>,
    /// Accepted after failing first.
    pub accepted_later: bool,
    pub basis: String,
}

impl Req {
    pub fn label(&self) -> &str {
        if self.update.version.is_empty() {
            &self.update.image
        } else {
            &self.update.version
        }
    }

    /// Whether a pass target (version or image) names this request's target.
    pub fn names(&self, cx: &Cx<'_>, target: &str) -> bool {
        same_release(target, &self.update.version, &self.update.image)
            || self
                .hist
                .is_some_and(|i| same_release(target, &cx.hist[i].version, &cx.hist[i].image))
    }

    fn same_target(&self, version: &str, image: &str) -> bool {
        match image.is_empty() {
            false => self.update.image == image,
            true => !version.is_empty() && self.update.version == version,
        }
    }

    /// The outcome in force at `t` (the last one at or before it).
    pub fn outcome_at(&self, t: Time) -> Option<&Outcome> {
        self.outcomes.iter().rev().find(|o| sec(o.at) <= t)
    }
}

/// The request whose window holds `t`.
pub fn active_at(reqs: &[Req], t: Time) -> Option<&Req> {
    reqs.iter()
        .rev()
        .find(|r| r.seen_at - Duration::seconds(1) <= t)
}

fn force_of(cx: &Cx<'_>, version: &str, image: &str) -> bool {
    cx.timeline
        .passes
        .iter()
        .find(|p| p.force.is_some() && same_release(&p.target, version, image))
        .and_then(|p| p.force)
        .unwrap_or(false)
}

/// Builds the requests, emits their spec changes and load results, and records rejections.
pub fn build(cx: &mut Cx<'_>, install: Option<&(Time, Release)>) -> Vec<Req> {
    let n = cx.hist.len();
    let mut reqs: Vec<Req> = Vec::new();
    for i in (0..n.saturating_sub(1)).rev() {
        let e = &cx.hist[i];
        let Some(s) = e.started_time else { continue };
        reqs.push(Req {
            at: sec(s),
            seen_at: s,
            update: DesiredUpdate {
                version: e.version.clone(),
                image: e.image.clone(),
                force: force_of(cx, &e.version, &e.image),
                accept_risks: Vec::new(),
            },
            hist: Some(i),
            generation: None,
            outcomes: Vec::new(),
            first_failure: None,
            accepted_later: false,
            basis: format!("`status.history[{i}].startedTime`"),
        });
    }
    // Log sightings: the exact request of a history entry, or a target that never got one.
    let mut extra = Vec::new();
    for (t, version, image, force) in log_sightings(cx.timeline) {
        let near = |r: &Req| {
            r.hist.is_some()
                && r.same_target(&version, &image)
                && r.at >= sec(t) - Duration::seconds(2)
                && r.at <= t + Duration::seconds(120)
        };
        if let Some(r) = reqs.iter_mut().find(|r| near(r)) {
            r.seen_at = r.seen_at.min(t);
            r.update = DesiredUpdate {
                version: version.clone(),
                image: image.clone(),
                force,
                accept_risks: Vec::new(),
            };
            continue;
        }
        let current = reqs
            .iter()
            .chain(extra.iter())
            .filter(|r| r.at <= t)
            .max_by_key(|r| r.at);
        let same = match current {
            Some(r) => r.same_target(&version, &image),
            None => install.is_some_and(|(_, rel)| {
                (!image.is_empty() && rel.image == image)
                    || (image.is_empty() && rel.version == version)
            }),
        };
        if !same {
            extra.push(Req {
                at: sec(t),
                seen_at: t,
                update: DesiredUpdate {
                    version,
                    image,
                    force,
                    accept_risks: Vec::new(),
                },
                hist: None,
                generation: None,
                outcomes: Vec::new(),
                first_failure: None,
                accepted_later: false,
                basis: "the CVO log (`Desired version from spec`)".into(),
            });
        }
    }
    reqs.extend(extra);
    reqs.sort_by_key(|r| r.at);
    final_spec(cx, &mut reqs, install);
    generations(cx, &mut reqs);
    for k in 0..reqs.len() {
        let until = reqs.get(k + 1).map(|r| r.seen_at);
        let last = k + 1 == reqs.len();
        let outcomes = outcomes(cx, &reqs[k], until, last);
        let r = &mut reqs[k];
        r.first_failure = outcomes.first().map(|o| sec(o.at.max(r.at)));
        r.outcomes = outcomes;
        accepted_later(cx, r, until);
    }
    for r in &reqs {
        emit(cx, r);
    }
    reqs
}

/// The dump's own target: pins the last request's exact spelling and generation, or adds it.
fn final_spec(cx: &mut Cx<'_>, reqs: &mut Vec<Req>, install: Option<&(Time, Release)>) {
    let Some(cv) = cx.cv else { return };
    let Some(u) = cv.spec.desired_update.as_ref() else {
        return;
    };
    // Only `acceptRisks` (4.22+): no release is requested; the scenario holds it from the
    // start (`derive`), as nothing dates it.
    if !u.names_release() {
        return;
    }
    let update = DesiredUpdate {
        version: u.version.clone(),
        image: u.image.clone(),
        force: u.force.unwrap_or(false),
        accept_risks: u.accept_risks.iter().map(|r| r.name.clone()).collect(),
    };
    let generation = match (cv.metadata.generation, cv.status.observed_generation) {
        (Some(g), Some(o)) if o < g => Some(o),
        (g, _) => g,
    };
    if let Some(r) = reqs.last_mut()
        && r.same_target(&u.version, &u.image)
    {
        // A by-version request (or one for an architecture) keeps the image history shows.
        if !u.image.is_empty() {
            r.update = update;
        } else {
            r.update.force = update.force;
        }
        r.generation = generation;
        return;
    }
    if reqs.is_empty()
        && install.is_some_and(|(_, rel)| {
            rel.image == u.image || (u.image.is_empty() && rel.version == u.version)
        })
    {
        return;
    }
    let accepted = cx.cond("ReleaseAccepted").filter(|c| !c.is_true());
    let named = accepted
        .filter(|c| !u.image.is_empty() && c.message.contains(&u.image))
        .and_then(|c| c.last_transition_time);
    let reference = cx.bundle.collection_time().or(cx.timeline.reference);
    let Some(at) = named.or(reference) else {
        cx.note("not visible: when `spec.desiredUpdate` was set; it is not replayed".into());
        return;
    };
    cx.note(format!(
        "inferred: the request for `{}` (`spec.desiredUpdate`) is placed at {} ({})",
        if u.version.is_empty() {
            &u.image
        } else {
            &u.version
        },
        fmt_k8s(&at),
        if named.is_some() {
            "when ReleaseAccepted turned against it"
        } else {
            "the dump's time; nothing dates it"
        }
    ));
    reqs.push(Req {
        at: sec(at),
        seen_at: at,
        update,
        hist: None,
        generation,
        outcomes: Vec::new(),
        first_failure: None,
        accepted_later: false,
        basis: "`spec.desiredUpdate`".into(),
    });
}

/// Generations from the first pass after each request; never decreasing.
fn generations(cx: &Cx<'_>, reqs: &mut [Req]) {
    let mut prev = 1i64;
    for k in 0..reqs.len() {
        let until = reqs.get(k + 1).map(|r| r.seen_at);
        let from = reqs[k].seen_at - Duration::seconds(1);
        let seen = cx
            .timeline
            .passes
            .iter()
            .find(|p| {
                p.start >= from && until.is_none_or(|u| p.start < u) && p.generation.is_some()
            })
            .and_then(|p| p.generation);
        let g = reqs[k].generation.or(seen).filter(|g| *g > prev);
        reqs[k].generation = g;
        prev = g.unwrap_or(prev.saturating_add(1));
    }
}

fn stuck_outcome(cx: &Cx<'_>, r: &Req, p: &Pass) -> Option<Outcome> {
    if !p.stuck_before_manifests() {
        return None;
    }
    let verified = r.hist.map(|i| cx.hist[i].verified);
    let mut o = LoadOutcome::loaded();
    o.failure = Some(true);
    o.verified = verified;
    let at = p
        .precondition_failures
        .first()
        .map(|f| f.time)
        .or(p.end)
        .unwrap_or(p.start);
    let summary = p.sync_error.as_deref().unwrap_or("");
    let parsed = parse::precondition_summary(summary, true).or_else(|| {
        let v: Vec<_> = p
            .precondition_failures
            .iter()
            .map(|f| crate::reconciler::model::errors::PreconditionFailure {
                name: f.check.name.clone(),
                reason: f.check.reason.clone().unwrap_or_default(),
                message: f.check.message().to_string(),
                blocking: true,
            })
            .collect();
        (!v.is_empty()).then_some(v)
    });
    let mut evidence: Vec<Evidence> = p
        .precondition_failures
        .iter()
        .map(|f| f.evidence.clone())
        .collect();
    evidence.extend(p.evidence.first().cloned());
    let what = match parsed {
        Some(pre) => {
            let w = describe(&pre);
            o.step = LoadStep::PreconditionChecks;
            o.preconditions = pre;
            w
        }
        None if !summary.is_empty() => {
            o.step = LoadStep::RetrievePayload;
            o.reason = if summary.contains("cannot be verified") {
                "ImageVerificationFailed".into()
            } else {
                "UpdatePayloadRetrievalFailed".into()
            };
            o.message = summary.to_string();
            format!("payload retrieval ({})", o.reason)
        }
        None => return None,
    };
    Some(Outcome {
        at,
        load: o,
        what,
        evidence,
    })
}

fn describe(pre: &[crate::reconciler::model::errors::PreconditionFailure]) -> String {
    let names: Vec<String> = pre
        .iter()
        .map(|p| format!("precondition `{}` ({})", p.name, p.reason))
        .collect();
    names.join(", ")
}

/// What a failed load outcome says failed.
fn describe_load(o: &LoadOutcome) -> String {
    match o.preconditions.is_empty() {
        false => describe(&o.preconditions),
        true if o.reason.is_empty() => format!("step {}", o.step.as_str()),
        true => format!("step {} ({})", o.step.as_str(), o.reason),
    }
}

fn outcomes(cx: &Cx<'_>, r: &Req, until: Option<Time>, last: bool) -> Vec<Outcome> {
    let from = r.seen_at - Duration::seconds(1);
    let inside = |t: Time| t >= from && until.is_none_or(|u| t < u);
    let mut out: Vec<Outcome> = Vec::new();
    for p in &cx.timeline.passes {
        if inside(p.start)
            && r.names(cx, &p.target)
            && let Some(o) = stuck_outcome(cx, r, p)
        {
            out.push(o);
        }
    }
    for pe in &cx.facts.precondition_errors {
        if pe.forced || !inside(pe.time) {
            continue;
        }
        let mut o = LoadOutcome::loaded();
        o.step = LoadStep::PreconditionChecks;
        o.failure = Some(true);
        o.preconditions = pe.failures.clone();
        o.verified = r.hist.map(|i| cx.hist[i].verified);
        out.push(Outcome {
            at: pe.time,
            what: describe(&pe.failures),
            load: o,
            evidence: vec![pe.evidence.clone()],
        });
    }
    if out.is_empty() && last {
        if let Some(c) = cx.cond("ReleaseAccepted").filter(|c| c.is_false())
            && let Some((_, image, mut o)) = parse::release_accepted_rejection(&c.message)
            && image == r.update.image
            && let Some(t) = c.last_transition_time
        {
            o.verified = r.hist.map(|i| cx.hist[i].verified);
            out.push(Outcome {
                at: t,
                what: format!("{}, `ReleaseAccepted=False`", describe_load(&o)),
                load: o,
                evidence: cx.cv_ev(
                    "ReleaseAccepted",
                    ConditionField::Message,
                    &format!("ReleaseAccepted False {}: {}", c.reason, c.message),
                ),
            });
        } else if r.hist == Some(0)
            && let Some(c) = cx.cond("Failing").filter(|c| c.is_true())
            && let Some(mut o) = parse::legacy_failing_rejection(&c.reason, &c.message)
            && let Some(t) = c.last_transition_time
        {
            o.verified = Some(cx.hist[0].verified);
            out.push(Outcome {
                at: t,
                what: format!("{}, `Failing=True`", describe_load(&o)),
                load: o,
                evidence: cx.cv_ev(
                    "Failing",
                    ConditionField::Message,
                    &format!("Failing True {}: {}", c.reason, c.message),
                ),
            });
        }
    }
    out.sort_by_key(|o| o.at);
    out.dedup_by(|b, a| a.load == b.load);
    out
}

/// A target that failed its checks and later loaded (passes apply its manifests, or the log
/// shows its payload loaded).
fn accepted_later(cx: &Cx<'_>, r: &mut Req, until: Option<Time>) {
    let Some(first) = r.first_failure else { return };
    let inside = |t: Time| t > first && until.is_none_or(|u| t < u);
    let by_pass = cx
        .timeline
        .passes
        .iter()
        .filter(|p| inside(p.start) && p.touched_manifests() && r.names(cx, &p.target))
        .map(|p| p.start)
        .next();
    let by_log = cx
        .facts
        .payloads
        .iter()
        .filter(|p| inside(p.time) && p.image == r.update.image)
        .map(|p| p.time)
        .next();
    let Some(at) = by_pass.into_iter().chain(by_log).min() else {
        return;
    };
    r.accepted_later = true;
    let mut o = loaded(cx, r);
    o.failure = None;
    r.outcomes.push(Outcome {
        at,
        load: o,
        what: "payload loaded".into(),
        evidence: Vec::new(),
    });
}

/// A successful load of the request's target, with what the dump and log tell of it.
pub(super) fn loaded(cx: &Cx<'_>, r: &Req) -> LoadOutcome {
    let mut o = LoadOutcome::loaded();
    if let Some(i) = r.hist {
        o.version = cx.hist[i].version.clone();
        o.verified = Some(cx.hist[i].verified);
    }
    if let Some(p) = cx.facts.payload(&r.update.image) {
        o.hash = p.hash.clone();
        o.architecture = p.architecture.clone();
    }
    if o.architecture.is_empty()
        && let Some(c) = cx.cond("ReleaseAccepted").filter(|c| c.is_true())
        && c.message.contains(&format!("image=\"{}\"", r.update.image))
        && let Some((_, rest)) = c.message.split_once(" architecture=\"")
    {
        o.architecture = rest.trim_end_matches('"').to_string();
    }
    o
}

fn emit(cx: &mut Cx<'_>, r: &Req) {
    cx.push(
        r.at,
        SPEC,
        Event::SpecChange(SpecChange {
            desired_update: Some(Some(r.update.clone())),
            generation: r.generation,
            ..Default::default()
        }),
    );
    let generation = r
        .generation
        .map(|g| format!(", generation {g}"))
        .unwrap_or_default();
    let force = if r.update.force { ", forced" } else { "" };
    cx.note(format!(
        "seen: update to `{}` requested at {} ({}{generation}{force})",
        r.label(),
        fmt_k8s(&r.at),
        r.basis
    ));
    if r.outcomes.is_empty() {
        if r.hist.is_some() {
            let o = loaded(cx, r);
            cx.push(r.at, LOAD, Event::LoadOutcome(o));
            cx.note(format!(
                "inferred: `{}` passed its checks at once (no failed check in the evidence)",
                r.label()
            ));
        } else {
            cx.note(format!(
                "not visible: what loading `{}` came to; it is replayed as still being retrieved",
                r.label()
            ));
        }
        return;
    }
    for o in &r.outcomes {
        cx.push(o.at.max(r.at), LOAD, Event::LoadOutcome(o.load.clone()));
        let failed = o
            .load
            .failure
            .unwrap_or(o.load.step != LoadStep::PayloadLoaded);
        let verb = if failed { "failed" } else { "loaded" };
        cx.note(format!(
            "seen: `{}` {verb} at {}: {}",
            r.label(),
            fmt_k8s(&sec(o.at.max(r.at))),
            o.what
        ));
    }
    if let (Some(at), Some(first)) = (r.first_failure, r.outcomes.first()) {
        cx.rejections.push(RejectedTarget {
            version: r.update.version.clone(),
            image: r.update.image.clone(),
            at,
            what: first.what.clone(),
            history_index: r.hist,
            accepted_later: r.accepted_later,
            evidence: first.evidence.clone(),
        });
    }
}
