//! The fake worker of the CVO's own unit tests (`fakeSyncRecorder` in TestOperator_sync, the
//! status handed to `updateClusterVersionStatus` in status_test.go): a scripted
//! [`FakeStatus`] turned into the worker status the status sync reads.

use crate::model::Time;
use crate::reconciler::model::errors::{Failure, UpdateError};
use crate::reconciler::model::events::{FakeFailure, FakeStatus};
use crate::reconciler::model::input::{LoadStatus, WorkerStatus};
use chrono::Duration;

fn update_error(f: &FakeFailure) -> UpdateError {
    UpdateError {
        reason: f.reason.clone(),
        message: f.message.clone(),
        effect: f.effect.unwrap_or_default(),
        name: f.name.clone(),
        names: f.names.clone(),
        nested: f.nested.iter().map(update_error).collect(),
        plain: f.plain,
    }
}

/// The worker status a fake worker reports at `now`. A 4.1-4.6 `fraction` becomes per-mille
/// done of 1000.
pub fn fake_worker_status(f: &FakeStatus, now: Time) -> WorkerStatus {
    let (done, total) = match f.fraction {
        Some(x) if x.is_finite() => ((x.clamp(0.0, 1.0) * 1000.0).round() as u32, 1000),
        _ => (f.done, f.total),
    };
    WorkerStatus {
        generation: f.generation.unwrap_or(0),
        actual: f.actual.clone(),
        verified: f.verified,
        reconciling: f.reconciling,
        initial: f.initial,
        completed: f.completed,
        done,
        total,
        failure: f.failure.as_ref().map(|e| match e.plain {
            true => Failure::Generic(e.message.clone()),
            false => Failure::Update(update_error(e)),
        }),
        version_hash: f.version_hash.clone(),
        last_progress: f
            .last_progress_seconds_ago
            .map(|s| now - Duration::seconds(s.clamp(0, 100 * 365 * 86_400))),
        step: f.step.clone(),
        load: f
            .load
            .as_ref()
            .map(|l| LoadStatus {
                step: l.step,
                message: l.message.clone(),
                failure: l.failure,
                update: l.update.clone(),
                accepted_risks: l.accepted_risks.clone(),
                local: l.local,
            })
            .unwrap_or_default(),
        implicitly_enabled: f.implicitly_enabled.clone(),
        capabilities: None,
    }
}
