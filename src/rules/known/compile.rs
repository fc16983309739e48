//! Checking a rule as written and compiling it: codes in their namespace (`KI…` bundled,
//! `X-…` local, never a built-in code or prefix), slugs, version ranges, regexes, globs,
//! field paths and the message template, each error pointing at the value in the YAML.

use super::error::RuleFileError;
use super::format::*;
use super::template::{BUILTIN, Template};
use super::version::Range;
use crate::rules::Input;
use crate::rules::model::Family;
use crate::vocab::field_path::{self, Seg};
use crate::vocab::glob::Glob;
use crate::vocab::wants::{LogFiles, ResourceWant};
use regex::Regex;
use semver::Version;

/// Where a rule file comes from: the bundled catalogue (codes `KI…`) or a local directory
/// (codes `X-…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Bundled,
    Local,
}

#[derive(Debug)]
pub struct CField {
    pub path: Vec<Seg>,
    pub text: String,
    pub exists: Option<bool>,
    pub equals: Option<serde_json::Value>,
    pub regex: Option<Regex>,
    pub gt: Option<f64>,
    pub lt: Option<f64>,
}

#[derive(Debug)]
pub struct CCondition {
    pub type_: String,
    pub status: Option<String>,
    pub reason: Option<Regex>,
    pub message: Option<Regex>,
}

#[derive(Debug)]
pub struct CObjects {
    pub kind: String,
    pub resource: ResourceWant,
    pub name: Option<Glob>,
    pub namespace: Option<Glob>,
    pub fields: Vec<CField>,
    pub conditions: Vec<CCondition>,
}

/// Substrings one of which every match of `pattern` starts with, so a line holding none of
/// them cannot match: the longest prefix all of the regex's prefix literals share when it is
/// at least 3 bytes, else those literals when they are at most 16 and none is empty; `None`
/// when the regex has no such literals (it may match anything, or too many strings to list).
pub fn line_literals(pattern: &str) -> Option<Vec<String>> {
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let mut ex = Extractor::new();
    ex.kind(ExtractKind::Prefix);
    let seq = ex.extract(&hir);
    let lits = seq.literals()?;
    if lits.is_empty() || lits.iter().any(|l| l.as_bytes().is_empty()) {
        return None;
    }
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).ok();
    if let Some(lcp) = seq.longest_common_prefix()
        && lcp.len() >= 3
    {
        // Cut to a character boundary: the prefix of two UTF-8 literals may end inside one.
        let s = String::from_utf8_lossy(lcp);
        let s = s.trim_end_matches('\u{fffd}');
        if s.len() >= 3 {
            return Some(vec![s.to_string()]);
        }
    }
    if lits.len() > 16 {
        return None;
    }
    lits.iter().map(|l| text(l.as_bytes())).collect()
}

impl CObjects {
    /// Keys every object this matcher matches holds: the last key of each field test that
    /// needs a value there (all but `exists: false`), when it is plain ASCII (letters,
    /// digits, `-`, `_`, `.`), so it appears as written in any YAML or JSON the object is in.
    pub fn required_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .fields
            .iter()
            .filter(|f| f.exists != Some(false))
            .filter_map(|f| {
                f.path.iter().rev().find_map(|s| match s {
                    Seg::Key(k) => Some(k),
                    _ => None,
                })
            })
            .filter(|k| {
                !k.is_empty()
                    && k.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            })
            .cloned()
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }
}

#[derive(Debug)]
pub struct CLogs {
    pub namespace: Glob,
    pub pod: Glob,
    pub container: Glob,
    pub files: LogFiles,
    pub regex: Regex,
    /// Substrings one of which every line the regex matches holds (see [`line_literals`]).
    pub literals: Option<Vec<String>>,
    pub min_count: u64,
    pub window: Option<Window>,
}

#[derive(Debug)]
pub struct CEvents {
    pub namespace: Option<Glob>,
    pub reason: Option<Regex>,
    pub message: Option<Regex>,
    pub min_count: u64,
}

