//! A remote job is bounded in total and written safely: a huge listing page is refused, a
//! listing is held a page at a time and stops at its cap, a storm of 5xx answers and a body
//! that trickles are cut at the job's time limit (each costing its object only), names too
//! long for a file system get a shortened local path, and links planted in a destination are
//! replaced (files) or refused (folders), never written through.

use crate::remote_support;

use mglint::remote::{self, FetchOptions, RemoteError};
use remote_support::job::*;
use remote_support::server::{Behaviour, Server};
use std::path::Path;
use std::time::Duration;

fn options(server: &Server, cache: &Path) -> FetchOptions {
    remote_support::fetch_options(server, cache, Duration::from_secs(60))
}

fn job_url() -> String {
    format!("gs://{BUCKET}/{JOB}")
}

/// A job server with the realistic job tree.
fn job_server(page_size: usize, tmp: &Path) -> Server {
    let job = tmp.join("job");
    build_job(&job, true);
    let server = Server::start(page_size);
    server.put_dir(BUCKET, JOB, &job);
    server
}

/// 40 MiB of items in one page (sent without a length): refused at the page cap, while it
/// is read, with a message naming the listing and the cap.
#[test]
fn a_huge_listing_page_is_refused_at_the_cap() {
    let tmp = tempfile::tempdir().unwrap();
    let server = job_server(100, tmp.path());
    server.huge_listing_pages(40 << 20);
    let e = remote::fetch(&job_url(), &options(&server, &tmp.path().join("cache"))).unwrap_err();
    assert!(matches!(e, RemoteError::BadListing { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.contains("/storage/v1/b/test-platform-results/o?")
            && msg.contains(&format!(
                "a page is over the {}-byte cap for one listing page",
                remote::MAX_PAGE_BYTES
            )),
        "{msg}"
    );
    assert_eq!(server.requests_for("/storage/v1/b/"), 1, "not retried");
}

/// Only the objects the analysis may read are kept from each page, and the listing stops at
/// `max_listed_objects` (a line says so) instead of holding every page.
#[test]
fn the_listing_stops_at_its_cap_and_the_job_is_fetched_with_what_was_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let server = job_server(2, tmp.path());
    let all = remote::fetch(&job_url(), &options(&server, &tmp.path().join("all"))).unwrap();
    let pages = server.requests_for("/storage/v1/b/");
    assert!(all.downloaded > 4, "{all:?}");
    let opts = FetchOptions {
        max_listed_objects: 3,
        ..options(&server, &tmp.path().join("capped"))
    };
    let r = remote::fetch(&job_url(), &opts).unwrap();
    let capped_pages = server.requests_for("/storage/v1/b/") - pages;
    assert!(capped_pages < pages, "{capped_pages} of {pages} pages");
    assert!(r.downloaded <= 3 && r.downloaded > 0, "{r:?}");
    assert!(
        r.skipped.iter().any(|s| s.contains(
            "the listing stopped after 3 objects the analysis may read (`--max-listed-objects`)"
        )),
        "{:?}",
        r.skipped
    );
}

/// A server answering 500 for a long while and another object sent a byte at a time over 30
/// s: at a job time limit of 2 s both fail alone (named, with the reason) and the rest of the
/// job is there.
#[test]
fn a_5xx_storm_and_a_slow_drip_are_cut_at_the_job_time_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let server = job_server(100, tmp.path());
    let data = |n: &str| std::fs::read(tmp.path().join("job").join(n)).unwrap();
    server.put(
        BUCKET,
        &format!("{JOB}/prowjob.json"),
        data("prowjob.json"),
        Behaviour::FailFirst(8),
    );
    server.put(
        BUCKET,
        &format!("{JOB}/finished.json"),
        data("finished.json"),
        Behaviour::Drip(Duration::from_secs(30)),
    );
    let opts = FetchOptions {
        retries: 100,
        backoff: Duration::from_millis(300),
        job_timeout: Duration::from_secs(2),
        ..options(&server, &tmp.path().join("cache"))
    };
    let r = remote::fetch(&job_url(), &opts).unwrap();
    let failed: Vec<&str> = r.failed.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(failed, ["finished.json", "prowjob.json"], "{:?}", r.failed);
    for f in &r.failed {
        assert!(
            f.reason
                .contains("not done when the job's time limit of 2.0s ran out (`--job-timeout`)"),
            "{f:?}"
        );
    }
    let cv = r
        .local_dir
        .join(T)
        .join("gather-extra/artifacts/clusterversion.json");
    assert!(cv.is_file(), "the rest of the job is there");
    assert!(!r.local_dir.join("finished.json").exists());
}

