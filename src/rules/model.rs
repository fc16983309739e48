//! The finding and report model every emitter reads: severities, rule families, a rule's
//! declaration ([`RuleMeta`]) and the inputs it needs, findings with their object, time and
//! evidence, per-rule outcomes (each with its declaration) and the report itself. These types are
//! the `mglint/report/v2` JSON model (they serialize as-is), so field names are deliberate.

use crate::bundle::Bundle;
use crate::model::Time;
use serde::Serialize;

pub use crate::vocab::object::ObjectRef;
pub use crate::vocab::schema::REPORT as SCHEMA;
pub use crate::vocab::severity::Severity;
pub use crate::vocab::text::one_line;
pub use crate::vocab::time::fmt_short;
use std::borrow::{Borrow, Cow};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Text a rule declares (its code, slug, summary, help, page, a reference): the binary's own
/// for a built-in rule, owned by the declaration for a rule read from a file.
pub type Text = Cow<'static, str>;

/// A rule family: the code prefix and what it is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// `CV`: ClusterVersion status, history and conditions.
    ClusterVersion,
    /// `CO`: ClusterOperators.
    ClusterOperator,
    /// `MC`: MachineConfigPools and nodes.
    MachineConfig,
    /// `UH`: oc's Update Health (`oc adm upgrade status`) as findings.
    UpdateHealth,
    /// `LOG`: the CVO log.
    CvoLog,
    /// `CI`: CI job artifacts.
    Ci,
    /// `RC`: deviations from the reference reconciler (reserved).
    Reconciler,
    /// `IN`: ingestion problems.
    Ingestion,
    /// `KI`: the bundled known-issue catalogue (rule files, not in [`Family::ALL`]).
    KnownIssue,
    /// `X-`: local known-issue rules (rule files, not in [`Family::ALL`]).
    Local,
}

impl Family {
    /// Every built-in family, in catalogue order (known-issue rules are data: `KI`, `X-`).
    pub const ALL: [Family; 8] = [
        Family::ClusterVersion,
        Family::ClusterOperator,
        Family::MachineConfig,
        Family::UpdateHealth,
        Family::CvoLog,
        Family::Ci,
        Family::Reconciler,
        Family::Ingestion,
    ];

    /// The code prefix (`CV`, `CO`, …).
    pub fn prefix(self) -> &'static str {
        match self {
            Family::ClusterVersion => "CV",
            Family::ClusterOperator => "CO",
            Family::MachineConfig => "MC",
            Family::UpdateHealth => "UH",
            Family::CvoLog => "LOG",
            Family::Ci => "CI",
            Family::Reconciler => "RC",
            Family::Ingestion => "IN",
            Family::KnownIssue => "KI",
            Family::Local => "X-",
        }
    }

    /// The category name used in rule pages and reports (serde's).
    pub fn name(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }
}

/// The source text an evidence item points into, for the human view (not serialized): the
/// whole resource file (shared), or just the evidence line when the file text is not kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    pub text: crate::vocab::files::FileText,
    /// 1-based line number of the first line of `text`.
    pub first_line: u32,
    /// Byte range inside `text` that the evidence points at.
    pub span: (usize, usize),
}

/// One place that supports a finding: a file named by the input it belongs to and its path
/// inside that input (the same shape as the timeline's evidence), a line, a byte span, the text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EvidenceItem {
    /// The input the file belongs to, as the report's `inputs[].name` names it (empty for a
    /// file outside every input: a rule file).
    pub input: String,
    /// The path inside the input ('/'-separated; empty when the input is the file itself).
    pub path: String,
    /// 1-based line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Byte span `[start, end)` inside the file, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<(u64, u64)>,
    /// The line or field as read (one line).
    pub text: String,
    /// What this piece of evidence shows, in a few words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip)]
    pub snippet: Option<Snippet>,
}

impl EvidenceItem {
    /// Evidence in `path` inside `input` (see the fields).
    pub fn new(
        input: impl Into<String>,
        path: impl Into<String>,
        line: Option<u32>,
        text: impl Into<String>,
    ) -> Self {
        EvidenceItem {
            input: input.into(),
            path: path.into(),
            line,
            span: None,
            text: one_line(&text.into(), 300),
            label: None,
            snippet: None,
        }
    }

