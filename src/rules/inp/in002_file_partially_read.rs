//! IN002 `file-partially-read`: a file was read only in part (invalid UTF-8 replaced, lines
//! that are not klog, a link not followed, an entry skipped).

use super::diagnostic_finding;
use crate::model::DiagLevel;
use crate::rules::engine::{Context, Input, Rule, RuleMeta};
use crate::rules::model::*;

pub struct FilePartiallyRead;

pub static META: RuleMeta = RuleMeta {
    code: "IN002",
    name: "file-partially-read",
    severity: Severity::Info,
    family: Family::Ingestion,
    summary: "a file was read only in part",
    needs: &[&[Input::Files]],
    help: "check the file if the part that was skipped matters for the question at hand",
    references: &[],
    page: include_str!("../../../rules/IN002-file-partially-read.md"),
};

impl Rule for FilePartiallyRead {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        for d in cx
            .bundle
            .diagnostics
            .iter()
            .filter(|d| d.level == DiagLevel::Warning)
        {
            out.push(diagnostic_finding(cx, &META, d));
        }
    }
}
