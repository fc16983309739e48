//! Where an object or record came from: the input the user named, the path inside it, a line
//! and a byte span.

use serde::Serialize;
use std::sync::Arc;

/// The origin of one object or record.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Provenance {
    /// The input as the user named it (a path or URL).
    pub input: Arc<str>,
    /// The path of the file inside that input ('/'-separated; empty when the input is the file).
    pub path: Arc<str>,
    /// 1-based line number, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Byte span `[start, end)` inside the file, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<(u64, u64)>,
}

impl Provenance {
    /// A provenance for a whole file.
    pub fn file(input: &Arc<str>, path: &Arc<str>) -> Self {
        Provenance {
            input: input.clone(),
            path: path.clone(),
            line: None,
            span: None,
        }
    }

    /// The same file, at a given line and byte span.
    pub fn at(&self, line: u32, start: u64, end: u64) -> Self {
        Provenance {
            line: Some(line),
            span: Some((start, end)),
            ..self.clone()
        }
    }

    /// `input/path` (or just the input when the input is the file itself).
    pub fn display_path(&self) -> String {
        if self.path.is_empty() {
            self.input.to_string()
        } else if self.input.is_empty() {
            self.path.to_string()
        } else {
            format!("{}/{}", self.input.trim_end_matches('/'), self.path)
        }
    }
}

impl std::fmt::Display for Provenance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}", self.display_path(), l),
            None => write!(f, "{}", self.display_path()),
        }
    }
}

/// A value with its provenance and, for small resource files, the source text (used to point
/// evidence at a line of YAML).
#[derive(Debug, Clone)]
pub struct Sourced<T> {
    pub value: T,
    pub prov: Provenance,
    /// The text of the file the value was parsed from (shared between objects of one file).
    pub text: Option<Arc<str>>,
}

impl<T> std::ops::Deref for Sourced<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}
