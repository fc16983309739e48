//! Remote fetch against a real HTTP server on loopback (tests/remote_support): URL forms,
//! selection, cache and offline mode, gzip objects without a suffix, retries, 404 and
//! timeouts; and a fetched job ingests exactly like the same files on disk.

use crate::remote_support;

use mglint::bundle::Bundle;
use mglint::ingest::{IngestOptions, ingest};
use mglint::remote::{self, FetchOptions, GcsLocation, RemoteError};
use remote_support::job::*;
use remote_support::server::{Behaviour, Server};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn options(server: &Server, cache: &Path) -> FetchOptions {
    remote_support::fetch_options(server, cache, Duration::from_secs(20))
}

fn job_url() -> String {
    format!("https://prow.ci.openshift.org/view/gs/{BUCKET}/{JOB}")
}

fn ingest_dir(dir: &Path) -> Bundle {
    ingest(
        &[dir.to_string_lossy().to_string()],
        &IngestOptions::default(),
    )
    .unwrap()
}

/// Everything ingestion found, as text, with the input's name replaced.
fn digest(b: &Bundle) -> String {
    let name = &b.inputs[0].name;
    let mut s = format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        b.inputs[0].kind,
        b.inputs[0].must_gather_roots,
        b.objects.cluster_versions,
        b.objects.cluster_operators,
        b.objects.nodes,
        b.objects.pools,
        b.objects.events,
        b.objects.cvo_pods,
        b.cvo_logs,
        b.intervals,
        b.text_lines,
        b.junit,
        b.prow,
        b.collection_times,
        b.gather_versions,
        b.diagnostics,
    );
    s = s.replace(name.as_str(), "<INPUT>");
    s
}

fn assert_same_ingest(local: &Path, fetched: &Path) {
    let (a, b) = (ingest_dir(local), ingest_dir(fetched));
    assert_eq!(a.sources_by_kind, b.sources_by_kind);
    let (da, db) = (digest(&a), digest(&b));
    assert!(
        da == db,
        "fetched job ingests differently:\n--- local\n{da}\n--- fetched\n{db}"
    );
}

#[test]
fn url_forms_map_to_bucket_and_path() {
    for url in [
        format!("https://prow.ci.openshift.org/view/gs/{BUCKET}/{JOB}"),
        format!("https://gcsweb-ci.apps.ci.l2s4.p1.openshiftapps.com/gcs/{BUCKET}/{JOB}/"),
        format!("gs://{BUCKET}/{JOB}"),
        format!("https://storage.googleapis.com/{BUCKET}/{JOB}/"),
    ] {
        assert!(remote::is_remote(&url));
        let loc = GcsLocation::parse(&url).unwrap();
        assert_eq!(
            (loc.bucket.as_str(), loc.path.as_str()),
            (BUCKET, JOB),
            "{url}"
        );
    }
    let e = GcsLocation::parse("https://github.com/openshift/origin/pull/1").unwrap_err();
    assert!(matches!(e, RemoteError::UnsupportedUrl { .. }));
    let msg = e.to_string();
    assert!(
        msg.starts_with("`https://github.com/openshift/origin/pull/1`: unsupported URL"),
        "{msg}"
    );
    assert!(!remote::is_remote("fixtures/ci/job"));
}

#[test]
fn fetched_job_ingests_like_the_local_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let needed = build_job(&job, true);
    let server = Server::start(3);
    server.put_dir(BUCKET, JOB, &job);
    let opts = FetchOptions {
        with_must_gather: true,
        ..options(&server, &tmp.path().join("cache"))
    };
    let r = remote::fetch(&job_url(), &opts).unwrap();
    assert_eq!(r.local_dir, tmp.path().join("cache").join(BUCKET).join(JOB));
    assert_eq!((r.downloaded, r.from_cache), (needed + 1, 0), "{r:?}");
    assert!(r.bytes > 0);
    assert_eq!(r.skipped.len(), 1, "{:?}", r.skipped);
    assert!(
        r.skipped[0].contains("prometheus.tar.gz"),
        "{:?}",
        r.skipped
    );
    // Paged listing, and nothing the analysis does not read was downloaded.
    assert!(server.requests_for("/storage/v1/b/test-platform-results/o") > 5);
    let ge = r.local_dir.join(T).join("gather-extra/artifacts");
    assert!(
        !ge.join("pods.json").exists()
            && !ge.join("nodes").exists()
            && !r.local_dir.join("podinfo.json").exists()
    );
    // The gzip object was stored as received and ingestion reads it.
    let events = std::fs::read(ge.join("events.json")).unwrap();
    assert_eq!(
        events,
        std::fs::read(job.join(T).join("gather-extra/artifacts/events.json")).unwrap()
    );
    assert_same_ingest(&job, &r.local_dir);
    let b = ingest_dir(&r.local_dir);
    assert_eq!(b.objects.events.len(), 2);
    assert_eq!(b.cluster_version().unwrap().status.history[0].version, TO);
    assert_eq!(b.objects.cluster_operators.len(), 3);
    assert_eq!(b.cvo_logs.len(), 1);
    assert_eq!(b.cvo_logs[0].records.len(), 5);
    assert_eq!(
        b.prow.as_ref().unwrap().job,
        "periodic-ci-openshift-release-master-ci-4.14-upgrade-from-stable-4.13-e2e-aws-ovn-upgrade"
    );
}

