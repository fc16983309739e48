//! Where evidence paths are shown from: each input's must-gather root (the directory that
//! holds `cluster-scoped-resources/` and `namespaces/`, the common prefix when there are
//! several), else the input itself. Every emitter that prints a path shows it relative to that
//! base and names the base once per input, instead of repeating a 230-character prefix on
//! every line.

use crate::rules::{EvidenceItem, Report, ReportInput};

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

    /// Places a file named by its input and its path inside that input.
    pub fn locate(&self, input: &str, inside: &str) -> Located<'a> {
        let found = self
            .inputs
            .iter()
            .find(|(i, _)| i.name.trim_end_matches('/') == input.trim_end_matches('/'));
        let Some((input, base)) = found else {
            let whole = crate::vocab::files::join_path(input, inside);
            return Located {
                input: None,
                base: String::new(),
                rel: whole.clone(),
                inside: whole,
            };
        };
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
        Located {
            input: Some(input),
            base: used,
            rel: rel.to_string(),
            inside: inside.to_string(),
        }
    }

    /// The path shown for a piece of evidence: relative to its input's base, the input's
    /// file name when the input is the file, or the whole path when it belongs to no input.
    pub fn short(&self, e: &EvidenceItem) -> String {
        let l = self.locate(&e.input, &e.path);
        if l.rel.is_empty() {
            // The input is the file itself: its name is the path.
            return e.input.rsplit('/').next().unwrap_or(&e.input).to_string();
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
            insights_roots: Vec::new(),
            label: String::new(),
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
        let l = b.locate(
            "mg",
            "must-gather.local.1/quay-io-x/cluster-scoped-resources/cv.yaml",
        );
        assert_eq!(l.rel, "cluster-scoped-resources/cv.yaml");
        assert_eq!(l.base, "must-gather.local.1/quay-io-x");
        let e = |input: &str, path: &str| EvidenceItem::new(input, path, None, "");
        assert_eq!(
            b.short(&e("mg2/", "a/b/namespaces/x.yaml")),
            "b/namespaces/x.yaml"
        );
        assert_eq!(b.short(&e("cv.yaml", "")), "cv.yaml");
        assert_eq!(b.short(&e("", "elsewhere/x")), "elsewhere/x");
        // A path outside the root stays relative to the input.
        assert_eq!(b.short(&e("mg", "timestamp")), "timestamp");
        // An input named like the start of another input's name is not confused with it.
        assert!(b.locate("mg2x", "a").input.is_none());
    }
}
