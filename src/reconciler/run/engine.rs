//! Runs a scenario: applies each timed event to the operator and worker state, follows it with
//! an Operator.sync (validation, desired update, SyncWorker.Update, status sync) and records a
//! trace step. Pure: time comes only from the events.

use super::trace::{TraceStep, describe_event, diff};
use crate::model::{ClusterVersion, ConditionalUpdate, ObjectMeta, Release, Time};
use crate::reconciler::model::capabilities::{CapabilitiesStatus, CapabilitySpec};
use crate::reconciler::model::cluster::ClusterState;
use crate::reconciler::model::errors::{Failure, UpdateError};
use crate::reconciler::model::events::UpgradeableCondition;
use crate::reconciler::model::input::{RiskStatus, SyncInput, WorkerStatus, version_string};
use crate::reconciler::model::preconditions::{CheckResult, PreconditionInput};
use crate::reconciler::model::risks::{EvalInput, RiskConditions, RiskMatch, SourceRisks};
use crate::reconciler::model::semantics::{Flavour, Semantics};
use crate::reconciler::model::status::{set_condition, sync_failing_status, sync_status};
use crate::reconciler::model::upgradeable::{Computed, apply_upgradeable, upgradeable_from_checks};
use crate::reconciler::model::validation::{clears_desired_update, validate};
use crate::reconciler::scenario::expect::WorkerView;
use crate::reconciler::scenario::{Event, LoadOutcome, Scenario, TimedEvent};
use crate::reconciler::worker::apply::Pass;
use crate::reconciler::worker::fake::fake_worker_status;
use crate::reconciler::worker::state::{Ctx, Worker};
use crate::reconciler::worker::update::UpdateInput;
use std::collections::{BTreeMap, BTreeSet};

/// The worker's context of an event, borrowed field by field from the engine (a macro, not a
/// method, so a caller may hold other fields of the engine borrowed beside it).
macro_rules! worker_ctx {
    ($engine:expr, $now:expr, $notes:expr) => {
        Ctx {
            sem: &$engine.sem,
            operator: &$engine.operator,
            operator_hash: &$engine.operator_hash,
            now: $now,
            notes: $notes,
            co_started: &mut $engine.co_started,
            scripts: &$engine.scripts,
            always_caps: &$engine.always_caps,
            pre: $engine.cluster.as_ref().map(|cluster| PreconditionInput {
                cv: &$engine.cv,
                cluster,
            }),
            checks_run: &mut $engine.checks_run,
        }
    };
}

/// The simulated CVO and its ClusterVersion.
#[derive(Debug, Clone)]
pub struct Engine {
    pub sem: Semantics,
    /// The CVO pod's own release and payload hash.
    pub operator: Release,
    pub operator_hash: String,
    pub cv: ClusterVersion,
    pub worker: Worker,
    /// When this CVO process first saw each ClusterOperator updating.
    pub co_started: BTreeMap<String, Time>,
    /// Load outcomes scripted ahead of time, by image.
    pub scripts: BTreeMap<String, LoadOutcome>,
    /// `spec.capabilities`.
    pub caps_spec: CapabilitySpec,
    /// `status.capabilities` (kept beside the ClusterVersion object, which has no field for it).
    pub caps_status: CapabilitiesStatus,
    /// Capabilities the CVO always enables.
    pub always_caps: Vec<String>,
    /// The status a unit test's fake worker reports, once a `worker_status` event gave one.
    pub fake: Option<WorkerStatus>,
    /// The worker's reports queue an Operator.sync (the scenario's `status_notifier`).
    pub notifies: bool,
    /// The worker counts as initialised from the start (the scenario's `worker_initialized`).
    pub forced_initialized: bool,
    /// The update service's node for the running release, once an `available_updates` event
    /// named it.
    pub update_service_current: Option<Release>,
    /// What the CVO reads beside its ClusterVersion, when the scenario has a `cluster:` block
    /// (Upgradeable and the preconditions are then computed).
    pub cluster: Option<ClusterState>,
    /// The computed Upgradeable set and when it was built.
    pub upgradeable: Computed,
    /// An admin config map changed since the last sync (recomputes Upgradeable, 4.8+).
    pub admin_changed: bool,
    /// The last computed precondition run.
    pub checks_run: Option<Vec<CheckResult>>,
    /// The CVO's cache of the update service's answer, once an `available_updates` event gave
    /// one.
    pub updates_cache: Option<UpdateCache>,
}