#[test]
fn fixture_jobs_fetch_like_local() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ci");
    let mut served = 0;
    for name in ["seed2-rollback-4.3", "modern-upgrade-4.14"] {
        let dir = root.join(name);
        if !dir.is_dir() {
            eprintln!("skipping fixture {name}: {} is absent", dir.display());
            continue;
        }
        let tmp = tempfile::tempdir().unwrap();
        let server = Server::start(50);
        let path = format!("logs/{name}/1");
        server.put_dir("origin-ci-test", &path, &dir);
        let opts = FetchOptions {
            with_must_gather: true,
            ..options(&server, tmp.path())
        };
        let r = remote::fetch(&format!("gs://origin-ci-test/{path}"), &opts).unwrap();
        assert!(r.downloaded > 0, "{name}: {r:?}");
        assert_same_ingest(&dir, &r.local_dir);
        served += 1;
    }
    eprintln!("{served} fixture job(s) served");
}

#[test]
fn second_fetch_and_offline_make_no_request() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let needed = build_job(&job, true);
    let server = Server::start(100);
    server.put_dir(BUCKET, JOB, &job);
    let opts = options(&server, &tmp.path().join("cache"));
    let first = remote::fetch(&job_url(), &opts).unwrap();
    assert_eq!(first.downloaded, needed);
    let before = server.requests();
    // The same job under another spelling is the same cache entry.
    let again = remote::fetch(&format!("gs://{BUCKET}/{JOB}"), &opts).unwrap();
    assert_eq!(
        (again.downloaded, again.from_cache, again.bytes),
        (0, needed, 0)
    );
    assert_eq!(again.local_dir, first.local_dir);
    assert_eq!(again.skipped, first.skipped);
    let offline = FetchOptions {
        offline: true,
        ..opts.clone()
    };
    let off = remote::fetch(&job_url(), &offline).unwrap();
    assert_eq!((off.downloaded, off.from_cache), (0, needed));
    assert_eq!(server.requests(), before, "a cached fetch made requests");
    assert_eq!(
        digest(&ingest_dir(&off.local_dir)),
        digest(&ingest_dir(&first.local_dir))
    );

    let e = remote::fetch(&format!("gs://{BUCKET}/logs/other-job/1"), &offline).unwrap_err();
    assert!(matches!(e, RemoteError::NotCached { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("gs://test-platform-results/logs/other-job/1"),
        "{e}"
    );
    assert!(e.to_string().contains("not in the cache"), "{e}");
    assert_eq!(server.requests(), before);

    // A damaged cache entry is not trusted: offline refuses it, online repairs it.
    let cv = first
        .local_dir
        .join(T)
        .join("gather-extra/artifacts/clusterversion.json");
    std::fs::remove_file(&cv).unwrap();
    assert!(matches!(
        remote::fetch(&job_url(), &offline),
        Err(RemoteError::NotCached { .. })
    ));
    let repaired = remote::fetch(&job_url(), &opts).unwrap();
    assert_eq!((repaired.downloaded, repaired.from_cache), (1, needed - 1));
    assert!(cv.is_file());
}

#[test]
fn must_gather_archive_only_when_asked_or_needed() {
    let tmp = tempfile::tempdir().unwrap();
    let (job, bare) = (tmp.path().join("job"), tmp.path().join("bare"));
    let needed = build_job(&job, true);
    build_job(&bare, false);
    let server = Server::start(100);
    server.put_dir(BUCKET, JOB, &job);
    server.put_dir(BUCKET, "logs/no-gather-extra-cv/2", &bare);
    let opts = options(&server, &tmp.path().join("cache"));
    let archive = format!("{T}/gather-must-gather/artifacts/must-gather.tar");

    let r = remote::fetch(&job_url(), &opts).unwrap();
    assert!(!r.local_dir.join(&archive).exists());
    assert!(
        r.skipped
            .iter()
            .any(|s| s.contains("must-gather.tar") && s.contains("--with-must-gather")),
        "{:?}",
        r.skipped
    );
    let with = FetchOptions {
        with_must_gather: true,
        ..opts.clone()
    };
    // Asked for offline: the cache cannot have it, and says so without a request.
    let requests = server.requests();
    let off = FetchOptions {
        offline: true,
        ..with.clone()
    };
    let r1 = remote::fetch(&job_url(), &off).unwrap();
    assert_eq!(server.requests(), requests);
    let note = format!(
        "`{archive}`: must-gather archive not in the cache (fetch again without `--offline`)"
    );
    assert!(r1.skipped.contains(&note), "{:?}", r1.skipped);
    let before = server.requests_for("must-gather.tar");
    let r2 = remote::fetch(&job_url(), &with).unwrap();
    assert_eq!((r2.downloaded, r2.from_cache), (1, needed));
    // A range request first (a `.tar` may be read member by member); the archive is gzip
    // data, sent encoded, so it then comes whole.
    assert_eq!(server.requests_for("must-gather.tar"), before + 2);
    assert!(r2.archives[0].whole.is_some(), "{:?}", r2.archives);
    assert!(r2.local_dir.join(&archive).is_file());
    assert_eq!(ingest_dir(&r2.local_dir).objects.cluster_versions.len(), 2);

    // Nothing else has the ClusterVersion: the archive comes without asking.
    let r3 = remote::fetch(&format!("gs://{BUCKET}/logs/no-gather-extra-cv/2"), &opts).unwrap();
    assert!(r3.local_dir.join(&archive).is_file(), "{r3:?}");
    let b = ingest_dir(&r3.local_dir);
    assert_eq!(b.cluster_version().unwrap().status.history[0].version, TO);
}

#[test]
fn gzip_object_without_suffix_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start(10);
    let ge = format!("logs/gz/7/{T}/gather-extra/artifacts");
    server.put(
        BUCKET,
        &format!("{ge}/clusterversion.json"),
        gz(cluster_version_json().as_bytes()),
        Behaviour::Normal,
    );
    server.put(
        BUCKET,
        &format!("{ge}/events.json"),
        gz(events_json().as_bytes()),
        Behaviour::Normal,
    );
    let r = remote::fetch(
        &format!("gs://{BUCKET}/logs/gz/7"),
        &options(&server, tmp.path()),
    )
    .unwrap();
    assert_eq!(r.downloaded, 2);
    let stored = std::fs::read(
        r.local_dir
            .join(T)
            .join("gather-extra/artifacts/clusterversion.json"),
    )
    .unwrap();
    assert_eq!(&stored[..2], &[0x1f, 0x8b], "bytes are stored as received");
    let b = ingest_dir(&r.local_dir);
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    assert_eq!(b.cluster_version().unwrap().status.history.len(), 2);
    assert_eq!(b.objects.events.len(), 2);
}

