//! A piece of evidence: the file (and line) a timeline fact was read from, and the text that
//! was there. Events, passes, episodes and history records all carry it.

use crate::model::{ConditionField, ConditionRef, Provenance};
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
    /// The condition field it read, when it read one from a ClusterVersion rather than a line
    /// (a rule then points at that field in the file). Not written: the text says it.
    #[serde(skip)]
    pub condition: Option<ConditionRef>,
}

impl Evidence {
    /// Evidence with its text cut to the first line and at most 300 bytes.
    pub fn new(prov: Provenance, text: &str) -> Self {
        Evidence {
            prov,
            text: one_line(text, 300),
            condition: None,
        }
    }

    /// Evidence read from the field `field` of the condition `type_` in the object at `prov`.
    pub fn of_condition(prov: Provenance, type_: &str, field: ConditionField, text: &str) -> Self {
        Evidence {
            condition: Some(ConditionRef {
                type_: type_.to_string(),
                field,
            }),
            ..Evidence::new(prov, text)
        }
    }
}