/// The CVO's `availableUpdates` cache: the update service's answer for a channel, and what
/// `evaluateConditionalUpdates` made of it.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateCache {
    pub channel: String,
    /// RetrievedUpdates: status, reason, message.
    pub condition: (String, String, String),
    pub upstream_updates: Vec<Release>,
    pub upstream_conditional: Option<Vec<ConditionalUpdate>>,
    /// The conditional updates are evaluated by the model (not scripted).
    pub evaluated: bool,
    pub matches: std::collections::BTreeMap<String, RiskMatch>,
    pub updates: Vec<Release>,
    pub conditional: Option<Vec<ConditionalUpdate>>,
    pub risk_conditions: Option<RiskConditions>,
}

impl Engine {
    /// The state before the first event of `s`.
    pub fn new(s: &Scenario, sem: Semantics) -> Engine {
        let cv = ClusterVersion {
            api_version: "config.openshift.io/v1".into(),
            kind: "ClusterVersion".into(),
            metadata: ObjectMeta {
                name: "version".into(),
                generation: Some(s.initial_generation),
                ..Default::default()
            },
            spec: s.initial_spec.clone(),
            status: s.initial_status.clone(),
        };
        let caps = s.capabilities.clone().unwrap_or_default();
        Engine {
            sem,
            operator: s.operator_release.clone(),
            operator_hash: String::new(),
            cv,
            worker: Worker::default(),
            co_started: BTreeMap::new(),
            scripts: BTreeMap::new(),
            caps_spec: caps.spec.clone(),
            caps_status: caps.status(),
            always_caps: caps.always_enabled.clone(),
            fake: None,
            notifies: s.notifies(),
            forced_initialized: s.worker_initialized,
            update_service_current: None,
            cluster: s.cluster.clone(),
            upgradeable: Computed::default(),
            admin_changed: false,
            checks_run: None,
            updates_cache: None,
        }
    }

    /// Whether the Upgradeable condition comes from risks (4.23+) computed from the
    /// scenario's `cluster:` block.
    fn risk_upgradeable(&self) -> bool {
        self.sem.risk_based_upgradeable()
            && self.cluster.as_ref().is_some_and(|c| c.compute_upgradeable)
    }

    /// The risk sources `optr.risks` aggregates: firing alerts (4.22+) and, 4.23+, the
    /// Upgradeable sources, on `versions`.
    fn risk_sources(&self, versions: &[String]) -> Option<SourceRisks> {
        let cluster = self.cluster.as_ref()?;
        let mut all = SourceRisks::default();
        let alerts = crate::reconciler::model::risk_sources::alerts_to_risks(&cluster.alerts);
        let versions_of =
            |r: &crate::model::ConditionalUpdateRisk| (r.name.clone(), versions.to_vec());
        all.add(SourceRisks {
            versions: alerts.iter().map(versions_of).collect(),
            risks: alerts,
            errors: Vec::new(),
        });
        let mock = cluster.risks.clone();
        all.add(SourceRisks {
            versions: mock.iter().map(versions_of).collect(),
            risks: mock,
            errors: Vec::new(),
        });
        if self.risk_upgradeable() {
            all.add(crate::reconciler::model::risk_sources::upgradeable_sources(
                &self.cv,
                cluster,
                &self.operator.version,
                versions,
            ));
        }
        Some(all)
    }

