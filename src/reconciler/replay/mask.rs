//! Secrets masked in a replay's result as it is built (see [`crate::vocab::secrets`]): the
//! dump's and the model's values of every deviation, the notes, the verdict, what the
//! derivation took from the dump (inferences, rejected targets, the writer) and the derived
//! scenario (its starting ClusterVersion and the messages, pull specs and URLs its events
//! carry), so that the text, the JSON and `--scenario` get the masked value. The comparison
//! is made on the data as read, before masking.

use super::{
    Comparison, CompletionTiming, Derived, Deviation, GenerationRun, Inference, RejectedTarget,
    ReplayResult, VariantRun, Verdict, Writer,
};
use crate::reconciler::model::cluster::{ClusterChange, ClusterOperatorState};
use crate::reconciler::model::errors::PreconditionFailure;
use crate::reconciler::model::events::{
    AvailableUpdates, DesiredUpdate, LoadOutcome, PassResult, PodStart, SpecChange, SyncFailed,
    TaskError, UpgradeableChange, UpgradeableCondition,
};
use crate::reconciler::{Event, Scenario, TimedEvent};
use crate::timeline::Evidence;
use crate::vocab::secrets::{Masked, masked_fields};

masked_fields!(Evidence: text);
masked_fields!(Deviation: dump, model);
masked_fields!(VariantRun: cvo_version, deviations, cluster_version, notes);
masked_fields!(GenerationRun: runs);
masked_fields!(Verdict: summary);
masked_fields!(Comparison: runs, generations, verdict);
masked_fields!(Writer: release, basis);
masked_fields!(Inference: basis, evidence);
masked_fields!(RejectedTarget: version, image, what, evidence);
masked_fields!(CompletionTiming: evidence);
masked_fields!(PodStart: version, image, url);
masked_fields!(DesiredUpdate: version, image);
masked_fields!(SpecChange: desired_update, channel, upstream);
masked_fields!(PreconditionFailure: reason, message);
masked_fields!(LoadOutcome: image, reason, message, version, url, preconditions);
masked_fields!(TaskError: reason, name, message);
masked_fields!(PassResult: errors);
masked_fields!(SyncFailed: error);
masked_fields!(AvailableUpdates: updates, current, conditional_updates);
masked_fields!(UpgradeableChange: reason, message);
masked_fields!(UpgradeableCondition: reason, message);
masked_fields!(ClusterOperatorState: name, conditions);
masked_fields!(ClusterChange: cluster_operators);
masked_fields!(TimedEvent: event);

impl Masked for Event {
    fn mask_secrets(&mut self) {
        match self {
            Event::PodStart(e) => e.mask_secrets(),
            Event::SpecChange(e) => e.mask_secrets(),
            Event::LoadOutcome(e) => e.mask_secrets(),
            Event::PassResult(e) => e.mask_secrets(),
            Event::SyncFailedRepeatedly(e) => e.mask_secrets(),
            Event::AvailableUpdates(e) => e.mask_secrets(),
            Event::Upgradeable(e) => e.mask_secrets(),
            Event::UpgradeableConditions(e) | Event::UpgradeableChecks(e) => e.mask_secrets(),
            Event::ClusterChange(e) => e.mask_secrets(),
            // No text from a dump: progress counts, a tick, a unit test's fake worker.
            Event::PassProgress(_) | Event::Tick | Event::WorkerStatus(_) => {}
        }
    }
}

masked_fields!(
    Scenario: description,
    operator_release,
    initial_spec,
    initial_status,
    events
);
masked_fields!(
    Derived: scenario,
    notes,
    inferences,
    rejections,
    timings,
    writer
);
masked_fields!(ReplayResult: derived, comparison, skipped, inputs);