/// A one-object job whose object misbehaves as told.
fn one_object_job(behaviour: Behaviour) -> (Server, String, String) {
    let server = Server::start(10);
    let name = format!("logs/odd/9/{T}/gather-extra/artifacts/clusterversion.json");
    server.put(
        BUCKET,
        &name,
        cluster_version_json().into_bytes(),
        behaviour,
    );
    (server, format!("gs://{BUCKET}/logs/odd/9"), name)
}

#[test]
fn server_errors_are_retried() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, url, name) = one_object_job(Behaviour::FailFirst(1));
    let r = remote::fetch(&url, &options(&server, tmp.path())).unwrap();
    assert_eq!(r.downloaded, 1);
    assert_eq!(server.requests_for(&format!("/{BUCKET}/{name}")), 2);
    assert_eq!(ingest_dir(&r.local_dir).objects.cluster_versions.len(), 1);

    let tmp = tempfile::tempdir().unwrap();
    let (server, url, name) = one_object_job(Behaviour::FailFirst(10));
    let opts = FetchOptions {
        retries: 2,
        ..options(&server, tmp.path())
    };
    let e = remote::fetch(&url, &opts).unwrap_err();
    assert_eq!(e.status(), Some(500));
    assert_eq!(server.requests_for(&format!("/{BUCKET}/{name}")), 3);
    let msg = e.to_string();
    assert!(
        msg.contains(&format!("{}/{BUCKET}/{name}", server.endpoint))
            && msg.contains("HTTP 500")
            && msg.contains("3 attempts"),
        "{msg}"
    );
}