    /// `evaluateConditionalUpdates` on the cached answer (re-run at every sync: accepted
    /// risks, alerts and the Upgradeable sources re-queue it in the CVO), then
    /// `NeedsUpdate`: the answer reaches the status while it is for the spec's channel.
    fn refresh_updates(&mut self, now: Time, notes: &mut Vec<String>, at_answer: bool) {
        let Some(cache) = self.updates_cache.as_ref() else {
            return;
        };
        if cache.evaluated {
            let accepted: std::collections::BTreeSet<String> = self
                .cv
                .spec
                .desired_update
                .iter()
                .flat_map(|u| u.accept_risks.iter().map(|r| r.name.clone()))
                .collect();
            let reconcile = self.sem.reconciles_accept_risks();
            let upstream_cus = cache.upstream_conditional.clone().unwrap_or_default();
            let versions: Vec<String> = cache
                .upstream_updates
                .iter()
                .map(|u| u.version.clone())
                .chain(upstream_cus.iter().map(|c| c.release.version.clone()))
                .collect();
            let sources = match reconcile {
                true => self.risk_sources(&versions),
                false => None,
            };
            let out = crate::reconciler::model::risks::evaluate(
                &cache.upstream_updates,
                &upstream_cus,
                EvalInput {
                    minor: self.sem.minor,
                    reconcile_accept: reconcile,
                    accepted: &accepted,
                    matches: &cache.matches,
                    sources,
                    now,
                },
            );
            if at_answer {
                for e in &out.errors {
                    notes.push(format!("risk evaluation: {e}"));
                }
            }
            // The Recommended conditions keep their times across evaluations.
            let cache = self.updates_cache.as_mut().expect("checked above");
            let mut cus = out.conditional_updates;
            if let Some(prev) = &cache.conditional {
                for cu in cus.iter_mut() {
                    if let Some(p) = prev.iter().find(|p| {
                        p.release.image == cu.release.image
                            && p.release.version == cu.release.version
                    }) {
                        for c in cu.conditions.iter_mut() {
                            if let Some(old) = p
                                .conditions
                                .iter()
                                .find(|o| o.type_ == c.type_ && o.status == c.status)
                            {
                                c.last_transition_time = old.last_transition_time;
                            }
                        }
                    }
                }
            }
            cache.updates = out.updates;
            cache.conditional = Some(cus);
            cache.risk_conditions = out.risk_conditions;
        }
        let cache = self.updates_cache.as_ref().expect("checked above");
        if cache.channel != self.cv.spec.channel {
            if !at_answer {
                return;
            }
            notes.push(format!(
                "the cached update service answer is for channel {:?}, spec.channel is {:?}: not written to the status",
                cache.channel, self.cv.spec.channel
            ));
            return;
        }
        self.cv.status.available_updates = cache.updates.clone();
        if let Some(c) = &cache.conditional {
            self.cv.status.conditional_updates = c.clone();
        }
        let (st, reason, message) = &cache.condition;
        set_condition(
            &mut self.cv.status.conditions,
            "RetrievedUpdates",
            st,
            reason,
            message,
            now,
        );
    }

    fn generation(&self) -> i64 {
        self.cv.metadata.generation.unwrap_or(0)
    }

    /// The release `spec.desiredUpdate` resolves to (cvo-reference §5.1), if any.
    fn spec_target(&self) -> Option<Release> {
        let u = self.cv.spec.desired_update.as_ref()?;
        let force = Some(u.force.unwrap_or(false));
        if !u.image.is_empty() {
            return Some(Release {
                version: u.version.clone(),
                image: u.image.clone(),
                force,
                ..Default::default()
            });
        }
        let a = self
            .cv
            .status
            .available_updates
            .iter()
            .find(|a| a.version == u.version && !a.image.is_empty())?;
        Some(Release {
            version: a.version.clone(),
            image: a.image.clone(),
            force,
            ..Default::default()
        })
    }

