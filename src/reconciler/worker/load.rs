//! The load pipeline as scripted outcomes: what retrieving, verifying, loading and
//! precondition-checking a target yields, with `force` waiving signature and blocking
//! precondition failures, and the ReleaseAccepted message texts (cvo-reference §3.5, §5.4,
//! §5.6, §6).

use super::state::{Ctx, Payload};
use crate::model::Release;
use crate::reconciler::model::errors::{
    PreconditionFailure, UpdateError, go_quote, summarize_preconditions,
};
use crate::reconciler::model::events::{LoadOutcome, LoadStep, VerificationRisk};
use crate::reconciler::model::preconditions::{CheckResult, PreconditionInput, run_all};
use crate::reconciler::model::semantics::Semantics;

/// `Payload loaded version="…" image="…" architecture="…"` (the architecture part from 4.12).
pub fn payload_loaded_message(version: &str, image: &str, arch: &str, sem: &Semantics) -> String {
    let base = format!(
        "Payload loaded version={} image={}",
        go_quote(version),
        go_quote(image)
    );
    match sem.payload_message_architecture() {
        true => format!("{base} architecture={}", go_quote(arch)),
        false => base,
    }
}

/// What loading a target came to.
pub enum Evaluated {
    InProgress,
    Accepted { payload: Payload, risks: String },
    Rejected(Rejection),
}

/// A rejected target: the failed step, the ReleaseAccepted message and the worker failure.
pub struct Rejection {
    pub step: LoadStep,
    pub load_message: String,
    pub error: UpdateError,
    pub version: String,
    pub verified: bool,
}

/// The payload architecture: scripted, else the operator's, else `amd64`.
pub fn arch_or_default(a: &str, op: &Release) -> String {
    match (a.is_empty(), op.architecture.is_empty()) {
        (false, _) => a.to_string(),
        (true, false) => op.architecture.clone(),
        (true, true) => "amd64".into(),
    }
}

/// The CVO's own payload, read from the pod's manifests.
pub fn local_payload(cx: &Ctx<'_>) -> Payload {
    Payload {
        release: Release {
            architecture: String::new(),
            force: None,
            ..cx.operator.clone()
        },
        verified: false,
        local: true,
        hash: cx.operator_hash.to_string(),
        architecture: arch_or_default("", cx.operator),
    }
}

/// What the precondition step reads: the scenario's computed checks, if it computes them, and
/// where the run's results are recorded.
pub struct Checks<'a, 'b> {
    pub input: Option<PreconditionInput<'a>>,
    pub run: &'b mut Option<Vec<CheckResult>>,
}

