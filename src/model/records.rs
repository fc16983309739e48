//! Records that are not Kubernetes objects: CVO log records, CI monitor intervals and text
//! lines, JUnit test cases, Prow job metadata and ingestion diagnostics.

use super::provenance::Provenance;
use crate::vocab::time::Time;
use crate::vocab::wants::LogFile;
use serde::Serialize;
use std::collections::BTreeMap;

/// One CVO container log file.
#[derive(Debug, Clone)]
pub struct CvoLog {
    pub prov: Provenance,
    /// The pod name, from the path.
    pub pod: String,
    /// Which of the container's log files (`previous.log`: the instance before the last
    /// restart).
    pub file: LogFile,
    /// Records in file order.
    pub records: super::LogRecords,
    pub lines: u64,
    pub bytes: u64,
    /// Lines that were neither a klog header nor a continuation of one.
    pub unparsed_lines: u64,
}

impl CvoLog {
    /// Whether this is the previous container instance's log.
    pub fn is_previous(&self) -> bool {
        self.file == LogFile::Previous
    }

    /// The earliest and latest record times.
    pub fn span(&self) -> Option<(Time, Time)> {
        self.records.span()
    }
}

/// An origin monitor interval (any of the four schema generations, normalised).
#[derive(Debug, Clone, Serialize)]
pub struct Interval {
    pub level: String,
    pub source: String,
    /// The locator rendered in the old string form (`clusteroperator/etcd`).
    pub locator: String,
    pub locator_type: String,
    pub locator_keys: BTreeMap<String, String>,
    pub reason: String,
    /// The human message.
    pub message: String,
    pub annotations: BTreeMap<String, String>,
    pub from: Option<Time>,
    pub to: Option<Time>,
    #[serde(skip)]
    pub prov: Provenance,
}

/// What kind of test-log line this is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextLineKind {
    /// `Mon DD HH:MM:SS.mmm <I|W|E> [- <N>s] <locator> <message>`, its stanzas split by
    /// ingest (`ingest::stanza::monitor_stanzas`) so that no reader splits them again.
    Monitor {
        level: char,
        /// The locator as written (`ns/x pod/y node/z`).
        locator: String,
        duration_secs: Option<f64>,
        /// The locator's pairs that name an object (`clusterversion`, `node`, `ns`, `pod`…).
        keys: BTreeMap<String, String>,
        /// The locator's other pairs, then the annotations that lead the message
        /// (`reason/NodeUpdate phase/Drain`).
        annotations: BTreeMap<String, String>,
        /// Where the human text starts in the line's message (past its annotations), in bytes.
        text_at: usize,
    },
    /// `Mon DD HH:MM:SS.mmm: INFO: <text>` (e2e framework output).
    Info,
}

/// One timestamped line from a CI test log or build log.
#[derive(Debug, Clone)]
pub struct TextLine {
    pub time: Option<Time>,
    /// When the line says it happened: absolute (RFC 3339), or without a year (the one type
    /// a CVO log record's time has too).
    pub stamp: super::RecordTime,
    pub kind: TextLineKind,
    pub message: String,
    pub prov: Provenance,
}

impl TextLine {
    /// The human text: a monitor line's message past its leading annotations, else the
    /// whole message.
    pub fn text(&self) -> &str {
        match self.kind {
            TextLineKind::Monitor { text_at, .. } => self.message.get(text_at..).unwrap_or(""),
            TextLineKind::Info => &self.message,
        }
    }
}

/// Outcome of one JUnit test case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JunitStatus {
    Passed,
    Failed,
    Error,
    Skipped,
}

/// One JUnit test case.
#[derive(Debug, Clone, Serialize)]
pub struct JunitCase {
    pub suite: String,
    pub classname: String,
    pub name: String,
    pub time_secs: Option<f64>,
    pub status: JunitStatus,
    /// Failure or error message (ANSI escapes stripped).
    pub message: String,
    #[serde(skip)]
    pub prov: Provenance,
}

/// Metadata of a Prow job (prowjob.json, started.json, finished.json).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ProwJob {
    pub job: String,
    pub build_id: String,
    pub state: String,
    pub target: String,
    pub start: Option<Time>,
    pub completion: Option<Time>,
    pub passed: Option<bool>,
    pub result: String,
    pub release_initial: String,
    pub release_latest: String,
    pub from_tag: String,
    pub to_tag: String,
    #[serde(skip)]
    pub prov: Vec<Provenance>,
}

/// An ingestion diagnostic is at `warning` or `error` (never `info`).
pub use crate::vocab::severity::Severity;

/// A file that could not be read, or was read only in part, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnostic {
    pub level: Severity,
    #[serde(flatten)]
    pub prov: Provenance,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// Why, for a person.
    pub reason: String,
    /// Why, typed, for the code that acts on it (`bundle::unread_files`): never read back
    /// from `reason`.
    #[serde(skip)]
    pub cause: Cause,
}

/// What a diagnostic is about, typed: the kind of the file (the parser it went to) and the
/// object kind it, or the item the diagnostic names, could not be read as.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cause {
    /// The file's kind; `None` when the diagnostic was raised before the file was handed to
    /// its parser (the walk), or is about no one file (an input, an archive's stream).
    pub file: Option<crate::vocab::FileKind>,
    /// The object kind (`ClusterVersion`, `Alerts` for an alerts response) the file or its
    /// item failed to read as; `None` when no kind was known (invalid YAML or JSON).
    pub object: Option<&'static str>,
    /// The reader's own words, without mglint's framing (`not a valid alerts response: …`):
    /// what oc would say of the same bytes.
    pub detail: Option<String>,
}

