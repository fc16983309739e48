//! Which rules run and what fails the run: `select` / `ignore` by code or prefix, and
//! `fail-on`. Validated against the registry and the loaded known-issue rules: a selector that names no rule is an error
//! wherever it came from (command line or `mglint.toml`), so a CI gate cannot pass silently
//! by running nothing.

use super::model::{RuleMeta, Severity};

/// Rule selection and the fail level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// Codes or prefixes to run (`CV`, `CO002`, `ALL`); empty means all.
    pub select: Vec<String>,
    /// Codes or prefixes not to run (wins over `select`).
    pub ignore: Vec<String>,
    /// The run fails (exit 1) when a finding at or above this severity exists.
    pub fail_on: Severity,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            select: Vec::new(),
            ignore: Vec::new(),
            fail_on: Severity::Error,
        }
    }
}

/// Codes that were retired, with the rule that replaced each: a selector naming a retired
/// code is accepted and selects its successor, so existing `--select`/`--ignore` lists and
/// `mglint.toml` files keep meaning what they meant. The object-health rules were retired
/// when `analyze` took its levels from oc's Update Health (the `UH` family).
pub const RETIRED: &[(&str, &str)] = &[
    ("CO001", "UH001"),
    ("CO002", "UH002"),
    ("CV015", "UH003"),
    ("MC003", "UH004"),
    ("MC004", "UH005"),
    ("MC002", "UH006"),
    ("CV019", "UH008"),
    ("KI008", "CV022"),
    ("KI018", "CV024"),
];

/// The successor of a retired code (any case), if `code` is one.
pub fn successor(code: &str) -> Option<&'static str> {
    let up = code.trim().to_ascii_uppercase();
    RETIRED
        .iter()
        .find(|(old, _)| *old == up)
        .map(|(_, new)| *new)
}

/// Whether `sel` names `meta`: as a code or prefix, or as a retired code it replaced.
fn names(meta: &RuleMeta, sel: &str) -> bool {
    meta.matches(sel) || successor(sel) == Some(&*meta.code)
}

/// A selector that names no rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no rule matches `{0}` (see `mglint rules`)")]
pub struct UnknownSelector(pub String);

impl Selection {
    /// Checks that every selector names at least one rule (or a reserved family).
    pub fn validate(&self) -> Result<(), UnknownSelector> {
        self.validate_with(&[])
    }

    /// [`Selection::validate`], also accepting the codes of loaded known-issue rules.
    pub fn validate_with(&self, known: &[&RuleMeta]) -> Result<(), UnknownSelector> {
        let rules = crate::rules::catalogue();
        for sel in self.select.iter().chain(&self.ignore) {
            let up = sel.trim().to_ascii_uppercase();
            let reserved = super::model::Family::ALL.iter().any(|f| f.prefix() == up);
            if !reserved
                && successor(sel).is_none()
                && !rules.iter().any(|m| m.matches(sel))
                && !known.iter().any(|m| m.matches(sel))
            {
                return Err(UnknownSelector(sel.clone()));
            }
        }
        Ok(())
    }

    /// Whether a rule runs under this selection.
    pub fn selects(&self, meta: &RuleMeta) -> bool {
        let selected = self.select.is_empty() || self.select.iter().any(|s| names(meta, s));
        selected && !self.ignore.iter().any(|s| names(meta, s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_selectors_are_named() {
        let s = Selection {
            select: vec!["CV".into(), "co001".into()],
            ..Selection::default()
        };
        assert!(s.validate().is_ok());
        let bad = Selection {
            ignore: vec!["ZZ9".into()],
            ..Selection::default()
        };
        assert_eq!(bad.validate(), Err(UnknownSelector("ZZ9".into())));
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "no rule matches `ZZ9` (see `mglint rules`)"
        );
    }
}
