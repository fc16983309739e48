//! The one place that talks to the YAML library (`yaml_serde`, the maintained successor of
//! `serde_yaml`), so it can be swapped without touching parsers; the value builder that
//! notes duplicate keys instead of failing and bounds what aliases expand to ([`value`]);
//! the nesting bound, checked on the text before the library loads it ([`depth`]); and the
//! shortcut that reads the block YAML Kubernetes clients write several times faster, and
//! leaves anything else to the library ([`simple`]); YAML 1.1 booleans for the fields oc
//! types `bool` ([`bool11`]).

pub mod bool11;
pub mod depth;
pub mod simple;
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
    /// A bound tripped (nesting, alias expansion): the text may be valid YAML, but too
    /// costly to load.
    pub bound: bool,
}

/// How much a YAML text may expand to through aliases: values plus string bytes, twice
/// the text's size plus 64 Ki (a text without aliases builds at most its size). The margin
/// is small on purpose: a value built from an alias costs as much as one read from the text,
/// so a small file that expands to a million values would take many times the time of any
/// valid file of its size (`bench/bad.py`).
pub fn expansion_bound(text_len: usize) -> usize {
    text_len.saturating_mul(2).saturating_add(64 << 10)
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
        bound: false,
    }
}

/// What is checked on the whole text before the YAML library loads it: control characters
/// and the nesting depth.
pub fn check_text(text: &str) -> Result<(), YamlError> {
    // YAML text cannot hold ASCII control characters other than tab, LF and CR (the YAML
    // library stops at the first with this message). Found first, in one byte scan, a file of
    // NULs (a sparse or zeroed file) costs a scan, not the nesting check and a parse.
    if let Some(at) = text
        .bytes()
        .position(|b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f)
    {
        let before = &text.as_bytes()[..at];
        let line = memchr::memchr_iter(b'\n', before).count() + 1;
        let column = at
            - before
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        return Err(YamlError {
            message: "control characters are not allowed".to_string(),
            line: u32::try_from(line).ok(),
            column: u32::try_from(column).ok(),
            bound: false,
        });
    }
    match depth::too_deep(text, depth::MAX_DEPTH) {
        Some(line) => Err(YamlError {
            message: format!("nested deeper than {} levels", depth::MAX_DEPTH),
            line: u32::try_from(line).ok(),
            column: None,
            bound: true,
        }),
        None => Ok(()),
    }
}

/// Parses every document of a (possibly multi-document) YAML text into `T`.
/// Empty documents (a leading `---`) are skipped.
pub fn from_str_multi<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, YamlError> {
    check_text(text)?;
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
/// (the later value wins) in the returned list instead of failing. Bounded: nesting by
/// [`depth::MAX_DEPTH`], checked on the text first, and what aliases expand to by
/// [`expansion_bound`].
pub fn values_multi(text: &str) -> Result<(Vec<serde_json::Value>, value::Dups), YamlError> {
    check_text(text)?;
    values_multi_within(text, &value::Budget::new(expansion_bound(text.len())))
}

/// [`values_multi`] on a part of a text that [`check_text`] passed whole (a part holds no
/// control character and nests no deeper than the whole), charging what it builds to
/// `budget`, which the parts share (the envelope and items of a List read one at a time), so
/// that together they stay within the bound of the whole text.
pub fn values_multi_within(
    text: &str,
    budget: &value::Budget,
) -> Result<(Vec<serde_json::Value>, value::Dups), YamlError> {
    if let Some(read) = simple::values(text, budget) {
        return Ok(read);
    }
    library_values_within(text, budget)
}

/// [`values_multi_within`] by the YAML library alone, without [`simple`]'s shortcut (what
/// the shortcut must agree with).
pub fn library_values_within(
    text: &str,
    budget: &value::Budget,
) -> Result<(Vec<serde_json::Value>, value::Dups), YamlError> {
    let dups = std::cell::RefCell::new(value::Dups::default());
    let mut out = Vec::new();
    for doc in yaml_serde::Deserializer::from_str(text) {
        let seed = value::DupSeed {
            dups: &dups,
            budget,
        };
        let v = serde::de::DeserializeSeed::deserialize(seed, doc).map_err(|e| {
            let mut e = convert(e);
            if budget.tripped() {
                e.bound = true;
                e.message = format!(
                    "aliases expand past {} values and string bytes (the alias expansion bound, twice the file size)",
                    budget.limit
                );
            }
            e
        })?;
        if !v.is_null() {
            out.push(v);
        }
    }
    Ok((out, dups.into_inner()))
}

/// Whether what `text`'s aliases expand to stays within [`expansion_bound`], measured
/// without building the documents (`Err` only for that bound; other errors are left to the
/// loader that follows, which reports them with their place).
pub fn check_expansion(text: &str) -> Result<(), YamlError> {
    let budget = value::Budget::new(expansion_bound(text.len()));
    for doc in yaml_serde::Deserializer::from_str(text) {
        let seed = value::CountSeed { budget: &budget };
        if let Err(e) = serde::de::DeserializeSeed::deserialize(seed, doc) {
            if budget.tripped() {
                let e = convert(e);
                return Err(YamlError {
                    message: format!(
                        "aliases expand past {} values and string bytes (the alias expansion bound, twice the file size)",
                        budget.limit
                    ),
                    bound: true,
                    ..e
                });
            }
            return Ok(());
        }
    }
    Ok(())
}

/// Parses one YAML document into `T`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    check_text(text)?;
    yaml_serde::from_str(text).map_err(convert)
}

/// Serializes a value as YAML.
pub fn to_string<T: Serialize>(v: &T) -> Result<String, YamlError> {
    yaml_serde::to_string(v).map_err(convert)
}