#[derive(Debug)]
pub struct CIntervals {
    pub source: Option<Regex>,
    pub reason: Option<Regex>,
    pub message: Option<Regex>,
    pub locator: Option<Regex>,
}

#[derive(Debug)]
pub struct CPrecondition {
    pub name: Option<Regex>,
    pub reason: Option<Regex>,
}

#[derive(Debug)]
pub struct CSync {
    pub state: Option<String>,
    pub failing: Option<bool>,
    pub error: Option<Regex>,
    pub min_count: u64,
}

/// A compiled matcher.
#[derive(Debug)]
pub enum CMatcher {
    Objects(CObjects),
    Logs(CLogs),
    Events(CEvents),
    Intervals(CIntervals),
    Precondition(CPrecondition),
    Sync(CSync),
    All(Vec<CMatcher>),
    Any(Vec<CMatcher>),
    Not(Box<CMatcher>),
}

/// A rule, checked and compiled (the declaration is built from it in
/// [`crate::rules::known::rule`]).
#[derive(Debug)]
pub struct Compiled {
    pub def: RuleDef,
    pub matcher: CMatcher,
    pub message: Template,
    pub affects: Option<Range>,
    pub fixed_in: Vec<Version>,
    /// The rule's own text in its file (for the page).
    pub source: String,
}

/// A rule's problem (boxed: it carries the file's text for its span).
pub type Failure = Box<RuleFileError>;

/// `with_help` on a boxed problem.
trait Help {
    fn with_help(self, help: impl Into<String>) -> Self;
}

impl Help for Failure {
    fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// The longest regex source a rule may give (the compiled program is bounded as well, to
/// 1 MiB, by the regex crate's size limit).
pub const MAX_REGEX_LEN: usize = 64 << 10;

/// The longest rule code: a code is in every finding, heading and JUnit case name.
pub const MAX_CODE_LEN: usize = 64;

/// The context errors are made in: the file, its text, and the rule's part of it.
pub struct Ctx<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub from: usize,
    pub to: usize,
    pub code: String,
}

impl Ctx<'_> {
    /// The first occurrence of `needle` inside this rule's text (else of `key:`), as a span.
    fn find(&self, key: &str, needle: &str) -> Option<(usize, usize)> {
        let part = &self.text[self.from..self.to];
        if !needle.is_empty()
            && let Some(i) = part.find(needle)
        {
            return Some((self.from + i, needle.len()));
        }
        let k = format!("{key}:");
        part.find(&k).map(|i| (self.from + i, k.len()))
    }

    fn err(&self, key: &str, needle: &str, message: impl Into<String>) -> Failure {
        let at = self.find(key, needle).or(Some((self.from, 1)));
        Box::new(RuleFileError::at(self.path, self.text, at, message).in_rule(&self.code))
    }

    /// An error `offset` bytes into the value `needle` (a regex or range error's place).
    fn err_in(
        &self,
        key: &str,
        needle: &str,
        offset: usize,
        message: impl Into<String>,
    ) -> Failure {
        let at = match self.find(key, needle) {
            Some((s, l)) if l == needle.len() && offset < needle.len() => Some((s + offset, 1)),
            other => other.or(Some((self.from, 1))),
        };
        Box::new(RuleFileError::at(self.path, self.text, at, message).in_rule(&self.code))
    }

    fn regex(&self, key: &str, s: &str, names: &mut Vec<String>) -> Result<Regex, Failure> {
        // Before the regex crate parses it: a 4 MB literal took 400 MB to reach the compiled
        // size limit. No log signature is anywhere near this long.
        if s.len() > MAX_REGEX_LEN {
            return Err(self.err(
                key,
                &s[..crate::vocab::text::floor_char_boundary(s, 64)],
                format!(
                    "`{key}` is {} bytes long; a regex has at most {MAX_REGEX_LEN}",
                    s.len()
                ),
            ));
        }
        let re = regex::RegexBuilder::new(s)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| {
                let detail = e.to_string();
                let last = detail.lines().last().unwrap_or("").trim().to_string();
                self.err(
                    key,
                    s,
                    format!(
                        "`{key}` is not a valid regex: {}",
                        last.trim_start_matches("error: ")
                    ),
                )
                .with_help("the regex crate's syntax (no look-around or backreferences)")
            })?;
        names.extend(re.capture_names().flatten().map(str::to_string));
        Ok(re)
    }

    fn opt_regex(
        &self,
        key: &str,
        s: &Option<String>,
        names: &mut Vec<String>,
    ) -> Result<Option<Regex>, Failure> {
        s.as_deref().map(|s| self.regex(key, s, names)).transpose()
    }

    fn glob(&self, key: &str, s: &str) -> Result<Glob, Failure> {
        Glob::new(s).map_err(|e| {
            self.err_in(
                key,
                s,
                e.offset,
                format!("`{key}` is not a valid glob: {e}"),
            )
        })
    }

    fn opt_glob(&self, key: &str, s: &Option<String>) -> Result<Option<Glob>, Failure> {
        s.as_deref().map(|s| self.glob(key, s)).transpose()
    }
}

