//! Secrets masked in a replay's result as it is built (see [`crate::vocab::secrets`]): the
//! dump's and the model's values of every deviation, the notes, the verdict, what the
//! derivation took from the dump (inferences, rejected targets, the writer) and the derived
//! scenario (its starting ClusterVersion, every risk's matching rules included, the messages,
//! pull specs and URLs its events carry, the update service's answer with its channel,
//! retrieval condition and risk evaluations, and the `cluster:` block with its alerts, risks
//! and admin config maps), so that the text, the JSON and `--scenario` get the masked value. The comparison
//! is made on the data as read, before masking.

use super::{
    Comparison, CompletionTiming, Derived, Deviation, GenerationRun, Inference, RejectedTarget,
    ReplayResult, VariantRun, Verdict, Writer,
};
use crate::reconciler::model::cluster::{
    AlertState, ClusterChange, ClusterOperatorState, ClusterState,
};
use crate::reconciler::model::errors::PreconditionFailure;
use crate::reconciler::model::events::{
    AvailableUpdates, DesiredUpdate, LoadOutcome, PassResult, PodStart, Retrieved, RiskMatch,
    SpecChange, SyncFailed, TaskError, UpgradeableChange, UpgradeableCondition,
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
masked_fields!(
    AvailableUpdates: updates,
    current,
    conditional_updates,
    channel,
    retrieved,
    risk_matches
);
masked_fields!(Retrieved: status, reason, message);
masked_fields!(UpgradeableChange: reason, message);
masked_fields!(UpgradeableCondition: reason, message);
masked_fields!(ClusterOperatorState: name, conditions);
masked_fields!(ClusterChange: cluster_operators, deleted_operators, admin_gates, admin_acks, alerts);
masked_fields!(AlertState: labels, annotations, state);
masked_fields!(
    ClusterState: cluster_operators,
    admin_gates,
    admin_acks,
    alerts,
    risks
);

impl Masked for RiskMatch {
    fn mask_secrets(&mut self) {
        match self {
            RiskMatch::Failed { error } => error.mask_secrets(),
            RiskMatch::Matches(_) => {}
        }
    }
}
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
    events,
    cluster
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A secret of a different shape in each field of the scenario's update-service answer
    /// and `cluster:` block (and in the dump's own risks' PromQL, which a derived scenario's
    /// starting status carries), each searched for by its secret part.
    const PLANTED: &[(&str, &str)] = &[
        ("initial PromQL", "InitialPromT0ken11"),
        ("alert label", "LabelPassw0rd12"),
        ("alert annotation", "AnnotBearerT0ken13"),
        ("cluster risk message", "RiskMsgT0ken14"),
        ("cluster risk URL", "RiskUrlPassw0rd15"),
        ("cluster risk PromQL", "ClusterPromT0ken16"),
        ("channel", "ChannelPassw0rd17"),
        ("retrieved message", "RetrievedT0ken18"),
        ("answer risk URL", "AnswerUrlPassw0rd19"),
        ("answer risk PromQL", "AnswerPromT0ken20"),
        ("risk match error", "MatchErrT0ken21"),
        ("changed alert", "ChangedAlertT0ken22"),
        ("admin ack", "AdminAckPassw0rd23"),
    ];

    #[test]
    fn the_answer_and_cluster_fields_of_a_scenario_are_masked() {
        let text = r#"
cvo_version: "4.23"
feature_gates: [ClusterUpdateAcceptRisks]
initial_status:
  conditionalUpdateRisks:
  - name: R
    matchingRules: [{type: PromQL, promql: {promql: 'up{authorization="Bearer sha256~InitialPromT0ken11"}'}}]
cluster:
  alerts:
  - labels: {alertname: A, dsn: "postgres://app:LabelPassw0rd12@db.example.com/x"}
    annotations: {description: "Authorization: Bearer sha256~AnnotBearerT0ken13"}
    state: firing
  risks:
  - name: M
    message: "token: sha256~RiskMsgT0ken14"
    url: "https://user:RiskUrlPassw0rd15@bugs.example.com/1"
    matchingRules: [{type: PromQL, promql: {promql: 'x{password="password=ClusterPromT0ken16"}'}}]
events:
  - at: "2026-01-01T00:00:00Z"
    available_updates:
      channel: "https://c:ChannelPassw0rd17@channels.example.com/fast"
      retrieved: {reason: RemoteFailed, message: "Authorization: Bearer sha256~RetrievedT0ken18"}
      updates: []
      conditional_updates:
      - release: {version: 4.23.1, image: i}
        risks:
        - name: R
          url: "https://u:AnswerUrlPassw0rd19@issues.example.com/R"
          matchingRules: [{type: PromQL, promql: {promql: 'y{t="token: sha256~AnswerPromT0ken20"}'}}]
      risk_matches: {R: {error: "query failed: Authorization: Bearer sha256~MatchErrT0ken21"}}
  - at: "2026-01-01T00:01:00Z"
    cluster_change:
      alerts: [{labels: {alertname: B}, annotations: {summary: "token: sha256~ChangedAlertT0ken22"}, state: firing}]
      admin_acks: {ack: "password=AdminAckPassw0rd23"}
"#;
        let mut s = crate::reconciler::load_scenario(text).unwrap();
        let before = s.to_yaml().unwrap();
        for (place, secret) in PLANTED {
            assert!(before.contains(secret), "{place}: not planted\n{before}");
        }
        s.mask_secrets();
        let after = s.to_yaml().unwrap();
        for (place, secret) in PLANTED {
            assert!(!after.contains(secret), "{place}: `{secret}` left\n{after}");
        }
        // Masked in place: what is not secret stays as written.
        assert!(after.contains("issues.example.com/R"), "{after}");
        assert!(after.contains("alertname: A"), "{after}");
    }
}
