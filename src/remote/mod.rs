//! Remote inputs: CI job artifacts in GCS, named by a Prow, gcsweb, `gs://` or
//! storage.googleapis.com URL, and plain http(s) URLs to one archive or file (`plain`). Lists the job with the GCS JSON API, downloads only what the
//! analysis needs into a local cache laid out as `<cache>/<bucket>/<path>/` (a normal CI job
//! directory that [`crate::ingest::ingest`] reads), and marks a completed fetch with a
//! manifest so that a second run does no network I/O. Bytes are stored as received (objects
//! may be gzip data without a `.gz` suffix; ingestion sniffs content).
//!
//! Every file is written through a temporary file renamed into place, and every directory
//! below the job directory is made with `create_dir`, a symbolic link there refused, never
//! followed ([`crate::safe_fs`]). A local path is bounded ([`select::local_path`]: a long
//! name is shortened around a hash). One job is bounded in total: the listing (a page at a
//! time, each under a byte cap, only the objects the analysis may need kept, at most
//! [`FetchOptions::max_listed_objects`]), its time ([`FetchOptions::job_timeout`], retries
//! and slow bodies included) and its bytes ([`FetchOptions::max_job_bytes`]); what runs out
//! costs the objects not yet fetched, each recorded as a [`FailedObject`].
//!
//! A must-gather archive that is an uncompressed tar (`must-gather.tar`) is read by range
//! requests where the server answers them (GCS does), member by member, and only the members
//! the analysis reads are fetched (`ranged`); else, or with
//! [`FetchOptions::whole_archives`], it is downloaded whole.
//!
//! One [`Fetcher`] (one HTTP client) can serve many fetches, from many threads.

mod cache;
mod error;
mod http;
mod location;
mod plain;
mod ranged;
mod select;

pub use cache::{MANIFEST, default_cache_dir, job_dir};
pub use error::RemoteError;
pub use http::{ListingPage, MAX_PAGE_BYTES, MAX_PAGE_ITEMS, parse_listing_page};
pub use location::{GcsLocation, is_remote};
pub use plain::{fetch_url, is_http_url};
pub use ranged::{ArchiveFetch, WINDOW as RANGE_WINDOW, max_requests as max_range_requests};
pub use select::{
    Listed, MAX_NAME_BYTES, MAX_OBJECTS_PER_JOB, MAX_PATH_BYTES, Plan, Wanted, local_path, plan,
};

use cache::{Entry, Manifest};
use http::{Budget, Http, HttpSettings};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The public GCS endpoint, for both listing and objects.
pub const DEFAULT_ENDPOINT: &str = "https://storage.googleapis.com";

/// How to fetch.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// Base URL for the listing (`<endpoint>/storage/v1/b/...`) and objects (`<endpoint>/<bucket>/...`).
    pub endpoint: String,
    /// Root of the cache; a job goes to `<cache_dir>/<bucket>/<path>/`.
    pub cache_dir: PathBuf,
    /// Use only the cache; fail if the job is not there.
    pub offline: bool,
    /// Time allowed to open a connection.
    pub connect_timeout: Duration,
    /// Time allowed for one request, from sending it to the last byte of the body.
    pub timeout: Duration,
    /// Further attempts after a 5xx, 408, 429, connection error or timeout (never other 4xx).
    pub retries: u32,
    /// Wait before the first retry; doubled for each further one (at most 10 s).
    pub backoff: Duration,
    /// Largest object downloaded; larger ones are skipped (from the listing) or abandoned.
    pub max_object_bytes: u64,
    /// Download the must-gather archive even when gather-extra has the ClusterVersion.
    pub with_must_gather: bool,
    /// Downloads in flight at once.
    pub concurrency: usize,
    /// Time allowed for one whole job: the listing and every download, retries, the waits
    /// between them and slow bodies included. What is not done by then fails.
    pub job_timeout: Duration,
    /// Bytes one job may fetch in all (listing pages and objects); the object being read
    /// when they run out fails, and so does every later one.
    pub max_job_bytes: u64,
    /// Most objects kept from a listing (those the analysis may read; the rest are counted
    /// and dropped page by page); the listing stops there, with a line in `skipped`.
    pub max_listed_objects: usize,
    /// Download must-gather archives whole, instead of only the members the analysis reads
    /// (by range requests, where the archive is an uncompressed tar and the server answers
    /// them).
    pub whole_archives: bool,
    /// What known-issue rules ask to be read beyond mglint's own needs: the members of an
    /// archive fetched by range requests are those ingestion would read, these included.
    pub wants: Arc<crate::vocab::wants::Wants>,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            endpoint: DEFAULT_ENDPOINT.to_string(),
            cache_dir: default_cache_dir(),
            offline: false,
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(300),
            retries: 3,
            backoff: Duration::from_millis(500),
            max_object_bytes: 1 << 30,
            with_must_gather: false,
            concurrency: 4,
            job_timeout: Duration::from_secs(3600),
            max_job_bytes: 16 << 30,
            max_listed_objects: 100_000,
            whole_archives: false,
            wants: Arc::default(),
        }
    }
}