    /// Evidence at a provenance (its file, line and span), without the file's text.
    pub fn at(prov: &crate::model::Provenance, text: impl Into<String>) -> Self {
        EvidenceItem {
            span: prov.span,
            ..EvidenceItem::new(prov.file.input(), prov.file.path(), prov.line, text)
        }
    }

    /// `input/path` (the input alone when it is the file, the path alone outside inputs).
    pub fn display_path(&self) -> String {
        crate::vocab::files::join_path(&self.input, &self.path)
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }
}

/// How sure a rule is, and from which evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfidenceLevel {
    Low,
    Medium,
    High,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Confidence {
    pub level: ConfidenceLevel,
    /// Which evidence the conclusion rests on (e.g. `test-log`, `snapshot-equality`).
    pub basis: Vec<String>,
}

/// One machine-readable fact behind a finding's message, typed so that JSON carries numbers
/// as numbers, durations in seconds, lists as arrays and times in the one time format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Detail {
    Text(String),
    Count(u64),
    /// A duration, in whole seconds.
    Seconds(i64),
    List(Vec<String>),
    Time(Time),
}

impl Detail {
    /// The duration from `from` to `to`, in seconds.
    pub fn seconds(from: Time, to: Time) -> Detail {
        Detail::Seconds((to - from).num_seconds())
    }
}

impl From<String> for Detail {
    fn from(s: String) -> Self {
        Detail::Text(s)
    }
}

impl From<&str> for Detail {
    fn from(s: &str) -> Self {
        Detail::Text(s.to_string())
    }
}

impl From<usize> for Detail {
    fn from(n: usize) -> Self {
        Detail::Count(u64::try_from(n).unwrap_or(u64::MAX))
    }
}

impl From<Vec<String>> for Detail {
    fn from(l: Vec<String>) -> Self {
        Detail::List(l)
    }
}

impl From<Time> for Detail {
    fn from(t: Time) -> Self {
        Detail::Time(t)
    }
}

impl Detail {
    /// A status field's value as written: a time when it is one (so that it takes the one
    /// JSON time form), else the text.
    pub fn field_value(s: &str) -> Detail {
        match crate::vocab::time::parse_rfc3339(s) {
            Some(t) => Detail::Time(t),
            None => Detail::Text(s.to_string()),
        }
    }
}

impl std::fmt::Display for Detail {
    /// For people: text as is, durations as `13m55s`, lists comma-separated, times short.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Detail::Text(s) => f.write_str(s),
            Detail::Count(n) => write!(f, "{n}"),
            Detail::Seconds(s) => f.write_str(&crate::timeline::human_duration(
                chrono::TimeDelta::seconds(*s),
            )),
            Detail::List(l) => f.write_str(&l.join(", ")),
            Detail::Time(t) => f.write_str(&fmt_short(t)),
        }
    }
}

/// A finding's details by name, in name order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Details(BTreeMap<&'static str, Detail>);

impl Details {
    /// Sets a detail (text, a count, seconds, a list or a time). A duration's name ends in
    /// `_seconds`, as every document names its durations.
    pub fn insert(&mut self, key: &'static str, value: impl Into<Detail>) {
        let value = value.into();
        debug_assert!(
            !matches!(value, Detail::Seconds(_)) || key.ends_with("_seconds"),
            "the duration detail `{key}` is named `*_seconds`"
        );
        self.0.insert(key, value);
    }
    pub fn get(&self, key: &str) -> Option<&Detail> {
        self.0.get(key)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &Detail)> {
        self.0.iter().map(|(k, v)| (*k, v))
    }
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&'static str, &mut Detail)> {
        self.0.iter_mut().map(|(k, v)| (*k, v))
    }
}

impl std::ops::Index<&str> for Details {
    type Output = Detail;
    /// The detail named `key` (panics when absent, as a map's index does; for tests).
    fn index(&self, key: &str) -> &Detail {
        &self.0[key]
    }
}

impl Detail {
    /// Whether the text form (see [`Detail`]'s `Display`) is `s`, without building it.
    fn text_is(&self, s: &str) -> bool {
        /// Consumes `rest` as the text is written; fails on the first difference.
        struct Matcher<'a>(&'a str);
        impl std::fmt::Write for Matcher<'_> {
            fn write_str(&mut self, piece: &str) -> std::fmt::Result {
                self.0 = self.0.strip_prefix(piece).ok_or(std::fmt::Error)?;
                Ok(())
            }
        }
        let mut m = Matcher(s);
        std::fmt::write(&mut m, format_args!("{self}")).is_ok() && m.0.is_empty()
    }
}

