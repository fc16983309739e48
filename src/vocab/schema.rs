//! Identifiers of the JSON documents mglint writes, one per document kind, so a consumer
//! can tell a report from a timeline without guessing from its shape. A document's shape
//! only grows within one identifier; a breaking change gets a new `vN`.

/// `mglint analyze --format json`: the findings report.
pub const REPORT: &str = "mglint/report/v1";
/// `mglint summary --format json`.
pub const SUMMARY: &str = "mglint/summary/v1";
/// `mglint timeline --format json`.
pub const TIMELINE: &str = "mglint/timeline/v1";
/// `mglint replay --format json`.
pub const REPLAY: &str = "mglint/replay/v1";
/// `mglint rules --format json`: the rule catalogue.
pub const RULES: &str = "mglint/rules/v1";
/// One JSON Lines row of `mglint batch` (v2: counts as lists of `{code, count}` and
/// `{kind, count}`, `summary` counts named as the report's, integer `duration_seconds`).
pub const BATCH_ROW: &str = "mglint/batch/v2";
/// `mglint status --format json`: the `oc adm upgrade status` assessment.
pub const STATUS: &str = "mglint/status/v1";
/// `mglint recommend --format json`: the `oc adm upgrade recommend` facts.
pub const RECOMMEND: &str = "mglint/recommend/v1";