#[test]
fn not_found_names_url_and_status() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, url, name) = one_object_job(Behaviour::Missing);
    let e = remote::fetch(&url, &options(&server, tmp.path())).unwrap_err();
    let object_url = format!("{}/{BUCKET}/{name}", server.endpoint);
    assert_eq!(e.to_string(), format!("`{object_url}`: HTTP 404 Not Found"));
    assert_eq!(
        server.requests_for(&format!("/{BUCKET}/{name}")),
        1,
        "a 404 is not retried"
    );
    let dir = remote::job_dir(tmp.path(), &GcsLocation::parse(&url).unwrap());
    assert!(
        !dir.join(remote::MANIFEST).exists(),
        "a failed fetch is not marked complete"
    );

    // A bucket the server does not have: the listing URL and its status.
    let e = remote::fetch(
        "gs://no-such-bucket/logs/x/1",
        &options(&server, tmp.path()),
    )
    .unwrap_err();
    assert_eq!(e.status(), Some(404));
    assert!(
        e.to_string()
            .contains("/storage/v1/b/no-such-bucket/o?prefix=logs%2Fx%2F1%2F"),
        "{e}"
    );
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path());
            }
        }
    }
    out
}

#[test]
fn slow_response_times_out_and_leaves_no_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (server, url, name) = one_object_job(Behaviour::Stall(Duration::from_secs(10)));
    let opts = FetchOptions {
        timeout: Duration::from_millis(1000),
        retries: 0,
        ..options(&server, tmp.path())
    };
    let e = remote::fetch(&url, &opts).unwrap_err();
    assert!(matches!(e, RemoteError::Timeout { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!(
            "`{}/{BUCKET}/{name}`: timed out after 1.0s",
            server.endpoint
        )
    );
    let left = files_under(tmp.path());
    assert!(left.is_empty(), "files left behind: {left:?}");
}

#[test]
fn fetch_to_writes_a_job_directory_and_caps_objects() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    build_job(&job, true);
    let server = Server::start(100);
    server.put_dir(BUCKET, JOB, &job);
    let dest = tmp.path().join("out");
    // A cap just below gather-extra's clusterversion.json.
    let cv = format!("{T}/gather-extra/artifacts/clusterversion.json");
    let cap = std::fs::metadata(job.join(&cv)).unwrap().len() - 1;
    let opts = FetchOptions {
        max_object_bytes: cap,
        ..options(&server, &tmp.path().join("unused-cache"))
    };
    let url = format!("https://storage.googleapis.com/{BUCKET}/{JOB}/");
    let r = remote::fetch_to(&url, &dest, &opts).unwrap();
    assert_eq!(r.local_dir, dest);
    assert!(!tmp.path().join("unused-cache").exists());
    assert!(dest.join(remote::MANIFEST).is_file());
    let cap_note = format!(
        "`{cv}`: {} bytes, more than the {cap} byte cap; not downloaded",
        cap + 1
    );
    assert!(r.skipped.contains(&cap_note), "{:?}", r.skipped);
    assert!(!dest.join(&cv).exists());
    for f in files_under(&dest)
        .iter()
        .filter(|f| !f.ends_with(remote::MANIFEST))
    {
        assert!(
            std::fs::metadata(f).unwrap().len() <= cap,
            "{} is over the cap",
            f.display()
        );
    }
    // Without gather-extra's ClusterVersion, the must-gather archive is the source.
    assert!(
        dest.join(T)
            .join("gather-must-gather/artifacts/must-gather.tar")
            .is_file()
    );
    let b = ingest_dir(&dest);
    assert_eq!(b.objects.cluster_versions.len(), 1);
    assert_eq!(b.cluster_version().unwrap().status.history.len(), 1);
    assert_eq!((b.cvo_logs.len(), b.objects.events.len()), (1, 2));
}

