//! A must-gather's `version` file (`openshift/must-gather` and the image's version); a file
//! named `version` that holds an object instead is read as the object it is.

use super::{FileCx, Reader};
use crate::bundle::Bundle;
use crate::model::{Objects, Provenance, Sourced};
use crate::source::VFile;
use crate::vocab::FileKind;
use crate::vocab::kind::{ResourceAt, SniffMode};

pub(crate) struct GatherVersions;

/// What a `version` file held.
pub(crate) enum Version {
    /// The must-gather image's version.
    Gather(Sourced<String>),
    /// Objects (the file was read as a resource).
    Objects(Box<Objects>),
}

impl Reader for GatherVersions {
    type Out = Version;

    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<Version> {
        let name = super::resource::name_for_id(&f);
        let (data, enc) = cx.load(f, true)?;
        // Content before name: a file named `version` that holds an object rather than a
        // must-gather's version marker (the older Insights layout's `config/version` found
        // outside that layout, a `version` saved by hand) is read as the object it is.
        if data
            .split(|b| *b == b'\n')
            .next()
            .is_none_or(|l| memchr::memmem::find(l, b"must-gather").is_none())
            && crate::ingest::sniff::sniff_content(
                &data[..data.len().min(16 << 10)],
                SniffMode::Named,
            ) == Some(FileKind::Resource)
        {
            cx.kind = FileKind::Resource;
            // Its path names no kind.
            let objects = super::resource::objects(data, enc, &name, &ResourceAt::default(), cx);
            return Some(Version::Objects(Box::new(objects)));
        }
        let text = String::from_utf8_lossy(&data);
        let mut lines = text.lines();
        match (lines.next(), lines.next()) {
            (Some(l1), Some(l2)) if l1.contains("must-gather") => {
                Some(Version::Gather(Sourced {
                    value: l2.trim().to_string(),
                    prov: cx.prov.clone(),
                }))
            }
            _ => None,
        }
    }

    fn provenances(out: &mut Version, set: &mut dyn FnMut(&mut Provenance)) {
        match out {
            Version::Gather(v) => set(&mut v.prov),
            Version::Objects(o) => o.provenances_mut().into_iter().for_each(set),
        }
    }

    fn objects(out: &Version) -> Option<&Objects> {
        match out {
            Version::Gather(_) => None,
            Version::Objects(o) => Some(o),
        }
    }

    fn merge(out: Version, prov: &Provenance, b: &mut Bundle) {
        match out {
            Version::Gather(v) => b.gather_versions.push(v),
            Version::Objects(o) => super::resource::ResourceFiles::merge(*o, prov, b),
        }
    }
}
