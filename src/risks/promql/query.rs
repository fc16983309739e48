//! Parsing a query (the `promql-parser` crate's grammar) within a size and nesting bound,
//! and naming the metrics and selectors it reads.

use super::{EvalError, Metrics, Value, selector_name};
use promql_parser::label::{METRIC_NAME, MatchOp};
use promql_parser::parser::{Expr, VectorSelector};
use std::collections::BTreeSet;

/// The longest query read (a hostile catalogue cannot make the evaluation recurse deep).
const MAX_QUERY_BYTES: usize = 8 << 10;
/// The deepest bracket nesting read.
const MAX_NESTING: usize = 64;

/// The deepest nesting of `(`, `[`, `{` outside string literals.
pub(super) fn nesting(text: &str) -> usize {
    let (mut depth, mut max, mut quote, mut escaped) = (0usize, 0usize, None, false);
    for c in text.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q != '`' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' | '`' => quote = Some(c),
                '(' | '[' | '{' => {
                    depth += 1;
                    max = max.max(depth);
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    max
}

/// A parsed query.
#[derive(Debug, Clone)]
pub struct Query {
    expr: Expr,
}

impl Query {
    pub fn parse(text: &str) -> Result<Query, EvalError> {
        // The evaluation recurses over the query: bound its size and nesting (the catalogue's
        // longest query is under 2 KiB, its deepest nesting under 10).
        if text.len() > MAX_QUERY_BYTES {
            return Err(EvalError::Parse(format!(
                "the query is longer than {MAX_QUERY_BYTES} bytes"
            )));
        }
        if nesting(text) > MAX_NESTING {
            return Err(EvalError::Parse(format!(
                "the query nests deeper than {MAX_NESTING} brackets"
            )));
        }
        promql_parser::parser::parse(text)
            .map(|expr| Query { expr })
            .map_err(EvalError::Parse)
    }

    /// Every metric name the query selects (a selector without a name is reported as `{…}`).
    pub fn metrics(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        walk(&self.expr, &mut |vs| {
            out.insert(selector_name(vs).unwrap_or_else(|| "{…}".to_string()));
        });
        out
    }

    /// Each selector the query reads: its metric name and its equality matchers
    /// (`label="value"`), in query order.
    pub fn selectors(&self) -> Vec<(String, Vec<(String, String)>)> {
        let mut out = Vec::new();
        walk(&self.expr, &mut |vs| {
            let eq = vs
                .matchers
                .matchers
                .iter()
                .filter(|m| m.name != METRIC_NAME && matches!(m.op, MatchOp::Equal))
                .map(|m| (m.name.clone(), m.value.clone()))
                .collect();
            out.push((selector_name(vs).unwrap_or_else(|| "{…}".to_string()), eq));
        });
        out
    }

    /// The metrics the query needs that `m` does not derive.
    pub fn missing(&self, m: &Metrics) -> Vec<String> {
        self.metrics()
            .into_iter()
            .filter(|n| !m.derives(n))
            .collect()
    }

    /// Evaluates the query over `m`; a metric `m` does not derive makes it
    /// [`EvalError::Missing`] (never an empty vector).
    pub fn eval(&self, m: &Metrics) -> Result<Value, EvalError> {
        let missing = self.missing(m);
        if !missing.is_empty() {
            return Err(EvalError::Missing(missing));
        }
        super::eval::eval(&self.expr, m)
    }
}

fn walk(e: &Expr, f: &mut dyn FnMut(&VectorSelector)) {
    match e {
        Expr::Aggregate(a) => {
            walk(&a.expr, f);
            if let Some(p) = &a.param {
                walk(p, f);
            }
        }
        Expr::Unary(u) => walk(&u.expr, f),
        Expr::Binary(b) => {
            walk(&b.lhs, f);
            walk(&b.rhs, f);
        }
        Expr::Paren(p) => walk(&p.expr, f),
        Expr::Subquery(s) => walk(&s.expr, f),
        Expr::VectorSelector(vs) => f(vs),
        Expr::MatrixSelector(ms) => f(&ms.vs),
        Expr::Call(c) => c.args.args.iter().for_each(|a| walk(a, f)),
        Expr::NumberLiteral(_) | Expr::StringLiteral(_) | Expr::Extension(_) => {}
    }
}
