//! IN002 `file-partially-read`: a file was read only in part (invalid UTF-8 replaced, lines
//! that are not klog, a link not followed, an entry skipped).

use super::diagnostic_finding;
use crate::model::Severity;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;

declare_rule! {
    FilePartiallyRead: "IN002" "file-partially-read" {
        severity: Info,
        family: Ingestion,
        summary: "a file was read only in part",
        needs: &[&[Input::Files]],
        help: "check the file if the part that was skipped matters for the question at hand",
        references: &[],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for d in cx
        .bundle
        .diagnostics
        .iter()
        .filter(|d| d.level == Severity::Warning)
    {
        out.push(diagnostic_finding(cx, &META, d));
    }
}
