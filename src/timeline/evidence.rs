//! A piece of evidence: the file (and line) a timeline fact was read from, and the text that
//! was there. Events, passes, episodes and history records all carry it.

use crate::model::Provenance;
use crate::vocab::text::one_line;
use serde::Serialize;

/// Where a piece of evidence was read: a file (and line) plus the text that was there.
/// Written flat, `{input, path, line, span, text}`: the shape of the report's evidence.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Evidence {
    #[serde(flatten)]
    pub prov: Provenance,
    /// The line or field as read (shortened to one line).
    pub text: String,
}

impl Evidence {
    /// Evidence with its text cut to the first line and at most 300 bytes.
    pub fn new(prov: Provenance, text: &str) -> Self {
        Evidence {
            prov,
            text: one_line(text, 300),
        }
    }
}
