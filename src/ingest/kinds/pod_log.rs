//! Container logs other than the CVO's, read only when a known-issue rule asks for one
//! (`vocab::wants`): streamed line by line, keeping the lines the rules reading it can match.

use super::{FileCx, Reader, Reading};
use crate::bundle::Bundle;
use crate::model::{LineSelector, PodLog, Provenance};
use crate::source::{ReadError, VFile};
use crate::vocab::kind::Location;

pub(crate) struct PodLogs;

impl Reader for PodLogs {
    type Out = PodLog;
    const READING: Reading = Reading::Stream;

    /// Bounded by `--max-file-bytes`; a path that is no container log's gives nothing.
    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<PodLog> {
        let Location::ContainerLog(p) = f.at.clone() else {
            cx.load(f, true)?;
            return None;
        };
        let literals = cx.opts.wants.log_literals(&p.borrowed());
        let r = cx.open(f)?;
        let cap = cx.opts.max_file_bytes;
        // One byte past the cap tells a file at the cap from a larger one; a line never holds more.
        let mut r = std::io::Read::take(r, cap.saturating_add(1));
        let mut sel = LineSelector::new(literals.as_deref());
        let (mut buf, mut bytes) = (Vec::new(), 0u64);
        loop {
            buf.clear();
            match std::io::BufRead::read_until(&mut r, b'\n', &mut buf) {
                Ok(0) => break,
                Ok(n) => bytes += n as u64,
                Err(e) => return cx.fail(ReadError::io(&e)),
            }
            if bytes > cap {
                let flag = "--max-file-bytes";
                return cx.fail(ReadError::TooLarge { cap, flag });
            }
            sel.push(&buf);
        }
        cx.bytes = bytes;
        Some(PodLog {
            prov: cx.prov.clone(),
            namespace: p.namespace,
            pod: p.pod,
            container: p.container,
            file: p.file,
            lines: sel.finish(),
        })
    }

    fn provenances(out: &mut PodLog, set: &mut dyn FnMut(&mut Provenance)) {
        set(&mut out.prov);
    }

    fn merge(out: PodLog, _prov: &Provenance, b: &mut Bundle) {
        b.pod_logs.push(out);
    }
}
