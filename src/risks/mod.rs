//! Published update risks evaluated offline: the catalogue of cincinnati-graph-data's blocked
//! edges ([`catalogue`]), the metric series a dump can give ([`series`]), PromQL evaluated
//! over them at one instant as Prometheus evaluates it ([`promql`]), and each risk's verdict
//! for each candidate target, as the CVO decides it, cross-checked with the CVO's own
//! verdicts in the dump ([`verdict`]); what the dump's taken, requested and offered updates
//! were exposed to ([`exposure`]).

pub mod catalogue;
pub mod exposure;
pub mod promql;
pub mod report;
pub mod series;
pub mod verdict;

use crate::bundle::Bundle;

/// The series of `b` and every candidate update of it (and `asked`) judged against `cat`.
pub fn evaluate(
    cat: &catalogue::Catalogue,
    b: &Bundle,
    asked: &[String],
) -> (promql::Metrics, verdict::Evaluation) {
    let m = series::from_bundle(b);
    let e = verdict::evaluate(cat, b, &m, asked);
    (m, e)
}
