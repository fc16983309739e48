//! Identifiers of the JSON documents mglint writes, one per document kind, so a consumer
//! can tell a report from a timeline without guessing from its shape. A document's shape
//! only grows within one identifier; a breaking change gets a new `vN`.

/// `mglint analyze --format json`: the findings report (v2: evidence names its input and
/// the path inside it apart, with its byte span, as the timeline's evidence does; durations
/// in details are integer `*_seconds`).
pub const REPORT: &str = "mglint/report/v2";
/// `mglint summary --format json` (v2: CVO logs and unread files name their input and the
/// path inside it apart).
pub const SUMMARY: &str = "mglint/summary/v2";
/// `mglint timeline --format json` (v2: evidence is flat, `{input, path, line, span, text}`,
/// as the report's is; an event names what it is about as `object: {kind, namespace, name}`,
/// as findings do; JUnit durations are integer `duration_seconds`).
pub const TIMELINE: &str = "mglint/timeline/v2";
/// `mglint replay --format json`.
pub const REPLAY: &str = "mglint/replay/v1";
/// `mglint rules --format json`: the rule catalogue.
pub const RULES: &str = "mglint/rules/v1";
/// One JSON Lines row of `mglint batch` (v2: counts as lists of `{code, count}` and
/// `{kind, count}`, `summary` counts named as the report's, integer `duration_seconds`).
pub const BATCH_ROW: &str = "mglint/batch/v2";
/// `mglint status --format json`: the `oc adm upgrade status` assessment.
///
/// v2: unread files name their input and the path inside it apart, as every document does.
pub const STATUS: &str = "mglint/status/v2";
/// `mglint recommend --format json`: the `oc adm upgrade recommend` facts.
pub const RECOMMEND: &str = "mglint/recommend/v1";
/// `mglint risks --format json`: the published update risks judged against a dump.
pub const RISKS: &str = "mglint/risks/v1";
/// `mglint fetch --format json`: what a fetch of a CI job downloaded, and the bytes it cost.
pub const FETCH: &str = "mglint/fetch/v1";