impl PartialEq<String> for Detail {
    /// Compares the text form (see [`Detail`]'s `Display`).
    fn eq(&self, other: &String) -> bool {
        self.text_is(other)
    }
}

impl PartialEq<&str> for Detail {
    /// Compares the text form (see [`Detail`]'s `Display`).
    fn eq(&self, other: &&str) -> bool {
        self.text_is(other)
    }
}

/// One problem found, with where and when.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub code: Text,
    pub name: Text,
    pub severity: Severity,
    pub category: &'static str,
    pub message: String,
    pub object: ObjectRef,
    /// When the problem happened or was observed (UTC), if known.
    pub at: Option<Time>,
    pub evidence: Vec<EvidenceItem>,
    pub help: String,
    pub references: Vec<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    /// Machine-readable facts behind the message (target, running release, durations…).
    #[serde(skip_serializing_if = "Details::is_empty")]
    pub details: Details,
}

impl Finding {
    /// The order findings are reported in: most severe first, then code, object, time, text.
    pub fn sort_key(&self) -> impl Ord + '_ {
        (
            std::cmp::Reverse(self.severity),
            &self.code,
            &self.object,
            self.at,
            &self.message,
            self.evidence.first().map(|e| (&e.input, &e.path, e.line)),
        )
    }
}

/// Whether a rule ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ran,
    Skipped,
}

/// An input kind a rule can need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Input {
    ClusterVersion,
    ClusterOperators,
    Nodes,
    MachineConfigPools,
    /// Firing alerts (an alerts API response, `oc adm inspect-alerts`).
    Alerts,
    CvoLog,
    CvoPods,
    Events,
    /// CI test logs (monitor and e2e lines) or monitor intervals.
    CiTestLog,
    Junit,
    /// Always present (ingestion itself).
    Files,
}

impl Input {
    pub fn describe(self) -> &'static str {
        match self {
            Input::ClusterVersion => "a ClusterVersion",
            Input::ClusterOperators => "ClusterOperators",
            Input::Nodes => "Nodes",
            Input::MachineConfigPools => "MachineConfigPools",
            Input::Alerts => "alerts",
            Input::CvoLog => "a CVO log",
            Input::CvoPods => "CVO pods",
            Input::Events => "events",
            Input::CiTestLog => "a CI test log or monitor intervals",
            Input::Junit => "JUnit results",
            Input::Files => "files",
        }
    }

    /// Whether the bundle holds this input.
    pub fn present(self, b: &Bundle) -> bool {
        match self {
            Input::ClusterVersion => !b.objects.cluster_versions.is_empty(),
            Input::ClusterOperators => !b.objects.cluster_operators.is_empty(),
            Input::Nodes => !b.objects.nodes.is_empty(),
            Input::MachineConfigPools => !b.objects.pools.is_empty(),
            Input::Alerts => !b.objects.alerts.is_empty(),
            Input::CvoLog => b.cvo_logs.iter().any(|l| !l.records.is_empty()),
            Input::CvoPods => !b.objects.cvo_pods.is_empty(),
            Input::Events => !b.objects.events.is_empty(),
            Input::CiTestLog => !b.text_lines.is_empty() || !b.intervals.is_empty(),
            Input::Junit => !b.junit.is_empty(),
            Input::Files => true,
        }
    }
}

/// A list a rule declares ([`RuleMeta::needs`], [`RuleMeta::references`]): the binary's own
/// for a built-in rule, owned by the declaration for a rule read from a file. Two lists are
/// equal when their items are, whichever way they are held.
#[derive(Debug)]
pub enum Listed<T: ?Sized + 'static, O> {
    /// A built-in rule's list (`declare_rule!`).
    Static(&'static [&'static T]),
    /// A rule file's list.
    Owned(Vec<O>),
}

