//! Where rows go: an ordered writer that receives rows from many workers and writes them in
//! input order as soon as every earlier row is written (flushed line by line, so a killed run
//! leaves whole rows), and reading back an earlier output file for `--resume`.

use super::BatchError;
use super::row::Row;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::Path;

/// Writes rows in order of their position in the work list.
pub(super) struct Ordered<'w> {
    out: &'w mut (dyn Write + Send),
    next: usize,
    pending: BTreeMap<usize, String>,
    /// Set when a write failed; nothing more is written.
    pub failed: Option<std::io::Error>,
}

impl<'w> Ordered<'w> {
    pub fn new(out: &'w mut (dyn Write + Send)) -> Self {
        Ordered {
            out,
            next: 0,
            pending: BTreeMap::new(),
            failed: None,
        }
    }

    /// Queues the line of work item `pos` and writes every line that is now in order.
    pub fn push(&mut self, pos: usize, line: String) {
        self.pending.insert(pos, line);
        if self.failed.is_some() {
            return;
        }
        let mut wrote = false;
        while let Some(line) = self.pending.remove(&self.next) {
            if let Err(e) = self.out.write_all(line.as_bytes()) {
                self.failed = Some(e);
                return;
            }
            self.next += 1;
            wrote = true;
        }
        if wrote && let Err(e) = self.out.flush() {
            self.failed = Some(e);
        }
    }
}

/// The rows already in an output file.
#[derive(Debug, Default)]
pub struct Previous {
    /// Inputs that have the row of every cluster they hold.
    pub inputs: HashSet<String>,
    /// The rows that parse as `mglint/batch/v2` rows.
    pub rows: Vec<Row>,
    /// Lines that are not rows (kept in the file, ignored).
    pub unparsable: usize,
    /// Bytes of a torn last line (a killed run) that were cut from the file.
    pub torn_bytes: u64,
    /// The file ends without a newline after a line that was kept (a whole row, or a line
    /// that is not a row): one is written before the first appended row.
    pub unterminated: bool,
}

/// How every row line starts (a line cut after this is a torn row of a killed run).
const ROW_START: &str = "{\"schema\":\"mglint/batch/v2\"";

/// Reads the rows of an earlier run from `path` (none when it does not exist). A last line
/// without its newline that is the start of a row but not a whole one was cut by a killed
/// run: it is removed from the file, so that the input is analysed again. Any other last line
/// without a newline (a whole row, or text that is not a row) is kept. Only a whole row marks
/// its input done.
pub fn read_previous(path: &Path) -> Result<Previous, BatchError> {
    let bytes = match crate::vocab::bounded::read(path, crate::vocab::bounded::ROWS_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Previous::default()),
        Err(source) => {
            return Err(BatchError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let mut whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let tail = String::from_utf8_lossy(&bytes[whole..]);
    let torn = !tail.is_empty()
        && tail.starts_with(ROW_START)
        && serde_json::from_str::<Row>(&tail).is_err();
    let mut prev = Previous::default();
    if torn {
        prev.torn_bytes = (bytes.len() - whole) as u64;
    } else if whole < bytes.len() {
        prev.unterminated = true;
        whole = bytes.len();
    }
    if prev.torn_bytes > 0 {
        cut_at(path, whole as u64)?;
    }
    // Each row with the byte offset its line starts at.
    let mut rows: Vec<(usize, Row)> = Vec::new();
    let mut at = 0;
    for line in bytes[..whole].split_inclusive(|b| *b == b'\n') {
        let start = at;
        at += line.len();
        let line = String::from_utf8_lossy(line);
        let line = line.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Row>(line) {
            Ok(r) if r.schema == super::row::SCHEMA => rows.push((start, r)),
            _ => prev.unparsable += 1,
        }
    }
    // An input is done when it has the row of every cluster it holds. A killed run can
    // leave the last input's rows short of that: those rows are cut from the file too, so
    // the input is analysed again whole.
    let mut have: HashMap<&str, usize> = HashMap::new();
    for (_, r) in &rows {
        *have.entry(r.input.as_str()).or_default() += 1;
    }
    let short: HashSet<String> = rows
        .iter()
        .filter(|(_, r)| have.get(r.input.as_str()).copied().unwrap_or(0) < r.clusters)
        .map(|(_, r)| r.input.clone())
        .collect();
    let trailing = rows
        .iter()
        .rev()
        .take_while(|(_, r)| short.contains(&r.input))
        .last()
        .map(|(start, _)| *start);
    if let Some(cut) = trailing.filter(|c| *c < whole) {
        cut_at(path, cut as u64)?;
        prev.torn_bytes += (whole - cut) as u64;
        prev.unterminated = false;
    }
    for (_, r) in rows {
        if short.contains(&r.input) {
            continue;
        }
        prev.inputs.insert(r.input.clone());
        prev.rows.push(r);
    }
    Ok(prev)
}

/// Cuts the file at `path` to its first `len` bytes.
fn cut_at(path: &Path, len: u64) -> Result<(), BatchError> {
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|source| BatchError::Open {
            path: path.to_path_buf(),
            source,
        })?;
    f.set_len(len).map_err(|source| BatchError::Truncate {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_writes_in_position_order() {
        let mut buf: Vec<u8> = Vec::new();
        let mut o = Ordered::new(&mut buf);
        o.push(2, "c\n".into());
        o.push(0, "a\n".into());
        o.push(1, "b\n".into());
        assert!(o.failed.is_none());
        assert_eq!(String::from_utf8(buf).unwrap(), "a\nb\nc\n");
    }

    #[test]
    fn torn_last_line_is_cut_and_rows_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("rows.jsonl");
        let row = serde_json::to_string(&Row::error(0, "/a", vec!["gone".into()])).unwrap();
        std::fs::write(
            &p,
            format!("{row}\nnot json\n{{\"schema\":\"mglint/batch/v2\",\"in"),
        )
        .unwrap();
        let prev = read_previous(&p).unwrap();
        assert_eq!(prev.rows.len(), 1);
        assert!(prev.inputs.contains("/a"));
        assert_eq!(prev.unparsable, 1);
        assert_eq!(prev.torn_bytes, 31);
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            format!("{row}\nnot json\n")
        );
        assert!(!prev.unterminated);
    }

    #[test]
    fn a_last_line_that_is_not_a_torn_row_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("rows.jsonl");
        let row = serde_json::to_string(&Row::error(0, "/a", vec!["gone".into()])).unwrap();
        // A whole row without its newline, and a file that holds no rows at all.
        for (text, rows) in [(row.clone(), 1), ("my notes, no newline".to_string(), 0)] {
            std::fs::write(&p, &text).unwrap();
            let prev = read_previous(&p).unwrap();
            assert_eq!(prev.rows.len(), rows, "{text}");
            assert!(prev.unterminated, "{text}");
            assert_eq!(prev.torn_bytes, 0);
            assert_eq!(std::fs::read_to_string(&p).unwrap(), text);
        }
    }

    #[test]
    fn only_a_whole_row_marks_its_input_done() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("rows.jsonl");
        std::fs::write(
            &p,
            "{\"input\":\"/a\"}\n{\"schema\":\"mglint/batch/v2\",\"input\":\"/b\"}\n",
        )
        .unwrap();
        let prev = read_previous(&p).unwrap();
        assert!(prev.inputs.is_empty(), "{:?}", prev.inputs);
        assert_eq!(prev.unparsable, 2);
    }
}
