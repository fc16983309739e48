//! The one catalogue of CVO messages: log lines ([`log`]), Kubernetes event reasons
//! ([`event`]), origin monitor texts ([`monitor`]) and the texts inside conditions, events and logs ([`text`]) turned into typed
//! facts once. The timeline builds its events from them; rules and the replay consume the
//! facts (or call [`text`]) and never match CVO wording with patterns of their own.

mod event;
mod log;
pub mod monitor;
pub mod text;

pub use event::{cvo_reason_kinds, leader_pod};
pub use log::{
    Fact, HistoryMerge, LoadFact, ManifestLine, classify, manifest_line, sync_error_cause,
};
#[cfg(test)]
pub use log::{go_update, split_errors};
