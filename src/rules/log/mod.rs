//! LOG rules: what the CVO log shows about restarts, repeated sync failures and past stalls.

pub mod log001_cvo_restarted_during_update;
pub mod log002_sync_failing_repeatedly;
pub mod log003_past_reconcile_stall;