/// The resource a kind is kept under: `group/plural` as written, else the kind's naive
/// lower-case plural in any group.
fn resource_of(kind: &str, resource: Option<&str>) -> Option<ResourceWant> {
    match resource {
        Some(r) => {
            let (g, p) = r.split_once('/')?;
            (!g.is_empty() && !p.is_empty() && !p.contains('/')).then(|| ResourceWant {
                group: Some(g.to_string()),
                plural: p.to_string(),
            })
        }
        None => {
            let k = kind.to_ascii_lowercase();
            let plural = if k.ends_with('s') {
                k
            } else if let Some(stem) = k.strip_suffix('y') {
                format!("{stem}ies")
            } else {
                format!("{k}s")
            };
            Some(ResourceWant {
                group: None,
                plural,
            })
        }
    }
}

fn matcher(cx: &Ctx<'_>, m: &Matcher, names: &mut Vec<String>) -> Result<CMatcher, Failure> {
    Ok(match m {
        Matcher::Objects(o) => {
            if o.kind.trim().is_empty() {
                return Err(cx.err("kind", "", "`kind` is empty"));
            }
            let resource = resource_of(&o.kind, o.resource.as_deref()).ok_or_else(|| {
                cx.err("resource", o.resource.as_deref().unwrap_or(""), "`resource` is `group/plural` (e.g. `policy/poddisruptionbudgets`, `core/pods`)")
            })?;
            let mut fields = Vec::new();
            for f in &o.fields {
                let path = field_path::parse(&f.path).map_err(|e| {
                    cx.err("path", &f.path, format!("bad field path `{}`: {e}", f.path))
                })?;
                if f.exists.is_none()
                    && f.equals.is_none()
                    && f.regex.is_none()
                    && f.gt.is_none()
                    && f.lt.is_none()
                {
                    return Err(cx.err(
                        "path",
                        &f.path,
                        format!(
                            "field `{}` has no test: give exists, equals, regex, gt or lt",
                            f.path
                        ),
                    ));
                }
                if f.exists == Some(false)
                    && (f.equals.is_some() || f.regex.is_some() || f.gt.is_some() || f.lt.is_some())
                {
                    return Err(cx.err(
                        "exists",
                        "",
                        format!(
                            "field `{}`: `exists: false` cannot be combined with a value test",
                            f.path
                        ),
                    ));
                }
                fields.push(CField {
                    path,
                    text: f.path.clone(),
                    exists: f.exists,
                    equals: f.equals.clone(),
                    regex: cx.opt_regex("regex", &f.regex, names)?,
                    gt: f.gt,
                    lt: f.lt,
                });
            }
            let mut conditions = Vec::new();
            for c in &o.conditions {
                conditions.push(CCondition {
                    type_: c.type_.clone(),
                    status: c.status.clone(),
                    reason: cx.opt_regex("reason", &c.reason, names)?,
                    message: cx.opt_regex("message", &c.message, names)?,
                });
            }
            CMatcher::Objects(CObjects {
                kind: o.kind.clone(),
                resource,
                name: cx.opt_glob("name", &o.name)?,
                namespace: cx.opt_glob("namespace", &o.namespace)?,
                fields,
                conditions,
            })
        }
        Matcher::Logs(l) => {
            if l.min_count == 0 {
                return Err(cx.err("min-count", "", "`min-count` is at least 1"));
            }
            let files = if l.files.is_empty() {
                LogFiles::ALL
            } else {
                LogFiles::of(&l.files)
            };
            CMatcher::Logs(CLogs {
                namespace: cx.glob("namespace", &l.namespace)?,
                pod: cx.glob("pod", &l.pod)?,
                container: cx.glob("container", &l.container)?,
                files,
                regex: cx.regex("regex", &l.regex, names)?,
                literals: line_literals(&l.regex),
                min_count: l.min_count,
                window: l.window,
            })
        }
        Matcher::Events(e) => {
            if e.reason.is_none() && e.message.is_none() {
                return Err(cx.err(
                    "events",
                    "",
                    "an events matcher needs `reason` or `message`",
                ));
            }
            CMatcher::Events(CEvents {
                namespace: cx.opt_glob("namespace", &e.namespace)?,
                reason: cx.opt_regex("reason", &e.reason, names)?,
                message: cx.opt_regex("message", &e.message, names)?,
                min_count: e.min_count.max(1),
            })
        }
        Matcher::Intervals(i) => {
            if i.source.is_none()
                && i.reason.is_none()
                && i.message.is_none()
                && i.locator.is_none()
            {
                return Err(cx.err(
                    "intervals",
                    "",
                    "an intervals matcher needs `source`, `reason`, `message` or `locator`",
                ));
            }
            CMatcher::Intervals(CIntervals {
                source: cx.opt_regex("source", &i.source, names)?,
                reason: cx.opt_regex("reason", &i.reason, names)?,
                message: cx.opt_regex("message", &i.message, names)?,
                locator: cx.opt_regex("locator", &i.locator, names)?,
            })
        }
        Matcher::Cvo(c) => match (&c.precondition, &c.sync) {
            (Some(p), None) => CMatcher::Precondition(CPrecondition {
                name: cx.opt_regex("name", &p.name, names)?,
                reason: cx.opt_regex("reason", &p.reason, names)?,
            }),
            (None, Some(s)) => {
                if let Some(st) = &s.state
                    && !["Initializing", "Updating", "Reconciling"].contains(&st.as_str())
                {
                    return Err(cx.err(
                        "state",
                        st,
                        format!("`state` is Initializing, Updating or Reconciling, not `{st}`"),
                    ));
                }
                CMatcher::Sync(CSync {
                    state: s.state.clone(),
                    failing: s.failing,
                    error: cx.opt_regex("error", &s.error, names)?,
                    min_count: s.min_count.max(1),
                })
            }
            _ => {
                return Err(cx.err(
                    "cvo",
                    "",
                    "a cvo matcher has exactly one of `precondition` and `sync`",
                ));
            }
        },
        Matcher::All(v) | Matcher::Any(v) => {
            if v.is_empty() {
                return Err(cx.err(
                    if matches!(m, Matcher::All(_)) {
                        "all"
                    } else {
                        "any"
                    },
                    "",
                    "an empty combination matches nothing",
                ));
            }
            let inner = v
                .iter()
                .map(|m| matcher(cx, m, names))
                .collect::<Result<Vec<_>, _>>()?;
            if matches!(m, Matcher::All(_)) {
                CMatcher::All(inner)
            } else {
                CMatcher::Any(inner)
            }
        }
        Matcher::Not(m) => CMatcher::Not(Box::new(matcher(cx, m, names)?)),
    })
}

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && !s.ends_with('-')
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Checks the code's namespace.
fn check_code(
    cx: &Ctx<'_>,
    code: &str,
    origin: Origin,
    builtin: &dyn Fn(&str) -> bool,
) -> Result<(), Failure> {
    let bad = |m: String, h: &str| Err(cx.err("code", code, m).with_help(h.to_string()));
    if builtin(code) {
        return bad(
            format!("`{code}` is a built-in rule's code"),
            "local rules use codes starting with `X-`",
        );
    }
    match origin {
        Origin::Bundled => {
            let digits = code.strip_prefix("KI").unwrap_or("");
            if digits.len() != 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return bad(
                    format!("bundled rules have codes `KI` and three digits, not `{code}`"),
                    "e.g. `KI014`",
                );
            }
        }
        Origin::Local => {
            let Some(rest) = code.strip_prefix("X-") else {
                // A local code may not start with a built-in or catalogue prefix.
                let taken = Family::ALL
                    .iter()
                    .chain([&Family::KnownIssue])
                    .map(|f| f.prefix())
                    .find(|p| code.starts_with(p));
                let why = match taken {
                    Some(p) => format!("`{code}` starts with `{p}`, a built-in prefix"),
                    None => format!("local rule codes start with `X-`, not `{code}`"),
                };
                return bad(
                    why,
                    "e.g. `X-ACME-001`: local rules live in the `X-` namespace so they never collide with built-in or catalogue codes",
                );
            };
            let chars = code.chars().count();
            if chars > MAX_CODE_LEN {
                let head: String = code.chars().take(24).collect();
                return bad(
                    format!(
                        "`{head}…` is {chars} characters long; codes have at most {MAX_CODE_LEN}"
                    ),
                    "e.g. `X-ACME-001`: the code is in every finding, heading and JUnit case",
                );
            }
            if rest.is_empty()
                || !rest
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-')
            {
                return bad(
                    format!("`{code}`: after `X-`, upper-case letters, digits and `-`"),
                    "e.g. `X-ACME-001`",
                );
            }
        }
    }
    Ok(())
}

