//! The one place that talks to the YAML library (`yaml_serde`, the maintained successor of
//! `serde_yaml`), so it can be swapped without touching parsers; and the value builder that
//! notes duplicate keys instead of failing ([`value`]).

pub mod value;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A YAML error with its location.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    pub message: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

fn convert(e: yaml_serde::Error) -> YamlError {
    let loc = e.location();
    let mut message = e.to_string();
    // The library appends " at line L column C"; we carry the location separately.
    if let Some(i) = message.find(" at line ") {
        message.truncate(i);
    }
    YamlError {
        message,
        line: loc.as_ref().map(|l| l.line() as u32),
        column: loc.as_ref().map(|l| l.column() as u32),
    }
}

/// Parses every document of a (possibly multi-document) YAML text into `T`.
/// Empty documents (a leading `---`) are skipped.
pub fn from_str_multi<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, YamlError> {
    let mut out = Vec::new();
    for doc in yaml_serde::Deserializer::from_str(text) {
        let v: Option<T> = serde::Deserialize::deserialize(doc).map_err(convert)?;
        if let Some(v) = v {
            out.push(v);
        }
    }
    Ok(out)
}

/// Parses every document of a YAML text into JSON values, noting duplicate mapping keys
/// (the later value wins) in the returned list instead of failing.
pub fn values_multi(text: &str) -> Result<(Vec<serde_json::Value>, Vec<String>), YamlError> {
    let dups = std::cell::RefCell::new(Vec::new());
    let mut out = Vec::new();
    for doc in yaml_serde::Deserializer::from_str(text) {
        let v = serde::de::DeserializeSeed::deserialize(value::DupSeed { dups: &dups }, doc)
            .map_err(convert)?;
        if !v.is_null() {
            out.push(v);
        }
    }
    Ok((out, dups.into_inner()))
}

/// Parses one YAML document into `T`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    yaml_serde::from_str(text).map_err(convert)
}

/// Serializes a value as YAML.
pub fn to_string<T: Serialize>(v: &T) -> Result<String, YamlError> {
    yaml_serde::to_string(v).map_err(convert)
}