impl<T: ?Sized, O: Borrow<T>> Listed<T, O> {
    /// The items, in declared order.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        let (listed, owned): (&[&T], &[O]) = match self {
            Listed::Static(s) => (s, &[]),
            Listed::Owned(v) => (&[], v),
        };
        listed
            .iter()
            .copied()
            .chain(owned.iter().map(Borrow::borrow))
    }

    pub fn len(&self) -> usize {
        match self {
            Listed::Static(s) => s.len(),
            Listed::Owned(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: ?Sized + PartialEq, O: Borrow<T>> PartialEq for Listed<T, O> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<T: ?Sized + Eq, O: Borrow<T>> Eq for Listed<T, O> {}

impl Listed<str, String> {
    /// The references as a finding carries them (a built-in rule's borrowed, not copied).
    pub fn texts(&self) -> Vec<Text> {
        match self {
            Listed::Static(s) => s.iter().map(|r| Text::Borrowed(r)).collect(),
            Listed::Owned(v) => v.iter().map(|r| Text::Owned(r.clone())).collect(),
        }
    }
}

/// The input groups a rule needs: every group must be present; within a group any one input
/// will do.
pub type InputGroups = Listed<[Input], Vec<Input>>;

/// The URLs a rule's findings refer to.
pub type References = Listed<str, String>;

/// The declaration of a rule: a built-in rule's is a `static` (`declare_rule!`), a
/// known-issue rule's is built from its file and lives as long as the rule ([`MetaRef`]).
#[derive(Debug, PartialEq, Eq)]
pub struct RuleMeta {
    /// Stable code with the family prefix (`CV001`).
    pub code: Text,
    /// Stable kebab-case slug (`history-completion-rewritten`).
    pub name: Text,
    pub severity: Severity,
    pub family: Family,
    /// One line for `mglint rules`.
    pub summary: Text,
    /// The inputs needed: every group must be present; within a group any one input will do.
    pub needs: InputGroups,
    /// The facts the rule reads beside the bundle and the timeline, computed before any rule
    /// runs (see `rules::facts`).
    pub facts: &'static [super::facts::Fact],
    /// Default help (an imperative fragment).
    pub help: Text,
    pub references: References,
    /// The rule's page (`rules/<CODE>-<slug>.md`), embedded.
    pub page: Text,
}

/// A rule's declaration as a run holds it: a built-in rule's `static`, or a known-issue
/// rule's, shared by the rule and the outcomes of the reports it ran in. Dereferences to the
/// [`RuleMeta`]; cloning is a pointer copy or a reference count.
#[derive(Debug, Clone)]
pub enum MetaRef {
    Static(&'static RuleMeta),
    Shared(Arc<RuleMeta>),
}

impl std::ops::Deref for MetaRef {
    type Target = RuleMeta;

    fn deref(&self) -> &RuleMeta {
        match self {
            MetaRef::Static(m) => m,
            MetaRef::Shared(m) => m,
        }
    }
}

impl PartialEq for MetaRef {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for MetaRef {}

impl RuleMeta {
    /// The input groups this rule needs that the bundle lacks.
    pub fn absent_groups(&self, b: &Bundle) -> Vec<&[Input]> {
        self.needs
            .iter()
            .filter(|group| !group.iter().any(|i| i.present(b)))
            .collect()
    }

    /// Why the rule cannot run on this bundle, if it cannot.
    pub fn missing_inputs(&self, b: &Bundle) -> Option<String> {
        let missing: Vec<String> = self
            .needs
            .iter()
            .filter(|group| !group.iter().any(|i| i.present(b)))
            .map(|group| {
                group
                    .iter()
                    .map(|i| i.describe())
                    .collect::<Vec<_>>()
                    .join(" or ")
            })
            .collect();
        (!missing.is_empty()).then(|| format!("needs {}", missing.join(" and ")))
    }

    /// Whether this rule's code is named by a selector (a full code or a prefix, any case).
    pub fn matches(&self, selector: &str) -> bool {
        let s = selector.trim().to_ascii_uppercase();
        !s.is_empty() && (s == "ALL" || self.code.starts_with(&s))
    }

    /// The page file name (`CV001-history-completion-rewritten.md`).
    pub fn page_file(&self) -> String {
        format!("{}-{}.md", self.code, self.name)
    }

    /// The rule's whole page in Markdown: a title and facts line made from the declaration,
    /// the page's own text (`rules/<CODE>-<slug>.md`, which repeats none of it), and the
    /// references.
    pub fn render_page(&self) -> String {
        let needs: Vec<String> = self
            .needs
            .iter()
            .map(|g| {
                g.iter()
                    .map(|i| i.describe())
                    .collect::<Vec<_>>()
                    .join(" or ")
            })
            .collect();
        let mut s = format!(
            "# {} `{}`\n\n{} · {} · needs {}\n\n{}",
            self.code,
            self.name,
            self.severity,
            self.family.name(),
            needs.join(" and "),
            self.page.trim_end()
        );
        s.push('\n');
        // A known-issue rule's page lists its references itself (with their kinds).
        if !self.references.is_empty() && !self.page.contains("\n## References\n") {
            s.push_str("\n## References\n\n");
            for r in self.references.iter() {
                s.push_str(&format!("- <{r}>\n"));
            }
        }
        s
    }
}

/// What happened to one rule in a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleOutcome {
    /// The rule's declaration, for the emitters that describe the rules (SARIF's rule table,
    /// HTML's rule pages); not serialized (the fields below are its JSON).
    #[serde(skip)]
    pub meta: MetaRef,
    pub code: Text,
    pub name: Text,
    pub severity: Severity,
    pub category: &'static str,
    pub status: Status,
    /// Why the rule was skipped (the inputs it needed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub findings: usize,
}

impl RuleOutcome {
    /// The outcome of the rule `meta` declares.
    pub fn new(
        meta: &MetaRef,
        status: Status,
        reason: Option<String>,
        findings: usize,
    ) -> RuleOutcome {
        RuleOutcome {
            meta: meta.clone(),
            code: meta.code.clone(),
            name: meta.name.clone(),
            severity: meta.severity,
            category: meta.family.name(),
            status,
            reason,
            findings,
        }
    }
}

/// Counts by severity and by rule outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub info: usize,
    pub rules_ran: usize,
    pub rules_skipped: usize,
}

/// One input as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportInput {
    pub name: String,
    pub kind: String,
    pub files_read: u64,
    /// Must-gather roots found inside (paths relative to the input); emitters show evidence
    /// paths relative to them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub must_gather_roots: Vec<String>,
    /// Insights operator archive roots found inside (see
    /// [`crate::bundle::InputInfo::insights_roots`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub insights_roots: Vec<String>,
    /// What the input is, in words for the inputs list
    /// ([`crate::bundle::InputInfo::kind_label`]: its kind, or "Insights archive").
    #[serde(skip)]
    pub label: String,
}

impl ReportInput {
    /// What the input is, in words: [`ReportInput::label`], else its kind.
    pub fn kind_label(&self) -> &str {
        if self.label.is_empty() {
            &self.kind
        } else {
            &self.label
        }
    }
}

/// Everything one `analyze` run found; the `mglint/report/v2` report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub schema: &'static str,
    pub tool: Tool,
    /// The cluster the report speaks of (its ID and the update it shows).
    pub cluster: crate::bundle::ClusterIdentity,
    pub inputs: Vec<ReportInput>,
    /// Inputs that could not be opened at all (a missing path, an archive that is not one):
    /// with any, the report covers only the other inputs.
    pub input_errors: Vec<String>,
    /// Inputs the selected rules need that are not in the input at all (no ClusterVersion,
    /// no CVO log), each with the rules it kept from running, most rules first.
    pub absent: Vec<AbsentInput>,
    /// When the data was collected (or the latest time seen in it).
    pub collected_at: Option<Time>,
    pub fail_on: Severity,
    /// The settings the run used: the settings file read (none: `null`) and the selection.
    pub settings: ReportSettings,
    /// Input files that could not be read (each also an `IN001` finding): what they held is
    /// missing from every rule, so a report with any is incomplete.
    pub unread: Vec<crate::bundle::Unread>,
    pub summary: Counts,
    pub findings: Vec<Finding>,
    pub rules: Vec<RuleOutcome>,
    /// The published update risks the cluster's last, requested and offered updates were
    /// exposed to (applying or not evaluable), when CV025 ran: the Markdown and HTML reports'
    /// "Published update risks" section. Not in the JSON report, whose CV025 findings carry
    /// the applying ones (`mglint risks --format json` has every verdict).
    #[serde(skip)]
    pub published_risks: Vec<crate::risks::exposure::Exposure>,
    /// The cincinnati-graph-data commit those risks were read from (the bundled snapshot's,
    /// or the `--risks` checkout's; empty when unknown).
    #[serde(skip)]
    pub published_risks_commit: String,
}

/// An input kind the rules need that the input does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AbsentInput {
    /// The kind in words: "a CVO log", or the alternatives ("a ClusterVersion or a CVO log").
    pub input: String,
    /// The rules it kept from running.
    pub rules: Vec<Text>,
}

