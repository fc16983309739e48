//! What the replay reads straight from CVO log records besides the timeline's passes: the
//! fixed CVO's `Precondition error (force …, block …): …` load results, and `Payload loaded
//! from … with hash …, architecture …` (hash and architecture of a loaded payload).

use crate::bundle::Bundle;
use crate::model::Time;
use crate::reconciler::errors::PreconditionFailure;
use crate::timeline::Evidence;
use regex::Regex;
use std::sync::LazyLock;

static RE_PRECONDITION_ERROR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)^Precondition error \(force (true|false), block (true|false)\): (.*)$")
        .expect("static regex")
});
static RE_PAYLOAD_LOADED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Payload loaded from (\S+) with hash (\S+?)(?:, architecture (\S+))?\s*$")
        .expect("static regex")
});

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

/// Scans every CVO log of the bundle.
pub fn scan(bundle: &Bundle) -> LogFacts {
    let mut f = LogFacts::default();
    for log in &bundle.cvo_logs {
        for rec in &log.records {
            let Some(time) = rec.time else { continue };
            let msg = rec.message.as_str();
            if msg.starts_with("Precondition error (") {
                let Some(c) = RE_PRECONDITION_ERROR.captures(msg) else {
                    continue;
                };
                let blocking = &c[2] == "true";
                let Some(failures) = super::parse::precondition_summary(&c[3], blocking) else {
                    continue;
                };
                let prov = log
                    .prov
                    .at(rec.line, rec.offset, rec.offset + u64::from(rec.len));
                f.precondition_errors.push(PreconditionError {
                    time,
                    forced: &c[1] == "true",
                    failures,
                    evidence: Evidence::new(prov, msg),
                });
            } else if msg.starts_with("Payload loaded from ") {
                let Some(c) = RE_PAYLOAD_LOADED.captures(msg) else {
                    continue;
                };
                f.payloads.push(PayloadLoaded {
                    time,
                    image: c[1].to_string(),
                    hash: c[2].to_string(),
                    architecture: c.get(3).map_or(String::new(), |m| m.as_str().to_string()),
                });
            }
        }
    }
    f.precondition_errors.sort_by_key(|p| p.time);
    f.payloads.sort_by_key(|p| p.time);
    f
}
