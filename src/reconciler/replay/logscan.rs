//! The fixed CVO's load-pipeline results as the replay needs them, from the facts the
//! timeline read out of the CVO logs: `Precondition error (force …, block …): …` with its
//! checks, and `Payload loaded from … with hash …, architecture …`.

use crate::model::Time;
use crate::reconciler::model::errors::PreconditionFailure;
use crate::timeline::{Evidence, LoadFact, Timeline};

/// One load-pipeline precondition result of a fixed CVO.
#[derive(Debug, Clone)]
pub struct PreconditionError {
    pub time: Time,
    pub forced: bool,
    pub failures: Vec<PreconditionFailure>,
    pub evidence: Evidence,
}

/// One `Payload loaded from …` line.
#[derive(Debug, Clone)]
pub struct PayloadLoaded {
    pub time: Time,
    pub image: String,
    pub hash: String,
    pub architecture: String,
}

/// Everything read from the raw records, by time.
#[derive(Debug, Clone, Default)]
pub struct LogFacts {
    pub precondition_errors: Vec<PreconditionError>,
    pub payloads: Vec<PayloadLoaded>,
}

impl LogFacts {
    /// The last hash and architecture seen for an image.
    pub fn payload(&self, image: &str) -> Option<&PayloadLoaded> {
        self.payloads.iter().rev().find(|p| p.image == image)
    }
}

/// The load-pipeline results the timeline read from the CVO logs.
pub fn scan(timeline: &Timeline) -> LogFacts {
    let mut f = LogFacts::default();
    for rec in &timeline.loads {
        match &rec.fact {
            LoadFact::PreconditionError {
                forced,
                blocking,
                checks,
            } => {
                let failures: Option<Vec<PreconditionFailure>> = checks
                    .iter()
                    .map(|c| PreconditionFailure::from_check(c, *blocking))
                    .collect();
                let Some(failures) = failures.filter(|f| !f.is_empty()) else {
                    continue;
                };
                f.precondition_errors.push(PreconditionError {
                    time: rec.time,
                    forced: *forced,
                    failures,
                    evidence: rec.evidence.clone(),
                });
            }
            LoadFact::PayloadLoaded(p) => f.payloads.push(PayloadLoaded {
                time: rec.time,
                image: p.image.clone(),
                hash: p.hash.clone(),
                architecture: p.architecture.clone(),
            }),
        }
    }
    f
}