/// What a fetch produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchResult {
    /// The job directory to hand to ingestion.
    pub local_dir: PathBuf,
    /// Objects downloaded by this call.
    pub downloaded: usize,
    /// Objects already in the cache.
    pub from_cache: usize,
    /// Bytes of objects downloaded by this call (as received; for an archive read by range
    /// requests, the bytes of the parts fetched).
    pub bytes: u64,
    /// Every byte this call received for the job: [`FetchResult::bytes`] and the listing's
    /// pages (0 when the job came from the cache without a request).
    pub fetched: u64,
    /// The must-gather archives this call fetched, and how.
    pub archives: Vec<ArchiveFetch>,
    /// Needed objects that were not downloaded, one line each with the reason.
    pub skipped: Vec<String>,
    /// Objects that were wanted but could not be downloaded (404 after the listing, over the
    /// size cap while listed small, a body that never ended, retries spent): each one alone,
    /// the job is read without it. The manifest records them, so the next run that may use
    /// the network tries them again.
    pub failed: Vec<FailedObject>,
}

/// One object of a job that could not be downloaded.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FailedObject {
    /// Its path inside the job directory.
    pub path: String,
    /// Why, as the error said it.
    pub reason: String,
}

/// Fetches a job into the cache; see [`Fetcher::fetch`].
pub fn fetch(url: &str, opts: &FetchOptions) -> Result<FetchResult, RemoteError> {
    GcsLocation::parse(url)?;
    Fetcher::new(opts.clone())?.fetch(url)
}

/// Fetches a job into `dest_dir` (for `mglint fetch URL -o DIR`); see [`Fetcher::fetch_to`].
pub fn fetch_to(
    url: &str,
    dest_dir: &Path,
    opts: &FetchOptions,
) -> Result<FetchResult, RemoteError> {
    GcsLocation::parse(url)?;
    Fetcher::new(opts.clone())?.fetch_to(url, dest_dir)
}

/// A fetcher with one HTTP client, reusable across jobs and threads.
#[derive(Debug)]
pub struct Fetcher {
    opts: FetchOptions,
    /// `None` when offline: no client is built and no connection is made.
    http: Option<Http>,
}

/// One object placed in the job directory.
#[derive(Debug, Clone)]
struct Placed {
    /// Its path below the job directory.
    local: String,
    /// Its size there.
    bytes: u64,
    downloaded: bool,
    /// Bytes received for it.
    fetched: u64,
    /// For an archive of which only some members were fetched: the archive's size.
    ranged_from: Option<u64>,
    /// How an archive was fetched.
    archive: Option<ArchiveFetch>,
}

/// What every download of one job shares.
struct Job<'a> {
    http: &'a Http,
    loc: &'a GcsLocation,
    dir: &'a Path,
    budget: &'a Budget,
    /// Partial archive copies an earlier fetch of the job made, by local path.
    earlier: &'a HashMap<String, Entry>,
    /// Whether must-gather archives may be read by range requests.
    ranged: bool,
}

impl Fetcher {
    pub fn new(opts: FetchOptions) -> Result<Self, RemoteError> {
        let http = if opts.offline {
            None
        } else {
            Some(Http::new(&HttpSettings {
                endpoint: opts.endpoint.clone(),
                connect_timeout: opts.connect_timeout,
                timeout: opts.timeout,
                retries: opts.retries,
                backoff: opts.backoff,
                decode_content_encoding: false,
            })?)
        };
        Ok(Fetcher { opts, http })
    }

