//! The catalogue of published update risks: the blocked edges of
//! openshift/cincinnati-graph-data (`blocked-edges/*.yaml`), each an edge `from` (a regular
//! expression over the running version) `to` one release, and, for a conditional edge, the
//! named risk (`name`, `url`, `message`, `matchingRules`) that the CVO evaluates. A snapshot
//! is bundled (`rules/update-risks/catalogue.json`, written by `scripts/refresh-risks.sh`);
//! `--risks DIR` reads a checkout's `blocked-edges/` instead. A file that cannot be read is a
//! [`CatalogueError`] naming it, and the other files still load.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The bundled snapshot, generated from a cincinnati-graph-data checkout.
const BUNDLED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/rules/update-risks/catalogue.json"
));

/// The largest blocked-edge file read from a checkout.
const MAX_FILE_BYTES: u64 = 256 << 10;

/// The most edge files read from a checkout (cincinnati-graph-data has a few thousand).
const MAX_FILES: usize = 50_000;

/// Where the catalogue comes from (for the bundled snapshot and `--risks DIR`).
pub const SOURCE: &str = "https://github.com/openshift/cincinnati-graph-data";

/// One matching rule of a risk, as the CVO reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum MatchingRule {
    /// The risk applies to every cluster.
    Always,
    /// The risk applies when the query returns one sample valued 1.
    PromQL { promql: PromQlRule },
    /// A rule type the CVO does not know: it is skipped, as the CVO skips it.
    #[serde(other)]
    Unknown,
}

/// `promql: {promql: "..."}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromQlRule {
    pub promql: String,
}

/// A named, published update risk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Risk {
    pub name: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub matching_rules: Vec<MatchingRule>,
}

/// One blocked edge: updates from a version matching `from` to `to`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    pub to: String,
    /// A regular expression over the running version, matched whole (anchored at both ends).
    pub from: String,
    /// The risk of a conditional edge; `None`: the edge is removed from the graph outright.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_in: Option<String>,
}

/// The catalogue: its source commit, its risks by name and its edges.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalogue {
    pub source: String,
    /// The cincinnati-graph-data commit of the snapshot (empty when unknown, e.g. a checkout
    /// without `.git`).
    pub commit: String,
    pub risks: Vec<Risk>,
    pub edges: Vec<Edge>,
}

/// One blocked-edge file that could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("cannot read update risk file `{file}`: {reason}")]
pub struct CatalogueError {
    pub file: String,
    pub reason: String,
}

/// A catalogue as loaded, with the problems of the files that were skipped.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    pub catalogue: Catalogue,
    pub problems: Vec<CatalogueError>,
}

/// One `blocked-edges/*.yaml` file, as written.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct EdgeFile {
    to: String,
    from: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    matching_rules: Vec<MatchingRule>,
    #[serde(default)]
    fixed_in: Option<String>,
}

impl Catalogue {
    /// The bundled snapshot.
    pub fn bundled() -> Result<Catalogue, CatalogueError> {
        serde_json::from_str(BUNDLED).map_err(|e| CatalogueError {
            file: "bundled:rules/update-risks/catalogue.json".into(),
            reason: e.to_string(),
        })
    }

    /// The bundled snapshot, parsed once per process (what `analyze` reads).
    pub fn bundled_shared() -> Result<&'static Catalogue, &'static CatalogueError> {
        static CELL: std::sync::OnceLock<Result<Catalogue, CatalogueError>> =
            std::sync::OnceLock::new();
        CELL.get_or_init(Catalogue::bundled).as_ref()
    }

    /// The risk named `name`.
    pub fn risk(&self, name: &str) -> Option<&Risk> {
        self.risks.iter().find(|r| r.name == name)
    }

