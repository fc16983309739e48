//! Everything a run is told, resolved once: rule selection and the fail level, the
//! known-issue rules (bundled, `rule-dirs`, `--rules`, the user's directory), input limits,
//! remote fetching, threads, redaction, and where the published update risks come from
//! (the bundled snapshot, or a cincinnati-graph-data checkout: `--risks`, `risks-dir`). `mglint.toml` (the current directory's, or one
//! named with `--config`) gives defaults; the command line overrides them; the result is
//! validated in one place, so an unknown rule code is an error wherever it came from.

use crate::remote::FetchOptions;
use crate::risks::catalogue::{Catalogue, CatalogueError};
use crate::rules::known::{KnownSet, Sources};
use crate::rules::{Selection, Severity, UnknownSelector};
use crate::source::SourceOptions;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    /// The known-issue rules loaded (bundled catalogue and rule directories), the rule files
    /// that could not be loaded, and what the rules ask ingestion to read. Empty unless the
    /// verb runs rules ([`Overrides::known_rules`]).
    pub known: Arc<KnownSet>,
    /// Where the known-issue rules came from.
    pub rule_sources: Sources,
    /// The settings file read, and how it was found (`None`: none was read).
    pub config_file: Option<ConfigFile>,
    /// A settings file passed over, and why (inside an input, or `--no-config`).
    pub config_skipped: Option<String>,
    /// The published update risks read from a checkout (`--risks DIR`, `risks-dir`); `None`:
    /// the bundled snapshot. Loaded once per resolve and kept for the process, as the
    /// bundled one is (findings reference its bug URLs). Only for verbs that read the risks
    /// ([`Overrides::published_risks`]).
    pub catalogue: Option<std::sync::Arc<Catalogue>>,
    /// The edge files of that checkout that could not be read (the others were used).
    pub risk_file_problems: Vec<CatalogueError>,
}

/// A settings file that was read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ConfigFile {
    pub path: PathBuf,
    /// `false`: found in the current directory; `true`: named with `--config`.
    pub explicit: bool,
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
    /// Load known-issue rules (verbs that run rules: `analyze`, `batch`, `rules`).
    pub known_rules: bool,
    /// `--rules DIR` (repeatable): directories of local rule files.
    pub rule_dirs: Vec<PathBuf>,
    /// `--no-bundled-rules`: leave the bundled catalogue out.
    pub no_bundled_rules: bool,
    /// `--no-config`: read no settings file.
    pub no_config: bool,
    /// The local inputs: a `mglint.toml` inside one of them (a must-gather analysed from
    /// inside it, a CI job's artifacts) is data, never settings.
    pub inputs: Vec<PathBuf>,
    /// The verb reads the published update risks (`analyze`, `risks`, `recommend
    /// --published-risks`): `--risks` and the config's `risks-dir` are loaded.
    pub published_risks: bool,
    /// `--risks DIR`: a cincinnati-graph-data checkout read instead of the bundled snapshot.
    pub risks: Option<PathBuf>,
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
    #[error("rule directory `{path}` (from {origin}): {reason}")]
    RuleDir {
        path: PathBuf,
        origin: String,
        reason: String,
    },
    /// The risks checkout could not be listed (`origin`: `None` for `--risks`, else the
    /// settings file that named it).
    #[error("{source}{}", .origin.as_ref().map(|o| format!(" (from {o})")).unwrap_or_default())]
    Risks {
        origin: Option<String>,
        #[source]
        source: CatalogueError,
    },
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
    /// Directories of local known-issue rules, relative to the config file.
    #[serde(rename = "rule-dirs", default)]
    rule_dirs: Vec<PathBuf>,
    /// `false` leaves the bundled known-issue catalogue out.
    #[serde(rename = "bundled-rules", default)]
    bundled_rules: Option<bool>,
    /// A cincinnati-graph-data checkout to read the published update risks from, relative
    /// to the config file.
    #[serde(rename = "risks-dir", default)]
    risks_dir: Option<PathBuf>,
}

