//! PromQL evaluated at one instant over the series a dump gives, as Prometheus evaluates it:
//! selectors with `=`, `!=`, `=~`, `!~` (regexes anchored), the aggregations (`group`,
//! `count`, `sum`, `max`, `min`, `avg`, `topk`, `bottomk`, with `by`/`without`), arithmetic,
//! comparisons (filtering, or 0/1 with `bool`) and set operators with `on`/`ignoring` and
//! `group_left`/`group_right`, `label_replace`, `absent`, `vector`, `scalar`, and the
//! `*_over_time` functions over a range that, at one instant, holds the sample itself.
//! Parsing is the `promql-parser` crate's. Every sample carries the files it was derived from
//! (its evidence) through every operation.

use promql_parser::label::{METRIC_NAME, MatchOp, Matcher};
use promql_parser::parser::token::{self, TokenId};
use promql_parser::parser::{
    AggregateExpr, BinaryExpr, Call, Expr, LabelModifier, VectorMatchCardinality, VectorSelector,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// A series' labels, `__name__` included.
pub type Labels = BTreeMap<String, String>;

/// One sample: labels, value and the files it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub labels: Labels,
    pub value: f64,
    pub evidence: BTreeSet<Arc<str>>,
}

impl Sample {
    /// A sample of `name` with `labels`, from `evidence`.
    pub fn new(name: &str, labels: &[(&str, &str)], value: f64, evidence: &str) -> Sample {
        let mut l: Labels = labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        l.insert(METRIC_NAME.to_string(), name.to_string());
        Sample {
            labels: l,
            value,
            evidence: [Arc::from(evidence)].into_iter().collect(),
        }
    }

    fn label(&self, name: &str) -> &str {
        self.labels.get(name).map_or("", String::as_str)
    }
}

/// The series of each metric a dump can give. A metric not [`derived`](Metrics::derives) is
/// one the dump cannot tell about: a query that reads it cannot be evaluated.
#[derive(Debug, Clone, Default)]
pub struct Metrics {
    series: BTreeMap<String, Vec<Sample>>,
    derived: BTreeSet<String>,
}

impl Metrics {
    /// Declares `name` derived from the dump (its series, possibly none, are all there are).
    pub fn derive(&mut self, name: &str) {
        self.derived.insert(name.to_string());
        self.series.entry(name.to_string()).or_default();
    }

    /// Adds a series of a derived metric (declaring it derived).
    pub fn push(&mut self, s: Sample) {
        let name = s.label(METRIC_NAME).to_string();
        self.derived.insert(name.clone());
        self.series.entry(name).or_default().push(s);
    }

    /// The names of the derived metrics, sorted.
    pub fn derived(&self) -> Vec<&str> {
        self.derived.iter().map(String::as_str).collect()
    }

    pub fn derives(&self, name: &str) -> bool {
        self.derived.contains(name)
    }

    pub fn series(&self, name: &str) -> &[Sample] {
        self.series.get(name).map_or(&[], Vec::as_slice)
    }

    /// Every derived metric with its series.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[Sample])> {
        self.series.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }
}

/// Why a query could not be evaluated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EvalError {
    #[error("cannot parse the query: {0}")]
    Parse(String),
    #[error("the dump does not give {}", .0.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "))]
    Missing(Vec<String>),
    #[error("{0} is not supported offline")]
    Unsupported(String),
    #[error("{0}")]
    Query(String),
}

/// The value of an expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Scalar(f64),
    Vector(Vec<Sample>),
    String(String),
}

/// The longest query read (a hostile catalogue cannot make the evaluation recurse deep).
const MAX_QUERY_BYTES: usize = 8 << 10;
/// The deepest bracket nesting read.
const MAX_NESTING: usize = 64;

