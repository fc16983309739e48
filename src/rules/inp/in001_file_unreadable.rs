//! IN001 `file-unreadable`: a file the analysis needed could not be read or parsed; whatever it
//! held is missing from every other rule's view.

use super::diagnostic_finding;
use crate::model::DiagLevel;
use crate::rules::engine::{Context, Input, Rule, RuleMeta};
use crate::rules::model::*;

pub struct FileUnreadable;

pub static META: RuleMeta = RuleMeta {
    code: "IN001",
    name: "file-unreadable",
    severity: Severity::Warning,
    family: Family::Ingestion,
    summary: "a file the analysis needs could not be read or parsed",
    needs: &[&[Input::Files]],
    help: "re-collect the file (or fix it) and run again; rules that need it saw nothing from it",
    references: &[],
    page: include_str!("../../../rules/IN001-file-unreadable.md"),
};

impl Rule for FileUnreadable {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        for d in cx
            .bundle
            .diagnostics
            .iter()
            .filter(|d| d.level == DiagLevel::Error)
        {
            out.push(diagnostic_finding(cx, &META, d));
        }
    }
}
