//! Running the test cases a rule file carries (`tests:`: an input, relative to the rule file,
//! and whether the rule must fire on it). Loading an input is the entry layer's job, so the
//! caller passes a function from inputs and rules to a report.

use super::{KnownRule, KnownSet};
use crate::rules::engine::Rule as _;
use crate::rules::{Report, Text};
use std::path::{Path, PathBuf};

/// The outcome of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseOutcome {
    pub code: Text,
    pub input: PathBuf,
    pub expected: bool,
    /// How many findings the rule gave; `None` when the input could not be analysed.
    pub findings: Option<usize>,
    /// Why the input could not be analysed, or the rule was skipped.
    pub note: Option<String>,
}

impl CaseOutcome {
    pub fn passed(&self) -> bool {
        self.findings.is_some_and(|n| (n > 0) == self.expected)
    }
}

/// Analyses a case's inputs with one rule selected (the entry layer's job).
pub type Analyze<'a> = &'a dyn Fn(&[String], &KnownRule) -> Result<Report, String>;

/// Runs the cases of every rule in `set`, whose files are under `base` (the directory of the
/// file each rule came from, for bundled rules the catalogue directory).
pub fn run(
    set: &KnownSet,
    base_of: &dyn Fn(&KnownRule) -> PathBuf,
    analyze: Analyze<'_>,
) -> Vec<CaseOutcome> {
    let mut out = Vec::new();
    for r in &set.rules {
        let base = base_of(r);
        for t in &r.compiled().def.tests {
            let input = base.join(&t.input);
            let inputs: Vec<String> = match input_entries(&input) {
                Ok(v) => v,
                Err(e) => {
                    out.push(CaseOutcome {
                        code: r.meta().code.clone(),
                        input,
                        expected: t.fires,
                        findings: None,
                        note: Some(e),
                    });
                    continue;
                }
            };
            let (findings, note) = match analyze(&inputs, r) {
                Ok(rep) => {
                    let skipped = rep.outcome(&r.meta().code).and_then(|o| o.reason.clone());
                    (Some(rep.findings_of(&r.meta().code).count()), skipped)
                }
                Err(e) => (None, Some(e)),
            };
            out.push(CaseOutcome {
                code: r.meta().code.clone(),
                input,
                expected: t.fires,
                findings,
                note,
            });
        }
    }
    out
}

/// A case's input: a directory whose entries are each one input (as the rule fixtures are
/// laid out), or a single file.
fn input_entries(p: &Path) -> Result<Vec<String>, String> {
    if p.is_file() {
        return Ok(vec![p.display().to_string()]);
    }
    let rd = std::fs::read_dir(p).map_err(|e| format!("{}: {e}", p.display()))?;
    let mut v: Vec<String> = rd
        .flatten()
        .map(|e| e.path().display().to_string())
        .collect();
    v.sort();
    if v.is_empty() {
        return Err(format!("{}: empty", p.display()));
    }
    Ok(v)
}