/// The deepest nesting of `(`, `[`, `{` outside string literals.
fn nesting(text: &str) -> usize {
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
        eval(&self.expr, m)
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

fn selector_name(vs: &VectorSelector) -> Option<String> {
    vs.name.clone().or_else(|| {
        vs.matchers
            .matchers
            .iter()
            .find(|m| m.name == METRIC_NAME && matches!(m.op, MatchOp::Equal))
            .map(|m| m.value.clone())
    })
}

fn q(msg: impl Into<String>) -> EvalError {
    EvalError::Query(msg.into())
}

fn eval(e: &Expr, m: &Metrics) -> Result<Value, EvalError> {
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
        Some(LabelModifier::Exclude(ls)) => labels
            .iter()
            .filter(|(k, _)| *k != METRIC_NAME && !ls.labels.contains(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
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
        Some(LabelModifier::Exclude(ls)) => labels
            .iter()
            .filter(|(k, _)| *k != METRIC_NAME && !ls.labels.contains(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        None => labels
            .iter()
            .filter(|(k, _)| *k != METRIC_NAME)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics() -> Metrics {
        let mut m = Metrics::default();
        m.push(Sample::new(
            "cluster_infrastructure_provider",
            &[("type", "VSphere"), ("region", "")],
            1.0,
            "infrastructures/cluster.yaml",
        ));
        m.push(Sample::new(
            "cluster_version",
            &[("type", "initial"), ("version", "4.10.3")],
            1.0,
            "clusterversions/version.yaml",
        ));
        m.push(Sample::new(
            "cluster_version",
            &[("type", "current"), ("version", "4.12.16")],
            1.0,
            "clusterversions/version.yaml",
        ));
        for (node, config) in [
            ("m0", "rendered-master-a"),
            ("w0", "rendered-worker-b"),
            ("w1", "rendered-worker-b"),
        ] {
            m.push(Sample::new(
                "mcd_update_state",
                &[("node", node), ("config", config)],
                0.0,
                &format!("nodes/{node}.yaml"),
            ));
        }
        for (name, cond, v) in [
            ("etcd", "Available", 1.0),
            ("etcd", "Degraded", 0.0),
            ("dns", "Available", 1.0),
        ] {
            m.push(Sample::new(
                "cluster_operator_conditions",
                &[("name", name), ("condition", cond)],
                v,
                &format!("clusteroperators/{name}.yaml"),
            ));
        }
        m.derive("kube_node_labels");
        m
    }

    fn run(q: &str) -> Result<Value, EvalError> {
        Query::parse(q).unwrap().eval(&metrics())
    }

    fn one(q: &str) -> (Labels, f64) {
        match run(q) {
            Ok(Value::Vector(v)) if v.len() == 1 => (v[0].labels.clone(), v[0].value),
            other => panic!("{q}: {other:?}"),
        }
    }

    fn values(q: &str) -> Vec<f64> {
        match run(q) {
            Ok(Value::Vector(v)) => v.iter().map(|s| s.value).collect(),
            other => panic!("{q}: {other:?}"),
        }
    }

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn selectors_match_absent_labels_as_empty_and_anchor_regexes() {
        // `_id=""` matches a series without `_id`; an empty label is no label.
        assert_eq!(
            values(r#"cluster_infrastructure_provider{_id="",region=""}"#),
            vec![1.0]
        );
        assert_eq!(
            values(r#"cluster_infrastructure_provider{type=~"Sphere"}"#),
            Vec::<f64>::new()
        );
        assert_eq!(
            values(r#"cluster_infrastructure_provider{type=~"VSphere|None"}"#),
            vec![1.0]
        );
        assert_eq!(
            values(r#"cluster_infrastructure_provider{type!~"VSphere"}"#),
            Vec::<f64>::new()
        );
        assert_eq!(
            values(r#"cluster_infrastructure_provider{type!="AWS"}"#),
            vec![1.0]
        );
        // `config!~"|rendered-master-.*"`: neither empty nor a master's.
        assert_eq!(
            values(r#"mcd_update_state{config!~"|rendered-master-.*"}"#).len(),
            2
        );
        assert_eq!(
            values(r#"{__name__="cluster_version",type="initial"}"#),
            vec![1.0]
        );
    }

    #[test]
    fn aggregations_group_count_sum_max_min_with_by_and_without() {
        assert_eq!(
            one("group(cluster_operator_conditions)"),
            (Labels::new(), 1.0)
        );
        assert_eq!(one("count(cluster_operator_conditions)").1, 3.0);
        assert_eq!(one("sum(cluster_operator_conditions)").1, 2.0);
        assert_eq!(one("max(cluster_operator_conditions)").1, 1.0);
        assert_eq!(one("min(cluster_operator_conditions)").1, 0.0);
        // Groups in order of first appearance.
        assert_eq!(
            values("count by (name) (cluster_operator_conditions)"),
            vec![2.0, 1.0]
        );
        let v = match run("sum without (condition) (cluster_operator_conditions)").unwrap() {
            Value::Vector(v) => v,
            _ => unreachable!(),
        };
        assert_eq!(v[0].labels, labels(&[("name", "etcd")]));
        assert_eq!(v[0].value, 1.0);
        // No series: no group (not a zero).
        assert_eq!(values("group(kube_node_labels)"), Vec::<f64>::new());
    }

    #[test]
    fn topk_keeps_the_samples_and_their_labels_per_group() {
        let (l, v) = one(r#"topk(1, cluster_operator_conditions{name="etcd"})"#);
        assert_eq!(v, 1.0);
        assert_eq!(l.get("condition").map(String::as_str), Some("Available"));
        assert_eq!(
            l.get("__name__").map(String::as_str),
            Some("cluster_operator_conditions")
        );
        assert_eq!(
            values(r#"bottomk(1, cluster_operator_conditions{name="etcd"})"#),
            vec![0.0]
        );
        assert_eq!(values("topk by (node) (1, mcd_update_state)").len(), 3);
        assert_eq!(values("topk(0, mcd_update_state)").len(), 0);
    }

    #[test]
    fn the_zero_times_idiom_gives_one_sample_either_way() {
        // The catalogue's most common shape: a match, or 0 from the same metric.
        let q = |ty: &str| {
            format!(
                r#"group(cluster_infrastructure_provider{{type="{ty}"}}) or 0 * group(cluster_infrastructure_provider)"#
            )
        };
        assert_eq!(one(&q("VSphere")).1, 1.0);
        assert_eq!(one(&q("AWS")).1, 0.0);
        // Unary minus drops the name, keeps the rest.
        assert_eq!(values("-1 * group(cluster_version)"), vec![-1.0]);
        assert_eq!(values("-group(cluster_version)"), vec![-1.0]);
        assert_eq!(run("1 - 0.25 * 2").unwrap(), Value::Scalar(0.5));
    }

    #[test]
    fn comparisons_filter_or_return_bool() {
        assert_eq!(values("cluster_operator_conditions > 0").len(), 2);
        // The vector's value is kept even when it is on the right.
        assert_eq!(values("0 < cluster_operator_conditions"), vec![1.0, 1.0]);
        assert_eq!(
            values("cluster_operator_conditions > bool 0"),
            vec![1.0, 0.0, 1.0]
        );
        // A filtered sample keeps its name; `bool` drops it.
        let (l, _) = one(r#"cluster_version{type="initial"} == 1"#);
        assert!(l.contains_key("__name__"));
        let (l, _) = one(r#"cluster_version{type="initial"} == bool 1"#);
        assert!(!l.contains_key("__name__"));
        assert_eq!(run("1 > bool 2").unwrap(), Value::Scalar(0.0));
    }

    #[test]
    fn set_operators_match_on_labels() {
        assert_eq!(
            values(
                r#"group by (name) (cluster_operator_conditions) and on (name) cluster_operator_conditions{condition="Degraded"}"#
            ),
            vec![1.0]
        );
        assert_eq!(
            values(
                r#"group by (name) (cluster_operator_conditions) unless on (name) cluster_operator_conditions{condition="Degraded"}"#
            ),
            vec![1.0]
        );
        // `or` adds the right side's samples whose labels the left lacks.
        assert_eq!(
            values("group(cluster_version) or group(mcd_update_state)"),
            vec![1.0]
        );
        assert_eq!(
            values("group by (type) (cluster_version) or on () group(mcd_update_state)").len(),
            2
        );
        assert_eq!(
            values(
                r#"cluster_version{type="x"} or ignoring (type) group by (type) (cluster_version)"#
            )
            .len(),
            2
        );
    }

    #[test]
    fn one_to_one_and_group_left_matching() {
        // on (): both sides have one sample; the left's labels are kept, only `on`'s.
        let (l, v) = one(
            r#"group by (type) (cluster_infrastructure_provider) * on () group_left (version) group by (version) (cluster_version{type="initial"})"#,
        );
        assert_eq!(v, 1.0);
        assert_eq!(l, labels(&[("type", "VSphere"), ("version", "4.10.3")]));
        let (l, _) = one(
            r#"group by (type) (cluster_infrastructure_provider) * on () group(cluster_version)"#,
        );
        assert_eq!(l, Labels::new());
        // Duplicates on the "one" side are an error, as in Prometheus.
        assert!(matches!(
            run(r#"group(cluster_version) * on () cluster_version"#),
            Err(EvalError::Query(_))
        ));
        // Many on the left without group_left: an error.
        assert!(matches!(
            run(r#"cluster_version * on () group(cluster_version)"#),
            Err(EvalError::Query(_))
        ));
        // group_right mirrors group_left.
        assert_eq!(
            values(r#"group(cluster_version) * on () group_right cluster_version"#).len(),
            2
        );
        // Default matching: every label but the name.
        assert_eq!(
            values(r#"cluster_version * cluster_version"#),
            vec![1.0, 1.0]
        );
    }

    #[test]
    fn label_replace_sets_drops_and_rejects_duplicates() {
        let (l, _) =
            one(r#"label_replace(group(cluster_version{type="initial"}), "born", "yes", "", "")"#);
        assert_eq!(l, labels(&[("born", "yes")]));
        let (l, _) = one(
            r#"label_replace(cluster_version{type="initial"}, "minor", "$1", "version", "4[.]([0-9]+)[.].*")"#,
        );
        assert_eq!(l.get("minor").map(String::as_str), Some("10"));
        // No match: unchanged; an empty result deletes the label.
        let (l, _) =
            one(r#"label_replace(cluster_version{type="initial"}, "type", "", "version", ".*")"#);
        assert!(!l.contains_key("type"));
        assert!(matches!(
            run(r#"label_replace(group by (type) (cluster_version), "type", "x", "", "")"#),
            Err(EvalError::Query(_))
        ));
    }

    #[test]
    fn over_time_functions_drop_the_name_and_absent_makes_a_sample() {
        let (l, v) = one(r#"max_over_time(cluster_version{type="initial"}[1h])"#);
        assert_eq!(v, 1.0);
        assert!(!l.contains_key("__name__"));
        assert_eq!(
            values(r#"absent(cluster_version{type="initial"})"#),
            Vec::<f64>::new()
        );
        let (l, v) = one(r#"absent(cluster_version{type="future"})"#);
        assert_eq!((l, v), (labels(&[("type", "future")]), 1.0));
        assert_eq!(values("vector(1)"), vec![1.0]);
    }

    #[test]
    fn a_metric_the_dump_does_not_give_is_missing_never_empty() {
        let e =
            run(r#"group(apiserver_storage_objects) or 0 * group(cluster_version)"#).unwrap_err();
        assert_eq!(
            e,
            EvalError::Missing(vec!["apiserver_storage_objects".into()])
        );
        // Derived with no series: evaluated, empty.
        assert_eq!(values("kube_node_labels"), Vec::<f64>::new());
    }

    #[test]
    fn hostile_queries_are_refused_before_parsing() {
        let deep = format!("{}1{}", "(".repeat(65), ")".repeat(65));
        assert!(matches!(Query::parse(&deep), Err(EvalError::Parse(_))));
        assert!(Query::parse(&format!("{}1{}", "(".repeat(64), ")".repeat(64))).is_ok());
        // Brackets inside strings do not count.
        let q = format!(r#"cluster_version{{version=~"{}"}}"#, "(".repeat(100));
        assert_eq!(nesting(&q), 1);
        let long = vec!["cluster_version"; 1000].join(" or ");
        assert!(matches!(Query::parse(&long), Err(EvalError::Parse(_))));
    }

    #[test]
    fn evidence_follows_the_samples() {
        let v = match run(r#"group(cluster_infrastructure_provider) * on () group_left (version) group by (version) (cluster_version{type="initial"})"#).unwrap() {
            Value::Vector(v) => v,
            _ => unreachable!(),
        };
        let e: Vec<&str> = v[0].evidence.iter().map(|s| &**s).collect();
        assert_eq!(
            e,
            vec![
                "clusterversions/version.yaml",
                "infrastructures/cluster.yaml"
            ]
        );
    }
}