    pub fn options(&self) -> &FetchOptions {
        &self.opts
    }

    /// Fetches the job `url` names into `<cache_dir>/<bucket>/<path>/`.
    pub fn fetch(&self, url: &str) -> Result<FetchResult, RemoteError> {
        let loc = GcsLocation::parse(url)?;
        let dir = job_dir(&self.opts.cache_dir, &loc);
        self.fetch_location(&loc, &dir)
    }

    /// Fetches the job `url` names into `dest_dir` (same layout below it, same manifest).
    /// `dest_dir` must be new, empty, or a directory a fetch wrote (it has the manifest): the
    /// user's own files are never overwritten by a job's objects of the same name.
    pub fn fetch_to(&self, url: &str, dest_dir: &Path) -> Result<FetchResult, RemoteError> {
        let loc = GcsLocation::parse(url)?;
        let refuse = |reason: &str| RemoteError::Io {
            path: dest_dir.to_path_buf(),
            reason: reason.to_string(),
        };
        match std::fs::symlink_metadata(dest_dir) {
            Ok(m) if !m.is_dir() => {
                return Err(refuse(
                    "it exists and is not a directory; give a new or empty directory",
                ));
            }
            Ok(_) => {
                let empty = std::fs::read_dir(dest_dir)
                    .map_err(|e| refuse(&format!("cannot read the directory: {e}")))?
                    .next()
                    .is_none();
                if !empty && !dest_dir.join(MANIFEST).is_file() {
                    return Err(refuse(
                        "it holds files that no fetch wrote (no manifest); give a new or empty \
                         directory, so none of them is overwritten",
                    ));
                }
            }
            Err(_) => {}
        }
        self.fetch_location(&loc, dest_dir)
    }

