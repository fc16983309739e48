//! Rule codes on the command line: `--select`, `--ignore` and `explain` accept any text (a
//! prefix, a slug, a local `X-` code: the selection checks it later, with a clear message),
//! and offer the known codes to shell completion and `--help`-free discovery: the built-in
//! rules, the bundled known-issue rules and their family prefixes.

use clap::builder::{PossibleValue, TypedValueParser};
use std::collections::BTreeSet;

/// Accepts any code, and lists the known ones as possible values for completion scripts.
#[derive(Debug, Clone, Copy)]
pub struct CodeParser;

/// The codes completion offers: `ALL`, the family prefixes, every built-in code and every
/// bundled known-issue code, in that order.
pub fn known_codes() -> Vec<String> {
    let mut codes: BTreeSet<String> = mglint::rules::catalogue()
        .iter()
        .map(|m| m.code.to_string())
        .collect();
    for (file, _) in mglint::rules::known::bundled_files() {
        if let Some((code, _)) = file.split_once('-') {
            codes.insert(code.to_string());
        }
    }
    let families: BTreeSet<String> = codes
        .iter()
        .map(|c| c.chars().take_while(char::is_ascii_alphabetic).collect())
        .collect();
    let mut out = vec!["ALL".to_string()];
    out.extend(families);
    out.extend(codes);
    out
}

impl TypedValueParser for CodeParser {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        value
            .to_str()
            .map(str::to_string)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        // The arguments hide them from `--help` (the list is long); completion offers them.
        Some(Box::new(known_codes().into_iter().map(PossibleValue::new)))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_include_families_builtins_and_bundled_known_issues() {
        let c = super::known_codes();
        for want in ["ALL", "CV", "KI", "CV002", "KI001"] {
            assert!(c.iter().any(|x| x == want), "{want}: {c:?}");
        }
    }
}
