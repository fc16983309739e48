//! The `ReconciliationIssues` condition (4.16-4.19, behind the `ReconciliationIssuesCondition`
//! feature gate; kept while `UnknownVersion` is on once it exists): its status, reason and the
//! JSON message the CVO builds by walking the worker failure's error tree
//! (`reconciliationIssueFromError`).
//!
//! Modelled: plain errors, update errors with their effect, and the nested errors of
//! `MultipleErrors` and of condensed ClusterOperator errors (the aggregate in between, as the
//! CVO walks it). Not modelled: the `manifest` and `transitionStart` parts, which need the
//! failing manifest's file name, and causes nested inside a single task error.

use super::errors::{Failure, UpdateError};

/// Condition type.
pub const TYPE: &str = "ReconciliationIssues";
/// Reason and message while the worker reports no failure.
pub const NO_ISSUES: (&str, &str) = ("NoIssues", "No issues found during reconciliation");
/// Reason while the worker reports a failure.
pub const ISSUES_FOUND: &str = "IssuesFound";

/// One node of the issue tree.
struct Issue {
    message: String,
    effect: String,
    children: Vec<Issue>,
}

impl Issue {
    fn leaf(message: &str, effect: &str) -> Issue {
        Issue {
            message: message.to_string(),
            effect: effect.to_string(),
            children: Vec::new(),
        }
    }

    fn json(&self, out: &mut String) {
        out.push_str("{\"message\":");
        go_json_string(&self.message, out);
        if !self.children.is_empty() {
            out.push_str(",\"children\":[");
            for (i, c) in self.children.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                c.json(out);
            }
            out.push(']');
        }
        if !self.effect.is_empty() {
            out.push_str(",\"effect\":");
            go_json_string(&self.effect, out);
        }
        out.push('}');
    }
}

/// `Error()` of a Kubernetes error aggregate: one message as it is, several de-duplicated in
/// brackets.
fn aggregate_message(errs: &[UpdateError]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for e in errs {
        if !seen.contains(&e.message.as_str()) {
            seen.push(&e.message);
        }
    }
    match seen.len() {
        0 => String::new(),
        1 => seen[0].to_string(),
        _ => format!("[{}]", seen.join(", ")),
    }
}

fn sort_children(children: &mut [Issue]) {
    children.sort_by(|a, b| a.message.cmp(&b.message));
}

fn tree(e: &UpdateError) -> Issue {
    let effect = match e.plain {
        true => "",
        false => e.effect.as_str(),
    };
    let mut node = Issue::leaf(&e.message, effect);
    if !e.nested.is_empty() {
        let mut aggregate = Issue::leaf(&aggregate_message(&e.nested), "");
        aggregate.children = e.nested.iter().map(tree).collect();
        sort_children(&mut aggregate.children);
        node.children.push(aggregate);
    }
    node
}

/// The condition's message for a failure: the issue tree as JSON, byte for byte as Go's
/// `json.Marshal` writes it.
pub fn message(f: &Failure) -> String {
    let root = match f {
        Failure::Generic(text) => Issue::leaf(text, ""),
        Failure::Update(u) => tree(u),
    };
    let mut out = String::new();
    root.json(&mut out);
    out
}

/// A JSON string as Go's encoder writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped too.
fn go_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reconciler::model::errors::{Effect, multiple_errors};

    #[test]
    fn plain_and_update_errors_render_as_the_cvo_does() {
        assert_eq!(
            message(&Failure::Generic("Something happened".into())),
            r#"{"message":"Something happened"}"#
        );
        let mut e = UpdateError::new("UpdatePayloadFailed", "Could not update a <b> & c");
        e.effect = Effect::Fail;
        assert_eq!(
            message(&Failure::Update(e)),
            r#"{"message":"Could not update a \u003cb\u003e \u0026 c","effect":"Fail"}"#
        );
    }

    #[test]
    fn multiple_errors_walk_through_their_aggregate() {
        let mut b = UpdateError::new("X", "b failed");
        b.effect = Effect::None;
        let a = UpdateError::plain("a failed");
        let m = multiple_errors(vec![b, a]);
        assert_eq!(
            message(&Failure::Update(m)),
            "{\"message\":\"Multiple errors are preventing progress:\\n* a failed\\n* b failed\",\"children\":[{\"message\":\"[b failed, a failed]\",\"children\":[{\"message\":\"a failed\"},{\"message\":\"b failed\",\"effect\":\"None\"}]}]}"
        );
    }
}