    /// Fetches `loc` into `dir`, or answers from the manifest there when the fetch is complete.
    pub fn fetch_location(
        &self,
        loc: &GcsLocation,
        dir: &Path,
    ) -> Result<FetchResult, RemoteError> {
        if let Some(m) = Manifest::read_complete(dir, loc) {
            let partial = m.objects.iter().any(|e| e.ranged_from.is_some());
            let wants_more = (self.opts.with_must_gather && !m.deferred.is_empty())
                || !m.failed.is_empty()
                || (self.opts.whole_archives && partial);
            if !wants_more || self.opts.offline {
                let mut skipped = m.skipped;
                if self.opts.with_must_gather && !m.deferred.is_empty() {
                    // Asked for, but only a fetch without `offline` can bring it.
                    for d in &m.deferred {
                        let head = format!("`{d}`:");
                        skipped.retain(|s| !s.starts_with(&head));
                        skipped.push(format!(
                            "{head} must-gather archive not in the cache (fetch again without `--offline`)"
                        ));
                    }
                    skipped.sort();
                }
                return Ok(FetchResult {
                    local_dir: dir.to_path_buf(),
                    downloaded: 0,
                    from_cache: m.objects.len(),
                    bytes: 0,
                    fetched: 0,
                    archives: Vec::new(),
                    skipped,
                    failed: m.failed,
                });
            }
        }
        let Some(http) = self.http.as_ref() else {
            return Err(RemoteError::NotCached {
                url: loc.gs_url(),
                dir: dir.to_path_buf(),
            });
        };
        let prefix = loc.prefix();
        let budget = Budget::new(self.opts.job_timeout, self.opts.max_job_bytes);
        let keep = |name: &str| {
            name.strip_prefix(prefix.as_str()).is_some_and(|rel| {
                !rel.is_empty()
                    && !rel.ends_with('/')
                    && crate::vocab::kind::classify_path(rel).is_some()
            })
        };
        let max_kept = self.opts.max_listed_objects;
        let (kept, listed, cut) = http.list(loc, &budget, &keep, max_kept)?;
        if listed == 0 {
            return Err(RemoteError::NoObjects { url: loc.gs_url() });
        }
        let mut plan = select::plan(
            &prefix,
            &kept,
            self.opts.with_must_gather,
            self.opts.max_object_bytes,
        );
        if cut {
            plan.skipped.push(format!(
                "`{}`: the listing stopped after {max_kept} objects the analysis may read \
                 (`--max-listed-objects`); the objects listed after them were not \
                 downloaded",
                loc.gs_url()
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| RemoteError::Io {
            path: dir.to_path_buf(),
            reason: format!("cannot create directory: {e}"),
        })?;
        // Partial copies of archives an earlier fetch made, reused when still wanted so.
        let earlier: HashMap<String, Entry> = Manifest::read_any(dir, loc)
            .map(|m| {
                m.objects
                    .into_iter()
                    .filter(|e| e.ranged_from.is_some())
                    .map(|e| (e.path.clone(), e))
                    .collect()
            })
            .unwrap_or_default();
        // Ingestion sniffs the unknown files of an archive only outside a known layout: in a
        // CI job (its `prowjob.json`, read before the job's folders) it reads the members
        // its path rules want, and those are all a ranged fetch needs to bring.
        let ranged =
            !self.opts.whole_archives && plan.fetch.iter().any(|w| w.rel == "prowjob.json");
        let job = Job {
            http,
            loc,
            dir,
            budget: &budget,
            earlier: &earlier,
            ranged,
        };
        let (placed, failed) = self.download_all(&job, &plan.fetch)?;
        let mut manifest = Manifest::new(loc, &self.opts.endpoint, self.opts.with_must_gather);
        manifest.objects = placed
            .iter()
            .map(|p| Entry {
                path: p.local.clone(),
                bytes: p.bytes,
                ranged_from: p.ranged_from,
            })
            .collect();
        manifest.deferred = plan.deferred.iter().map(|w| w.rel.clone()).collect();
        manifest.skipped = plan.skipped.clone();
        manifest.failed = failed.clone();
        manifest.write(dir)?;
        let fresh = || placed.iter().filter(|p| p.downloaded);
        let mut archives: Vec<ArchiveFetch> = fresh().filter_map(|p| p.archive.clone()).collect();
        archives.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(FetchResult {
            local_dir: dir.to_path_buf(),
            downloaded: fresh().count(),
            from_cache: placed.len() - fresh().count(),
            bytes: fresh().map(|p| p.fetched).sum(),
            fetched: budget.used(),
            archives,
            skipped: plan.skipped,
            failed,
        })
    }

    /// Places one object: reused when a complete copy of the listed size is already there
    /// (itself, not a link to one). Its folders are made one by one below `dir`; one that
    /// cannot be (a link or a file in the way, a name the file system refuses) costs only
    /// this object.
    fn place(&self, job: &Job<'_>, w: &Wanted) -> Result<Placed, RemoteError> {
        let (http, loc, dir, budget) = (job.http, job.loc, job.dir, job.budget);
        let local = Path::new(&w.local);
        let parent =
            crate::safe_fs::create_dirs_under(dir, local.parent().unwrap_or(Path::new("")))
                .map_err(|e| RemoteError::Unplaceable {
                    path: dir.join(local),
                    reason: format!("cannot make its folder: {e}"),
                })?;
        let dest = match local.file_name() {
            Some(name) => parent.join(name),
            None => {
                return Err(RemoteError::Unplaceable {
                    path: dir.join(local),
                    reason: "no file name".to_string(),
                });
            }
        };
        let ranged = job.ranged
            && w.kind == crate::vocab::FileKind::NestedArchive
            && w.rel.to_ascii_lowercase().ends_with(".tar");
        let earlier = job
            .earlier
            .get(&w.local)
            .filter(|e| ranged && e.ranged_from.is_some() && e.ranged_from == w.size);
        if let Ok(md) = std::fs::symlink_metadata(&dest)
            && md.is_file()
            && (Some(md.len()) == w.size || earlier.is_some_and(|e| e.bytes == md.len()))
        {
            return Ok(Placed {
                local: w.local.clone(),
                bytes: md.len(),
                downloaded: false,
                fetched: 0,
                ranged_from: earlier.and_then(|e| e.ranged_from),
                archive: None,
            });
        }
        let url = http.object_url(&loc.bucket, &format!("{}{}", loc.prefix(), w.rel));
        let cap = self.opts.max_object_bytes;
        if ranged {
            let wants = &self.opts.wants;
            let wanted = |p: &str| {
                crate::vocab::kind::classify_path(p).is_some() || wants.classify(p).is_some()
            };
            let a =
                ranged::fetch_members(http, &url, (&w.rel, w.size), &dest, cap, budget, &wanted)?;
            let bytes = std::fs::symlink_metadata(&dest)
                .map(|m| m.len())
                .map_err(|e| http::local_error(&dest, "cannot read the file written", e))?;
            return Ok(Placed {
                local: w.local.clone(),
                bytes,
                downloaded: true,
                fetched: a.fetched,
                ranged_from: a.whole.is_none().then_some(a.size),
                archive: Some(a),
            });
        }
        let bytes = http.download(&url, &dest, cap, budget)?;
        Ok(Placed {
            local: w.local.clone(),
            bytes,
            downloaded: true,
            fetched: bytes,
            ranged_from: None,
            archive: None,
        })
    }

    /// Places every wanted object with a few worker threads. An object that cannot be
    /// downloaded is failed alone (the rest of the job is fetched); a local write error
    /// (a full disk) stops the fetch, as does every object failing (the first error, in path
    /// order, is the answer then).
    fn download_all(
        &self,
        job: &Job<'_>,
        wanted: &[Wanted],
    ) -> Result<(Vec<Placed>, Vec<FailedObject>), RemoteError> {
        let loc = job.loc;
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let workers = self.opts.concurrency.clamp(1, 32).min(wanted.len().max(1));
        let mut slots: Vec<Option<Result<Placed, RemoteError>>> = vec![None; wanted.len()];
        let mut worker_died = false;
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers)
                .map(|_| {
                    s.spawn(|| {
                        let mut mine = Vec::new();
                        while !failed.load(Ordering::Relaxed) {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(w) = wanted.get(i) else { break };
                            let r = self.place(job, w);
                            if matches!(r, Err(RemoteError::Io { .. })) {
                                failed.store(true, Ordering::Relaxed);
                            }
                            mine.push((i, r));
                        }
                        mine
                    })
                })
                .collect();
            for h in handles {
                match h.join() {
                    Ok(results) => {
                        for (i, r) in results {
                            if let Some(slot) = slots.get_mut(i) {
                                *slot = Some(r);
                            }
                        }
                    }
                    Err(_) => worker_died = true,
                }
            }
        });
        let mut placed = Vec::with_capacity(wanted.len());
        let mut lost = Vec::new();
        let mut first_error = None;
        let mut seen = 0;
        for (slot, w) in slots.into_iter().zip(wanted) {
            let Some(r) = slot else { continue };
            seen += 1;
            match r {
                Ok(p) => placed.push(p),
                Err(e @ RemoteError::Io { .. }) => return Err(e),
                Err(e) => {
                    lost.push(FailedObject {
                        path: w.rel.clone(),
                        reason: e.to_string(),
                    });
                    first_error.get_or_insert(e);
                }
            }
        }
        if let Some(e) = first_error
            && placed.is_empty()
        {
            return Err(e);
        }
        if worker_died || seen != wanted.len() {
            return Err(RemoteError::Network {
                url: loc.gs_url(),
                reason: "a download worker stopped unexpectedly".to_string(),
                attempts: 1,
            });
        }
        Ok((placed, lost))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_fetcher_serves_many_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Fetcher>();
    }

    #[test]
    fn offline_fetcher_needs_no_endpoint() {
        let dir = tempfile::tempdir().unwrap();
        let opts = FetchOptions {
            offline: true,
            endpoint: "not a url".to_string(),
            cache_dir: dir.path().to_path_buf(),
            ..FetchOptions::default()
        };
        let e = fetch("gs://bucket/logs/job/1", &opts).unwrap_err();
        assert!(matches!(e, RemoteError::NotCached { .. }), "{e}");
        let online = FetchOptions {
            offline: false,
            ..opts
        };
        let e = fetch("gs://bucket/logs/job/1", &online).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("invalid GCS endpoint `not a url`"),
            "{e}"
        );
    }
}