    /// The edges into `to`.
    pub fn edges_to<'a>(&'a self, to: &'a str) -> impl Iterator<Item = &'a Edge> + 'a {
        self.edges.iter().filter(move |e| e.to == to)
    }

    /// Reads a cincinnati-graph-data checkout (`dir`, or its `blocked-edges/` given directly).
    /// Only regular files named `*.yaml` directly in `blocked-edges/` are read; links are not
    /// followed. The commit is read from `dir/.git` when it is a plain git directory.
    pub fn from_checkout(dir: &Path) -> Result<Loaded, CatalogueError> {
        // `blocked-edges` itself is taken only as a real directory: a link there could lead
        // anywhere, and is not followed.
        let inner = dir.join("blocked-edges");
        let edges_dir = if std::fs::symlink_metadata(&inner).is_ok_and(|m| m.is_dir()) {
            inner
        } else {
            dir.to_path_buf()
        };
        let entries = std::fs::read_dir(&edges_dir).map_err(|e| CatalogueError {
            file: edges_dir.display().to_string(),
            reason: e.to_string(),
        })?;
        let mut files: Vec<(String, std::path::PathBuf)> = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let is_file = e.file_type().map(|t| t.is_file()).unwrap_or(false);
            if is_file && (name.ends_with(".yaml") || name.ends_with(".yml")) {
                files.push((name, e.path()));
            }
        }
        files.sort();
        let skipped = files.len().saturating_sub(MAX_FILES);
        files.truncate(MAX_FILES);
        let texts = files.into_iter().map(|(name, path)| {
            let text = match std::fs::symlink_metadata(&path) {
                Ok(m) if m.len() > MAX_FILE_BYTES => Err(format!(
                    "larger than {} KiB (an edge file is a few hundred bytes)",
                    MAX_FILE_BYTES >> 10
                )),
                // Read bounded (and as a regular file) even if it changed since it was listed.
                _ => crate::vocab::bounded::read_to_string(&path, MAX_FILE_BYTES)
                    .map_err(|e| e.to_string()),
            };
            (format!("blocked-edges/{name}"), text)
        });
        let mut loaded = Self::from_files(texts);
        if skipped > 0 {
            loaded.problems.push(CatalogueError {
                file: edges_dir.display().to_string(),
                reason: format!(
                    "more than {MAX_FILES} edge files: the {skipped} last in name order were not read"
                ),
            });
        }
        loaded.catalogue.commit = git_head(dir).unwrap_or_default();
        Ok(loaded)
    }

    /// Builds a catalogue from edge files `(name, text)`, in the order given.
    pub fn from_files(files: impl IntoIterator<Item = (String, Result<String, String>)>) -> Loaded {
        let mut out = Loaded::default();
        out.catalogue.source = SOURCE.to_string();
        let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
        for (file, text) in files {
            let parsed =
                text.and_then(|t| crate::yaml::from_str::<EdgeFile>(&t).map_err(|e| e.to_string()));
            let f = match parsed {
                Ok(f) => f,
                Err(reason) => {
                    out.problems.push(CatalogueError { file, reason });
                    continue;
                }
            };
            let risk = match f.name {
                Some(name) if !name.is_empty() => {
                    let risk = Risk {
                        name: name.clone(),
                        url: f.url.unwrap_or_default(),
                        message: f.message.unwrap_or_default(),
                        matching_rules: f.matching_rules,
                    };
                    match by_name.get(&name) {
                        Some(&i) if out.catalogue.risks[i] != risk => {
                            out.problems.push(CatalogueError {
                                file: file.clone(),
                                reason: format!(
                                    "risk `{name}` differs from its first definition; the first is kept"
                                ),
                            });
                        }
                        Some(_) => {}
                        None => {
                            by_name.insert(name.clone(), out.catalogue.risks.len());
                            out.catalogue.risks.push(risk);
                        }
                    }
                    Some(name)
                }
                _ => None,
            };
            out.catalogue.edges.push(Edge {
                to: f.to,
                from: f.from,
                risk,
                fixed_in: f.fixed_in,
            });
        }
        out
    }

    /// The snapshot's JSON, as bundled (one edge a line, for readable diffs).
    pub fn to_json(&self) -> String {
        let mut s = String::from("{\n");
        let field = |k: &str, v: &str| format!("  {}: {},\n", json(&k), json(&v));
        s.push_str(&field("source", &self.source));
        s.push_str(&field("commit", &self.commit));
        s.push_str("  \"risks\": [\n");
        for (i, r) in self.risks.iter().enumerate() {
            let sep = if i + 1 < self.risks.len() { "," } else { "" };
            s.push_str(&format!("    {}{sep}\n", json(r)));
        }
        s.push_str("  ],\n  \"edges\": [\n");
        for (i, e) in self.edges.iter().enumerate() {
            let sep = if i + 1 < self.edges.len() { "," } else { "" };
            s.push_str(&format!("    {}{sep}\n", json(e)));
        }
        s.push_str("  ]\n}\n");
        s
    }
}

