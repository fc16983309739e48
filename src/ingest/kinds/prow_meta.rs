//! Prow job metadata (`prowjob.json`, `started.json`, `finished.json`): each file is merged
//! into the one job by [`crate::ingest::prow`], in the order the files were found.

use super::{FileCx, Head, Reader, Sniff};
use crate::bundle::Bundle;
use crate::ingest::{diag, prow};
use crate::model::{Provenance, ProwJob, Severity};
use crate::source::VFile;

pub(crate) struct ProwMetadata;

impl Reader for ProwMetadata {
    /// The file's name and its bytes, read when merged (the job is built from every file).
    type Out = (String, Vec<u8>);

    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<(String, Vec<u8>)> {
        let name = super::resource::name_for_id(&f);
        let name = name.rsplit('/').next().unwrap_or("").to_string();
        let (data, _) = cx.load(f, true)?;
        Some((name, data))
    }

    fn merge((name, data): (String, Vec<u8>), prov: &Provenance, b: &mut Bundle) {
        // A file that is not a job's metadata leaves the bundle without a job, or with the
        // job the other files made.
        let had = b.prow.is_some();
        let job = b.prow.get_or_insert_with(ProwJob::default);
        if let Err(e) = prow::merge(job, &name, &data, prov.clone()) {
            if !had {
                b.prow = None;
            }
            let d = diag(prov, Severity::Error, None, None, e.to_string());
            b.diagnostics.push(d);
        }
    }

    /// The job's provenance is set when it is merged.
    fn provenances(_out: &mut (String, Vec<u8>), _set: &mut dyn FnMut(&mut Provenance)) {}

    fn present(b: &Bundle) -> bool {
        b.prow.is_some()
    }

    /// JSON naming a prowjob, or a `passed` with a `timestamp` (`finished.json`).
    fn sniff(h: &Head<'_>) -> Sniff {
        let t = h.text;
        let prow = t.contains("\"prowjob") || (t.contains("\"passed\"") && t.contains("\"timestamp\""));
        match h.json && prow {
            true => Sniff::Is,
            false => Sniff::No,
        }
    }
}
