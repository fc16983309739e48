//! Published update risks evaluated offline: the catalogue of cincinnati-graph-data's blocked
//! edges ([`catalogue`]), the metric series a dump can give ([`series`]), PromQL evaluated
//! over them at one instant as Prometheus evaluates it ([`promql`]), and each risk's verdict
//! for each candidate target, as the CVO decides it, cross-checked with the CVO's own
//! verdicts in the dump ([`verdict`]).

pub mod catalogue;
pub mod promql;
pub mod series;
pub mod verdict;