/// What a config file says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileConfig {
    /// Not yet validated (known-issue codes are known only once the rules are loaded).
    pub selection: Selection,
    /// As written (relative to the config file's directory).
    pub rule_dirs: Vec<PathBuf>,
    pub bundled_rules: bool,
    /// As written (relative to the config file's directory).
    pub risks_dir: Option<PathBuf>,
}

impl Settings {
    /// Reads `config` when given (it must exist), else `<cwd>/mglint.toml` when present,
    /// then applies the command line over it and validates the result.
    pub fn resolve(cwd: &Path, o: Overrides) -> Result<Settings, SettingsError> {
        let mut s = Settings::default();
        let (file, origin) = match &o.config {
            Some(p) => {
                let f = read_file(p, true)?;
                s.config_file = Some(ConfigFile {
                    path: p.clone(),
                    explicit: true,
                });
                (f, p.display().to_string())
            }
            None => {
                let p = cwd.join(CONFIG_FILE);
                let origin = p.display().to_string();
                if o.no_config {
                    (None, origin)
                } else if let Some(input) = o.inputs.iter().find(|i| inside(&p, i)) {
                    if p.exists() {
                        s.config_skipped = Some(format!(
                            "`{}` is inside the input `{}`: not read as settings (pass --config to use it)",
                            p.display(),
                            input.display()
                        ));
                    }
                    (None, origin)
                } else {
                    let f = read_file(&p, false)?;
                    if f.is_some() {
                        s.config_file = Some(ConfigFile {
                            path: p.clone(),
                            explicit: false,
                        });
                    }
                    (f, origin)
                }
            }
        };
        let config_dir = match &o.config {
            Some(p) => p.parent().map(Path::to_path_buf).unwrap_or_default(),
            None => cwd.to_path_buf(),
        };
        let file = file.unwrap_or(FileConfig {
            bundled_rules: true,
            ..FileConfig::default()
        });
        s.selection = file.selection.clone();
        if o.known_rules {
            let mut dirs = Vec::new();
            for d in &file.rule_dirs {
                let p = config_dir.join(d);
                check_dir(&p, &origin)?;
                dirs.push(p);
            }
            for d in &o.rule_dirs {
                let p = cwd.join(d);
                check_dir(&p, "--rules")?;
                dirs.push(p);
            }
            if let Some(u) = crate::rules::known::user_dir().filter(|u| u.is_dir()) {
                dirs.push(u);
            }
            s.rule_sources = Sources {
                bundled: file.bundled_rules && !o.no_bundled_rules,
                dirs,
            };
            s.known = Arc::new(KnownSet::load(&s.rule_sources));
        }
        let metas = s.known.metas();
        let check = |sel: &Selection, origin: &str| {
            sel.validate_with(&metas)
                .map_err(|source| SettingsError::Selector {
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
        if o.published_risks {
            let dir = match (&o.risks, &file.risks_dir) {
                // As given, so that an error names the path as the user wrote it.
                (Some(d), _) => Some((d.clone(), None)),
                (None, Some(d)) => Some((config_dir.join(d), Some(origin.clone()))),
                (None, None) => None,
            };
            if let Some((dir, origin)) = dir {
                let loaded = Catalogue::from_checkout(&dir)
                    .map_err(|source| SettingsError::Risks { origin, source })?;
                s.catalogue = Some(std::sync::Arc::new(loaded.catalogue));
                s.risk_file_problems = loaded.problems;
            }
        }
        if let Some(l) = o.limits {
            s.limits = l;
        }
        if let Some(r) = o.remote {
            s.remote = r;
        }
        // A ranged fetch brings the archive members ingestion reads, rules' wants included.
        s.remote.wants = s.known.wants.clone();
        if o.threads == Some(0) {
            return Err(SettingsError::Threads);
        }
        s.threads = o.threads;
        s.redact = o.redact;
        Ok(s)
    }

    /// A line for standard error saying which settings file was read or passed over, when it
    /// was not named on the command line (a file found implicitly is never taken silently).
    pub fn config_note(&self) -> Option<String> {
        if let Some(skipped) = &self.config_skipped {
            return Some(skipped.clone());
        }
        let f = self.config_file.as_ref().filter(|f| !f.explicit)?;
        Some(format!(
            "settings from `{}` (found in the current directory; --no-config to ignore it)",
            f.path.display()
        ))
    }

    /// Parses the TOML text of a config file into a rule selection (validated against the
    /// built-in rules).
    pub fn parse_file(text: &str) -> Result<Selection, String> {
        let c = Settings::parse_config(text)?;
        c.selection.validate().map_err(|e| e.to_string())?;
        Ok(c.selection)
    }

    /// Parses the TOML text of a config file (selectors not yet validated).
    pub fn parse_config(text: &str) -> Result<FileConfig, String> {
        let fs: FileSettings = toml::from_str(text).map_err(|e| e.message().to_string())?;
        let fail_on = match fs.fail_on {
            None => Severity::Error,
            Some(s) => Severity::parse(&s)
                .ok_or_else(|| format!("`fail-on` must be error, warning or info, not `{s}`"))?,
        };
        Ok(FileConfig {
            selection: Selection {
                select: fs.select,
                ignore: fs.ignore,
                fail_on,
            },
            rule_dirs: fs.rule_dirs,
            bundled_rules: fs.bundled_rules.unwrap_or(true),
            risks_dir: fs.risks_dir,
        })
    }
}

/// A rule directory named by the user must be one.
fn check_dir(p: &Path, origin: &str) -> Result<(), SettingsError> {
    if p.is_dir() {
        return Ok(());
    }
    Err(SettingsError::RuleDir {
        path: p.to_path_buf(),
        origin: origin.to_string(),
        reason: if p.exists() {
            "not a directory".into()
        } else {
            "not found".into()
        },
    })
}

fn read_file(path: &Path, required: bool) -> Result<Option<FileConfig>, SettingsError> {
    let text =
        match crate::vocab::bounded::read_to_string(path, crate::vocab::bounded::SETTINGS_BYTES) {
            Ok(t) => t,
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(SettingsError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
    Settings::parse_config(&text)
        .map(Some)
        .map_err(|message| SettingsError::Parse {
            path: path.to_path_buf(),
            message,
        })
}

/// Whether `file` lies inside (or is) the directory `input` (both made absolute; a path
/// that cannot be resolved is compared as given).
fn inside(file: &Path, input: &Path) -> bool {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = file.parent().map(canon).unwrap_or_default();
    let input = canon(input);
    input.is_dir() && dir.starts_with(&input)
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

    #[test]
    fn risks_dir_is_read_relative_to_the_file_only_by_verbs_that_judge_risks() {
        let dir = tempdir();
        std::fs::create_dir_all(dir.join("cgd/blocked-edges")).unwrap();
        std::fs::write(
            dir.join("cgd/blocked-edges/4.1.1-R.yaml"),
            "to: 4.1.1\nfrom: .*\nname: R\nmatchingRules:\n- type: Always\n",
        )
        .unwrap();
        std::fs::write(dir.join("mglint.toml"), "risks-dir = \"cgd\"\n").unwrap();
        let resolve = |published_risks: bool, risks: Option<PathBuf>| {
            Settings::resolve(
                &dir,
                Overrides {
                    published_risks,
                    risks,
                    ..Overrides::default()
                },
            )
        };
        // A verb that reads no risk leaves the checkout alone.
        assert!(resolve(false, None).unwrap().catalogue.is_none());
        let s = resolve(true, None).unwrap();
        let names: Vec<&str> = s
            .catalogue
            .as_ref()
            .unwrap()
            .risks
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(names, ["R"]);
        // The flag wins, and a missing directory names itself.
        let missing = dir.join("gone");
        let err = resolve(true, Some(missing.clone()))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(&format!(
                "cannot read update risk file `{}`: ",
                missing.display()
            )) && !err.contains("(from"),
            "{err}"
        );
        std::fs::write(dir.join("mglint.toml"), "risks-dir = \"gone\"\n").unwrap();
        let err = resolve(true, None).unwrap_err().to_string();
        assert!(
            err.ends_with(&format!("(from {})", dir.join("mglint.toml").display())),
            "{err}"
        );
        assert!(resolve(false, None).is_ok());
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
