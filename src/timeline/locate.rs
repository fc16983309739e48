//! Pointing timeline evidence at a line: the occurrence of a value (a timestamp, a name)
//! inside the object an event was read from (see [`crate::vocab::locate`], which owns the
//! search), and the collection time of the snapshot a file belongs to.

use crate::bundle::Bundle;
use crate::model::{Provenance, Time, fmt_k8s};
use crate::vocab::{FileTable, locate};

/// The provenance of `needle` inside the object at `prov`, next to `context`; `prov`
/// unchanged when it is not found.
pub fn locate(
    files: &FileTable,
    prov: &Provenance,
    anchor: Option<&str>,
    needle: &str,
    context: &str,
) -> Provenance {
    locate::value(files, prov, anchor, needle, context)
}

/// A timestamp as the API server writes it.
pub fn ts(t: &Time) -> String {
    fmt_k8s(t)
}

/// The collection time of the input a file came from (its `timestamp` file), else the
/// collection time of the whole bundle.
pub fn snapshot_time(bundle: &Bundle, prov: &Provenance) -> Option<Time> {
    bundle
        .collection_times
        .iter()
        .filter(|t| t.prov.file.input() == prov.file.input())
        .map(|t| t.value)
        .max()
        .or_else(|| bundle.collection_time())
}
