//! One status sync as a pure function: the sync worker's snapshot in, the new ClusterVersion
//! status out (observedGeneration, versionHash, desired, history, and the conditions with
//! their exact reasons, messages and lastTransitionTime rules; cvo-reference §3, §3.9). What
//! it reads is declared in [`super::input`].

use super::errors::{Effect, Failure, summary_for_reason};
use super::history::{MergeInput, Pruned, merge_operator_history};
use super::input::{SyncInput, WorkerStatus, equal_digest, version_string};
use super::risk_sources::set_upgradeable_from_risks;
use super::risks::{
    accepted_risks_text, conditional_update_risks, own_conditions, with_risk_names,
};
use super::semantics::Semantics;
use crate::model::{ClusterVersionStatus, Condition, Release, Time};

pub use super::conditions::{remove_condition, set_condition};
pub use super::progress::{ProgressConversion, convert_error_to_progressing};
pub use super::validation::{FieldError, validate};

fn digest(image: &str) -> Option<&str> {
    image.split_once('@').map(|(_, d)| d)
}

/// Fills a missing version, url and channels from the update service's node for the running
/// release when it is this image (by pull-spec in 4.6, by digest from 4.7: `equalDigest`),
/// else from the available updates (by digest, then by version).
fn merge_release_metadata(
    mut r: Release,
    current: Option<&Release>,
    updates: &[Release],
    sem: &Semantics,
) -> Release {
    let same = |a: &str, b: &str| match sem.minor {
        0..=6 => a == b,
        _ => equal_digest(a, b),
    };
    if let Some(c) = current.filter(|c| same(&r.image, &c.image)) {
        if r.version.is_empty() {
            r.version = c.version.clone();
        }
        if r.url.is_empty() {
            r.url = c.url.clone();
        }
        if r.channels.is_empty() {
            r.channels = c.channels.clone();
        }
        return r;
    }
    let by_digest =
        digest(&r.image).and_then(|d| updates.iter().find(|u| digest(&u.image) == Some(d)));
    let by_image = updates
        .iter()
        .find(|u| !u.image.is_empty() && u.image == r.image);
    let by_version = || {
        updates
            .iter()
            .find(|u| !r.version.is_empty() && u.version == r.version)
    };
    if let Some(u) = by_image.or(by_digest).or_else(by_version) {
        if r.version.is_empty() {
            r.version = u.version.clone();
        }
        if r.url.is_empty() {
            r.url = u.url.clone();
        }
        if r.channels.is_empty() {
            r.channels = u.channels.clone();
        }
    }
    r
}

/// The shape `status.desired` has in the modelled version.
fn shape_desired(mut r: Release, sem: &Semantics) -> Release {
    r.force = sem.desired_has_force().then_some(r.force.unwrap_or(false));
    if !sem.desired_has_metadata() {
        r.url.clear();
        r.channels.clear();
    }
    r.architecture.clear();
    r
}

/// The failure Failing reports (reason, message): 4.16+ removes None-effect errors from a
/// `MultipleErrors` while updating (`filterErrorForFailingCondition`); `None` when nothing is
/// left.
fn failing_failure(
    f: &Failure,
    status: &ClusterVersionStatus,
    w: &WorkerStatus,
    sem: &Semantics,
) -> Option<(String, String)> {
    let plain = Some((f.reason().to_string(), f.text().to_string()));
    let Failure::Update(u) = f else { return plain };
    if !sem.failing_filter_and_slow()
        || w.reconciling
        || status.history.is_empty()
        || u.reason != "MultipleErrors"
    {
        return plain;
    }
    let kept: Vec<_> = u
        .nested
        .iter()
        .filter(|e| e.plain || e.effect != Effect::None)
        .cloned()
        .collect();
    super::errors::new_multiple_error(kept).map(|e| (e.reason, e.message))
}

fn percent(done: u32, total: u32) -> f32 {
    match total {
        0 => 0.0,
        _ => done as f32 / total as f32 * 100.0,
    }
}