fn json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The commit `dir/.git/HEAD` names, read in-process (a symbolic ref through its loose ref
/// file or `packed-refs`); `None` when it is not plainly there.
fn git_head(dir: &Path) -> Option<String> {
    // Each file read only as a regular file, not through a link, and bounded (a hostile
    // checkout's `HEAD` may be a FIFO or endless).
    let read = |p: std::path::PathBuf, cap: u64| {
        let m = std::fs::symlink_metadata(&p).ok()?;
        if !m.is_file() {
            return None;
        }
        crate::vocab::bounded::read_to_string(&p, cap).ok()
    };
    let git = dir.join(".git");
    let head = read(git.join("HEAD"), 4 << 10)?;
    let head = head.trim();
    let is_hash = |s: &str| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit());
    let Some(r) = head.strip_prefix("ref: ") else {
        return is_hash(head).then(|| head.to_string());
    };
    if r.split('/').any(|p| p == ".." || p.is_empty()) || !r.starts_with("refs/") {
        return None;
    }
    if let Some(h) = read(git.join(r), 4 << 10) {
        let h = h.trim();
        return is_hash(h).then(|| h.to_string());
    }
    let packed = read(git.join("packed-refs"), 64 << 20)?;
    packed.lines().find_map(|l| {
        let (h, name) = l.split_once(' ')?;
        (name == r && is_hash(h)).then(|| h.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_files_load_with_their_risks_and_bad_files_are_named() {
        let files = vec![
            (
                "blocked-edges/4.11.0-KeepalivedMulticastSkew.yaml".to_string(),
                Ok("to: 4.11.0\nfrom: 4[.]10[.].*\nurl: https://access.redhat.com/solutions/7007826\nname: KeepalivedMulticastSkew\nmessage: |-\n  On OpenStack updates can degrade.\nmatchingRules:\n- type: PromQL\n  promql:\n    promql: group(cluster_infrastructure_provider)\n".to_string()),
            ),
            (
                "blocked-edges/4.1.1.yaml".to_string(),
                Ok("to: 4.1.1\nfrom: .*\n".to_string()),
            ),
            (
                "blocked-edges/broken.yaml".to_string(),
                Ok("to: [\n".to_string()),
            ),
        ];
        let l = Catalogue::from_files(files);
        assert_eq!(l.catalogue.edges.len(), 2);
        assert_eq!(l.catalogue.risks.len(), 1);
        let r = &l.catalogue.risks[0];
        assert_eq!(r.message, "On OpenStack updates can degrade.");
        assert_eq!(
            r.matching_rules,
            vec![MatchingRule::PromQL {
                promql: PromQlRule {
                    promql: "group(cluster_infrastructure_provider)".into()
                }
            }]
        );
        assert_eq!(l.catalogue.edges[1].risk, None);
        assert_eq!(l.problems.len(), 1);
        assert_eq!(l.problems[0].file, "blocked-edges/broken.yaml");
        // The bundled form reads back as written.
        let back: Catalogue = serde_json::from_str(&l.catalogue.to_json()).unwrap();
        assert_eq!(back, l.catalogue);
    }

    #[test]
    fn an_unknown_rule_type_is_kept_as_unknown() {
        let l = Catalogue::from_files(vec![(
            "x.yaml".to_string(),
            Ok(
                "to: 4.1.1\nfrom: .*\nname: R\nmatchingRules:\n- type: Future\n- type: Always\n"
                    .to_string(),
            ),
        )]);
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        assert_eq!(
            l.catalogue.risks[0].matching_rules,
            vec![MatchingRule::Unknown, MatchingRule::Always]
        );
    }

    #[test]
    fn a_checkout_follows_no_link_out_of_it() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("4.1.1-Far.yaml"),
            "to: 4.1.1\nfrom: .*\nname: Far\n",
        )
        .unwrap();
        let cgd = tempfile::tempdir().unwrap();
        // `blocked-edges` a link to elsewhere: not taken; nor is a linked edge file.
        std::os::unix::fs::symlink(outside.path(), cgd.path().join("blocked-edges")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("4.1.1-Far.yaml"),
            cgd.path().join("4.1.1-Linked.yaml"),
        )
        .unwrap();
        std::fs::write(
            cgd.path().join("4.1.2-Near.yaml"),
            "to: 4.1.2\nfrom: .*\nname: Near\n",
        )
        .unwrap();
        // A `.git/HEAD` that is a FIFO is not opened (it would wait for a writer forever).
        std::fs::create_dir(cgd.path().join(".git")).unwrap();
        assert!(crate::vocab::testing::mkfifo(&cgd.path().join(".git/HEAD")));
        let l = Catalogue::from_checkout(cgd.path()).unwrap();
        assert_eq!(l.catalogue.commit, "");
        let names: Vec<&str> = l.catalogue.risks.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["Near"]);
        assert!(l.problems.is_empty(), "{:?}", l.problems);
        // Over the size bound: named, not read.
        std::fs::write(
            cgd.path().join("4.1.3-Big.yaml"),
            "#".repeat(MAX_FILE_BYTES as usize + 1),
        )
        .unwrap();
        let l = Catalogue::from_checkout(cgd.path()).unwrap();
        assert_eq!(l.problems.len(), 1);
        assert_eq!(l.problems[0].file, "blocked-edges/4.1.3-Big.yaml");
        assert!(l.problems[0].reason.contains("larger than 256 KiB"));
    }
}

