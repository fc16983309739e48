//! `SyncWorker.Update`, called by every Operator.sync with the desired release: the first call
//! after a pod start, target changes, the payload load pipeline as scripted outcomes (fixed:
//! inside Update; legacy: a target becomes work at once and its checks run at the start of a
//! pass), the load status behind `ReleaseAccepted`, and capability changes (cvo-reference §5.1,
//! §5.4-§5.6).

use super::load::{Checks, Evaluated, evaluate, local_payload, payload_loaded_message};
use super::state::{
    Candidate, Ctx, Payload, Work, Worker, WorkerState, initial_state, same_target,
};
use crate::model::{HistoryEntry, Release};
use crate::reconciler::model::capabilities::{Capabilities, CapabilitySpec, set_capabilities};
use crate::reconciler::model::errors::{Failure, go_quote};
use crate::reconciler::model::events::{LoadOutcome, LoadStep};
use crate::reconciler::model::input::{LoadStatus, WorkerStatus, equal_digest, version_string};
use crate::reconciler::model::semantics::Flavour;
use std::collections::BTreeSet;

/// What one `SyncWorker.Update` is given besides the desired release.
pub struct UpdateInput<'a> {
    pub generation: i64,
    pub history: &'a [HistoryEntry],
    pub caps_spec: &'a CapabilitySpec,
    /// `status.capabilities.enabledCapabilities` of the ClusterVersion (the prior enabled set
    /// of a worker that has no work yet).
    pub status_caps: &'a BTreeSet<String>,
}

/// What loading a target came to in the fixed pipeline.
enum Loaded {
    Pending,
    Rejected,
    /// Boxed: a payload is much larger than the other variants.
    Accepted(Box<Payload>),
}

fn in_progress(o: &LoadOutcome) -> bool {
    o.step == LoadStep::RetrievePayload && o.failure == Some(false)
}

impl Worker {
    fn capabilities(&self, cx: &Ctx<'_>, inp: &UpdateInput<'_>) -> Capabilities {
        if !cx.sem.capabilities() {
            return Capabilities::default();
        }
        let prior = self
            .work
            .as_ref()
            .map_or(inp.status_caps, |w| &w.caps.enabled);
        set_capabilities(inp.caps_spec, prior, cx.always_caps, cx.sem)
    }

    fn set_caps_status(&mut self, cx: &Ctx<'_>, caps: &Capabilities) {
        if cx.sem.capabilities() {
            self.status.implicitly_enabled = caps.implicit.clone();
            self.status.capabilities = Some(caps.status(cx.sem));
        }
    }

    /// `SyncWorker.Update`.
    pub fn update(&mut self, cx: &mut Ctx<'_>, inp: &UpdateInput<'_>, desired: &Release) {
        let caps = self.capabilities(cx, inp);
        if cx.sem.capabilities() {
            self.status.implicitly_enabled = caps.implicit.clone();
        }
        let state = initial_state(inp.history, desired);
        let Some(work) = self.work.as_mut() else {
            match cx.sem.flavour {
                Flavour::Fixed => self.first_update_fixed(cx, inp.generation, desired, state, caps),
                Flavour::Legacy => self.first_update_legacy(cx, inp.generation, desired, state),
            }
            return;
        };
        work.generation = inp.generation;
        let version_equal = same_target(&work.target, desired);
        let caps_equal = caps.enabled == work.caps.enabled;
        if version_equal && caps_equal {
            if cx.sem.flavour == Flavour::Fixed {
                // The work's own target is what the reset names (`syncPayload(w.work)`).
                let current = work.target.clone();
                self.candidate = None;
                self.maybe_reset_load_status(cx, &current);
            }
            return;
        }
        let mut target = desired.clone();
        let installing = !inp.history.iter().any(HistoryEntry::is_completed);
        if !version_equal && installing && cx.sem.ignores_target_change_while_installing() {
            let (old, new) = (version_string(&work.target), version_string(desired));
            cx.note(format!(
                "Ignoring detected version change from {old} to {new} during payload initialization"
            ));
            if caps_equal {
                return;
            }
            target = work.target.clone();
        }
        match cx.sem.flavour {
            Flavour::Fixed => self.update_fixed(cx, &target, caps),
            Flavour::Legacy => self.update_legacy(cx, &target),
        }
    }

