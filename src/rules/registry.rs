//! The registry: every rule, in catalogue order. Adding a rule means adding its file, its
//! page in `rules/`, its fixtures, and one line here.

use super::engine::Rule;
use super::{ci, co, cv, inp, log, mc, rc};

static RULES: &[&dyn Rule] = &[
    &cv::cv001_history_completion_rewritten::HistoryCompletionRewritten,
    &cv::cv002_reconcile_stalled_on_preconditions::ReconcileStalledOnPreconditions,
    &cv::cv003_running_version_hidden::RunningVersionHidden,
    &cv::cv004_return_to_source_blocked::ReturnToSourceBlocked,
    &cv::cv005_history_out_of_order::HistoryOutOfOrder,
    &cv::cv006_history_open_entry::HistoryOpenEntry,
    &cv::cv007_history_completion_before_start::HistoryCompletionBeforeStart,
    &cv::cv008_history_adjacent_duplicate::HistoryAdjacentDuplicate,
    &cv::cv009_history_too_long::HistoryTooLong,
    &cv::cv010_history_entry_malformed::HistoryEntryMalformed,
    &cv::cv011_desired_not_history_head::DesiredNotHistoryHead,
    &cv::cv012_available_message_stale::AvailableMessageStale,
    &cv::cv013_progressing_message_mismatch::ProgressingMessageMismatch,
    &cv::cv014_failing_reason_unknown::FailingReasonUnknown,
    &cv::cv015_cluster_version_failing::ClusterVersionFailing,
    &cv::cv016_upgradeable_false_blocks_update::UpgradeableFalseBlocksUpdate,
    &cv::cv017_conditions_incomplete::ConditionsIncomplete,
    &cv::cv018_progress_fraction_inconsistent::ProgressFractionInconsistent,
    &cv::cv019_previous_update_incomplete::PreviousUpdateIncomplete,
    &cv::cv020_release_not_accepted::ReleaseNotAccepted,
    &cv::cv021_cluster_version_invalid::ClusterVersionInvalid,
    &co::co001_operator_unavailable::OperatorUnavailable,
    &co::co002_operator_degraded::OperatorDegraded,
    &co::co003_operator_not_at_target::OperatorNotAtTarget,
    &co::co004_operator_progressing_too_long::OperatorProgressingTooLong,
    &co::co005_operator_not_upgradeable::OperatorNotUpgradeable,
    &co::co006_operator_versions_missing::OperatorVersionsMissing,
    &mc::mc001_pool_degraded::PoolDegraded,
    &mc::mc002_pool_paused_with_outdated_nodes::PoolPausedWithOutdatedNodes,
    &mc::mc003_node_not_ready::NodeNotReady,
    &mc::mc004_node_config_degraded::NodeConfigDegraded,
    &mc::mc005_node_cordoned::NodeCordoned,
    &log::log001_cvo_restarted_during_update::CvoRestartedDuringUpdate,
    &log::log002_sync_failing_repeatedly::SyncFailingRepeatedly,
    &log::log003_past_reconcile_stall::PastReconcileStall,
    &ci::ci001_upgrade_test_failed::UpgradeTestFailed,
    &ci::ci002_update_recorded_late::UpdateRecordedLate,
    &rc::rc001_completion_time_differs_from_model::CompletionTimeDiffersFromModel,
    &rc::rc002_consistent_only_with_legacy::ConsistentOnlyWithLegacy,
    &rc::rc003_deviates_from_every_flavour::DeviatesFromEveryFlavour,
    &inp::in001_file_unreadable::FileUnreadable,
    &inp::in002_file_partially_read::FilePartiallyRead,
];

/// Every rule, in catalogue order.
pub fn all() -> &'static [&'static dyn Rule] {
    RULES
}
