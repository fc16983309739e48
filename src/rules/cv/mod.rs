//! CV rules: ClusterVersion status, history and conditions, including the seed rules
//! CV001-CV004 (Bugs 1756461 and 1822752).

pub(crate) mod blocked;
pub mod cv001_history_completion_rewritten;
pub mod cv002_reconcile_stalled_on_preconditions;
pub mod cv003_running_version_hidden;
pub mod cv004_return_to_source_blocked;
pub mod cv005_history_out_of_order;
pub mod cv006_history_open_entry;
pub mod cv007_history_completion_before_start;
pub mod cv008_history_adjacent_duplicate;
pub mod cv009_history_too_long;
pub mod cv010_history_entry_malformed;
pub mod cv011_desired_not_history_head;
pub mod cv012_available_message_stale;
pub mod cv013_progressing_message_mismatch;
pub mod cv014_failing_reason_unknown;
pub mod cv016_upgradeable_false_blocks_update;
pub mod cv017_conditions_incomplete;
pub mod cv018_progress_fraction_inconsistent;
pub mod cv020_release_not_accepted;
pub mod cv021_cluster_version_invalid;
pub mod cv022_update_target_not_recommended;
pub mod cv023_update_prechecks_fail;
pub mod cv024_no_updates_offered;
pub mod cv025_published_update_risk_applies;