    /// Resets the load status to the loaded payload when it is about another image
    /// (`Resetting payload status to currently loaded payload.`, no architecture part).
    fn maybe_reset_load_status(&mut self, cx: &mut Ctx<'_>, desired: &Release) {
        if equal_digest(&self.status.load.update.image, &desired.image) {
            return;
        }
        cx.note("Resetting payload status to currently loaded payload.".into());
        self.status.load = LoadStatus {
            step: Some(LoadStep::PayloadLoaded),
            message: format!(
                "Payload loaded version={} image={}",
                go_quote(&desired.version),
                go_quote(&desired.image)
            ),
            update: desired.clone(),
            ..Default::default()
        };
    }

    fn loaded_status(cx: &Ctx<'_>, p: &Payload, target: &Release, risks: String) -> LoadStatus {
        LoadStatus {
            step: Some(LoadStep::PayloadLoaded),
            message: payload_loaded_message(
                &p.release.version,
                &p.release.image,
                &p.architecture,
                cx.sem,
            ),
            failure: false,
            update: target.clone(),
            accepted_risks: risks,
            local: p.local,
        }
    }

    /// Runs the fixed load pipeline on a target that is not the loaded payload: the CVO's own
    /// image loads locally, anything else takes its scripted outcome (or stays being retrieved).
    fn load_target(&mut self, cx: &mut Ctx<'_>, desired: &Release) -> Loaded {
        if desired.image == cx.operator.image {
            self.candidate = None;
            let p = local_payload(cx);
            self.status.load = Worker::loaded_status(cx, &p, desired, String::new());
            return Loaded::Accepted(Box::new(p));
        }
        if !self
            .candidate
            .as_ref()
            .is_some_and(|c| same_target(&c.target, desired))
        {
            self.candidate = Some(Candidate {
                target: desired.clone(),
                outcome: cx.scripts.get(&desired.image).cloned(),
                local: false,
            });
        }
        let outcome = self.candidate.as_ref().and_then(|c| c.outcome.clone());
        match outcome.map(|o| {
            evaluate(
                &o,
                desired,
                cx.sem,
                cx.operator,
                Checks {
                    input: cx.pre,
                    run: &mut *cx.checks_run,
                },
            )
        }) {
            None | Some(Evaluated::InProgress) => {
                let message = format!(
                    "Retrieving and verifying payload version={} image={}",
                    go_quote(&desired.version),
                    go_quote(&desired.image)
                );
                self.status.load = LoadStatus {
                    step: Some(LoadStep::RetrievePayload),
                    message,
                    update: desired.clone(),
                    ..Default::default()
                };
                Loaded::Pending
            }
            Some(Evaluated::Accepted { payload, risks }) => {
                self.candidate = None;
                self.status.load = Worker::loaded_status(cx, &payload, desired, risks);
                Loaded::Accepted(Box::new(payload))
            }
            Some(Evaluated::Rejected(r)) => {
                self.status.load = LoadStatus {
                    step: Some(r.step),
                    message: r.load_message,
                    failure: true,
                    update: desired.clone(),
                    ..Default::default()
                };
                Loaded::Rejected
            }
        }
    }

    /// The capabilities of newly loaded work: the payload's implicitly enabled list replaces
    /// the computed one when an earlier payload was loaded (`GetImplicitlyEnabledCapabilities`).
    fn caps_after_load(
        &self,
        caps: Capabilities,
        desired: &Release,
        had_payload: bool,
    ) -> Capabilities {
        let scripted = self
            .candidate
            .as_ref()
            .filter(|c| c.target.image == desired.image)
            .and_then(|c| c.outcome.as_ref())
            .map(|o| o.implicitly_enabled.clone());
        match had_payload {
            true => caps.with_payload_implicit(scripted.unwrap_or_default()),
            false => caps,
        }
    }

