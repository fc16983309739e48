//! PromQL evaluated at one instant over the series a dump gives, as Prometheus evaluates it:
//! selectors with `=`, `!=`, `=~`, `!~` (regexes anchored), the aggregations (`group`,
//! `count`, `sum`, `max`, `min`, `avg`, `topk`, `bottomk`, with `by`/`without`), arithmetic,
//! comparisons (filtering, or 0/1 with `bool`) and set operators with `on`/`ignoring` and
//! `group_left`/`group_right`, `label_replace`, `absent`, `vector`, `scalar`, and the
//! `*_over_time` functions over a range that, at one instant, holds the sample itself.
//! Parsing is the `promql-parser` crate's. Every sample carries the files it was derived from
//! (its evidence) through every operation.
//!
//! The files: this one holds the values (samples, the metrics a dump gives, errors) and what
//! names a selector's metric; `query` parses a query within bounds and names what it reads;
//! `eval` evaluates it.

mod eval;
mod query;
#[cfg(test)]
mod tests;

pub use query::Query;

use promql_parser::label::{METRIC_NAME, MatchOp};
use promql_parser::parser::VectorSelector;
use std::collections::{BTreeMap, BTreeSet};
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

/// The metric a selector reads: its name, or its `__name__="…"` matcher.
fn selector_name(vs: &VectorSelector) -> Option<String> {
    vs.name.clone().or_else(|| {
        vs.matchers
            .matchers
            .iter()
            .find(|m| m.name == METRIC_NAME && matches!(m.op, MatchOp::Equal))
            .map(|m| m.value.clone())
    })
}
