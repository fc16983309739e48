//! IN001 `file-unreadable`: a file the analysis needed could not be read or parsed; whatever it
//! held is missing from every other rule's view.

use super::diagnostic_finding;
use crate::model::Severity;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;

declare_rule! {
    FileUnreadable: "IN001" "file-unreadable" {
        severity: Warning,
        family: Ingestion,
        summary: "a file the analysis needs could not be read or parsed",
        needs: &[&[Input::Files]],
        help: "re-collect the file (or fix it) and run again; rules that need it saw nothing from it",
        references: &[],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for d in cx
        .bundle
        .diagnostics
        .iter()
        .filter(|d| d.level == Severity::Error)
    {
        out.push(diagnostic_finding(cx, &META, d));
    }
}