/// A plain URL to a must-gather archive (a link in a support case) is downloaded once into
/// the cache and reads like the archive on disk; a second run (and `--offline`) asks nothing.
#[test]
fn plain_url_to_an_archive() {
    let server = Server::start(100);
    let seed = crate::common::fixture("must-gather/seed1-blocked");
    let tgz = crate::common::gzip(&crate::common::tar_dir(&seed, ""));
    server.put(
        "cases",
        "02745123/must-gather.tar.gz",
        tgz.clone(),
        Behaviour::Normal,
    );
    let url = format!("{}/cases/02745123/must-gather.tar.gz", server.endpoint);
    let cache = tempfile::tempdir().unwrap();
    let settings = mglint::Settings {
        remote: options(&server, cache.path()),
        ..Default::default()
    };
    let run = mglint::app::load(std::slice::from_ref(&url), &settings).unwrap();
    let got: Vec<_> = run
        .analysis()
        .report()
        .findings
        .iter()
        .map(|f| (f.code.clone(), f.message.clone()))
        .collect();
    assert_eq!(run.analysis().bundle.inputs[0].name, url);
    let local = tempfile::tempdir().unwrap();
    let p = local.path().join("must-gather.tar.gz");
    std::fs::write(&p, &tgz).unwrap();
    let want: Vec<_> = crate::common::report(&[p.to_string_lossy().to_string()], &[])
        .findings
        .iter()
        .map(|f| (f.code.clone(), f.message.clone()))
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got, want);
    let before = server.requests();
    let offline = mglint::Settings {
        remote: FetchOptions {
            offline: true,
            ..options(&server, cache.path())
        },
        ..Default::default()
    };
    let again = mglint::app::load(std::slice::from_ref(&url), &offline).unwrap();
    assert_eq!(again.analysis().report().findings.len(), want.len());
    assert_eq!(server.requests(), before, "the cached download is used");
    // A plain URL that answers 404 names the URL and the status.
    let missing = format!("{}/cases/02745123/nope.tar.gz", server.endpoint);
    let err = mglint::app::load(std::slice::from_ref(&missing), &settings).expect_err("error");
    assert!(err.to_string().contains("404"), "{err}");
}