#[cfg(test)]
mod bundled {
    use super::*;

    /// The bundled snapshot (cincinnati-graph-data 731d042, 2026-08-21): every edge file and
    /// every named risk loads, and every PromQL rule parses.
    #[test]
    fn the_bundled_snapshot_loads_whole_and_every_query_parses() {
        let c = Catalogue::bundled().unwrap();
        assert_eq!(c.commit, "731d04247cc1f01bbeb4806755d80537d834c61d");
        assert_eq!(c.edges.len(), 1717);
        assert_eq!(c.risks.len(), 124);
        assert_eq!(c.edges.iter().filter(|e| e.risk.is_none()).count(), 116);
        let mut promql = 0;
        for r in &c.risks {
            assert!(!r.matching_rules.is_empty(), "{} has no rule", r.name);
            for rule in &r.matching_rules {
                match rule {
                    MatchingRule::PromQL { promql: p } => {
                        promql += 1;
                        if let Err(e) = crate::risks::promql::Query::parse(&p.promql) {
                            panic!("{}: {e}", r.name);
                        }
                    }
                    MatchingRule::Always => {}
                    MatchingRule::Unknown => panic!("{}: a rule of an unknown type", r.name),
                }
            }
        }
        assert!(promql > 60, "{promql}");
        // Every edge's `from` compiles, and every named edge's risk is defined.
        for e in &c.edges {
            assert!(
                regex::Regex::new(&format!("^(?:{})$", e.from)).is_ok(),
                "{}",
                e.from
            );
            if let Some(n) = &e.risk {
                assert!(c.risk(n).is_some(), "{n}");
            }
        }
    }
}

#[cfg(test)]
mod docs {
    use super::*;

    /// docs/risks.md's table names every metric the bundled catalogue's queries read.
    #[test]
    fn the_metric_table_lists_every_metric_the_catalogue_reads() {
        let page = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/risks.md"));
        let c = Catalogue::bundled().unwrap();
        let mut names = std::collections::BTreeSet::new();
        for r in &c.risks {
            for rule in &r.matching_rules {
                if let MatchingRule::PromQL { promql } = rule {
                    names.extend(
                        crate::risks::promql::Query::parse(&promql.promql)
                            .unwrap()
                            .metrics(),
                    );
                }
            }
        }
        let rows: Vec<&str> = page.lines().filter(|l| l.starts_with("| `")).collect();
        for n in &names {
            let tick = format!("`{n}`");
            assert!(
                rows.iter()
                    .any(|r| r.split('|').nth(1).is_some_and(|c| c.contains(&tick))),
                "docs/risks.md has no row for `{n}`"
            );
        }
        // And says "yes" exactly for what series.rs derives.
        for (n, _, _) in crate::risks::series::DERIVED {
            let row = rows
                .iter()
                .find(|r| r.starts_with(&format!("| `{n}` |")))
                .unwrap();
            assert!(row.contains("| yes |"), "{n}");
        }
        assert_eq!(names.len(), 27, "{names:?}");
    }
}
