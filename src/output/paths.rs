//! Where evidence paths are shown from: each input's must-gather root (the directory that
//! holds `cluster-scoped-resources/` and `namespaces/`, the common prefix when there are
//! several), else the input itself. Every emitter that prints a path shows it relative to that
//! base and names the base once per input, instead of repeating a 230-character prefix on
//! every line.

use crate::rules::{Report, ReportInput};

/// An evidence path split at its input's base.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<'a> {
    /// The input the path belongs to (`None` when no input name prefixes it).
    pub input: Option<&'a ReportInput>,
    /// The base directory inside the input (empty for the input itself).
    pub base: String,
    /// The path inside the input, relative to `base`.
    pub rel: String,
    /// The path inside the input (including `base`).
    pub inside: String,
}

/// The bases of a report's inputs.
#[derive(Debug, Clone)]
pub struct Bases<'a> {
    /// (input, its base inside it), longest names first so that nested names match best.
    inputs: Vec<(&'a ReportInput, String)>,
}

impl<'a> Bases<'a> {
    /// The bases of every input of `report`.
    pub fn of(report: &'a Report) -> Self {
        let mut inputs: Vec<(&ReportInput, String)> =
            report.inputs.iter().map(|i| (i, base_of(i))).collect();
        inputs.sort_by_key(|(i, _)| std::cmp::Reverse(i.name.len()));
        Bases { inputs }
    }

    /// The base shown for one input (empty: paths are relative to the input itself).
    pub fn base(&self, input: &ReportInput) -> &str {
        self.inputs
            .iter()
            .find(|(i, _)| std::ptr::eq(*i, input))
            .map_or("", |(_, b)| b.as_str())
    }

    /// Splits an evidence path (`input/path-inside-input`).
    pub fn locate(&self, path: &str) -> Located<'a> {
        for (input, base) in &self.inputs {
            let name = input.name.trim_end_matches('/');
            let inside = if path == name {
                Some("")
            } else {
                path.strip_prefix(name).and_then(|r| r.strip_prefix('/'))
            };
            let Some(inside) = inside else { continue };
            let rel = if base.is_empty() {
                inside
            } else {
                inside
                    .strip_prefix(base.as_str())
                    .and_then(|r| r.strip_prefix('/'))
                    .unwrap_or(inside)
            };
            let used = if rel.len() < inside.len() {
                base.clone()
            } else {
                String::new()
            };
            return Located {
                input: Some(input),
                base: used,
                rel: rel.to_string(),
                inside: inside.to_string(),
            };
        }
        Located {
            input: None,
            base: String::new(),
            rel: path.to_string(),
            inside: path.to_string(),
        }
    }

    /// The path shown for evidence: relative to its input's base, or as given when it
    /// belongs to no input.
    pub fn short(&self, path: &str) -> String {
        let l = self.locate(path);
        if l.rel.is_empty() {
            // The input is the file itself: its name is the path.
            return path.rsplit('/').next().unwrap_or(path).to_string();
        }
        l.rel
    }
}

/// The common directory prefix of an input's must-gather roots.
fn base_of(input: &ReportInput) -> String {
    let mut roots = input.must_gather_roots.iter();
    let Some(first) = roots.next() else {
        return String::new();
    };
    let mut common: Vec<&str> = first.split('/').filter(|p| !p.is_empty()).collect();
    for r in roots {
        let parts: Vec<&str> = r.split('/').filter(|p| !p.is_empty()).collect();
        let same = common
            .iter()
            .zip(&parts)
            .take_while(|(a, b)| a == b)
            .count();
        common.truncate(same);
    }
    common.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str, roots: &[&str]) -> ReportInput {
        ReportInput {
            name: name.into(),
            kind: "must-gather".into(),
            files_read: 1,
            must_gather_roots: roots.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn paths_are_relative_to_the_root_of_their_input() {
        let report = Report {
            inputs: vec![
                input("mg", &["must-gather.local.1/quay-io-x"]),
                input("mg2/", &["a/b", "a/c"]),
                input("cv.yaml", &[]),
            ],
            ..crate::rules::Report::empty()
        };
        let b = Bases::of(&report);
        let l = b.locate("mg/must-gather.local.1/quay-io-x/cluster-scoped-resources/cv.yaml");
        assert_eq!(l.rel, "cluster-scoped-resources/cv.yaml");
        assert_eq!(l.base, "must-gather.local.1/quay-io-x");
        assert_eq!(b.short("mg2/a/b/namespaces/x.yaml"), "b/namespaces/x.yaml");
        assert_eq!(b.short("cv.yaml"), "cv.yaml");
        assert_eq!(b.short("elsewhere/x"), "elsewhere/x");
        // A path outside the root stays relative to the input.
        assert_eq!(b.short("mg/timestamp"), "timestamp");
    }
}