impl AbsentInput {
    /// "no CVO log in the input", "neither a ClusterVersion nor a CVO log in the input".
    pub fn headline(&self) -> String {
        let bare = |s: &str| {
            s.strip_prefix("a ")
                .or_else(|| s.strip_prefix("an "))
                .unwrap_or(s)
                .to_string()
        };
        let parts: Vec<&str> = self.input.split(" or ").collect();
        match parts.as_slice() {
            [one] => format!("no {} in the input", bare(one)),
            [a, b] => format!("neither {a} nor {b} in the input"),
            _ => format!("none of {} in the input", parts.join(", ")),
        }
    }
}

/// Which settings a report was made with.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ReportSettings {
    /// The settings file read (`mglint.toml` or `--config`), as its path.
    pub file: Option<String>,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
}

/// The tool that wrote a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

impl Default for Tool {
    fn default() -> Self {
        Tool {
            name: "mglint",
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

impl Report {
    /// The declaration of a rule this report ran or skipped, by code.
    pub fn rule(&self, code: &str) -> Option<&RuleMeta> {
        self.rules.iter().find(|o| o.code == code).map(|o| &*o.meta)
    }

    /// A report of nothing: no input, finding or rule (what the emitters write when no input
    /// could be read at all).
    pub fn empty() -> Report {
        Report {
            schema: SCHEMA,
            tool: Tool::default(),
            cluster: crate::bundle::ClusterIdentity::default(),
            inputs: Vec::new(),
            input_errors: Vec::new(),
            absent: Vec::new(),
            collected_at: None,
            fail_on: Severity::Error,
            settings: ReportSettings::default(),
            unread: Vec::new(),
            summary: Counts::default(),
            findings: Vec::new(),
            rules: Vec::new(),
            published_risks: Vec::new(),
            published_risks_commit: String::new(),
        }
    }

    /// 1 when a finding at or above `fail_on` exists, else 0.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.failed())
    }

    /// Whether any finding is at or above the fail level.
    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.severity >= self.fail_on)
    }

