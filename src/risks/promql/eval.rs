//! Evaluating an expression at one instant: selectors (regexes anchored), aggregations with
//! `by`/`without`, arithmetic, comparisons (filtering, or 0/1 with `bool`) and set operators
//! with `on`/`ignoring` and `group_left`/`group_right`, and the function calls (the
//! `*_over_time` family over a range that, at one instant, holds the sample itself,
//! `label_replace`, `absent`, `vector`, `scalar`…); each sample keeps its evidence.

use super::{EvalError, Labels, Metrics, Sample, Value, selector_name};
use promql_parser::label::{METRIC_NAME, MatchOp, Matcher};
use promql_parser::parser::token::{self, TokenId};
use promql_parser::parser::{
    AggregateExpr, BinaryExpr, Call, Expr, LabelModifier, VectorMatchCardinality, VectorSelector,
};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

fn q(msg: impl Into<String>) -> EvalError {
    EvalError::Query(msg.into())
}

pub(super) fn eval(e: &Expr, m: &Metrics) -> Result<Value, EvalError> {
    match e {
        Expr::NumberLiteral(n) => Ok(Value::Scalar(n.val)),
        Expr::StringLiteral(s) => Ok(Value::String(s.val.clone())),
        Expr::Paren(p) => eval(&p.expr, m),
        Expr::Unary(u) => match eval(&u.expr, m)? {
            Value::Scalar(v) => Ok(Value::Scalar(-v)),
            Value::Vector(v) => Ok(Value::Vector(
                v.into_iter()
                    .map(|mut s| {
                        s.value = -s.value;
                        s.labels.remove(METRIC_NAME);
                        s
                    })
                    .collect(),
            )),
            Value::String(_) => Err(q("unary minus on a string")),
        },
        Expr::VectorSelector(vs) => Ok(Value::Vector(select(vs, m)?)),
        Expr::MatrixSelector(_) => Err(EvalError::Unsupported(
            "a range vector outside a function".into(),
        )),
        Expr::Subquery(_) => Err(EvalError::Unsupported("a subquery".into())),
        Expr::Extension(_) => Err(EvalError::Unsupported("an extension".into())),
        Expr::Aggregate(a) => aggregate(a, m),
        Expr::Binary(b) => binary(b, m),
        Expr::Call(c) => call(c, m),
    }
}

fn select(vs: &VectorSelector, m: &Metrics) -> Result<Vec<Sample>, EvalError> {
    if vs.offset.is_some() || vs.at.is_some() {
        return Err(EvalError::Unsupported("`offset` and `@`".into()));
    }
    if !vs.matchers.or_matchers.is_empty() {
        return Err(EvalError::Unsupported("`or` inside a selector".into()));
    }
    let name = selector_name(vs).ok_or_else(|| q("a selector without a metric name"))?;
    let ok = |s: &Sample, ms: &[Matcher]| ms.iter().all(|x| x.is_match(s.label(&x.name)));
    Ok(m.series(&name)
        .iter()
        .filter(|s| ok(s, &vs.matchers.matchers))
        .cloned()
        .collect())
}

fn vector(v: Value, what: &str) -> Result<Vec<Sample>, EvalError> {
    match v {
        Value::Vector(v) => Ok(v),
        _ => Err(q(format!("{what} expects an instant vector"))),
    }
}

fn scalar(v: Value, what: &str) -> Result<f64, EvalError> {
    match v {
        Value::Scalar(s) => Ok(s),
        _ => Err(q(format!("{what} expects a scalar"))),
    }
}