    /// The release Operator.sync hands to the worker: the spec target, or the CVO's own
    /// release; from 4.14 a worker without work first gets only the CVO's own release and the
    /// spec target is evaluated at the next sync.
    fn desired(&self, target: Option<Release>, notes: &mut Vec<String>) -> Release {
        let own = Release {
            version: self.operator.version.clone(),
            image: self.operator.image.clone(),
            force: Some(false),
            ..Default::default()
        };
        let waits = self.sem.flavour == Flavour::Fixed
            && self.sem.initializes_on_own_release()
            && !self.worker.initialized()
            && !self.forced_initialized
            && self.fake.is_none();
        match target {
            Some(t) if waits => {
                notes.push(format!(
                    "Desired version from operator is {} with user's request to go to {}; the worker is initializing and the request is re-queued for the next sync",
                    version_string(&own),
                    version_string(&t)
                ));
                own
            }
            Some(t) => t,
            None => own,
        }
    }

    /// Operator.sync: validate, choose the desired release, call Update, sync the status.
    fn operator_sync(&mut self, now: Time, notes: &mut Vec<String>) {
        let invalid = validate(&self.cv, &self.sem);
        let generation = self.generation();
        let target = match clears_desired_update(&invalid) {
            false => self.spec_target(),
            true => None,
        };
        let errs: Vec<String> = invalid.into_iter().map(|e| e.message).collect();
        let desired = self.desired(target, notes);
        if desired.image.is_empty() {
            let text = "No configured operator version, unable to update cluster";
            let failure = match self.sem.no_desired_image_reason() {
                true => Failure::Update(UpdateError::new("NoDesiredImage", text)),
                false => Failure::Generic(text.into()),
            };
            let ws = WorkerStatus {
                failure: Some(failure),
                ..Default::default()
            };
            self.set_caps_status(&ws);
            self.sync(&ws, &errs, now, notes);
            return;
        }
        if let Some(ws) = self.fake.clone() {
            self.set_caps_status(&ws);
            self.sync(&ws, &errs, now, notes);
            return;
        }
        let status_caps: BTreeSet<String> = self.caps_status.enabled.iter().cloned().collect();
        let inp = UpdateInput {
            generation,
            history: &self.cv.status.history,
            caps_spec: &self.caps_spec,
            status_caps: &status_caps,
        };
        let mut cx = worker_ctx!(self, now, notes);
        self.worker.update(&mut cx, &inp, &desired);
        self.sync_worker_status(&errs, now, notes);
    }

    /// The status sync that the apply loop's first report on new work queues through the
    /// status notifier, at the same instant: the report reaches the status (Update, given the
    /// same desired release, changes nothing).
    fn report_sync(&mut self, now: Time, notes: &mut Vec<String>) {
        self.worker.deliver_pending();
        notes.push(
            "the apply loop's first report on the new work queues another Operator.sync".into(),
        );
        let errs: Vec<String> = validate(&self.cv, &self.sem)
            .into_iter()
            .map(|e| e.message)
            .collect();
        self.sync_worker_status(&errs, now, notes);
    }

    /// Syncs the status from the worker's own. Its status is taken out while the sync reads
    /// it, not copied (once per event of a long replay): neither the sync nor the capabilities
    /// read the worker.
    fn sync_worker_status(&mut self, errs: &[String], now: Time, notes: &mut Vec<String>) {
        let ws = std::mem::take(&mut self.worker.status);
        self.set_caps_status(&ws);
        self.sync(&ws, errs, now, notes);
        self.worker.status = ws;
    }

    /// `status.capabilities` ← the worker's (4.11+).
    fn set_caps_status(&mut self, ws: &WorkerStatus) {
        if self.sem.capabilities() {
            // In place: the same few names again on every sync.
            match &ws.capabilities {
                Some(CapabilitiesStatus { enabled, known }) => {
                    self.caps_status.enabled.clone_from(enabled);
                    self.caps_status.known.clone_from(known);
                }
                None => self.caps_status = CapabilitiesStatus::default(),
            }
        }
    }