/// Checks and compiles one rule.
pub fn compile(
    cx: &Ctx<'_>,
    def: RuleDef,
    origin: Origin,
    builtin: &dyn Fn(&str) -> bool,
) -> Result<Compiled, Failure> {
    check_code(cx, &def.code, origin, builtin)?;
    if !is_slug(&def.name) {
        return Err(cx.err(
            "name",
            &def.name,
            format!(
                "`name` is a kebab-case slug (`etcd-slow-apply`), not `{}`",
                def.name
            ),
        ));
    }
    for (key, v) in [("summary", &def.summary), ("help", &def.help)] {
        if v.trim().is_empty() {
            return Err(cx.err(key, "", format!("`{key}` is empty")));
        }
        if v.trim_end().ends_with('.') {
            return Err(cx.err(
                key,
                v.trim_end(),
                format!("`{key}` is a fragment without a trailing period"),
            ));
        }
    }
    for r in &def.references {
        if !r.url.starts_with("https://") {
            return Err(cx.err(
                "url",
                &r.url,
                format!("reference `{}` is not an https:// URL", r.url),
            ));
        }
    }
    let affects = def
        .affects
        .as_deref()
        .map(|a| {
            Range::parse(a).map_err(|e| {
                cx.err_in(
                    "affects",
                    a,
                    e.offset,
                    format!("bad version range `{a}`: {e}"),
                )
                .with_help(
                    "comparators joined by `,` and alternatives by `||`: `>=4.12, <4.14.8 || 4.16`",
                )
            })
        })
        .transpose()?;
    let mut fixed_in = Vec::new();
    for f in &def.fixed_in {
        match semver::Version::parse(f.trim().trim_start_matches('v')) {
            Ok(v) => fixed_in.push(v),
            Err(e) => {
                return Err(cx.err(
                    "fixed-in",
                    f,
                    format!("`fixed-in`: `{f}` is not a release (like 4.14.8): {e}"),
                ));
            }
        }
    }
    let mut names = Vec::new();
    let m = matcher(cx, &def.matcher, &mut names)?;
    let message = Template::parse(&def.message, |n| {
        BUILTIN.contains(&n) || names.iter().any(|c| c == n)
    })
    .map_err(|e| cx.err_in("message", &def.message, e.offset, format!("`message`: {e}")))?;
    for t in &def.tests {
        if t.input.trim().is_empty() {
            return Err(cx.err("input", "", "a test's `input` is empty"));
        }
    }
    Ok(Compiled {
        def,
        matcher: m,
        message,
        affects,
        fixed_in,
        source: cx.text[cx.from..cx.to].trim_end().to_string(),
    })
}