impl Cause {
    /// A failure to read something as an object of `kind`.
    pub fn object(kind: &'static str) -> Cause {
        Cause {
            object: Some(kind),
            ..Cause::default()
        }
    }

    /// An alerts response that could not be read, and the reader's reason.
    pub fn alerts(detail: String) -> Cause {
        Cause {
            object: Some(<super::Alerts as super::Kind>::KIND),
            detail: Some(detail),
            ..Cause::default()
        }
    }
}

/// A container log a known-issue rule asked for (see `vocab::wants`), kept as the lines its
/// rules can match: rules scan them; nothing else reads it.
#[derive(Debug, Clone)]
pub struct PodLog {
    pub prov: Provenance,
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub file: LogFile,
    pub lines: PodLogLines,
}

/// The lines of a container log that rules can match, in file order.
#[derive(Debug, Clone)]
pub enum PodLogLines {
    /// The whole text: a rule reading this log names no literal its matches hold.
    All(String),
    /// Only the lines holding one of the rules' literals, each with its line number.
    Some(Vec<KeptLine>),
}

/// One line of a container log, without its line end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptLine {
    /// 1-based line number.
    pub number: u64,
    /// Byte offset of the line in the (UTF-8, invalid bytes replaced) text.
    pub offset: u64,
    pub text: Box<str>,
}

impl PodLogLines {
    /// The lines, each as (number, offset, text without its line end).
    pub fn iter(&self) -> Box<dyn Iterator<Item = LineRef<'_>> + '_> {
        match self {
            PodLogLines::All(text) => Box::new(lines_of(text)),
            PodLogLines::Some(v) => Box::new(v.iter().map(|l| LineRef {
                number: l.number,
                offset: l.offset,
                text: &l.text,
            })),
        }
    }
}

/// Builds [`PodLogLines`] from a log's lines as they are read (each with its `\n`), so the
/// file is never held whole when only some lines are kept. Invalid UTF-8 is replaced line by
/// line, which gives the text, numbers and offsets of replacing it in the whole file.
pub struct LineSelector<'l> {
    finders: Option<Vec<memchr::memmem::Finder<'l>>>,
    all: String,
    kept: Vec<KeptLine>,
    number: u64,
    offset: u64,
}

impl<'l> LineSelector<'l> {
    /// Keeps the lines holding one of `literals`, or every line for `None`.
    pub fn new(literals: Option<&'l [String]>) -> LineSelector<'l> {
        LineSelector {
            finders: literals.map(|ls| {
                ls.iter()
                    .map(|l| memchr::memmem::Finder::new(l.as_bytes()))
                    .collect()
            }),
            all: String::new(),
            kept: Vec::new(),
            number: 0,
            offset: 0,
        }
    }

    /// The next line, with its `\n` (the last line may have none).
    pub fn push(&mut self, raw: &[u8]) {
        let text = match std::str::from_utf8(raw) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => String::from_utf8_lossy(raw),
        };
        self.number += 1;
        let start = self.offset;
        self.offset += text.len() as u64;
        match &self.finders {
            None => self.all.push_str(&text),
            Some(fs) => {
                if fs.iter().any(|f| f.find(text.as_bytes()).is_some()) {
                    self.kept.push(KeptLine {
                        number: self.number,
                        offset: start,
                        text: text.trim_end_matches(['\n', '\r']).into(),
                    });
                }
            }
        }
    }

    pub fn finish(self) -> PodLogLines {
        match self.finders {
            None => PodLogLines::All(self.all),
            Some(_) => PodLogLines::Some(self.kept),
        }
    }
}

/// A line of a container log, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRef<'a> {
    pub number: u64,
    pub offset: u64,
    pub text: &'a str,
}

/// The lines of `text` split at `\n`, each without its `\n` or `\r\n`.
fn lines_of(text: &str) -> impl Iterator<Item = LineRef<'_>> {
    let mut offset = 0u64;
    text.split_inclusive('\n').enumerate().map(move |(i, raw)| {
        let start = offset;
        offset += raw.len() as u64;
        LineRef {
            number: i as u64 + 1,
            offset: start,
            text: raw.trim_end_matches(['\n', '\r']),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `text` holding one of `literals`, fed as a stream reads them.
    fn select(text: &str, literals: Option<&[String]>) -> PodLogLines {
        let mut s = LineSelector::new(literals);
        for raw in text.split_inclusive('\n') {
            s.push(raw.as_bytes());
        }
        s.finish()
    }

    #[test]
    fn selected_lines_keep_their_numbers_and_offsets() {
        let text = "a took too long\r\nb fine\nc took too long\nd took";
        let whole = select(text, None);
        let all: Vec<LineRef<'_>> = whole.iter().collect();
        assert_eq!(all.len(), 4);
        assert_eq!(
            (all[1].number, all[1].offset, all[1].text),
            (2, 17, "b fine")
        );
        let some = select(text, Some(&["too long".to_string()]));
        let kept: Vec<(u64, u64, String)> = some
            .iter()
            .map(|l| (l.number, l.offset, l.text.to_string()))
            .collect();
        let want: Vec<(u64, u64, String)> = all
            .iter()
            .filter(|l| l.text.contains("too long"))
            .map(|l| (l.number, l.offset, l.text.to_string()))
            .collect();
        assert_eq!(kept, want);
        assert_eq!(kept.len(), 2);
        assert_eq!(
            kept[0].2, "a took too long",
            "the \\r\\n is not part of the line"
        );
        assert_eq!(
            select(text, Some(&[])).iter().count(),
            0,
            "no literal: no line can match"
        );
    }
}