    /// The first Update of a fresh fixed worker: the status names the target at once; the
    /// work exists only once the target's payload is accepted.
    fn first_update_fixed(
        &mut self,
        cx: &mut Ctx<'_>,
        generation: i64,
        desired: &Release,
        state: WorkerState,
        caps: Capabilities,
    ) {
        self.status.generation = generation;
        self.status.reconciling = state == WorkerState::Reconciling;
        self.status.actual = Release {
            version: desired.version.clone(),
            image: desired.image.clone(),
            ..Default::default()
        };
        let implicit = self.caps_after_load(caps.clone(), desired, false);
        match self.load_target(cx, desired) {
            Loaded::Accepted(p) => self.accept_first(cx, generation, desired, state, *p, implicit),
            Loaded::Pending | Loaded::Rejected => {
                let t = version_string(desired);
                cx.note(format!(
                    "the worker has no work yet: {t} is not loaded, nothing is applied"
                ));
            }
        }
    }

    fn accept_first(
        &mut self,
        cx: &mut Ctx<'_>,
        generation: i64,
        target: &Release,
        state: WorkerState,
        payload: Payload,
        caps: Capabilities,
    ) {
        let target = Release {
            url: String::new(),
            channels: Vec::new(),
            architecture: String::new(),
            ..target.clone()
        };
        self.payload = Some(payload);
        self.candidate = None;
        self.set_caps_status(cx, &caps);
        self.work = Some(Work {
            target: target.clone(),
            generation,
            state,
            attempt: 0,
            completed: 0,
            caps,
        });
        cx.co_started.clear();
        cx.note(format!(
            "worker starts on {} in state {}",
            version_string(&target),
            state.as_str()
        ));
        self.start_pass_after_update(cx);
    }

    fn update_fixed(&mut self, cx: &mut Ctx<'_>, desired: &Release, caps: Capabilities) {
        let loaded = self.payload.as_ref().map(|p| p.release.image.clone());
        if loaded.as_deref() == Some(desired.image.as_str()) {
            self.candidate = None;
            self.maybe_reset_load_status(cx, desired);
            self.set_caps_status(cx, &caps);
            self.change_work(cx, desired, caps);
            self.start_pass_after_update(cx);
            return;
        }
        let had_payload = self.payload.is_some();
        let after = self.caps_after_load(caps.clone(), desired, had_payload);
        match self.load_target(cx, desired) {
            Loaded::Accepted(p) => {
                self.payload = Some(*p);
                self.set_caps_status(cx, &after);
                self.change_work(cx, desired, after);
                self.start_pass_after_update(cx);
            }
            Loaded::Pending | Loaded::Rejected => {
                // Override and capability changes of the same spec are saved all the same.
                self.set_caps_status(cx, &caps);
                if let Some(w) = self.work.as_mut() {
                    w.caps = caps;
                }
            }
        }
    }

    /// The first Update of a fresh legacy worker: the target becomes the work at once.
    fn first_update_legacy(
        &mut self,
        cx: &mut Ctx<'_>,
        generation: i64,
        desired: &Release,
        state: WorkerState,
    ) {
        let target = Release {
            url: String::new(),
            channels: Vec::new(),
            architecture: String::new(),
            ..desired.clone()
        };
        self.status = WorkerStatus {
            generation,
            reconciling: state == WorkerState::Reconciling,
            actual: target.clone(),
            ..Default::default()
        };
        self.work = Some(Work {
            target: target.clone(),
            generation,
            state,
            attempt: 0,
            completed: 0,
            caps: Capabilities::default(),
        });
        cx.co_started.clear();
        cx.note(format!(
            "worker starts on {} in state {}",
            version_string(&target),
            state.as_str()
        ));
        if target.image == cx.operator.image {
            self.payload = Some(local_payload(cx));
            self.start_pass_report(cx);
        } else {
            self.retrieve_legacy(cx, &target);
        }
    }

