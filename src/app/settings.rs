//! Everything a run is told, resolved once: rule selection and the fail level, input limits,
//! remote fetching, threads and redaction. `mglint.toml` (the current directory's, or one
//! named with `--config`) gives defaults; the command line overrides them; the result is
//! validated in one place, so an unknown rule code is an error wherever it came from.

use crate::remote::FetchOptions;
use crate::rules::{Selection, Severity, UnknownSelector};
use crate::source::SourceOptions;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The config file looked for in the current directory.
pub const CONFIG_FILE: &str = "mglint.toml";

/// Limits that keep hostile or huge inputs from exhausting memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest single file (after decompression) that is read.
    pub max_file_bytes: u64,
    /// Largest total number of bytes decompressed from one archive stream.
    pub max_archive_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        let s = SourceOptions::default();
        Limits {
            max_file_bytes: s.max_file_bytes,
            max_archive_bytes: s.max_archive_bytes,
        }
    }
}

impl Limits {
    /// The source-layer options these limits give.
    pub fn source_options(&self) -> SourceOptions {
        SourceOptions {
            max_file_bytes: self.max_file_bytes,
            max_archive_bytes: self.max_archive_bytes,
            ..SourceOptions::default()
        }
    }
}

/// A resolved, validated run configuration.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Which rules run and what fails the run.
    pub selection: Selection,
    pub limits: Limits,
    /// How URL inputs are fetched.
    pub remote: FetchOptions,
    /// Worker threads; `None` means all cores (or `RAYON_NUM_THREADS`).
    pub threads: Option<usize>,
    /// Replace identifying values in every output with stable placeholders.
    pub redact: bool,
}

/// What the command line says, each `None`/empty meaning "not given".
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub config: Option<PathBuf>,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub fail_on: Option<Severity>,
    pub limits: Option<Limits>,
    pub remote: Option<FetchOptions>,
    pub threads: Option<usize>,
    pub redact: bool,
}

/// Why the settings could not be resolved (a usage error: exit 2).
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read `{path}`: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{path}`: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("`{origin}`: {source}")]
    Selector {
        /// `--select`, `--ignore` or the config file's path.
        origin: String,
        #[source]
        source: UnknownSelector,
    },
    #[error("--threads must be at least 1")]
    Threads,
}

#[derive(Debug, Default, Deserialize)]
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
    /// Reads `config` when given (it must exist), else `<cwd>/mglint.toml` when present,
    /// then applies the command line over it and validates the result.
    pub fn resolve(cwd: &Path, o: Overrides) -> Result<Settings, SettingsError> {
        let (file, origin) = match &o.config {
            Some(p) => (read_file(p, true)?, p.display().to_string()),
            None => {
                let p = cwd.join(CONFIG_FILE);
                (read_file(&p, false)?, p.display().to_string())
            }
        };
        let mut s = Settings::default();
        if let Some(f) = file {
            s.selection = f;
        }
        let check = |sel: &Selection, origin: &str| {
            sel.validate().map_err(|source| SettingsError::Selector {
                origin: origin.to_string(),
                source,
            })
        };
        check(&s.selection, &origin)?;
        if !o.select.is_empty() {
            s.selection.select = o.select;
            check(&s.selection, "--select")?;
        }
        if !o.ignore.is_empty() {
            s.selection.ignore = o.ignore;
            check(&s.selection, "--ignore")?;
        }
        if let Some(f) = o.fail_on {
            s.selection.fail_on = f;
        }
        if let Some(l) = o.limits {
            s.limits = l;
        }
        if let Some(r) = o.remote {
            s.remote = r;
        }
        if o.threads == Some(0) {
            return Err(SettingsError::Threads);
        }
        s.threads = o.threads;
        s.redact = o.redact;
        Ok(s)
    }

    /// Parses the TOML text of a config file into a rule selection (validated).
    pub fn parse_file(text: &str) -> Result<Selection, String> {
        let fs: FileSettings = toml::from_str(text).map_err(|e| e.message().to_string())?;
        let fail_on = match fs.fail_on {
            None => Severity::Error,
            Some(s) => Severity::parse(&s)
                .ok_or_else(|| format!("`fail-on` must be error, warning or info, not `{s}`"))?,
        };
        let sel = Selection {
            select: fs.select,
            ignore: fs.ignore,
            fail_on,
        };
        sel.validate().map_err(|e| e.to_string())?;
        Ok(sel)
    }
}

fn read_file(path: &Path, required: bool) -> Result<Option<Selection>, SettingsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(SettingsError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    Settings::parse_file(&text)
        .map(Some)
        .map_err(|message| SettingsError::Parse {
            path: path.to_path_buf(),
            message,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_keys_and_rejects_unknown_ones() {
        let s = Settings::parse_file(
            "select = [\"CV\", \"co001\"]\nignore = [\"CV004\"]\nfail-on = \"warning\"\n",
        )
        .unwrap();
        assert_eq!(s.select, vec!["CV", "co001"]);
        assert_eq!(s.fail_on, Severity::Warning);
        assert!(
            Settings::parse_file("fail_on = \"error\"\n")
                .unwrap_err()
                .contains("fail_on")
        );
        assert!(
            Settings::parse_file("fail-on = \"fatal\"\n")
                .unwrap_err()
                .contains("fatal")
        );
        assert!(
            Settings::parse_file("select = [\"ZZ9\"]\n")
                .unwrap_err()
                .contains("ZZ9")
        );
    }

    #[test]
    fn command_line_selectors_are_validated_like_the_file() {
        let dir = tempdir();
        let err = Settings::resolve(
            &dir,
            Overrides {
                select: vec!["BOGUS".into()],
                ..Overrides::default()
            },
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "`--select`: no rule matches `BOGUS` (see `mglint rules`)"
        );
        let err = Settings::resolve(
            &dir,
            Overrides {
                ignore: vec!["cv9".into()],
                ..Overrides::default()
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("`cv9`"), "{err}");
    }

    #[test]
    fn missing_default_file_is_fine_missing_named_file_is_not_flags_win() {
        let dir = tempdir();
        assert_eq!(
            Settings::resolve(&dir, Overrides::default())
                .unwrap()
                .selection,
            Selection::default()
        );
        let named = Overrides {
            config: Some(dir.join("nope.toml")),
            ..Overrides::default()
        };
        assert!(matches!(
            Settings::resolve(&dir, named),
            Err(SettingsError::Read { .. })
        ));
        std::fs::write(
            dir.join(CONFIG_FILE),
            "ignore = [\"IN\"]\nfail-on = \"warning\"\n",
        )
        .unwrap();
        let s = Settings::resolve(&dir, Overrides::default()).unwrap();
        assert_eq!(s.selection.ignore, vec!["IN"]);
        let s = Settings::resolve(
            &dir,
            Overrides {
                fail_on: Some(Severity::Info),
                ignore: vec!["CO".into()],
                ..Overrides::default()
            },
        )
        .unwrap();
        assert_eq!(s.selection.ignore, vec!["CO"]);
        assert_eq!(s.selection.fail_on, Severity::Info);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempdir() -> PathBuf {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let d = std::env::temp_dir().join(format!(
            "mglint-settings-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