/// One status sync (cvo-reference §3.9). Returns what pruning removed, if anything.
pub fn sync_status(status: &mut ClusterVersionStatus, input: &SyncInput<'_>) -> Option<Pruned> {
    let (sem, w, now) = (input.sem, input.worker, input.now);
    status.observed_generation = Some(w.generation);
    if !w.version_hash.is_empty() {
        status.version_hash = w.version_hash.clone();
    }
    let version = version_string(&w.actual);
    let mut actual = w.actual.clone();
    let op = input.operator_release;
    if sem.backfills_release_metadata() {
        if actual.image == op.image {
            if actual.version.is_empty() {
                actual.version = op.version.clone();
            }
            if actual.url.is_empty() {
                actual.url = op.url.clone();
            }
            if actual.channels.is_empty() {
                actual.channels = op.channels.clone();
            }
        }
        actual = merge_release_metadata(
            actual,
            input.update_service_current,
            &status.available_updates,
            sem,
        );
    }
    let desired = shape_desired(actual, sem);
    let mut names_for_desired = Vec::new();
    if let Some(r) = &input.risk_status {
        if let Some(updates) = r.updates {
            status.available_updates = updates.to_vec();
        }
        let cus: Vec<crate::model::ConditionalUpdate> = match r.conditional {
            Some(c) => c.to_vec(),
            None => std::mem::take(&mut status.conditional_updates),
        };
        // Without an evaluation (no answer cached, or scripted conditional updates) the
        // risks' own Applies conditions stand for it.
        let own;
        let conds = match r.risk_conditions {
            Some(c) => Some(c),
            None => {
                own = own_conditions(&cus);
                Some(&own)
            }
        };
        let (cus, names) = with_risk_names(&cus, conds, &desired.image, now);
        status.conditional_update_risks = conditional_update_risks(&cus);
        status.conditional_updates = cus;
        names_for_desired = names;
    }
    if let Some(src) = input.upgradeable_risks {
        set_upgradeable_from_risks(&mut status.conditions, src, now);
    }
    let risks_text = match sem.accepted_risks() {
        true if desired.image == w.load.update.image => {
            let previous = w.load.accepted_risks.as_str();
            match (input.risk_status.is_some(), names_for_desired.is_empty()) {
                (true, false) => accepted_risks_text(previous, &desired.image, &names_for_desired),
                _ => previous.to_string(),
            }
        }
        _ => String::new(),
    };
    let risks = sem.accepted_risks().then_some(risks_text.as_str());
    let merge = MergeInput {
        verified: w.verified,
        now,
        completed: w.completed > 0,
        accepted_risks: risks,
        local: w.load.local,
    };
    let pruned = merge_operator_history(status, &desired, merge, sem);

    let conds = &mut status.conditions;
    let invalid = !input.validation_errors.is_empty();
    if invalid {
        let message = match input.validation_errors {
            [one] => format!("The cluster version is invalid: {one}"),
            many => {
                let items: String = many.iter().map(|e| format!("* {e}\n")).collect();
                format!("The cluster version is invalid:\n{items}")
            }
        };
        set_condition(
            conds,
            "Invalid",
            "True",
            "InvalidClusterVersion",
            &message,
            now,
        );
    } else {
        remove_condition(conds, "Invalid");
    }
    if sem.implicitly_enabled_capabilities() {
        if w.implicitly_enabled.is_empty() {
            let m = "Capabilities match configured spec";
            set_condition(
                conds,
                "ImplicitlyEnabledCapabilities",
                "False",
                "AsExpected",
                m,
                now,
            );
        } else {
            let mut caps = w.implicitly_enabled.clone();
            caps.sort();
            let m = format!(
                "The following capabilities could not be disabled: {}",
                caps.join(", ")
            );
            set_condition(
                conds,
                "ImplicitlyEnabledCapabilities",
                "True",
                "CapabilitiesImplicitlyEnabled",
                &m,
                now,
            );
        }
    }
    if sem.removes_stray_implicitly_enabled() {
        remove_condition(conds, "ImplicitlyEnabled");
    }
    if sem.release_accepted()
        && let Some(step) = w.load.step
    {
        let l = &w.load;
        let s = match (step, l.failure) {
            (crate::model::LoadStep::PayloadLoaded, _) => "True",
            (_, true) => "False",
            (_, false) => "Unknown",
        };
        set_condition(conds, "ReleaseAccepted", s, step.as_str(), &l.message, now);
    }
    if w.completed > 0 {
        set_condition(
            conds,
            "Available",
            "True",
            "",
            &format!("Done applying {version}"),
            now,
        );
    }
    if !conds.iter().any(|c| c.type_ == "Available") {
        set_condition(conds, "Available", "False", "", "", now);
    }

    // What the conversions read of the status: whether there is history, and its head
    // (copying the whole history here made each sync linear in it).
    let snapshot = ClusterVersionStatus {
        history: status.history.first().cloned().into_iter().collect(),
        ..Default::default()
    };
    let conv = convert_error_to_progressing(&snapshot, input);
    let conds = &mut status.conditions;
    let failing = w
        .failure
        .as_ref()
        .and_then(|f| failing_failure(f, &snapshot, w, sem));
    match (&failing, &conv.slow) {
        (Some(_), Some(slow)) => set_condition(
            conds,
            "Failing",
            "Unknown",
            "SlowClusterOperator",
            slow,
            now,
        ),
        (Some((r, m)), None) if !conv.skip => set_condition(conds, "Failing", "True", r, m, now),
        _ => set_condition(conds, "Failing", "False", "", "", now),
    }
    match (&w.failure, conv.skip) {
        (Some(f), false) => {
            let reason = f.reason().to_string();
            let msg = match (f, conv.message.is_empty()) {
                (_, false) => conv.message.clone(),
                (Failure::Update(u), true) => summary_for_reason(&u.reason, &u.name, sem),
                (Failure::Generic(_), true) => "an error occurred".into(),
            };
            if w.reconciling {
                let m = format!("Error while reconciling {version}: {msg}");
                set_condition(conds, "Progressing", "False", &reason, &m, now);
            } else {
                set_condition(
                    conds,
                    "Progressing",
                    "True",
                    &reason,
                    &format!("Unable to apply {version}: {msg}"),
                    now,
                );
            }
        }
        _ => {
            let mut reason = if invalid {
                "InvalidClusterVersion".to_string()
            } else {
                String::new()
            };
            if w.reconciling {
                let m = match invalid {
                    true => format!("Stopped at {version}: the cluster version is invalid"),
                    false => format!("Cluster version is {version}"),
                };
                set_condition(conds, "Progressing", "False", &reason, &m, now);
            } else {
                let pct = percent(w.done, w.total);
                let skip = conv.skip && w.failure.is_some();
                let progress = match sem.progress_n_of_m() {
                    true => format!(
                        "{} of {} done ({:.0}% complete)",
                        w.done,
                        w.total,
                        pct.trunc()
                    ),
                    false => format!("{pct:.0}% complete"),
                };
                let m = if invalid {
                    format!("Reconciling {version}: the cluster version is invalid")
                } else if pct > 0.0 && skip {
                    reason = conv.reason.clone();
                    format!("Working towards {version}: {progress}, {}", conv.message)
                } else if pct > 0.0 {
                    format!("Working towards {version}: {progress}")
                } else if sem.downloading_update() && w.step == "RetrievePayload" {
                    reason = "DownloadingUpdate".into();
                    format!("Working towards {version}: downloading update")
                } else if skip {
                    reason = conv.reason.clone();
                    format!("Working towards {version}: {}", conv.message)
                } else {
                    format!("Working towards {version}")
                };
                set_condition(conds, "Progressing", "True", &reason, &m, now);
            }
        }
    }
    reconciliation_issues(conds, w, sem, now);
    if !conds.iter().any(|c| c.type_ == "RetrievedUpdates") {
        set_condition(conds, "RetrievedUpdates", "False", "", "", now);
    }
    pruned
}

