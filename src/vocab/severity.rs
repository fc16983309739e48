//! The one severity scale: of a finding, of a known-issue rule file's `severity:`, of
//! `--fail-on` and `fail-on` in `mglint.toml`, and of an ingestion diagnostic (which uses
//! `warning` and `error`). Serialized lowercase; `--fail-on` lists it from the most serious.

use clap::ValueEnum;
use clap::builder::PossibleValue;
use serde::{Deserialize, Serialize};

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The lowercase word, as serialized (`#[serde(rename_all)]` spells it).
    pub fn as_str(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }

    /// Parses `error`, `warning` (or `warn`) and `info`, in any case.
    pub fn parse(s: &str) -> Option<Severity> {
        let word = s.trim().to_ascii_lowercase();
        Severity::exactly(&word).or((word == "warn").then_some(Severity::Warning))
    }

    /// The severity whose word is exactly `word`.
    fn exactly(word: &str) -> Option<Severity> {
        Severity::value_variants()
            .iter()
            .copied()
            .find(|v| v.as_str() == word)
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Rule files and documents spell it exactly, lowercase; an unknown word names the three, most
/// serious first.
impl<'de> Deserialize<'de> for Severity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(Word)
    }
}

/// Reads a severity word inside the deserializer, so its errors keep their position.
struct Word;

impl serde::de::Visitor<'_> for Word {
    type Value = Severity;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("one of `error`, `warning`, `info`")
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Severity, E> {
        Severity::exactly(s).ok_or_else(|| E::unknown_variant(s, &["error", "warning", "info"]))
    }
}

/// `--fail-on error|warning|info` (`warn` accepted), most serious first.
impl ValueEnum for Severity {
    fn value_variants<'a>() -> &'a [Self] {
        &[Severity::Error, Severity::Warning, Severity::Info]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let v = PossibleValue::new(self.as_str());
        Some(match self {
            Severity::Warning => v.alias("warn"),
            _ => v,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_the_warn_alias() {
        assert_eq!(Severity::parse("WARN"), Some(Severity::Warning));
        assert_eq!(Severity::parse(" error "), Some(Severity::Error));
        assert_eq!(Severity::parse("fatal"), None);
        assert_eq!(
            <Severity as ValueEnum>::from_str("warn", true).ok(),
            Some(Severity::Warning)
        );
        assert!(Severity::Info < Severity::Warning && Severity::Warning < Severity::Error);
    }

    #[test]
    fn rule_files_spell_it_lowercase_only() {
        let s: Severity = yaml_serde::from_str("warning").unwrap();
        assert_eq!(s, Severity::Warning);
        let e = yaml_serde::from_str::<Severity>("warn")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown variant `warn`, expected one of `error`, `warning`, `info`"),
            "{e}"
        );
        assert_eq!(
            serde_json::to_string(&Severity::Error).unwrap(),
            "\"error\""
        );
    }
}
