//! The rule file format as written: serde types for one known-issue rule (or a list of them
//! per file), every mapping closed (`deny_unknown_fields`), so a misspelt key is an error at
//! its line. Values are checked and compiled in [`crate::rules::known::compile`]; the JSON
//! Schema of this format is `docs/schemas/known-issue-rule.schema.json`.

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

/// A rule file: one rule (a mapping) or several (a sequence).
#[derive(Debug)]
pub struct RuleFile(pub Vec<RuleDef>);

impl<'de> Deserialize<'de> for RuleFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RuleFile;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a rule (a mapping with `code`, `name`, …) or a list of rules")
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<RuleFile, A::Error> {
                RuleDef::deserialize(de::value::MapAccessDeserializer::new(m))
                    .map(|r| RuleFile(vec![r]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<RuleFile, A::Error> {
                Vec::<RuleDef>::deserialize(de::value::SeqAccessDeserializer::new(s)).map(RuleFile)
            }
        }
        d.deserialize_any(V)
    }
}

/// One rule as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RuleDef {
    /// `KI001` (bundled catalogue) or `X-…` (local rules).
    pub code: String,
    /// Kebab-case slug.
    pub name: String,
    pub severity: crate::vocab::severity::Severity,
    /// One line for `mglint rules` (no trailing period).
    pub summary: String,
    /// The finding's message, with `{placeholders}`.
    pub message: String,
    /// What to do (an imperative fragment, no trailing period).
    pub help: String,
    #[serde(default)]
    pub references: Vec<Reference>,
    /// The releases the problem exists in (`>=4.12, <4.14.8`); absent: every release.
    #[serde(default)]
    pub affects: Option<String>,
    /// The first fixed release of each minor stream (`[4.13.30, 4.14.8]`).
    #[serde(default)]
    pub fixed_in: Vec<String>,
    /// The page's text (Markdown): what it flags, why it matters, how to fix.
    #[serde(default)]
    pub description: Option<String>,
    /// How the signature was verified (for the page).
    #[serde(default)]
    pub verified: Option<String>,
    #[serde(rename = "match")]
    pub matcher: Matcher,
    #[serde(default)]
    pub tests: Vec<TestCase>,
}

/// A public reference.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    pub url: String,
    pub kind: RefKind,
    #[serde(default)]
    pub title: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum RefKind {
    /// Bugzilla or Jira (OCPBUGS).
    Bug,
    /// A Red Hat knowledge-base article (KCS).
    Kcs,
    /// Product or project documentation.
    Docs,
}

impl RefKind {
    pub fn name(self) -> &'static str {
        match self {
            RefKind::Bug => "bug",
            RefKind::Kcs => "KCS",
            RefKind::Docs => "docs",
        }
    }
}

/// A test case: an input (relative to the rule file) and whether the rule must fire on it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestCase {
    pub input: String,
    pub fires: bool,
}

/// What a rule matches: one matcher, or a combination. Written as a mapping with exactly
/// one key (`logs: {…}`, `all: [...]`).
#[derive(Debug)]
pub enum Matcher {
    Objects(ObjectMatch),
    Logs(LogMatch),
    Events(EventMatch),
    Intervals(IntervalMatch),
    Cvo(CvoMatch),
    /// Every matcher matches (the findings are the first one's).
    All(Vec<Matcher>),
    /// Some matcher matches (the findings of each).
    Any(Vec<Matcher>),
    /// The matcher does not match.
    Not(Box<Matcher>),
}

/// The matcher keys.
const MATCHERS: &[&str] = &[
    "objects",
    "logs",
    "events",
    "intervals",
    "cvo",
    "all",
    "any",
    "not",
];

