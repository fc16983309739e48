//! Reading rule files: the YAML (through `crate::yaml`, whose errors carry line and column)
//! into [`RuleFile`], each rule checked and compiled, every problem a [`RuleFileError`]; and
//! where rule files come from: the bundled catalogue, directories, and the user's
//! `$XDG_CONFIG_HOME/mglint/rules/`.

use super::compile::{self, Compiled, Ctx, Origin};
use super::error::RuleFileError;
use super::format::RuleFile;
use std::path::{Path, PathBuf};

/// What one file gave: its rules and its problems.
#[derive(Debug, Default)]
pub struct Parsed {
    pub rules: Vec<Compiled>,
    pub problems: Vec<RuleFileError>,
}

/// Where each rule of a list starts (a `-` in column 0), when the text shows it plainly.
fn starts(text: &str, n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = Vec::new();
    let mut off = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("- ") || line.trim_end() == "-" {
            v.push(off);
        }
        off += line.len();
    }
    if v.len() == n { v } else { vec![0; n] }
}

/// Parses and compiles one rule file. `builtin` says whether a code is a built-in rule's.
pub fn parse(path: &str, text: &str, origin: Origin, builtin: &dyn Fn(&str) -> bool) -> Parsed {
    let mut out = Parsed::default();
    if text.trim().is_empty()
        || text
            .lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        out.problems.push(RuleFileError::at(
            path,
            text,
            None,
            "the file holds no rule",
        ));
        return out;
    }
    let file: RuleFile = match crate::yaml::from_str(text) {
        Ok(f) => f,
        Err(e) => {
            let mut err = RuleFileError::at_line(path, text, e.line, e.column, e.message.clone());
            if e.message.contains("unknown field") {
                err = err
                    .with_help("rule files are closed: every key is in docs/known-issue-rules.md");
            }
            out.problems.push(err);
            return out;
        }
    };
    let n = file.0.len();
    let at = starts(text, n);
    for (i, def) in file.0.into_iter().enumerate() {
        let from = at[i];
        let to = if n > 1 && at[0] != at.get(1).copied().unwrap_or(0) {
            at.get(i + 1).copied().unwrap_or(text.len())
        } else {
            text.len()
        };
        let cx = Ctx {
            path,
            text,
            from,
            to,
            code: def.code.clone(),
        };
        let dup = out
            .rules
            .iter()
            .find(|r| r.def.code == def.code || r.def.name == def.name)
            .map(|r| r.def.code.clone());
        match compile::compile(&cx, def, origin, builtin) {
            Ok(c) => match dup {
                Some(other) => out.problems.push(
                    RuleFileError::at(
                        path,
                        text,
                        Some((from, 1)),
                        format!(
                            "`{}` (`{}`) repeats the code or name of `{other}` in this file",
                            c.def.code, c.def.name
                        ),
                    )
                    .in_rule(&c.def.code),
                ),
                None => out.rules.push(c),
            },
            Err(e) => out.problems.push(*e),
        }
    }
    out
}

/// Where rule files come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// The catalogue compiled into the binary.
    pub bundled: bool,
    /// Directories of local rules (`--rules`, `rule-dirs`, the user's directory), in order.
    pub dirs: Vec<PathBuf>,
}

/// `$XDG_CONFIG_HOME/mglint/rules/` (default `~/.config/mglint/rules/`).
pub fn user_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("mglint").join("rules"))
}

/// The rule files of a directory (`*.yaml`, `*.yml`), in name order; a directory that cannot
/// be read is one problem.
pub fn dir_files(dir: &Path) -> Result<Vec<PathBuf>, Box<RuleFileError>> {
    let rd = std::fs::read_dir(dir).map_err(|e| {
        Box::new(RuleFileError::at(
            &dir.display().to_string(),
            "",
            None,
            format!("cannot read the rule directory: {e}"),
        ))
    })?;
    let mut v: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    v.sort();
    Ok(v)
}

/// The origin a rule file on disk is checked as: the catalogue's when it is one of the
/// catalogue's own files (a file of that name, compiled into this binary, in a
/// `known-issues` directory: codes `KI…`), else a local rule's (codes `X-…`), as `analyze`
/// loads it. A `KI` file of the user's in a directory named `known-issues` is refused by
/// `rules check` exactly as `analyze --rules` refuses it.
pub fn origin_of(path: &Path) -> Origin {
    let in_catalogue = path
        .parent()
        .and_then(|p| p.file_name())
        .is_some_and(|n| n == "known-issues")
        && path.file_name().is_some_and(|name| {
            super::bundled_files()
                .iter()
                .any(|(bundled, _)| name == *bundled)
        });
    if in_catalogue {
        Origin::Bundled
    } else {
        Origin::Local
    }
}

/// Reads and parses one file on disk, checked as its place says ([`origin_of`]).
pub fn parse_path(path: &Path, builtin: &dyn Fn(&str) -> bool) -> Parsed {
    parse_path_as(path, origin_of(path), builtin)
}

/// Reads (a regular file under the rule-file bound) and parses one file as `origin`.
pub fn parse_path_as(path: &Path, origin: Origin, builtin: &dyn Fn(&str) -> bool) -> Parsed {
    let name = path.display().to_string();
    match crate::vocab::bounded::read_to_string(path, crate::vocab::bounded::RULE_FILE_BYTES) {
        Ok(text) => parse(&name, &text, origin, builtin),
        Err(e) => Parsed {
            rules: Vec::new(),
            problems: vec![RuleFileError::at(
                &name,
                "",
                None,
                format!("cannot read the rule file: {e}"),
            )],
        },
    }
}
