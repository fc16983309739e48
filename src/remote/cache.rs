//! The local cache of fetched jobs: where it lives, the `<cache>/<bucket>/<path>/` layout (a
//! normal CI job directory ingestion reads), and the manifest that marks a completed fetch
//! (written through a temporary file renamed into place, [`crate::safe_fs`]; a file counts
//! as present only as itself, never through a symbolic link).

use super::RemoteError;
use super::location::GcsLocation;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The manifest's file name inside a fetched job directory.
pub const MANIFEST: &str = ".mglint-fetch.json";
const SCHEMA: &str = "mglint-fetch/v1";

/// `$XDG_CACHE_HOME/mglint`, else `$HOME/.cache/mglint`, else `<tmp>/mglint-cache`.
pub fn default_cache_dir() -> PathBuf {
    let from = |var: &str| {
        std::env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(x) = from("XDG_CACHE_HOME").filter(|p| p.is_absolute()) {
        return x.join("mglint");
    }
    if let Some(h) = from("HOME") {
        return h.join(".cache").join("mglint");
    }
    std::env::temp_dir().join("mglint-cache")
}

/// `<cache>/<bucket>/<path>`.
pub fn job_dir(cache: &Path, loc: &GcsLocation) -> PathBuf {
    let mut p = cache.join(&loc.bucket);
    p.extend(loc.path.split('/'));
    p
}

/// One object in the manifest: its path relative to the job directory, bytes as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub path: String,
    pub bytes: u64,
    /// For an archive of which only the members the analysis reads were fetched (by range
    /// requests): the archive's size. The local copy is a tar of those members.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranged_from: Option<u64>,
}

/// The record of a completed fetch, written last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema: String,
    /// `gs://<bucket>/<path>`.
    pub source: String,
    /// The endpoint the objects came from.
    pub endpoint: String,
    pub with_must_gather: bool,
    pub objects: Vec<Entry>,
    /// Must-gather archives listed but not downloaded (fetched later if asked for).
    pub deferred: Vec<String>,
    pub skipped: Vec<String>,
    /// Objects that could not be downloaded: an online run fetches them again.
    #[serde(default)]
    pub failed: Vec<super::FailedObject>,
}

impl Manifest {
    pub fn new(loc: &GcsLocation, endpoint: &str, with_must_gather: bool) -> Self {
        Manifest {
            schema: SCHEMA.to_string(),
            source: loc.gs_url(),
            endpoint: endpoint.to_string(),
            with_must_gather,
            objects: Vec::new(),
            deferred: Vec::new(),
            skipped: Vec::new(),
            failed: Vec::new(),
        }
    }

    /// The manifest in `dir`, if there is one for `loc` whose files are all present.
    pub fn read_complete(dir: &Path, loc: &GcsLocation) -> Option<Manifest> {
        let data = std::fs::read(dir.join(MANIFEST)).ok()?;
        let m: Manifest = serde_json::from_slice(&data).ok()?;
        if m.schema != SCHEMA || m.source != loc.gs_url() {
            return None;
        }
        let intact = m.objects.iter().all(|e| {
            std::fs::symlink_metadata(dir.join(&e.path))
                .is_ok_and(|md| md.is_file() && md.len() == e.bytes)
        });
        intact.then_some(m)
    }

    /// The manifest in `dir` for `loc`, complete or not.
    pub fn read_any(dir: &Path, loc: &GcsLocation) -> Option<Manifest> {
        let data = crate::vocab::bounded::read(&dir.join(MANIFEST), 64 << 20).ok()?;
        let m: Manifest = serde_json::from_slice(&data).ok()?;
        (m.schema == SCHEMA && m.source == loc.gs_url()).then_some(m)
    }

    /// Writes the manifest (to a temporary name, then renamed).
    pub fn write(&self, dir: &Path) -> Result<(), RemoteError> {
        let dest = dir.join(MANIFEST);
        let io = |reason: String| RemoteError::Io {
            path: dest.clone(),
            reason,
        };
        let text =
            serde_json::to_vec_pretty(self).map_err(|e| io(format!("cannot encode: {e}")))?;
        std::fs::create_dir_all(dir).map_err(|e| io(format!("cannot create directory: {e}")))?;
        crate::safe_fs::write_replace(&dest, &text).map_err(|e| io(format!("cannot write: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_round_trip_and_integrity() {
        let dir = tempfile::tempdir().unwrap();
        let loc = GcsLocation {
            bucket: "b".into(),
            path: "logs/j/1".into(),
        };
        let jd = job_dir(dir.path(), &loc);
        assert!(jd.ends_with("b/logs/j/1"));
        std::fs::create_dir_all(jd.join("a")).unwrap();
        std::fs::write(jd.join("a/x.json"), b"{}").unwrap();
        let mut m = Manifest::new(&loc, "http://127.0.0.1:9", false);
        m.objects.push(Entry {
            path: "a/x.json".into(),
            bytes: 2,
            ranged_from: None,
        });
        m.write(&jd).unwrap();
        assert_eq!(Manifest::read_complete(&jd, &loc), Some(m));
        let other = GcsLocation {
            bucket: "b".into(),
            path: "logs/j/2".into(),
        };
        assert_eq!(Manifest::read_complete(&jd, &other), None);
        std::fs::write(jd.join("a/x.json"), b"{ }").unwrap();
        assert_eq!(
            Manifest::read_complete(&jd, &loc),
            None,
            "a changed file is not complete"
        );
    }
}