    fn sync(&mut self, ws: &WorkerStatus, errs: &[String], now: Time, notes: &mut Vec<String>) {
        if self.updates_cache.as_ref().is_some_and(|c| c.evaluated) {
            self.refresh_updates(now, notes, false);
        }
        // 4.23+: Upgradeable from the risk sources, on the ClusterVersion as the lister holds
        // it before this sync writes it.
        let upgradeable_risks = match (self.risk_upgradeable(), self.cluster.as_ref()) {
            (true, Some(cluster)) => {
                Some(crate::reconciler::model::risk_sources::upgradeable_sources(
                    &self.cv,
                    cluster,
                    &self.operator.version,
                    &[],
                ))
            }
            _ => None,
        };
        let cache = self.updates_cache.as_ref();
        let risk_status = self.sem.reconciles_accept_risks().then(|| RiskStatus {
            updates: cache.map(|c| c.updates.as_slice()),
            conditional: cache.and_then(|c| c.conditional.as_deref()),
            risk_conditions: cache.and_then(|c| c.risk_conditions.as_ref()),
        });
        let input = SyncInput {
            sem: &self.sem,
            operator_release: &self.operator,
            worker: ws,
            validation_errors: errs,
            update_service_current: self.update_service_current.as_ref(),
            co_update_started: &self.co_started,
            now,
            risk_status,
            upgradeable_risks: upgradeable_risks.as_ref(),
        };
        // The upgradeable loop reads the ClusterVersion before this sync writes it; the set
        // reaches the status at the end of the status sync (`NeedsUpdate`).
        let computing = self
            .cluster
            .as_ref()
            .filter(|c| c.compute_upgradeable && !self.sem.risk_based_upgradeable());
        if let Some(cluster) = computing {
            let force = std::mem::take(&mut self.admin_changed);
            if self
                .upgradeable
                .refresh(&self.cv, cluster, &self.sem, now, force)
            {
                notes.push(format!(
                    "Upgradeable computed: {}",
                    self.upgradeable.describe()
                ));
            }
        }
        if let Some(p) = sync_status(&mut self.cv.status, &input) {
            notes.push(p.describe());
        }
        if computing.is_some() && self.sem.minor >= 3 {
            apply_upgradeable(&mut self.cv.status.conditions, &self.upgradeable.set, now);
        }
    }

    fn spec_change(
        &mut self,
        c: &crate::reconciler::scenario::SpecChange,
        notes: &mut Vec<String>,
    ) {
        let spec = &mut self.cv.spec;
        if let Some(u) = &c.desired_update {
            spec.desired_update = u.as_ref().map(|u| u.release());
        }
        if let Some(ch) = &c.channel {
            spec.channel = ch.clone();
        }
        if let Some(caps) = &c.capabilities {
            self.caps_spec = caps.clone();
        }
        if let Some(up) = &c.upstream {
            spec.upstream = up.clone();
        }
        if let Some(id) = &c.cluster_id {
            spec.cluster_id = id.clone();
        }
        if let Some(o) = &c.overrides {
            spec.overrides = o.clone();
        }
        let next = c.generation.unwrap_or(self.generation().saturating_add(1));
        self.cv.metadata.generation = Some(next);
        let errs = validate(&self.cv, &self.sem);
        let texts: Vec<&str> = errs.iter().map(|e| e.message.as_str()).collect();
        if clears_desired_update(&errs) {
            notes.push(format!(
                "spec is invalid, `spec.desiredUpdate` is ignored: {}",
                texts.join("; ")
            ));
        } else if !errs.is_empty() {
            notes.push(format!(
                "spec is invalid (Invalid=True), the sync goes on: {}",
                texts.join("; ")
            ));
        }
        if !clears_desired_update(&errs)
            && self.cv.spec.desired_update.is_some()
            && self.spec_target().is_none()
        {
            notes.push(
                "desired version not found in availableUpdates; the CVO stays on its own release"
                    .into(),
            );
        }
    }