/// The inputs a matcher needs (for `missing_inputs` and the page).
pub fn needs(m: &CMatcher) -> Vec<Vec<Input>> {
    fn first(m: &CMatcher) -> Vec<Input> {
        match m {
            CMatcher::Objects(o) => vec![match o.kind.as_str() {
                "ClusterVersion" => Input::ClusterVersion,
                "ClusterOperator" => Input::ClusterOperators,
                "Node" => Input::Nodes,
                "MachineConfigPool" => Input::MachineConfigPools,
                "Event" => Input::Events,
                _ => Input::Files,
            }],
            CMatcher::Logs(l) if l.namespace.as_str() == "openshift-cluster-version" => {
                vec![Input::CvoLog]
            }
            CMatcher::Logs(_) => vec![Input::Files],
            CMatcher::Events(_) => vec![Input::Events],
            CMatcher::Intervals(_) => vec![Input::CiTestLog],
            CMatcher::Precondition(_) | CMatcher::Sync(_) => vec![Input::CvoLog],
            CMatcher::Any(v) => {
                let mut all: Vec<Input> = v.iter().flat_map(first).collect();
                all.sort();
                all.dedup();
                all
            }
            CMatcher::All(v) => v.first().map(first).unwrap_or_default(),
            CMatcher::Not(_) => Vec::new(),
        }
    }
    let mut groups: Vec<Vec<Input>> = match m {
        CMatcher::All(v) => v.iter().map(first).filter(|g| !g.is_empty()).collect(),
        other => vec![first(other)],
    };
    groups.retain(|g| !g.is_empty() && !g.contains(&Input::Files));
    groups.dedup();
    if groups.is_empty() {
        groups.push(vec![Input::Files]);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        assert_eq!(
            resource_of("PodDisruptionBudget", None).unwrap().plural,
            "poddisruptionbudgets"
        );
        assert_eq!(
            resource_of("SecurityContextConstraints", None)
                .unwrap()
                .plural,
            "securitycontextconstraints"
        );
        assert_eq!(
            resource_of("APIRequestCount", None).unwrap().plural,
            "apirequestcounts"
        );
        assert_eq!(resource_of("Policy", None).unwrap().plural, "policies");
        assert_eq!(
            resource_of("X", Some("policy/poddisruptionbudgets"))
                .unwrap()
                .group
                .as_deref(),
            Some("policy")
        );
        assert!(resource_of("X", Some("nogroup")).is_none());
    }
}