#[test]
fn page_tokens_cycling_between_two_values_are_caught_at_the_first_repeat() {
    // A→B→A defeated a check against the previous token only: 10k listing requests.
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let requests = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = requests.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(50) {
            let Ok(mut stream) = stream else { break };
            let mut first = String::new();
            let mut r = BufReader::new(stream.try_clone().unwrap());
            r.read_line(&mut first).unwrap_or(0);
            let mut line = String::new();
            while r.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let next = if first.contains("pageToken=A") {
                "B"
            } else {
                "A"
            };
            let body = format!(r#"{{"items":[],"nextPageToken":"{next}"}}"#);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    let tmp = tempfile::tempdir().unwrap();
    let opts = FetchOptions {
        endpoint,
        cache_dir: tmp.path().to_path_buf(),
        timeout: Duration::from_secs(20),
        backoff: Duration::from_millis(10),
        ..FetchOptions::default()
    };
    let e = remote::fetch(&job_url(), &opts).unwrap_err();
    assert!(e.to_string().contains("repeated page token `A`"), "{e}");
    assert_eq!(requests.load(std::sync::atomic::Ordering::SeqCst), 3);
}

#[test]
fn an_object_that_is_also_a_folder_is_skipped_alone_and_the_job_is_fetched() {
    // `…/junit.xml` beside `…/junit.xml/inner.xml`: both cannot be local paths. This used to
    // abort the whole fetch; now the shorter is skipped with a line, everything else comes.
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    build_job(&job, true);
    let server = Server::start(100);
    server.put_dir(BUCKET, JOB, &job);
    let suite = br#"<testsuite name="s"><testcase name="a"/></testsuite>"#.to_vec();
    let file = format!("{T}/openshift-e2e-test/artifacts/junit/junit_clash.xml");
    server.put(
        BUCKET,
        &format!("{JOB}/{file}"),
        suite.clone(),
        Behaviour::Normal,
    );
    server.put(
        BUCKET,
        &format!("{JOB}/{file}/junit_inner.xml"),
        suite,
        Behaviour::Normal,
    );
    let dest = tmp.path().join("out");
    let url = format!("https://storage.googleapis.com/{BUCKET}/{JOB}/");
    let r = remote::fetch_to(&url, &dest, &options(&server, &tmp.path().join("cache"))).unwrap();
    let note = format!(
        "`{file}`: another object is named `{file}/…` (one path cannot be both a file and a folder); not downloaded"
    );
    assert!(r.skipped.contains(&note), "{:?}", r.skipped);
    assert!(dest.join(&file).join("junit_inner.xml").is_file());
    let b = ingest_dir(&dest);
    assert_eq!(b.objects.cluster_versions.len(), 1);
    assert!(
        b.junit
            .iter()
            .any(|j| j.prov.file.path().ends_with("junit_inner.xml")),
        "the other JUnit file is read"
    );
}

/// One object that is 404 after the listing, one over `--max-object-bytes` though listed
/// small, and one whose body never ends each cost only themselves: the job is fetched and
/// analysed with the rest, each is named with its reason, the manifest keeps them so the next
/// run that may use the network asks again, and the analysis counts them as unread (the
/// answer is incomplete, as for any file that cannot be read).
#[test]
fn one_bad_object_costs_only_itself() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    build_job(&job, true);
    let server = Server::start(100);
    server.put_dir(BUCKET, JOB, &job);
    let ge = format!("{T}/gather-extra/artifacts");
    let small = br#"{"apiVersion":"v1","kind":"List","items":[]}"#.to_vec();
    let bad = [
        (format!("{ge}/nodes.json"), Behaviour::Missing),
        (
            format!("{ge}/machineconfigpools.json"),
            Behaviour::ServeInstead(std::sync::Arc::new(vec![b' '; 3 << 20])),
        ),
        (format!("{ge}/machineconfigs.json"), Behaviour::Endless),
    ];
    for (name, b) in &bad {
        server.put(BUCKET, &format!("{JOB}/{name}"), small.clone(), b.clone());
    }
    let opts = FetchOptions {
        max_object_bytes: 1 << 20,
        retries: 0,
        ..options(&server, tmp.path())
    };
    let r = remote::fetch(&job_url(), &opts).unwrap();
    let failed: Vec<&str> = r.failed.iter().map(|f| f.path.as_str()).collect();
    let mut want: Vec<&str> = bad.iter().map(|(n, _)| n.as_str()).collect();
    want.sort();
    assert_eq!(failed, want, "{:?}", r.failed);
    assert!(r.failed[2].reason.contains("HTTP 404"), "{:?}", r.failed);
    for f in &r.failed[..2] {
        assert!(f.reason.contains("byte cap"), "{f:?}");
    }
    let b = ingest_dir(&r.local_dir);
    assert_eq!(b.objects.cluster_versions.len(), 1, "the rest is there");
    assert!(!b.objects.cluster_operators.is_empty());
    for (name, _) in &bad {
        assert!(
            !r.local_dir.join(name).exists(),
            "{name} left nothing behind"
        );
    }
    // Offline: the job as it was, with the same failures named; online: they are asked again.
    let before = server.requests_for("/machineconfigs.json");
    let offline = FetchOptions {
        offline: true,
        ..opts.clone()
    };
    assert_eq!(
        remote::fetch(&job_url(), &offline).unwrap().failed,
        r.failed
    );
    assert_eq!(server.requests_for("/machineconfigs.json"), before);
    let again = remote::fetch(&job_url(), &opts).unwrap();
    assert_eq!(again.failed, r.failed);
    assert_eq!(server.requests_for("/machineconfigs.json"), before + 1);
    assert!(
        again.from_cache > 0,
        "the good objects are not downloaded again"
    );
    // analyze: the three are unread files of the job, named with the reason.
    let settings = mglint::Settings {
        remote: opts,
        ..Default::default()
    };
    let run = mglint::app::load(&[job_url()], &settings).unwrap();
    let unread = mglint::bundle::unread_files(&run.analysis().bundle);
    let mut named: Vec<&str> = unread.iter().map(|u| u.path.as_str()).collect();
    named.sort();
    assert_eq!(named, want);
    assert!(
        unread
            .iter()
            .all(|u| u.input == job_url() && u.reason.starts_with("could not be downloaded: "))
    );
    assert!(run.analysis().bundle.cluster_version().is_some());
}

/// A plain URL whose server compresses the archive on the fly (`Content-Encoding: gzip`) is
/// stored decoded and analysed; a 200 HTML page instead of the archive is an error that
/// keeps nothing in the cache, so the next run asks again.
#[test]
fn plain_url_content_encoding_and_html_pages() {
    let server = Server::start(100);
    let seed = crate::common::fixture("must-gather/seed1-blocked");
    let tgz = crate::common::gzip(&crate::common::tar_dir(&seed, ""));
    server.put(
        "cases",
        "1/must-gather.tar.gz",
        tgz.clone(),
        Behaviour::GzipEncoded,
    );
    server.put(
        "cases",
        "2/must-gather.tar.gz",
        tgz.clone(),
        Behaviour::HtmlPage,
    );
    let cache = tempfile::tempdir().unwrap();
    let opts = options(&server, cache.path());
    let url = format!("{}/cases/1/must-gather.tar.gz", server.endpoint);
    let local = remote::fetch_url(&url, &opts).unwrap();
    assert_eq!(
        std::fs::read(&local).unwrap(),
        tgz,
        "stored as the file itself"
    );
    let settings = mglint::Settings {
        remote: opts.clone(),
        ..Default::default()
    };
    let run = mglint::app::load(std::slice::from_ref(&url), &settings).unwrap();
    assert!(run.analysis().bundle.cluster_version().is_some());
    let html = format!("{}/cases/2/must-gather.tar.gz", server.endpoint);
    let e = remote::fetch_url(&html, &opts).unwrap_err().to_string();
    assert!(e.contains("an HTML page"), "{e}");
    let e = remote::fetch_url(&html, &opts).unwrap_err().to_string();
    assert!(e.contains("an HTML page"), "{e}");
    assert_eq!(
        server.requests_for("/cases/2/"),
        2,
        "asked again, not cached"
    );
    assert!(
        files_under(cache.path())
            .iter()
            .all(|f| !f.to_string_lossy().contains(".tar.gz") || f.starts_with(&local)),
        "no page kept"
    );
}

/// `fetch -o DIR` never writes into a directory of the user's: only a new or empty one, or
/// one an earlier fetch wrote.
#[test]
fn fetch_to_refuses_a_directory_of_the_users() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    build_job(&job, true);
    let server = Server::start(100);
    server.put_dir(BUCKET, JOB, &job);
    let opts = options(&server, &tmp.path().join("cache"));
    let mine = tmp.path().join("mine");
    std::fs::create_dir_all(mine.join("x")).unwrap();
    std::fs::write(mine.join("prowjob.json"), b"my notes").unwrap();
    let e = remote::fetch_to(&job_url(), &mine, &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no fetch wrote"), "{e}");
    assert_eq!(
        std::fs::read(mine.join("prowjob.json")).unwrap(),
        b"my notes"
    );
    let file = tmp.path().join("file");
    std::fs::write(&file, b"keep").unwrap();
    let e = remote::fetch_to(&job_url(), &file, &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a directory"), "{e}");
    assert_eq!(std::fs::read(&file).unwrap(), b"keep");
    let fresh = tmp.path().join("fresh");
    remote::fetch_to(&job_url(), &fresh, &opts).unwrap();
    remote::fetch_to(&job_url(), &fresh, &opts).expect("a directory a fetch wrote");
}

/// An object name carrying a terminal escape (GCS allows any character) is shown escaped in
/// what `mglint fetch` says about it.
#[test]
fn an_object_name_with_an_escape_is_shown_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    build_job(&job, true);
    let server = Server::start(100);
    server.put_dir(BUCKET, JOB, &job);
    let evil = format!("{JOB}/artifacts/e2e-\u{1b}]0;owned\u{7}/gather-extra/artifacts/nodes.json");
    server.put(BUCKET, &evil, vec![b' '; 4096], Behaviour::Normal);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["fetch", &job_url(), "--gcs-endpoint", &server.endpoint])
        .args(["--max-object-bytes", "1000", "--timeout", "20", "-o"])
        .arg(tmp.path().join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(r"e2e-\x1b]0;owned\x07/gather-extra"), "{err}");
    assert!(!out.stderr.iter().any(|&b| b == 0x1b || b == 7), "{err}");
}