/// A sample's labels but the name and `dropped` (`without`, `ignoring`).
fn without(labels: &Labels, dropped: &[String]) -> Labels {
    labels
        .iter()
        .filter(|(k, _)| *k != METRIC_NAME && !dropped.contains(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The labels `by`/`without` keep of a sample (the name always dropped).
fn grouping(labels: &Labels, modifier: Option<&LabelModifier>) -> Labels {
    match modifier {
        None => Labels::new(),
        Some(LabelModifier::Include(ls)) => ls
            .labels
            .iter()
            .filter_map(|l| labels.get(l).map(|v| (l.clone(), v.clone())))
            .filter(|(k, _)| k != METRIC_NAME)
            .collect(),
        Some(LabelModifier::Exclude(ls)) => without(labels, &ls.labels),
    }
}

fn aggregate(a: &AggregateExpr, m: &Metrics) -> Result<Value, EvalError> {
    let op = a.op.id();
    let input = vector(eval(&a.expr, m)?, "an aggregation")?;
    let param = match &a.param {
        Some(p) => Some(eval(p, m)?),
        None => None,
    };
    // Groups in order of first appearance.
    let mut order: Vec<Labels> = Vec::new();
    let mut groups: HashMap<Labels, Vec<Sample>> = HashMap::new();
    for s in input {
        let g = grouping(&s.labels, a.modifier.as_ref());
        let e = groups.entry(g.clone()).or_default();
        if e.is_empty() {
            order.push(g);
        }
        e.push(s);
    }
    if matches!(op, token::T_TOPK | token::T_BOTTOMK) {
        let k = scalar(param.ok_or_else(|| q("topk without k"))?, "topk's k")?;
        if !k.is_finite() {
            return Err(q("topk's k is not a number"));
        }
        let k = if k < 1.0 { 0 } else { k as usize };
        let mut out = Vec::new();
        for g in &order {
            let mut members = groups.remove(g).unwrap_or_default();
            // Stable: among equal values the first in input order wins. NaN sorts last.
            let top = op == token::T_TOPK;
            members.sort_by(|x, y| {
                let (x, y) = (x.value, y.value);
                match (x.is_nan(), y.is_nan()) {
                    (true, true) => std::cmp::Ordering::Equal,
                    (true, false) => std::cmp::Ordering::Greater,
                    (false, true) => std::cmp::Ordering::Less,
                    _ if top => y.total_cmp(&x),
                    _ => x.total_cmp(&y),
                }
            });
            out.extend(members.into_iter().take(k));
        }
        return Ok(Value::Vector(out));
    }
    let mut out = Vec::new();
    for g in order {
        let members = groups.remove(&g).unwrap_or_default();
        let evidence: BTreeSet<Arc<str>> = members
            .iter()
            .flat_map(|s| s.evidence.iter().cloned())
            .collect();
        let vals = members.iter().map(|s| s.value);
        let n = members.len() as f64;
        let value = match op {
            token::T_GROUP => 1.0,
            token::T_COUNT => n,
            token::T_SUM => vals.sum(),
            token::T_AVG => vals.sum::<f64>() / n,
            token::T_MAX => vals.fold(f64::NAN, |a, v| if a.is_nan() || v > a { v } else { a }),
            token::T_MIN => vals.fold(f64::NAN, |a, v| if a.is_nan() || v < a { v } else { a }),
            _ => return Err(EvalError::Unsupported(format!("`{}`", a.op))),
        };
        out.push(Sample {
            labels: g,
            value,
            evidence,
        });
    }
    Ok(Value::Vector(out))
}

fn arith(op: TokenId, l: f64, r: f64) -> Option<f64> {
    Some(match op {
        token::T_ADD => l + r,
        token::T_SUB => l - r,
        token::T_MUL => l * r,
        token::T_DIV => l / r,
        token::T_MOD => l % r,
        token::T_POW => l.powf(r),
        token::T_ATAN2 => l.atan2(r),
        _ => return None,
    })
}

fn compare(op: TokenId, l: f64, r: f64) -> bool {
    match op {
        token::T_EQLC => l == r,
        token::T_NEQ => l != r,
        token::T_GTR => l > r,
        token::T_LSS => l < r,
        token::T_GTE => l >= r,
        token::T_LTE => l <= r,
        _ => false,
    }
}

/// The value of `l op r` and whether the sample is kept (comparisons without `bool` filter).
fn elem(
    op: TokenId,
    is_cmp: bool,
    ret_bool: bool,
    l: f64,
    r: f64,
) -> Result<(f64, bool), EvalError> {
    if is_cmp {
        let c = compare(op, l, r);
        if ret_bool {
            return Ok((if c { 1.0 } else { 0.0 }, true));
        }
        return Ok((l, c));
    }
    arith(op, l, r)
        .map(|v| (v, true))
        .ok_or_else(|| EvalError::Unsupported(format!("operator {op}")))
}

/// The signature samples are matched on: `on` labels, or every label but `ignoring`'s and
/// the name.
fn signature(labels: &Labels, matching: Option<&LabelModifier>) -> Labels {
    match matching {
        Some(LabelModifier::Include(ls)) => ls
            .labels
            .iter()
            .filter_map(|l| labels.get(l).map(|v| (l.clone(), v.clone())))
            .collect(),
        Some(LabelModifier::Exclude(ls)) => without(labels, &ls.labels),
        None => without(labels, &[]),
    }
}

fn binary(b: &BinaryExpr, m: &Metrics) -> Result<Value, EvalError> {
    let op = b.op.id();
    let is_cmp = b.op.is_comparison_operator();
    let ret_bool = b.return_bool();
    let modifier = b.modifier.as_ref();
    if let Some(md) = modifier
        && (md.fill_values.lhs.is_some() || md.fill_values.rhs.is_some())
    {
        return Err(EvalError::Unsupported("`fill` modifiers".into()));
    }
    let lhs = eval(&b.lhs, m)?;
    let rhs = eval(&b.rhs, m)?;
    match (lhs, rhs) {
        (Value::Scalar(l), Value::Scalar(r)) => {
            let (v, _) = elem(op, is_cmp, true, l, r)?;
            Ok(Value::Scalar(v))
        }
        (Value::Vector(v), Value::Scalar(s)) => vector_scalar(op, is_cmp, ret_bool, v, s, false),
        (Value::Scalar(s), Value::Vector(v)) => vector_scalar(op, is_cmp, ret_bool, v, s, true),
        (Value::Vector(l), Value::Vector(r)) => {
            let matching = modifier.and_then(|md| md.matching.as_ref());
            if b.op.is_set_operator() {
                return Ok(Value::Vector(set_op(op, l, r, matching)));
            }
            let card = modifier.map_or(&VectorMatchCardinality::OneToOne, |md| &md.card);
            vector_vector(op, is_cmp, ret_bool, l, r, matching, card).map(Value::Vector)
        }
        _ => Err(q("a binary operator on a string")),
    }
}

fn vector_scalar(
    op: TokenId,
    is_cmp: bool,
    ret_bool: bool,
    v: Vec<Sample>,
    s: f64,
    swap: bool,
) -> Result<Value, EvalError> {
    let mut out = Vec::new();
    for mut x in v {
        let (l, r) = if swap { (s, x.value) } else { (x.value, s) };
        let (mut value, keep) = elem(op, is_cmp, ret_bool, l, r)?;
        // A comparison keeps the vector's value, whichever side it is on.
        if is_cmp && !ret_bool {
            value = x.value;
        }
        if !keep {
            continue;
        }
        if !is_cmp || ret_bool {
            x.labels.remove(METRIC_NAME);
        }
        x.value = value;
        out.push(x);
    }
    Ok(Value::Vector(out))
}

fn set_op(
    op: TokenId,
    l: Vec<Sample>,
    r: Vec<Sample>,
    matching: Option<&LabelModifier>,
) -> Vec<Sample> {
    let rsigs: BTreeSet<Labels> = r.iter().map(|s| signature(&s.labels, matching)).collect();
    match op {
        token::T_LAND => l
            .into_iter()
            .filter(|s| rsigs.contains(&signature(&s.labels, matching)))
            .collect(),
        token::T_LUNLESS => l
            .into_iter()
            .filter(|s| !rsigs.contains(&signature(&s.labels, matching)))
            .collect(),
        _ => {
            let lsigs: BTreeSet<Labels> =
                l.iter().map(|s| signature(&s.labels, matching)).collect();
            let mut out = l;
            out.extend(
                r.into_iter()
                    .filter(|s| !lsigs.contains(&signature(&s.labels, matching))),
            );
            out
        }
    }
}

fn vector_vector(
    op: TokenId,
    is_cmp: bool,
    ret_bool: bool,
    l: Vec<Sample>,
    r: Vec<Sample>,
    matching: Option<&LabelModifier>,
    card: &VectorMatchCardinality,
) -> Result<Vec<Sample>, EvalError> {
    // group_right is group_left with the sides swapped.
    let (many, one, swapped, include) = match card {
        VectorMatchCardinality::OneToMany(ls) => (r, l, true, Some(ls)),
        VectorMatchCardinality::ManyToOne(ls) => (l, r, false, Some(ls)),
        _ => (l, r, false, None),
    };
    let mut ones: HashMap<Labels, Sample> = HashMap::new();
    for s in one {
        let sig = signature(&s.labels, matching);
        if ones.insert(sig.clone(), s).is_some() {
            let side = if include.is_some() {
                "the \"one\" side"
            } else if swapped {
                "the left-hand side"
            } else {
                "the right-hand side"
            };
            return Err(q(format!(
                "found duplicate series for the match group {} on {side} of the operation: many-to-many matching not allowed: matching labels must be unique on one side",
                show(&sig)
            )));
        }
    }
    let mut seen: BTreeSet<Labels> = BTreeSet::new();
    let mut out_sigs: BTreeSet<Labels> = BTreeSet::new();
    let mut out = Vec::new();
    for s in many {
        let sig = signature(&s.labels, matching);
        let Some(o) = ones.get(&sig) else {
            continue;
        };
        if include.is_none() && !seen.insert(sig.clone()) {
            return Err(q(format!(
                "multiple matches for labels {}: many-to-one matching must be explicit (group_left/group_right)",
                show(&sig)
            )));
        }
        let (lv, rv) = if swapped {
            (o.value, s.value)
        } else {
            (s.value, o.value)
        };
        let (value, keep) = elem(op, is_cmp, ret_bool, lv, rv)?;
        if !keep {
            continue;
        }
        let mut labels = s.labels.clone();
        if !is_cmp || ret_bool {
            labels.remove(METRIC_NAME);
        }
        match include {
            None => match matching {
                Some(LabelModifier::Include(ls)) => {
                    labels.retain(|k, _| ls.labels.contains(k));
                }
                Some(LabelModifier::Exclude(ls)) => {
                    labels.retain(|k, _| !ls.labels.contains(k));
                }
                None => {}
            },
            Some(ls) => {
                for k in &ls.labels {
                    match o.labels.get(k) {
                        Some(v) if !v.is_empty() => {
                            labels.insert(k.clone(), v.clone());
                        }
                        _ => {
                            labels.remove(k);
                        }
                    }
                }
            }
        }
        if include.is_some() && !out_sigs.insert(labels.clone()) {
            return Err(q(format!(
                "multiple matches for labels {}: grouping labels must ensure unique matches",
                show(&labels)
            )));
        }
        let mut evidence = s.evidence.clone();
        evidence.extend(o.evidence.iter().cloned());
        out.push(Sample {
            labels,
            value,
            evidence,
        });
    }
    Ok(out)
}

fn show(l: &Labels) -> String {
    let inner: Vec<String> = l.iter().map(|(k, v)| format!("{k}={v:?}")).collect();
    format!("{{{}}}", inner.join(", "))
}

fn call(c: &Call, m: &Metrics) -> Result<Value, EvalError> {
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
