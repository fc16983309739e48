//! IN003 `rule-file-invalid`: a known-issue rule file (from `--rules`, `rule-dirs` or the
//! user's rule directory) could not be loaded; its rules did not run, every other rule did.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;

declare_rule! {
    RuleFileInvalid: "IN003" "rule-file-invalid" {
        severity: Warning,
        family: Ingestion,
        summary: "a known-issue rule file could not be loaded",
        needs: &[&[Input::Files]],
        help: "run `mglint rules check` on the file and fix the place it names; the file's rules did not run",
        references: &[],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for p in cx.rule_file_problems {
        let mut f = cx.finding(&META, ObjectRef::new("File", "", &p.path), p.one_line());
        let text = p.source_line.clone().unwrap_or_else(|| p.message.clone());
        let mut e = EvidenceItem::new("", p.path.clone(), p.line, text);
        if let Some(code) = &p.code {
            e = e.with_label(format!("rule {code}"));
            f.details.insert("rule", code.as_str());
        }
        f.evidence.push(e);
        out.push(f);
    }
}
