//! IN rules: files that could not be read, or were read only in part, and known-issue rule
//! files that could not be loaded.

pub mod in001_file_unreadable;
pub mod in002_file_partially_read;
pub mod in003_rule_file_invalid;

use crate::model::Diagnostic;
use crate::rules::engine::{Context, prov_evidence};
use crate::rules::model::{Finding, ObjectRef};

/// One finding per diagnostic.
pub fn diagnostic_finding(
    cx: &Context<'_>,
    meta: &'static crate::rules::engine::RuleMeta,
    d: &Diagnostic,
) -> Finding {
    let path = d.prov.display_path();
    let at = match (d.prov.line, d.column) {
        (Some(l), Some(c)) => format!(" at line {l}, column {c}"),
        (Some(l), None) => format!(" at line {l}"),
        _ => String::new(),
    };
    let mut f = cx.finding(
        meta,
        ObjectRef::new("File", "", &path),
        format!("{}{at}", d.reason),
    );
    f.evidence
        .push(prov_evidence(&cx.bundle.files, &d.prov, &d.reason));
    f
}
