//! Runs a scenario: applies each timed event to the operator and worker state, follows it with
//! an Operator.sync (validation, desired update, SyncWorker.Update, status sync) and records a
//! trace step. Pure: time comes only from the events.

use super::errors::{Failure, UpdateError};
use super::scenario::{Event, LoadOutcome, Scenario, TimedEvent};
use super::semantics::Semantics;
use super::status::{
    SyncInput, WorkerStatus, remove_condition, set_condition, sync_failing_status, sync_status,
    validate, version_string,
};
use super::trace::{TraceStep, describe_event, diff};
use super::worker::{Ctx, Pass, Worker};
use crate::model::{ClusterVersion, ObjectMeta, Release, Time};
use std::collections::BTreeMap;

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
        Engine {
            sem,
            operator: s.operator_release.clone(),
            operator_hash: String::new(),
            cv,
            worker: Worker::default(),
            co_started: BTreeMap::new(),
            scripts: BTreeMap::new(),
        }
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

    /// Operator.sync: validate, choose the desired release, call Update, sync the status.
    fn operator_sync(&mut self, now: Time, notes: &mut Vec<String>) {
        let errs = validate(&self.cv);
        let generation = self.generation();
        if self.operator.image.is_empty() && !self.worker.initialized() {
            let failure = UpdateError::new(
                "NoDesiredImage",
                "No configured operator version, unable to update cluster",
            );
            let ws = WorkerStatus {
                generation,
                failure: Some(Failure::Update(failure)),
                ..Default::default()
            };
            self.sync(&ws, &errs, now, notes);
            return;
        }
        let target = match errs.is_empty() {
            true => self.spec_target(),
            false => None,
        };
        let own = Release {
            force: Some(false),
            url: String::new(),
            channels: Vec::new(),
            ..self.operator.clone()
        };
        let desired = target.unwrap_or_else(|| own.clone());
        // Before 4.14 the first sync after a restart could take the spec target directly.
        let first = match self.sem.minor < 14 && desired.image == own.image {
            true => Release {
                version: own.version.clone(),
                ..desired.clone()
            },
            false => own,
        };
        let mut cx = Ctx {
            sem: &self.sem,
            operator: &self.operator,
            operator_hash: &self.operator_hash,
            now,
            notes,
            co_started: &mut self.co_started,
            scripts: &self.scripts,
        };
        if !self.worker.initialized() {
            self.worker
                .init(&mut cx, generation, &self.cv.status.history, &first);
        }
        self.worker.update(&mut cx, generation, &desired);
        let ws = self.worker.status.clone();
        self.sync(&ws, &errs, now, notes);
    }

    fn sync(&mut self, ws: &WorkerStatus, errs: &[String], now: Time, notes: &mut Vec<String>) {
        let input = SyncInput {
            sem: &self.sem,
            operator_release: &self.operator,
            worker: ws,
            validation_errors: errs,
            co_update_started: &self.co_started,
            now,
        };
        if let Some(p) = sync_status(&mut self.cv.status, &input) {
            notes.push(p.describe());
        }
    }

    fn spec_change(&mut self, c: &super::scenario::SpecChange, notes: &mut Vec<String>) {
        let spec = &mut self.cv.spec;
        if let Some(u) = &c.desired_update {
            spec.desired_update = u.as_ref().map(|u| u.release());
        }
        if let Some(ch) = &c.channel {
            spec.channel = ch.clone();
        }
        if let Some(up) = &c.upstream {
            spec.upstream = up.clone();
        }
        let next = c.generation.unwrap_or(self.generation().saturating_add(1));
        self.cv.metadata.generation = Some(next);
        let errs = validate(&self.cv);
        if !errs.is_empty() {
            notes.push(format!(
                "spec is invalid, `spec.desiredUpdate` is ignored: {}",
                errs.join("; ")
            ));
        } else if self.cv.spec.desired_update.is_some() && self.spec_target().is_none() {
            notes.push(
                "desired version not found in availableUpdates; the CVO stays on its own release"
                    .into(),
            );
        }
    }

    /// Applies one event and returns its trace step.
    pub fn step(&mut self, index: usize, ev: &TimedEvent) -> TraceStep {
        let before = self.cv.clone();
        let now = ev.at;
        let mut notes = Vec::new();
        let mut applied = None;
        let mut pass_attempt = None;
        let mut sync = true;
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
                let mut cx = Ctx {
                    sem: &self.sem,
                    operator: &self.operator,
                    operator_hash: &self.operator_hash,
                    now,
                    notes: &mut notes,
                    co_started: &mut self.co_started,
                    scripts: &self.scripts,
                };
                self.worker.load_outcome(&mut cx, o);
            }
            Event::PassProgress(_) | Event::PassResult(_) | Event::LoadOutcome(_) => {
                pass_attempt = self.worker.work.as_ref().map(|w| w.attempt);
                let mut cx = Ctx {
                    sem: &self.sem,
                    operator: &self.operator,
                    operator_hash: &self.operator_hash,
                    now,
                    notes: &mut notes,
                    co_started: &mut self.co_started,
                    scripts: &self.scripts,
                };
                match &ev.event {
                    Event::PassProgress(p) => {
                        applied = self.worker.pass(&mut cx, Pass::Progress(p))
                    }
                    Event::PassResult(r) => applied = self.worker.pass(&mut cx, Pass::Result(r)),
                    Event::LoadOutcome(o) => self.worker.load_outcome(&mut cx, o),
                    _ => {}
                }
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
                self.cv.status.available_updates = u.updates.clone();
                set_condition(
                    &mut self.cv.status.conditions,
                    "RetrievedUpdates",
                    "True",
                    "",
                    "",
                    now,
                );
            }
            Event::Upgradeable(Some(c)) => {
                set_condition(
                    &mut self.cv.status.conditions,
                    "Upgradeable",
                    &c.status,
                    &c.reason,
                    &c.message,
                    now,
                );
            }
            Event::Upgradeable(None) => {
                remove_condition(&mut self.cv.status.conditions, "Upgradeable")
            }
        }
        if sync {
            self.operator_sync(now, &mut notes);
        }
        let work = self.worker.work.as_ref();
        let is_pass = matches!(ev.event, Event::PassProgress(_) | Event::PassResult(_));
        TraceStep {
            index,
            at: now,
            event: describe_event(ev),
            worker_release: work.map(|w| match self.worker.status.actual.image.is_empty() {
                true => version_string(&w.target),
                false => version_string(&self.worker.status.actual),
            }),
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

    fn loading(&self) -> Option<String> {
        let c = self.worker.candidate.as_ref()?;
        let label = version_string(&c.target);
        let load = &self.worker.status.load;
        let state = match (&c.outcome, self.sem.release_accepted()) {
            (None, _) => "retrieving and verifying".to_string(),
            (Some(_), true) if load.failure => format!("rejected at {}", load.step),
            (Some(_), false) if self.worker.status.failure.is_some() => {
                "checks failing; the worker applies nothing".into()
            }
            (Some(_), _) => "retrieving and verifying".to_string(),
        };
        Some(format!("{label} ({state})"))
    }
}
