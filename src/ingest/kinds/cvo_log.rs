//! CVO container logs (klog), parsed in blocks by [`crate::ingest::klog`] into each log's
//! record store; an archive's are parsed from the archive stream as it is read.

use super::{FileCx, Head, Reader, Reading, Sniff};
use crate::bundle::Bundle;
use crate::ingest::klog;
use crate::model::{CvoLog, Provenance, Severity};
use crate::source::VFile;
use crate::vocab::kind::{Location, SniffMode};
use crate::vocab::mg_path::LogFile;
use std::io::BufRead;

/// Source files only the CVO logs from: a klog log found loose must show one of them.
const CVO_MARKERS: &[&str] = &[
    "] ClusterVersionOperator ",
    " sync_worker.go:",
    " cvo.go:",
    " task_graph.go:",
    " availableupdates.go:",
    " upgradeable.go:",
];

pub(crate) struct CvoLogs;

impl Reader for CvoLogs {
    type Out = CvoLog;
    const READING: Reading = Reading::ArchiveStream;

    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<CvoLog> {
        let at = f.at.clone();
        let r = cx.open(f)?;
        Self::read_stream(r, &at, cx)
    }

    fn read_stream(
        mut r: Box<dyn BufRead + '_>,
        at: &Location,
        cx: &mut FileCx<'_>,
    ) -> Option<CvoLog> {
        // Every CVO log is classified with its pod and file (by path, else by name).
        let (pod, file) = match at {
            Location::CvoLog(c) => (c.pod.clone(), c.file),
            _ => (String::new(), LogFile::Current),
        };
        // Parsed in line-aligned blocks on the pool while the next block is read.
        let (log, note) = klog::parse_cvo_log_stream(&mut r, cx.prov.clone(), pod, file);
        if let Some(n) = note {
            cx.note(Severity::Warning, None, n);
        }
        if log.records.is_empty() && log.lines > 0 {
            cx.note(Severity::Warning, None, "no klog lines found in CVO log");
        }
        cx.bytes = log.bytes;
        Some(log)
    }

    fn merge(out: CvoLog, _prov: &Provenance, b: &mut Bundle) {
        b.cvo_logs.push(out);
    }

    fn provenances(out: &mut CvoLog, set: &mut dyn FnMut(&mut Provenance)) {
        set(&mut out.prov);
    }

    fn present(b: &Bundle) -> bool {
        !b.cvo_logs.is_empty()
    }

    /// A klog first line.
    fn sniff(h: &Head<'_>) -> Sniff {
        match klog::looks_like_klog(h.first) {
            true => cvo_or_not(h),
            false => Sniff::No,
        }
    }

    /// A klog line among the first 50.
    fn sniff_further(h: &Head<'_>) -> Sniff {
        match h.text.lines().take(50).any(klog::looks_like_klog) {
            true => cvo_or_not(h),
            false => Sniff::No,
        }
    }
}

/// A klog log is a CVO log when named directly; found loose, only when it shows the CVO.
fn cvo_or_not(h: &Head<'_>) -> Sniff {
    if h.mode == SniffMode::Named || CVO_MARKERS.iter().any(|m| h.text.contains(m)) {
        Sniff::Is
    } else {
        Sniff::Refuse
    }
}
