//! CI rules: what a CI upgrade job's artifacts say (failed upgrade tests, an update the CVO
//! recorded long after the job requested it).

pub mod ci001_upgrade_test_failed;
pub mod ci002_update_recorded_late;
