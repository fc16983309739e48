//! The function calls: the `*_over_time` family over a range that, at one instant, holds
//! the sample itself, `label_replace`, `absent`, `vector`, `scalar` and the rest the catalogue
//! reads.

use super::eval::{eval, q, scalar, select, vector};
use super::{EvalError, Labels, Metrics, Sample, Value};
use promql_parser::label::{METRIC_NAME, MatchOp};
use promql_parser::parser::{Call, Expr};
use std::collections::BTreeSet;

pub(super) fn call(c: &Call, m: &Metrics) -> Result<Value, EvalError> {
    let name = c.func.name;
    let args = &c.args.args;
    let arg = |i: usize| -> Result<&Expr, EvalError> {
        args.get(i)
            .map(|b| b.as_ref())
            .ok_or_else(|| q(format!("`{name}` lacks an argument")))
    };
    match name {
        // At one instant the range holds the sample itself: each function of it is its value.
        "max_over_time" | "min_over_time" | "avg_over_time" | "last_over_time"
        | "sum_over_time" | "count_over_time" | "present_over_time" => {
            let Expr::MatrixSelector(ms) = arg(0)? else {
                return Err(q(format!("`{name}` expects a range vector")));
            };
            let mut v = select(&ms.vs, m)?;
            for s in &mut v {
                s.labels.remove(METRIC_NAME);
                if matches!(name, "count_over_time" | "present_over_time") {
                    s.value = 1.0;
                }
            }
            Ok(Value::Vector(v))
        }
        "label_replace" => {
            let v = vector(eval(arg(0)?, m)?, "`label_replace`")?;
            let mut strs = Vec::new();
            for i in 1..5 {
                match eval(arg(i)?, m)? {
                    Value::String(s) => strs.push(s),
                    _ => return Err(q("`label_replace` expects strings")),
                }
            }
            let (dst, repl, src, re) = (&strs[0], &strs[1], &strs[2], &strs[3]);
            let re = regex::Regex::new(&format!("^(?s:{re})$")).map_err(|e| {
                q(format!(
                    "invalid regular expression in `label_replace`: {e}"
                ))
            })?;
            let mut out = Vec::new();
            let mut seen = BTreeSet::new();
            for mut s in v {
                let value = s.label(src).to_string();
                if let Some(caps) = re.captures(&value) {
                    let mut res = String::new();
                    // Go's `$1`, `${1}` and `$name` mean what they mean to the regex crate.
                    caps.expand(repl, &mut res);
                    if res.is_empty() {
                        s.labels.remove(dst);
                    } else {
                        s.labels.insert(dst.clone(), res);
                    }
                }
                if !seen.insert(s.labels.clone()) {
                    return Err(q("vector cannot contain metrics with the same labelset"));
                }
                out.push(s);
            }
            Ok(Value::Vector(out))
        }
        "absent" => {
            let v = vector(eval(arg(0)?, m)?, "`absent`")?;
            if !v.is_empty() {
                return Ok(Value::Vector(Vec::new()));
            }
            let mut labels = Labels::new();
            if let Expr::VectorSelector(vs) = arg(0)? {
                for x in &vs.matchers.matchers {
                    if matches!(x.op, MatchOp::Equal) && x.name != METRIC_NAME {
                        labels.insert(x.name.clone(), x.value.clone());
                    }
                }
            }
            Ok(Value::Vector(vec![Sample {
                labels,
                value: 1.0,
                evidence: BTreeSet::new(),
            }]))
        }
        "vector" => {
            let s = scalar(eval(arg(0)?, m)?, "`vector`")?;
            Ok(Value::Vector(vec![Sample {
                labels: Labels::new(),
                value: s,
                evidence: BTreeSet::new(),
            }]))
        }
        "scalar" => {
            let v = vector(eval(arg(0)?, m)?, "`scalar`")?;
            Ok(Value::Scalar(match v.as_slice() {
                [one] => one.value,
                _ => f64::NAN,
            }))
        }
        _ => Err(EvalError::Unsupported(format!("the function `{name}`"))),
    }
}