    fn update_legacy(&mut self, cx: &mut Ctx<'_>, desired: &Release) {
        let loaded = self.payload.as_ref().map(|p| p.release.image.clone());
        self.change_work(cx, desired, Capabilities::default());
        if loaded.as_deref() == Some(desired.image.as_str()) {
            self.candidate = None;
            self.start_pass_report(cx);
        } else {
            self.retrieve_legacy(cx, desired);
        }
        self.status.load.update = desired.clone();
        self.status.load.local = desired.image == cx.operator.image;
    }

    /// A legacy pass starts by retrieving a target that is not loaded: the status names the
    /// target as requested, in step RetrievePayload. The CVO's own image loads locally at the
    /// next pass; checks scripted ahead of time run at once.
    fn retrieve_legacy(&mut self, cx: &mut Ctx<'_>, desired: &Release) {
        let local = desired.image == cx.operator.image;
        self.candidate = Some(Candidate {
            target: desired.clone(),
            outcome: match local {
                true => None,
                false => cx.scripts.get(&desired.image).cloned(),
            },
            local,
        });
        self.end_pass();
        self.begin_pass();
        let mut next = self.base_report();
        next.actual = Release {
            force: desired.force,
            ..desired.clone()
        };
        next.verified = false;
        next.version_hash = String::new();
        next.step = LoadStep::RetrievePayload.as_str().into();
        next.done = 0;
        next.total = 0;
        self.report(cx, next);
        if self.candidate.as_ref().is_some_and(|c| c.outcome.is_some()) {
            self.legacy_checks(cx);
        }
    }

    /// Records a scripted load outcome for the target being loaded. Legacy resolves the checks
    /// of the running pass at once; fixed evaluates it in the next Update.
    pub fn load_outcome(&mut self, cx: &mut Ctx<'_>, outcome: &LoadOutcome) {
        let for_candidate = self
            .candidate
            .as_ref()
            .is_some_and(|c| outcome.image.is_empty() || c.target.image == outcome.image);
        if !outcome.image.is_empty() && !for_candidate {
            return;
        }
        let Some(c) = self.candidate.as_mut().filter(|c| !c.local) else {
            cx.note("load outcome ignored: no payload is being loaded".into());
            return;
        };
        c.outcome = Some(outcome.clone());
        if cx.sem.flavour == Flavour::Legacy {
            self.legacy_checks(cx);
        }
    }

    /// Whether a legacy pass can run its checks (the candidate is local or has an outcome
    /// other than "still retrieving").
    pub(super) fn legacy_candidate_ready(&self) -> bool {
        self.candidate
            .as_ref()
            .is_none_or(|c| c.local || c.outcome.as_ref().is_some_and(|o| !in_progress(o)))
    }

    /// Runs the legacy checks of the target at the start of a pass; `true` when the payload
    /// loaded and the pass goes on to apply it.
    pub(super) fn legacy_checks(&mut self, cx: &mut Ctx<'_>) -> bool {
        let Some(c) = self.candidate.clone() else {
            return true;
        };
        let evaluated = match (&c.outcome, c.local) {
            (_, true) => Evaluated::Accepted {
                payload: local_payload(cx),
                risks: String::new(),
            },
            (Some(o), false) => evaluate(
                o,
                &c.target,
                cx.sem,
                cx.operator,
                Checks {
                    input: cx.pre,
                    run: &mut *cx.checks_run,
                },
            ),
            (None, false) => return false,
        };
        match evaluated {
            Evaluated::InProgress => false,
            Evaluated::Accepted { payload, risks } => {
                self.payload = Some(payload);
                self.candidate = None;
                self.status.load.accepted_risks = risks;
                let next = self.base_report();
                self.report(cx, next);
                true
            }
            Evaluated::Rejected(r) => {
                let mut next = self.base_report();
                next.actual = Release {
                    version: r.version,
                    ..c.target.clone()
                };
                next.verified = r.verified;
                next.version_hash = String::new();
                next.failure = Some(Failure::Update(r.error));
                next.step = r.step.as_str().into();
                if let Some(w) = self.work.as_mut() {
                    w.completed = 0;
                    w.attempt = w.attempt.saturating_add(1);
                }
                self.report(cx, next);
                self.end_pass();
                false
            }
        }
    }
}
