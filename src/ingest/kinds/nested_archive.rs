//! An archive inside the input: the walker opens it and walks its entries; one that reaches
//! ingestion as a file is read and gives nothing.

use super::{FileCx, Reader};
use crate::bundle::Bundle;
use crate::model::Provenance;
use crate::source::VFile;

pub(crate) struct NestedArchives;

impl Reader for NestedArchives {
    type Out = ();

    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<()> {
        cx.load(f, true)?;
        None
    }

    fn provenances((): &mut (), _set: &mut dyn FnMut(&mut Provenance)) {}

    fn merge((): (), _prov: &Provenance, _b: &mut Bundle) {}
}
