//! JUnit XML reports, read by [`crate::ingest::junit`] into test cases.

use super::{FileCx, Head, Reader, Sniff};
use crate::bundle::Bundle;
use crate::ingest::junit;
use crate::model::{JunitCase, Provenance, Severity};
use crate::source::VFile;

pub(crate) struct JunitReports;

impl Reader for JunitReports {
    type Out = Vec<JunitCase>;

    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<Vec<JunitCase>> {
        // XML says its own encoding: `junit` reads UTF-16 with or without a mark itself.
        let (data, _) = cx.load(f, false)?;
        match junit::parse_junit(&data, &cx.prov) {
            Ok(j) => {
                for n in j.notes {
                    cx.note(Severity::Warning, None, n);
                }
                Some(j.cases)
            }
            Err(e) => {
                cx.note(Severity::Error, None, e);
                None
            }
        }
    }

    fn merge(out: Vec<JunitCase>, _prov: &Provenance, b: &mut Bundle) {
        b.junit.extend(out);
    }

    fn provenances(out: &mut Vec<JunitCase>, set: &mut dyn FnMut(&mut Provenance)) {
        out.iter_mut().for_each(|c| set(&mut c.prov));
    }

    fn present(b: &Bundle) -> bool {
        !b.junit.is_empty()
    }

    /// An XML declaration or a `<testsuite`.
    fn sniff(h: &Head<'_>) -> Sniff {
        match h.text.starts_with("<?xml") || h.text.starts_with("<testsuite") {
            true => Sniff::Is,
            false => Sniff::No,
        }
    }
}