/// A 250-byte name segment and a path longer than PATH_MAX cost nothing: each is stored under
/// a shortened local path (stable, with a hash), and the job is fetched whole.
#[test]
fn names_too_long_for_the_file_system_get_a_short_local_path() {
    let tmp = tempfile::tempdir().unwrap();
    let server = job_server(100, tmp.path());
    let junit = format!("{T}/openshift-e2e-test/artifacts/junit");
    let long = format!("{junit}/junit_{}.xml", "9".repeat(240));
    let deep = format!(
        "{junit}/{}junit_deep.xml",
        format!("{}/", "d".repeat(190)).repeat(24)
    );
    assert!(deep.len() > 4096);
    let xml = br#"<testsuite name="x" tests="1"><testcase name="t"/></testsuite>"#.to_vec();
    for rel in [&long, &deep] {
        server.put(
            BUCKET,
            &format!("{JOB}/{rel}"),
            xml.clone(),
            Behaviour::Normal,
        );
    }
    let r = remote::fetch(&job_url(), &options(&server, &tmp.path().join("cache"))).unwrap();
    assert!(r.failed.is_empty(), "{:?}", r.failed);
    for rel in [&long, &deep] {
        let local = remote::local_path(rel);
        assert_ne!(&local, rel);
        assert!(local.len() <= remote::MAX_PATH_BYTES, "{local}");
        assert!(
            local.split('/').all(|c| c.len() <= remote::MAX_NAME_BYTES),
            "{local}"
        );
        assert!(
            local.ends_with(".xml") && local.contains("/junit/"),
            "{local}"
        );
        assert_eq!(
            std::fs::read(r.local_dir.join(&local)).unwrap(),
            xml,
            "{rel}"
        );
    }
    // The second run finds them in the cache.
    let again = remote::fetch(&job_url(), &options(&server, &tmp.path().join("cache"))).unwrap();
    assert_eq!(again.downloaded, 0, "{again:?}");
}

/// In a directory a fetch wrote: a link at an object's name (to a file outside) is replaced
/// by the object and its target is untouched; a link where a folder goes (to a directory
/// outside) is refused, naming it, and costs only the objects below it.
#[test]
fn links_planted_in_a_fetch_directory_are_replaced_or_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let server = job_server(100, tmp.path());
    let opts = options(&server, &tmp.path().join("cache"));
    let dest = tmp.path().join("out");
    let first = remote::fetch_to(&job_url(), &dest, &opts).unwrap();
    assert!(first.failed.is_empty());
    let outside = tmp.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let victim = tmp.path().join("victim.json");
    std::fs::write(&victim, "precious").unwrap();
    std::fs::remove_file(dest.join("prowjob.json")).unwrap();
    std::os::unix::fs::symlink(&victim, dest.join("prowjob.json")).unwrap();
    let ge = dest.join(T).join("gather-extra");
    std::fs::remove_dir_all(&ge).unwrap();
    std::os::unix::fs::symlink(&outside, &ge).unwrap();

    let r = remote::fetch_to(&job_url(), &dest, &opts).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing written outside"
    );
    let p = dest.join("prowjob.json");
    assert!(!std::fs::symlink_metadata(&p).unwrap().is_symlink());
    assert_eq!(
        std::fs::read(&p).unwrap(),
        std::fs::read(tmp.path().join("job/prowjob.json")).unwrap()
    );
    assert!(!r.failed.is_empty());
    for f in &r.failed {
        assert!(f.path.starts_with(&format!("{T}/gather-extra/")), "{f:?}");
        assert!(
            f.reason.contains(&format!(
                "{}` exists and is not a directory (a symbolic link or a file), which is never followed",
                ge.display()
            )),
            "{f:?}"
        );
    }
}

/// `mglint fetch --job-timeout`: the object still trickling when it runs out is named, the
/// rest is written, and the exit code says the job is not whole.
#[test]
fn fetch_job_timeout_flag_cuts_a_drip() {
    let tmp = tempfile::tempdir().unwrap();
    let server = job_server(100, tmp.path());
    let data = std::fs::read(tmp.path().join("job/finished.json")).unwrap();
    server.put(
        BUCKET,
        &format!("{JOB}/finished.json"),
        data,
        Behaviour::Drip(Duration::from_secs(30)),
    );
    let out = tmp.path().join("out");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["fetch", &job_url(), "--gcs-endpoint", &server.endpoint])
        .args(["--job-timeout", "1", "--timeout", "60", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error: `finished.json` could not be downloaded: ")
            && err.contains("not done when the job's time limit of 1.0s ran out"),
        "{err}"
    );
    assert!(out.join("prowjob.json").is_file());
}
