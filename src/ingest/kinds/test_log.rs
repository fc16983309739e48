//! CI test and build logs: their monitor and e2e framework lines, read by
//! [`crate::ingest::textlog`]; an archive's are parsed from the archive stream as it is read.

use super::{FileCx, Head, Reader, Reading, Sniff};
use crate::bundle::Bundle;
use crate::ingest::textlog;
use crate::model::{Provenance, Severity, TextLine};
use crate::source::VFile;
use crate::vocab::kind::Location;
use std::io::BufRead;

pub(crate) struct TestLogs;

impl Reader for TestLogs {
    type Out = Vec<TextLine>;
    const READING: Reading = Reading::ArchiveStream;

    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<Vec<TextLine>> {
        let r = cx.open(f)?;
        Self::read_stream(r, &Location::Plain, cx)
    }

    fn read_stream(
        mut r: Box<dyn BufRead + '_>,
        _at: &Location,
        cx: &mut FileCx<'_>,
    ) -> Option<Vec<TextLine>> {
        let (lines, bytes, err) = textlog::parse_text_log_stream(&mut r, &cx.prov);
        if let Some(e) = err {
            cx.note(Severity::Warning, None, e);
        }
        cx.bytes = bytes;
        Some(lines)
    }

    fn merge(out: Vec<TextLine>, _prov: &Provenance, b: &mut Bundle) {
        b.text_lines.extend(out);
    }

    fn provenances(out: &mut Vec<TextLine>, set: &mut dyn FnMut(&mut Provenance)) {
        out.iter_mut().for_each(|l| set(&mut l.prov));
    }

    fn present(b: &Bundle) -> bool {
        !b.text_lines.is_empty()
    }

    /// A monitor or e2e line first.
    fn sniff(h: &Head<'_>) -> Sniff {
        match textlog::looks_like_text_line(h.first) {
            true => Sniff::Is,
            false => Sniff::No,
        }
    }

    /// A monitor or e2e line among the first 50.
    fn sniff_further(h: &Head<'_>) -> Sniff {
        match h.text.lines().take(50).any(textlog::looks_like_text_line) {
            true => Sniff::Is,
            false => Sniff::No,
        }
    }
}
