//! The CVO's own computations, each a pure function of what it reads: the modelled behaviour
//! ([`semantics`]), the event payloads and cluster state the CVO is given ([`events`],
//! [`cluster`]), and what it derives from them: capabilities, worker failures ([`errors`]),
//! history, preconditions, the Upgradeable family, conditional-update risks ([`risks`]) and
//! the risk sources ([`risk_sources`]), spec validation and the status sync ([`status`],
//! reading [`input`]). Nothing here knows the sync worker's state, the scenario format or the
//! run: those sit above and call down.

pub mod capabilities;
pub mod cluster;
pub mod conditions;
pub mod errors;
pub mod events;
pub mod history;
pub mod input;
pub mod issues;
pub mod preconditions;
pub mod progress;
pub mod risk_sources;
pub mod risks;
pub mod semantics;
pub mod status;
pub mod upgradeable;
pub mod validation;
