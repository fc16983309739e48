//! The CVO's payload load pipeline's steps: one type for the timeline (which step an event or
//! a log line says rejected the target, which step a ReleaseAccepted message names) and the
//! reference model (which step a scenario's or a replay's load outcome stops at).

use serde::{Deserialize, Serialize};

/// The load pipeline's steps (cvo-reference §5.4), spelt as the CVO's event reasons spell them
/// (`RetrievePayload`, the `RetrievePayloadFailed` event's stem).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LoadStep {
    /// Accepted: `Payload loaded version=… image=…`.
    PayloadLoaded,
    /// Retrieving the release image (signature verification included, as the CVO's retriever
    /// does it: a bad signature is a `RetrievePayload` failure with `ImageVerificationFailed`).
    RetrievePayload,
    /// Signature verification named on its own, only by a 4.x-era CVO's log line
    /// (`loadUpdatedPayload syncPayload err=` with a verification error). No scenario scripts
    /// it: the reference model treats it as part of `RetrievePayload`.
    #[serde(skip_deserializing)]
    VerifyPayload,
    /// The payload's declared version checked against the request (`Verifying payload failed`).
    VerifyPayloadVersion,
    /// Reading the payload's manifests (`Loading payload failed`).
    LoadPayload,
    /// The update's preconditions (`Preconditions failed for payload loaded`).
    PreconditionChecks,
}

impl LoadStep {
    /// The step's name, as serde spells it (`RetrievePayload`).
    pub fn as_str(&self) -> &'static str {
        crate::vocab::names::serde_name(self)
    }
}

impl std::fmt::Display for LoadStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::LoadStep;
    use crate::vocab::names::from_serde_name;

    #[test]
    fn steps_are_spelt_as_the_cvo_reasons_and_verify_payload_is_not_scriptable() {
        // The timeline writes `rejected/VerifyPayload` for a 4.x log line; a scenario cannot
        // script that step (the model folds it into retrieval).
        assert_eq!(LoadStep::VerifyPayload.as_str(), "VerifyPayload");
        assert_eq!(
            LoadStep::PreconditionChecks.to_string(),
            "PreconditionChecks"
        );
        assert_eq!(
            from_serde_name::<LoadStep>("RetrievePayload"),
            Some(LoadStep::RetrievePayload)
        );
        assert_eq!(from_serde_name::<LoadStep>("VerifyPayload"), None);
    }
}
