//! A known-issue rule as the engine runs it: its declaration ([`RuleMeta`], built from the
//! file) and the [`Rule`] impl that evaluates the matcher and fills the message.
//!
//! The declaration is owned: built from the file when the rule is loaded and shared (an
//! [`Arc`]) by the rule and the outcomes of the reports it ran in, so it is freed with the
//! last of them. Findings carry copies of its code, name and references. Emitters read a
//! rule's declaration from the report ([`crate::rules::RuleOutcome::meta`]).

use super::compile::{Compiled, needs};
use super::eval::{self, Hit};
use crate::rules::engine::{Context, MetaRef, Rule, RuleMeta};
use crate::rules::model::*;
use semver::Version;
use std::sync::Arc;

/// A loaded known-issue rule.
#[derive(Debug)]
pub struct KnownRule {
    meta: MetaRef,
    c: Compiled,
    /// The file it was read from (as named).
    pub file: String,
}

/// The page of a rule file: summary, description, how to fix, versions, how it was
/// verified, the references with their kinds, and the rule as written.
fn page(c: &Compiled, file: &str) -> String {
    let d = &c.def;
    let mut s = format!("{}.\n\n", d.summary.trim());
    if let Some(desc) = &d.description {
        s.push_str(desc.trim());
        s.push_str("\n\n");
    }
    s.push_str(&format!("## How to fix\n\n{}.\n\n", d.help.trim()));
    s.push_str("## Versions\n\n");
    s.push_str(&format!(
        "Affects {}; fixed in {}.\n\n",
        d.affects
            .as_deref()
            .map_or("every release".to_string(), |a| format!("`{a}`")),
        if d.fixed_in.is_empty() {
            "no release named".to_string()
        } else {
            d.fixed_in
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    s.push_str("## How it was verified\n\n");
    s.push_str(
        d.verified
            .as_deref()
            .map_or("The rule file does not say.", str::trim),
    );
    s.push_str("\n\n");
    if !d.references.is_empty() {
        s.push_str("## References\n\n");
        for r in &d.references {
            match &r.title {
                Some(t) => s.push_str(&format!("- {}: {t} <{}>\n", r.kind.name(), r.url)),
                None => s.push_str(&format!("- {}: <{}>\n", r.kind.name(), r.url)),
            }
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "## Rule file\n\n`{file}`:\n\n```yaml\n{}\n```\n",
        c.source
    ));
    s
}

impl KnownRule {
    /// Builds the declaration of a compiled rule read from `file`.
    pub fn new(c: Compiled, file: &str) -> KnownRule {
        let d = &c.def;
        let family = if d.code.starts_with("KI") {
            Family::KnownIssue
        } else {
            Family::Local
        };
        let meta = RuleMeta {
            code: Text::Owned(d.code.clone()),
            name: Text::Owned(d.name.clone()),
            severity: d.severity,
            family,
            summary: Text::Owned(d.summary.trim().to_string()),
            needs: Listed::Owned(needs(&c.matcher)),
            facts: &[],
            help: Text::Owned(d.help.trim().to_string()),
            references: Listed::Owned(d.references.iter().map(|r| r.url.clone()).collect()),
            page: Text::Owned(page(&c, file)),
        };
        KnownRule {
            meta: MetaRef::Shared(Arc::new(meta)),
            c,
            file: file.to_string(),
        }
    }

    pub fn compiled(&self) -> &Compiled {
        &self.c
    }

    /// Whether the version gates let the rule apply to a cluster at `v` (unknown: yes).
    pub fn applies_to(&self, v: Option<&Version>) -> bool {
        let Some(v) = v else { return true };
        self.c.affects.as_ref().is_none_or(|r| r.contains(v))
            && !super::version::is_fixed(v, &self.c.fixed_in)
    }

    fn finding(&self, cx: &Context<'_>, hit: Hit, version: Option<&str>) -> Finding {
        let mut caps = hit.caps;
        caps.insert("code".into(), self.meta.code.to_string());
        caps.entry("name".into())
            .or_insert_with(|| hit.object.name.clone());
        caps.entry("namespace".into())
            .or_insert_with(|| hit.object.namespace.clone());
        caps.entry("kind".into())
            .or_insert_with(|| hit.object.kind.clone());
        if let Some(v) = version {
            caps.insert("version".into(), v.to_string());
        }
        let mut f = cx.finding(&self.meta, hit.object, self.c.message.render(&caps));
        f.at = hit.at;
        f.evidence = hit.evidence;
        if let Some(n) = caps.get("count").and_then(|c| c.parse::<u64>().ok()) {
            f.details.insert("count", Detail::Count(n));
        }
        if let Some(v) = version {
            f.details.insert("version", v);
        }
        f.details.insert("rule-file", self.file.as_str());
        f
    }
}

impl Rule for KnownRule {
    fn meta(&self) -> &MetaRef {
        &self.meta
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let version = eval::cluster_version(cx);
        let parsed = version.as_deref().and_then(super::version::parse);
        if !self.applies_to(parsed.as_ref()) {
            return;
        }
        for hit in eval::eval(cx, &self.c.matcher) {
            out.push(self.finding(cx, hit, version.as_deref()));
        }
    }
}

/// Shared handle (rules are loaded once per run and read by every analysis).
pub type Shared = Arc<KnownRule>;