impl<'de> Deserialize<'de> for Matcher {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Matcher;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a matcher: a mapping with one of the keys objects, logs, events, intervals, cvo, all, any, not")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Matcher, A::Error> {
                let Some(key) = m.next_key::<String>()? else {
                    return Err(de::Error::custom(
                        "an empty matcher: give one of objects, logs, events, intervals, cvo, all, any, not",
                    ));
                };
                let out = match key.as_str() {
                    "objects" => Matcher::Objects(m.next_value()?),
                    "logs" => Matcher::Logs(m.next_value()?),
                    "events" => Matcher::Events(m.next_value()?),
                    "intervals" => Matcher::Intervals(m.next_value()?),
                    "cvo" => Matcher::Cvo(m.next_value()?),
                    "all" => Matcher::All(m.next_value()?),
                    "any" => Matcher::Any(m.next_value()?),
                    "not" => Matcher::Not(Box::new(m.next_value()?)),
                    other => return Err(de::Error::unknown_variant(other, MATCHERS)),
                };
                if let Some(k) = m.next_key::<String>()? {
                    return Err(de::Error::custom(format!(
                        "`{k}` next to `{key}`: a matcher has one key; combine matchers with `all` or `any`"
                    )));
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

/// Objects of one kind.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectMatch {
    /// The Kubernetes `kind`.
    pub kind: String,
    /// Where a must-gather keeps the kind: `group/plural` (`policy/poddisruptionbudgets`);
    /// absent: the kind's lower-case plural in any group.
    #[serde(default)]
    pub resource: Option<String>,
    /// Glob over `metadata.name`.
    #[serde(default)]
    pub name: Option<String>,
    /// Glob over `metadata.namespace`.
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub fields: Vec<FieldMatch>,
    #[serde(default)]
    pub conditions: Vec<ConditionMatch>,
}

/// A test on a field path (`spec.credentialsMode`, `status.conditions[*].reason`,
/// `metadata.annotations["a.b/c"]`). Every test given must hold on one value.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldMatch {
    pub path: String,
    #[serde(default)]
    pub exists: Option<bool>,
    #[serde(default)]
    pub equals: Option<serde_json::Value>,
    #[serde(default)]
    pub regex: Option<String>,
    #[serde(default)]
    pub gt: Option<f64>,
    #[serde(default)]
    pub lt: Option<f64>,
}

/// A `status.conditions` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionMatch {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(default)]
    pub status: Option<String>,
    /// Regex over the reason.
    #[serde(default)]
    pub reason: Option<String>,
    /// Regex over the message.
    #[serde(default)]
    pub message: Option<String>,
}

/// A time window relative to the timeline's episodes.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Window {
    /// Inside an update episode.
    Update,
    /// Inside a stall episode.
    Stall,
    /// After the first update started.
    AfterUpdateStart,
}

impl Window {
    pub fn name(self) -> &'static str {
        match self {
            Window::Update => "during an update",
            Window::Stall => "during a stall",
            Window::AfterUpdateStart => "after the update started",
        }
    }
}

/// Lines of container logs.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LogMatch {
    /// Glob over the namespace.
    pub namespace: String,
    #[serde(default = "star")]
    pub pod: String,
    #[serde(default = "star")]
    pub container: String,
    /// Which files (default: all).
    #[serde(default)]
    pub files: Vec<crate::vocab::wants::LogFile>,
    /// Regex over each line (the CVO's: each record's message).
    pub regex: String,
    #[serde(default = "one")]
    pub min_count: u64,
    #[serde(default)]
    pub window: Option<Window>,
}

/// Kubernetes events.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct EventMatch {
    /// Glob over the event's namespace (default: every namespace read).
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    /// Least number of occurrences (summing `count`) per involved object.
    #[serde(default = "one")]
    pub min_count: u64,
}

/// Monitor intervals.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntervalMatch {
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub locator: Option<String>,
}

/// Typed CVO facts from the timeline: exactly one of `precondition` and `sync`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CvoMatch {
    #[serde(default)]
    pub precondition: Option<PreconditionMatch>,
    #[serde(default)]
    pub sync: Option<SyncMatch>,
}

/// A failed precondition (`Precondition "X" failed`, `PreconditionBlock`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreconditionMatch {
    /// Regex over the precondition's name (`ClusterVersionUpgradeable`).
    #[serde(default)]
    pub name: Option<String>,
    /// Regex over the reason.
    #[serde(default)]
    pub reason: Option<String>,
}

/// CVO sync passes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SyncMatch {
    /// `Initializing`, `Updating` or `Reconciling`.
    #[serde(default)]
    pub state: Option<String>,
    /// Only passes that ended with errors.
    #[serde(default)]
    pub failing: Option<bool>,
    /// Regex over the pass's errors.
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default = "one")]
    pub min_count: u64,
}

fn star() -> String {
    "*".to_string()
}

fn one() -> u64 {
    1
}
