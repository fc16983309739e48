//! Known-issue rules as data: YAML rule files (one rule or a list per file) that name a
//! signature over objects, logs, events, intervals and typed CVO facts, with a message
//! template, version gates and references. The bundled catalogue (`rules/known-issues/`,
//! codes `KI…`) is compiled in; local rules (codes `X-…`) come from `--rules DIR`,
//! `rule-dirs` in `mglint.toml` and `$XDG_CONFIG_HOME/mglint/rules/`. Loaded rules run with
//! the built-in ones (selection, fail level, every output format); a bad file never stops
//! them: it is reported (`IN003`). The format is documented in `docs/known-issue-rules.md`.
//!
//! Modules: [`format`](mod@format) (the serde types), [`compile`] (checks and compiled matchers),
//! [`version`] (ranges), [`template`] (messages), [`error`] (precise errors), [`load`]
//! (files and sources), [`eval`] (matching), [`rule`] (the declaration and `Rule` impl),
//! [`cases`] (the `tests:` a file carries).

pub mod cases;
pub mod compile;
pub mod error;
pub mod eval;
pub mod format;
pub mod load;
pub mod rule;
pub mod template;
pub mod version;

pub use compile::Origin;
pub use error::RuleFileError;
pub use load::{Sources, user_dir};
pub use rule::KnownRule;

use crate::rules::engine::RuleMeta;
use crate::vocab::glob::Glob;
use crate::vocab::wants::{LogWant, Wants};
use compile::CMatcher;
use std::path::Path;
use std::sync::Arc;

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/known_issues.rs"));
}

/// The bundled rule files: (file name, text).
pub fn bundled_files() -> &'static [(&'static str, &'static str)] {
    bundled::BUNDLED
}

/// Whether `code` is a built-in rule's code.
fn is_builtin(code: &str) -> bool {
    crate::rules::registry::all()
        .iter()
        .any(|r| r.meta().code.eq_ignore_ascii_case(code))
}

/// The most local rule files one run loads, across all its directories: far above any real
/// collection (the catalogue has a few dozen), and low enough that what they hold stays
/// bounded (100,000 files held 1.8 GB).
pub const MAX_LOCAL_RULE_FILES: usize = 10_000;

/// The loaded known-issue rules of a run, the problems of the files that could not be
/// loaded, and what the rules ask ingestion to read.
#[derive(Debug, Default)]
pub struct KnownSet {
    pub rules: Vec<Arc<KnownRule>>,
    pub problems: Vec<RuleFileError>,
    pub wants: Arc<Wants>,
    /// The index in `rules` of each code and slug loaded: the duplicate check is a lookup,
    /// so loading is linear in the number of rules (it was a scan per rule: 100,000 files
    /// took over 120 s).
    seen: std::collections::HashMap<String, usize>,
}

impl KnownSet {
    /// Loads every rule file of `sources`. Later files may not reuse a code or slug.
    pub fn load(sources: &Sources) -> KnownSet {
        let mut set = KnownSet::default();
        if sources.bundled {
            for (name, text) in bundled_files() {
                let path = format!("bundled:{name}");
                set.add(
                    &path,
                    load::parse(&path, text, Origin::Bundled, &is_builtin),
                );
            }
        }
        let mut room = MAX_LOCAL_RULE_FILES;
        for dir in &sources.dirs {
            match load::dir_files(dir) {
                Ok(mut files) => {
                    if files.len() > room {
                        set.problems.push(RuleFileError::at(
                            &dir.display().to_string(),
                            "",
                            None,
                            format!(
                                "{} rule files; only the first {room} in name order are loaded \
                                 (at most {MAX_LOCAL_RULE_FILES} local rule files in a run)",
                                files.len()
                            ),
                        ));
                        files.truncate(room);
                    }
                    room -= files.len();
                    // Parsed in parallel, added in name order (so duplicates and problems
                    // are reported as a sequential load reports them).
                    use rayon::prelude::*;
                    let parsed: Vec<(String, load::Parsed)> = files
                        .par_iter()
                        .map(|f| {
                            let parsed = load::parse_path_as(f, Origin::Local, &is_builtin);
                            (f.display().to_string(), parsed)
                        })
                        .collect();
                    for (name, parsed) in parsed {
                        set.add(&name, parsed);
                    }
                }
                Err(e) => set.problems.push(*e),
            }
        }
        set.wants = Arc::new(wants(&set.rules));
        set
    }

    /// Loads the given files (for `mglint rules check` and `test`), each as its place says
    /// ([`load::origin_of`]).
    pub fn load_files(paths: &[&Path]) -> KnownSet {
        let mut set = KnownSet::default();
        for p in paths {
            set.add(&p.display().to_string(), load::parse_path(p, &is_builtin));
        }
        set.wants = Arc::new(wants(&set.rules));
        set
    }

    fn add(&mut self, file: &str, parsed: load::Parsed) {
        self.problems.extend(parsed.problems);
        for c in parsed.rules {
            let code_key = format!("code:{}", c.def.code);
            let name_key = format!("name:{}", c.def.name);
            let dup = self
                .seen
                .get(&code_key)
                .or_else(|| self.seen.get(&name_key))
                .map(|&i| &self.rules[i]);
            if let Some(other) = dup {
                self.problems.push(
                    RuleFileError::at(
                        file,
                        &c.source,
                        Some((0, 1)),
                        format!(
                            "`{}` (`{}`) repeats the code or name of `{}` from {}",
                            c.def.code,
                            c.def.name,
                            other.meta().code,
                            other.file
                        ),
                    )
                    .in_rule(&c.def.code),
                );
                continue;
            }
            self.seen.insert(code_key, self.rules.len());
            self.seen.insert(name_key, self.rules.len());
            self.rules.push(Arc::new(KnownRule::new(c, file)));
        }
    }

    /// The declarations of the loaded rules, in code order.
    pub fn metas(&self) -> Vec<&RuleMeta> {
        let mut v: Vec<&RuleMeta> = self.rules.iter().map(|r| &**r.meta()).collect();
        v.sort_by(|a, b| a.code.cmp(&b.code));
        v
    }
}

use crate::rules::engine::Rule as _;

/// What the rules ask ingestion to read.
pub fn wants(rules: &[Arc<KnownRule>]) -> Wants {
    let mut w = Wants::default();
    fn walk(m: &CMatcher, w: &mut Wants) {
        match m {
            CMatcher::Objects(o) => {
                w.kinds.insert(o.kind.clone());
                w.resources.insert(o.resource.clone());
                w.resource_keys
                    .entry(o.resource.clone())
                    .or_default()
                    .push(o.required_keys());
            }
            CMatcher::Logs(l) => w.pod_logs.push(LogWant {
                namespace: l.namespace.clone(),
                pod: l.pod.clone(),
                container: l.container.clone(),
                files: l.files,
                literals: l.literals.clone(),
            }),
            CMatcher::Events(e) => {
                let g = e
                    .namespace
                    .clone()
                    .unwrap_or_else(|| Glob::new("*").expect("glob"));
                if !w.event_namespaces.iter().any(|x| x.as_str() == g.as_str()) {
                    w.event_namespaces.push(g);
                }
            }
            CMatcher::Intervals(_) | CMatcher::Precondition(_) | CMatcher::Sync(_) => {}
            CMatcher::All(v) | CMatcher::Any(v) => v.iter().for_each(|m| walk(m, w)),
            CMatcher::Not(m) => walk(m, w),
        }
    }
    for r in rules {
        walk(&r.compiled().matcher, &mut w);
    }
    w
}