    /// Whether some input file could not be read, so that "passes" cannot be said.
    pub fn incomplete(&self) -> bool {
        !self.unread.is_empty() || !self.input_errors.is_empty()
    }

    /// Why the report is incomplete, in words (`None` when it is complete): the inputs that
    /// could not be opened and the input files that could not be read (`IN001`).
    pub fn incomplete_reason(&self) -> Option<String> {
        let n = crate::vocab::text::plural;
        let mut parts = Vec::new();
        if !self.input_errors.is_empty() {
            parts.push(format!(
                "{} could not be opened",
                n(self.input_errors.len(), "input", "inputs")
            ));
        }
        if !self.unread.is_empty() {
            parts.push(format!(
                "{} could not be read (IN001)",
                n(self.unread.len(), "input file", "input files")
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// The verdict at the fail level: "fails", "passes", or "is incomplete" when nothing
    /// failed but some input file could not be read.
    pub fn verdict(&self) -> &'static str {
        if self.failed() {
            "fails"
        } else if self.incomplete() {
            "is incomplete"
        } else {
            "passes"
        }
    }

    /// The outcome of one rule, if it was selected.
    pub fn outcome(&self, code: &str) -> Option<&RuleOutcome> {
        self.rules.iter().find(|r| r.code == code)
    }

    /// The findings of one rule.
    pub fn findings_of<'a>(&'a self, code: &'a str) -> impl Iterator<Item = &'a Finding> + 'a {
        self.findings.iter().filter(move |f| f.code == code)
    }

    /// The rules that did not run because their inputs were absent.
    pub fn skipped(&self) -> impl Iterator<Item = &RuleOutcome> {
        self.rules.iter().filter(|r| r.status == Status::Skipped)
    }
}
