//! `mglint rules` (the catalogue: built-in and known-issue rules), `mglint rules check` (rule
//! files validated, problems with their place in the YAML), `mglint rules test` (the cases
//! rule files carry) and `mglint explain CODE` (one rule's page, rendered for the terminal:
//! headings, wrapped paragraphs and lists, indented code; no Markdown syntax).

use super::{CliError, Ui, rule_settings, warn_rule_files, write_plain};
use crate::cli::{ExplainArgs, RuleFilesArgs, RulesAction, RulesArgs, TextOrJson};
use mglint::rules::known::KnownSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub fn list(a: RulesArgs, ui: &Ui) -> Result<u8, CliError> {
    match a.action {
        Some(RulesAction::Check(f)) => return check(&f, ui),
        Some(RulesAction::Test(f)) => return test(&f, ui),
        None => {}
    }
    let s = rule_settings(a.config.as_deref(), &a.known)?;
    warn_rule_files(&s);
    let cat = mglint::rules::catalogue_with(&s.known);
    let text = match a.format {
        TextOrJson::Json => mglint::rules::render_rules_json(&cat),
        TextOrJson::Text => super::for_terminal(mglint::rules::render_rules_text(&cat), None),
    };
    write_plain(&text, None, ui)?;
    Ok(0)
}

pub fn explain(a: ExplainArgs, ui: &Ui) -> Result<u8, CliError> {
    // Known-issue codes are found among the rules loaded (bundled, configured, --rules).
    let s = rule_settings(a.config.as_deref(), &a.known)?;
    match mglint::rules::explain(&a.code, &s.known) {
        Some(page) => {
            let opts = ui.stdout_options();
            let text = mglint::output::page::render_terminal(&page, &opts);
            write_plain(&super::for_terminal(text, None), None, ui)?;
            drop(s);
            Ok(0)
        }
        None => Err(CliError::Usage(format!(
            "no rule `{}`; `mglint rules` lists them",
            a.code
        ))),
    }
}

/// The rule files named: files as given, directories' `*.yaml` and `*.yml` files.
fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let v = mglint::rules::known::load::dir_files(p)
                .map_err(|e| CliError::Usage(e.one_line()))?;
            if v.is_empty() {
                return Err(CliError::Usage(format!(
                    "`{}`: no rule file (*.yaml) in it",
                    p.display()
                )));
            }
            out.extend(v);
        } else if p.exists() {
            // A FIFO or device is named by the loader ("it is a FIFO, not a regular file").
            out.push(p.clone());
        } else {
            return Err(CliError::Usage(format!("`{}`: not found", p.display())));
        }
    }
    Ok(out)
}

fn load(a: &RuleFilesArgs) -> Result<(Vec<PathBuf>, KnownSet), CliError> {
    let files = files(&a.paths)?;
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    Ok((files.clone(), KnownSet::load_files(&refs)))
}

/// Prints each problem (the YAML around it) on standard error.
fn report_problems(set: &KnownSet) {
    for p in &set.problems {
        say!("{}", p.render());
    }
}

fn check(a: &RuleFilesArgs, ui: &Ui) -> Result<u8, CliError> {
    let (files, set) = load(a)?;
    report_problems(&set);
    let mut text = String::new();
    for f in &files {
        let name = f.display().to_string();
        let n = set.rules.iter().filter(|r| r.file == name).count();
        let bad = set.problems.iter().filter(|p| p.path == name).count();
        if bad == 0 {
            text.push_str(&format!("ok      {name} ({n} rule{})\n", plural(n)));
        } else {
            text.push_str(&format!("invalid {name} ({bad} problem{})\n", plural(bad)));
        }
    }
    write_plain(&text, None, ui)?;
    Ok(if set.problems.is_empty() { 0 } else { 2 })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn test(a: &RuleFilesArgs, ui: &Ui) -> Result<u8, CliError> {
    let (_, set) = load(a)?;
    report_problems(&set);
    let set = Arc::new(set);
    let outcomes = mglint::app::run_rule_cases(&set);
    let mut text = String::new();
    let mut failed = 0;
    for o in &outcomes {
        let verdict = if o.passed() { "pass" } else { "FAIL" };
        if !o.passed() {
            failed += 1;
        }
        let want = if o.expected { "fires" } else { "silent" };
        let got = match o.findings {
            Some(n) => format!("{n} finding{}", plural(n)),
            None => "not analysed".to_string(),
        };
        text.push_str(&format!(
            "{verdict} {} {want:<6} {} ({got}{})\n",
            o.code,
            o.input.display(),
            o.note
                .as_deref()
                .map(|n| format!("; {n}"))
                .unwrap_or_default()
        ));
    }
    text.push_str(&format!(
        "\n{} case{}, {failed} failed\n",
        outcomes.len(),
        plural(outcomes.len())
    ));
    write_plain(&text, None, ui)?;
    Ok(if !set.problems.is_empty() {
        2
    } else {
        u8::from(failed > 0)
    })
}