    /// Applies one event and returns its trace step.
    pub fn step(&mut self, index: usize, ev: &TimedEvent) -> TraceStep {
        let before = self.cv.clone();
        let (notes, applied, pass_attempt) = self.apply_event(ev);
        let now = ev.at;
        let work = self.worker.work.as_ref();
        let is_pass = matches!(ev.event, Event::PassProgress(_) | Event::PassResult(_));
        TraceStep {
            index,
            at: now,
            event: describe_event(ev),
            worker_release: self.worker.release_label(),
            state: work.map(|w| w.state),
            attempt: if is_pass {
                pass_attempt
            } else {
                work.map(|w| w.attempt)
            },
            loading: self.loading(),
            applied,
            changes: diff(&before, &self.cv),
            notes,
        }
    }

    /// Applies one event without recording a trace step (a long scenario run for its result
    /// alone costs no copy and no diff of the status per event).
    pub fn advance(&mut self, ev: &TimedEvent) {
        self.apply_event(ev);
    }

    /// Applies one event: its notes, the pass it applied and that pass's attempt.
    fn apply_event(&mut self, ev: &TimedEvent) -> (Vec<String>, Option<String>, Option<u32>) {
        let now = ev.at;
        let mut notes = Vec::new();
        let mut applied = None;
        let mut pass_attempt = None;
        let mut sync = true;
        // The apply loop's report on work the last sync accepted has arrived since.
        self.worker.deliver_pending();
        match &ev.event {
            Event::PodStart(p) => {
                self.operator = p.release();
                self.operator_hash = p.hash.clone();
                self.worker = Worker::default();
                self.co_started.clear();
            }
            Event::SpecChange(c) => self.spec_change(c, &mut notes),
            Event::LoadOutcome(o) if !o.image.is_empty() => {
                self.scripts.insert(o.image.clone(), o.clone());
                self.with_worker(now, &mut notes, |w, cx| w.load_outcome(cx, o));
            }
            Event::PassProgress(_) | Event::PassResult(_) | Event::LoadOutcome(_)
                if self.fake.is_some() =>
            {
                notes.push("ignored: the fake worker reports a fixed status".into());
            }
            Event::PassProgress(p) => {
                pass_attempt = self.worker.work.as_ref().map(|w| w.attempt);
                applied = self.with_worker(now, &mut notes, |w, cx| w.pass(cx, Pass::Progress(p)));
            }
            Event::PassResult(r) => {
                pass_attempt = self.worker.work.as_ref().map(|w| w.attempt);
                applied = self.with_worker(now, &mut notes, |w, cx| w.pass(cx, Pass::Result(r)));
            }
            Event::LoadOutcome(o) => {
                self.with_worker(now, &mut notes, |w, cx| w.load_outcome(cx, o));
            }
            Event::WorkerStatus(f) => {
                for (name, minutes) in &f.co_update_started_minutes_ago {
                    self.co_started.insert(
                        name.clone(),
                        now - chrono::Duration::minutes((*minutes).clamp(0, 1_000_000)),
                    );
                }
                self.fake = Some(fake_worker_status(f, now));
                notes.push("the fake worker of a CVO unit test reports this status".into());
            }
            Event::Tick => {}
            Event::SyncFailedRepeatedly(f) => {
                sync = false;
                let op = Release {
                    force: Some(false),
                    ..self.operator.clone()
                };
                if let Some(p) =
                    sync_failing_status(&mut self.cv.status, &self.sem, &op, &f.error, now)
                {
                    notes.push(p.describe());
                }
            }
            Event::AvailableUpdates(u) => {
                self.update_service_current = u.current.clone();
                // With accept risks reconciled the CVO evaluates every answer (alerts and,
                // 4.23+, the Upgradeable sources join it); that needs the `cluster:` block.
                let evaluated =
                    u.evaluated() || (self.sem.reconciles_accept_risks() && self.cluster.is_some());
                self.updates_cache = Some(UpdateCache {
                    channel: u
                        .channel
                        .clone()
                        .unwrap_or_else(|| self.cv.spec.channel.clone()),
                    condition: u.retrieved.clone().unwrap_or_default().condition(),
                    upstream_updates: u.updates.clone(),
                    upstream_conditional: u.conditional_updates.clone(),
                    evaluated,
                    matches: u.risk_matches.clone(),
                    updates: u.updates.clone(),
                    conditional: u.conditional_updates.clone(),
                    risk_conditions: None,
                });
                self.refresh_updates(now, &mut notes, true);
            }
            Event::Upgradeable(Some(c)) => {
                let set = [UpgradeableCondition {
                    type_: "Upgradeable".into(),
                    status: c.status.clone(),
                    reason: c.reason.clone(),
                    message: c.message.clone(),
                }];
                apply_upgradeable(&mut self.cv.status.conditions, &set, now);
            }
            Event::Upgradeable(None) => apply_upgradeable(&mut self.cv.status.conditions, &[], now),
            Event::UpgradeableConditions(set) => {
                apply_upgradeable(&mut self.cv.status.conditions, set, now)
            }
            Event::ClusterChange(c) => match self.cluster.as_mut() {
                Some(cluster) => self.admin_changed |= cluster.apply(c),
                None => notes.push("ignored: the scenario has no `cluster:` block".into()),
            },
            Event::UpgradeableChecks(checks) => {
                let set = upgradeable_from_checks(checks, self.sem.minor);
                apply_upgradeable(&mut self.cv.status.conditions, &set, now);
            }
        }
        if sync {
            self.operator_sync(now, &mut notes);
            if self.notifies && self.worker.pending.is_some() {
                self.report_sync(now, &mut notes);
            }
        }
        (notes, applied, pass_attempt)
    }