/// Applies a scripted outcome to a target (force waives signature and blocking precondition
/// failures; cvo-reference §5.4, §5.6, §6). A payload that loads goes through the precondition
/// step: the outcome's scripted `preconditions`, else the computed checks when the scenario
/// computes them.
pub fn evaluate(
    o: &LoadOutcome,
    target: &Release,
    sem: &Semantics,
    op: &Release,
    checks: Checks<'_, '_>,
) -> Evaluated {
    let version = if o.version.is_empty() {
        target.version.clone()
    } else {
        o.version.clone()
    };
    let force = target.force.unwrap_or(false);
    let (qv, qi) = (go_quote(&target.version), go_quote(&target.image));
    let verified = o.verified.unwrap_or(target.image.contains("@sha256:"));
    let payload = |verified: bool| Payload {
        release: Release {
            version: version.clone(),
            image: target.image.clone(),
            url: o.url.clone(),
            channels: o.channels.clone(),
            ..Default::default()
        },
        verified,
        local: false,
        hash: o.hash.clone(),
        architecture: arch_or_default(&o.architecture, op),
    };
    // The payload loaded: the precondition step decides (the risk of a forced unverified
    // payload first, then precondition warnings, one per line, as SyncWorker.Update joins
    // them).
    let mut accepted = |verified: bool, risk: String| {
        let fails: Vec<PreconditionFailure> = match (&checks.input, o.preconditions.is_empty()) {
            (_, false) => o.preconditions.clone(),
            (Some(input), true) => {
                let run = run_all(*input, &version, sem.minor);
                let fails = run.iter().filter_map(|r| r.failure.clone()).collect();
                *checks.run = Some(run);
                fails
            }
            (None, true) => Vec::new(),
        };
        // 4.1 and 4.2 have no precondition framework.
        if fails.is_empty() || !sem.preconditions() {
            return Evaluated::Accepted {
                payload: payload(verified),
                risks: risk,
            };
        }
        let (summary, blocking) = summarize_preconditions(&fails, sem);
        if blocking && !force {
            let mut error = UpdateError::new("UpgradePreconditionCheckFailed", &summary);
            error.name = "PreconditionCheck".into();
            return Evaluated::Rejected(Rejection {
                step: LoadStep::PreconditionChecks,
                load_message: format!(
                    "Preconditions failed for payload loaded version={} image={qi}: {summary}",
                    go_quote(&version)
                ),
                error,
                version: version.clone(),
                verified,
            });
        }
        let warning = match (blocking, sem.nonblocking_preconditions()) {
            (false, _) => summary,
            (true, true) => format!("Forced through blocking failures: {summary}"),
            (true, false) => String::new(),
        };
        let risks = match (risk.is_empty(), warning.is_empty()) {
            (_, true) => risk,
            (true, false) => warning,
            (false, false) => format!("{risk}\n{warning}"),
        };
        Evaluated::Accepted {
            payload: payload(verified),
            risks,
        }
    };
    let failure = o.failure.unwrap_or(o.step != LoadStep::PayloadLoaded);
    let reason = |default: &str| {
        if o.reason.is_empty() {
            default.to_string()
        } else {
            o.reason.clone()
        }
    };
    match o.step {
        LoadStep::PayloadLoaded => accepted(verified, String::new()),
        // Signature verification is part of retrieval in the CVO's retriever.
        LoadStep::RetrievePayload | LoadStep::VerifyPayload if !failure => Evaluated::InProgress,
        LoadStep::RetrievePayload | LoadStep::VerifyPayload => {
            let reason = reason("UpdatePayloadRetrievalFailed");
            if reason == "ImageVerificationFailed" && force {
                // The retriever reports `The update cannot be verified: {err}`; forced, the
                // production retriever wraps the verifier's own error instead (the nested
                // error adds nothing: its text is contained). A test's fake retriever hands
                // its error back as it is.
                let risk = match o.verification_risk {
                    VerificationRisk::Raw => o.message.clone(),
                    VerificationRisk::Wrapped => {
                        let detail = o
                            .message
                            .strip_prefix("The update cannot be verified: ")
                            .unwrap_or(&o.message);
                        format!(
                            "Target release version={qv} image={qi} cannot be verified, but continuing anyway because the update was forced: {detail}"
                        )
                    }
                };
                return accepted(false, risk);
            }
            Evaluated::Rejected(Rejection {
                step: LoadStep::RetrievePayload,
                load_message: format!(
                    "Retrieving payload failed version={qv} image={qi} failure={}",
                    o.message
                ),
                error: UpdateError::new(&reason, &o.message),
                version: target.version.clone(),
                verified: false,
            })
        }
        LoadStep::LoadPayload | LoadStep::VerifyPayloadVersion if !failure => {
            accepted(verified, String::new())
        }
        LoadStep::LoadPayload => Evaluated::Rejected(Rejection {
            step: LoadStep::LoadPayload,
            load_message: format!(
                "Loading payload failed version={qv} image={qi} failure={}",
                o.message
            ),
            error: UpdateError::new(&reason("UpdatePayloadIntegrity"), &o.message),
            version: target.version.clone(),
            verified,
        }),
        LoadStep::VerifyPayloadVersion => {
            let msg = match o.message.is_empty() {
                true => format!(
                    "release image version {} does not match the expected upstream version {}",
                    o.version, target.version
                ),
                false => o.message.clone(),
            };
            Evaluated::Rejected(Rejection {
                step: LoadStep::VerifyPayloadVersion,
                load_message: format!(
                    "Verifying payload failed version={qv} image={qi} failure={msg}"
                ),
                error: UpdateError::new(&reason("UpdatePayloadIntegrity"), &msg),
                version: target.version.clone(),
                verified,
            })
        }
        LoadStep::PreconditionChecks => accepted(verified, String::new()),
    }
}
