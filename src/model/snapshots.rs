//! An object as one commit of a resourcewatch repository left it (see
//! `ingest::resourcewatch`): the ClusterVersion's and ClusterOperators' conditions over time.

use super::{Condition, Time};

/// The kind of object a snapshot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotKind {
    ClusterVersion,
    ClusterOperator,
}

/// One object as one commit left it.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// When resourcewatch observed the change (the commit's author date).
    pub time: Time,
    /// The commit, abbreviated to 12 hex digits.
    pub commit: String,
    /// The commit subject (`modifed clusteroperators.config.openshift.io/dns`, sic).
    pub subject: String,
    /// The input (as the user named it) and the file's path in the repository.
    pub input: String,
    pub path: String,
    pub kind: SnapshotKind,
    pub name: String,
    /// The object's conditions; empty when the commit removed it.
    pub conditions: Vec<Condition>,
    pub removed: bool,
}