/// `ReconciliationIssues` (4.16-4.19): written while its gate is on, or kept up to date while
/// `UnknownVersion` is on and it already exists; removed otherwise. 4.20 removes it.
fn reconciliation_issues(conds: &mut Vec<Condition>, w: &WorkerStatus, sem: &Semantics, now: Time) {
    use super::issues;
    if sem.removes_reconciliation_issues() {
        remove_condition(conds, issues::TYPE);
    }
    if !sem.reconciliation_issues() {
        return;
    }
    let exists = conds.iter().any(|c| c.type_ == issues::TYPE);
    let g = sem.gates;
    if g.reconciliation_issues_condition || (exists && g.unknown_version) {
        let (status, reason, message) = match &w.failure {
            None => (
                "False",
                issues::NO_ISSUES.0,
                issues::NO_ISSUES.1.to_string(),
            ),
            Some(f) => ("True", issues::ISSUES_FOUND, issues::message(f)),
        };
        set_condition(conds, issues::TYPE, status, reason, &message, now);
    } else if exists {
        remove_condition(conds, issues::TYPE);
    }
}

/// `syncFailingStatus`: Operator.sync failed 15 times in a row (cvo-reference §3.9).
pub fn sync_failing_status(
    status: &mut ClusterVersionStatus,
    sem: &Semantics,
    operator_release: &Release,
    err: &str,
    now: Time,
) -> Option<Pruned> {
    let conds = &mut status.conditions;
    set_condition(conds, "Available", "False", "", "", now);
    set_condition(conds, "Failing", "True", "", err, now);
    let progressing = match conds
        .iter()
        .any(|c| c.type_ == "Progressing" && c.is_true())
    {
        true => "True",
        false => "False",
    };
    let m = format!("Error ensuring the cluster version is up to date: {err}");
    set_condition(conds, "Progressing", progressing, "", &m, now);
    let desired = shape_desired(operator_release.clone(), sem);
    let merge = MergeInput {
        verified: false,
        now,
        completed: false,
        accepted_risks: None,
        local: false,
    };
    merge_operator_history(status, &desired, merge, sem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn condition_transition_time_changes_only_with_status() {
        let t1 = crate::model::parse_rfc3339("2020-04-09T18:00:34Z").unwrap();
        let t2 = crate::model::parse_rfc3339("2020-04-09T18:27:49Z").unwrap();
        let mut c = Vec::new();
        set_condition(&mut c, "Available", "True", "", "Done applying 4.3.10", t1);
        set_condition(&mut c, "Available", "True", "", "Done applying 4.3.11", t2);
        assert_eq!(c[0].last_transition_time, Some(t1));
        assert_eq!(c[0].message, "Done applying 4.3.11");
        set_condition(&mut c, "Available", "False", "", "", t2);
        assert_eq!(c[0].last_transition_time, Some(t2));
    }
}
