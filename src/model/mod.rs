//! Typed OpenShift objects and records that mglint reads, each remembering where it came from.
//!
//! Only the fields the analysis uses are modelled; everything is optional and defaulted so
//! that older and newer API shapes (and Insights JSON without `kind`) deserialize alike.

mod alerts;
pub mod alerts_go;
mod cluster;
mod gates;
mod hypershift;
mod identity;
mod load_step;
pub mod log_records;
mod mask;
mod mco;
mod objects;
mod provenance;
mod records;
mod selector;
mod snapshots;
pub mod update_status;

pub use crate::vocab::time::*;
pub use alerts::*;
pub use cluster::*;
pub use gates::*;
pub use hypershift::*;
pub use identity::*;
pub use load_step::LoadStep;
pub use log_records::{LogRecord, LogRecords, RecordTime, RecordsBuilder, TimeCode};
pub use mco::*;
pub use objects::*;
pub use provenance::*;
pub use records::*;
pub use selector::*;
pub use snapshots::*;
pub use update_status::{InsightBody, UpdateInsight, UpdateStatus};