    /// Runs `f` on the worker with the context of this event.
    fn with_worker<T>(
        &mut self,
        now: Time,
        notes: &mut Vec<String>,
        f: impl FnOnce(&mut Worker, &mut Ctx<'_>) -> T,
    ) -> T {
        let mut cx = worker_ctx!(self, now, notes);
        f(&mut self.worker, &mut cx)
    }

    /// The sync worker as a unit test inspects it: its work's state and its own status (with
    /// a report Operator.sync has not written yet); a fake worker has no state.
    pub fn worker_view(&self) -> WorkerView {
        let status = match &self.fake {
            Some(f) => f,
            None => self.worker.pending.as_ref().unwrap_or(&self.worker.status),
        };
        WorkerView {
            state: match self.fake {
                Some(_) => None,
                None => self.worker.work.as_ref().map(|w| w.state),
            },
            reconciling: status.reconciling,
            completed: status.completed,
        }
    }

    fn loading(&self) -> Option<String> {
        let c = self.worker.candidate.as_ref()?;
        let label = version_string(&c.target);
        let load = &self.worker.status.load;
        let state = match (&c.outcome, self.sem.release_accepted()) {
            (None, _) if c.local => "the CVO's own payload, loaded at the next pass".to_string(),
            (None, _) => "retrieving and verifying".to_string(),
            (Some(_), true) if load.failure => {
                format!("rejected at {}", load.step.map_or("", |s| s.as_str()))
            }
            (Some(_), false) if self.worker.status.failure.is_some() => {
                "checks failing; the worker applies nothing".into()
            }
            (Some(_), _) => "retrieving and verifying".to_string(),
        };
        Some(format!("{label} ({state})"))
    }
}
