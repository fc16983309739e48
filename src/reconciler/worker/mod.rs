//! The sync worker: its state ([`state`], the leaf the others change), `SyncWorker.Update`
//! ([`update`]), the payload load pipeline as scripted outcomes ([`load`]), the apply loop's
//! passes ([`apply`]) and the fake worker of the CVO's own unit tests ([`fake`]). Uses the
//! model below it; the run drives it.

pub mod apply;
pub mod fake;
pub mod load;
pub mod state;
pub mod update;
