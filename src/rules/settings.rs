//! Which rules run and what fails the run: `select` / `ignore` by code or prefix and
//! `fail-on`, read from `mglint.toml` (the current directory's, or one named explicitly);
//! command-line flags override the file.

use super::engine::RuleMeta;
use super::model::Severity;
use serde::Deserialize;
use std::path::Path;

/// The config file looked for in the current directory.
pub const CONFIG_FILE: &str = "mglint.toml";

/// Rule selection and the fail level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Codes or prefixes to run (`CV`, `CO002`, `ALL`); empty means all.
    pub select: Vec<String>,
    /// Codes or prefixes not to run (wins over `select`).
    pub ignore: Vec<String>,
    /// The run fails (exit 1) when a finding at or above this severity exists.
    pub fail_on: Severity,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            select: Vec::new(),
            ignore: Vec::new(),
            fail_on: Severity::Error,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    #[serde(default)]
    select: Vec<String>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(rename = "fail-on", default)]
    fail_on: Option<String>,
}

impl Settings {
    /// Reads `path` when given (it must exist), else `<cwd>/mglint.toml` when present, else
    /// the defaults. Unknown keys, bad severities and unknown codes are errors.
    pub fn load(path: Option<&Path>, cwd: &Path) -> Result<Settings, String> {
        let (file, required) = match path {
            Some(p) => (p.to_path_buf(), true),
            None => (cwd.join(CONFIG_FILE), false),
        };
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Settings::default());
            }
            Err(e) => return Err(format!("cannot read `{}`: {e}", file.display())),
        };
        Settings::parse(&text).map_err(|e| format!("`{}`: {e}", file.display()))
    }

    /// Parses the TOML text of a config file.
    pub fn parse(text: &str) -> Result<Settings, String> {
        let fs: FileSettings = toml::from_str(text).map_err(|e| e.message().to_string())?;
        let fail_on = match fs.fail_on {
            None => Severity::Error,
            Some(s) => Severity::parse(&s)
                .ok_or_else(|| format!("`fail-on` must be error, warning or info, not `{s}`"))?,
        };
        let s = Settings {
            select: fs.select,
            ignore: fs.ignore,
            fail_on,
        };
        s.validate()?;
        Ok(s)
    }

    /// Checks that every selector names at least one rule (or a reserved family).
    pub fn validate(&self) -> Result<(), String> {
        let rules = super::registry::all();
        for sel in self.select.iter().chain(&self.ignore) {
            let up = sel.trim().to_ascii_uppercase();
            let reserved = super::model::Family::ALL.iter().any(|f| f.prefix() == up);
            if !reserved && !rules.iter().any(|r| r.meta().matches(sel)) {
                return Err(format!("no rule matches `{sel}` (see `mglint rules`)"));
            }
        }
        Ok(())
    }

    /// Whether a rule runs under these settings.
    pub fn selects(&self, meta: &RuleMeta) -> bool {
        let selected = self.select.is_empty() || self.select.iter().any(|s| meta.matches(s));
        selected && !self.ignore.iter().any(|s| meta.matches(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_keys_and_rejects_unknown_ones() {
        let s = Settings::parse(
            "select = [\"CV\", \"co001\"]\nignore = [\"CV004\"]\nfail-on = \"warning\"\n",
        )
        .unwrap();
        assert_eq!(s.select, vec!["CV", "co001"]);
        assert_eq!(s.fail_on, Severity::Warning);
        assert!(
            Settings::parse("fail_on = \"error\"\n")
                .unwrap_err()
                .contains("fail_on")
        );
        assert!(
            Settings::parse("fail-on = \"fatal\"\n")
                .unwrap_err()
                .contains("fatal")
        );
        assert!(
            Settings::parse("select = [\"ZZ9\"]\n")
                .unwrap_err()
                .contains("ZZ9")
        );
    }

    #[test]
    fn missing_default_file_is_fine_missing_named_file_is_not() {
        let dir = std::env::temp_dir().join(format!("mglint-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(Settings::load(None, &dir).unwrap(), Settings::default());
        assert!(Settings::load(Some(&dir.join("nope.toml")), &dir).is_err());
        std::fs::write(dir.join(CONFIG_FILE), "ignore = [\"IN\"]\n").unwrap();
        assert_eq!(Settings::load(None, &dir).unwrap().ignore, vec!["IN"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