#[cfg(test)]
mod literal_tests {
    use super::line_literals;

    #[test]
    fn the_catalogues_log_regexes_give_their_fixed_prefix() {
        assert_eq!(
            line_literals(r#""msg":"apply request took too long","took":"(?P<took>[0-9.]+s)""#),
            Some(vec![
                r#""msg":"apply request took too long","took":""#.to_string()
            ])
        );
        assert_eq!(
            line_literals(r#"error when evicting pods/"(?P<pod>[^"]+)" -n"#),
            Some(vec![r#"error when evicting pods/""#.to_string()])
        );
        assert_eq!(
            line_literals("successfully acquired lease (?P<lease>\\S+)"),
            Some(vec!["successfully acquired lease ".to_string()])
        );
    }

    #[test]
    fn alternatives_are_listed_and_open_patterns_give_none() {
        assert_eq!(
            line_literals("timed out|deadline exceeded"),
            Some(vec![
                "timed out".to_string(),
                "deadline exceeded".to_string()
            ])
        );
        // Case-insensitive: the prefix literals in every case combination share no prefix and
        // are more than 16, so no line is left out.
        assert_eq!(line_literals("(?i)apply request took too long"), None);
        for open in [".*", "a*", r"\d+ms", "", "[a-z]+ failed"] {
            assert_eq!(line_literals(open), None, "{open}");
        }
        assert_eq!(line_literals("(unclosed"), None);
    }
}
