//! The seed fixtures read the same in every packaging a support engineer receives: a
//! directory, `.tar`, `.tar.gz`, `.tar.xz`, gzip data without an extension, a case-number
//! prefix and a nested `must-gather.local.*` wrapper inside another directory.

use crate::common;

use mglint::ingest::{IngestOptions, ingest};
use mglint::model::fmt_k8s;
use std::path::Path;
use std::process::Command;

/// What must be identical across packagings.
fn fingerprint(input: &Path) -> (String, usize, usize, usize, String, usize) {
    let b = ingest(
        &[input.to_str().unwrap().to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    assert!(
        b.diagnostics.is_empty(),
        "{}: {:?}",
        input.display(),
        b.diagnostics
    );
    let cv = b.cluster_version().expect("cluster version");
    let hist = cv
        .status
        .history
        .iter()
        .map(|h| {
            format!(
                "{}|{}|{:?}|{:?}",
                h.state,
                h.version,
                h.started_time.map(|t| fmt_k8s(&t)),
                h.completion_time.map(|t| fmt_k8s(&t))
            )
        })
        .collect::<Vec<_>>()
        .join(";");
    let records: usize = b.cvo_logs.iter().map(|l| l.records.len()).sum();
    (
        hist,
        b.objects.cluster_operators.len(),
        b.objects.nodes.len(),
        records,
        fmt_k8s(&b.collection_time().unwrap()),
        b.objects.events.len(),
    )
}

#[test]
fn seed_fixtures_in_every_packaging() {
    for fx in [
        "must-gather/seed1-blocked",
        "must-gather/seed1-returned",
        "must-gather/fixed-cvo-rejected-4.14",
    ] {
        let dir = common::fixture(fx);
        let want = fingerprint(&dir);
        let tmp = tempfile::tempdir().unwrap();
        let tar = common::tar_dir(&dir, "");
        let variants: Vec<(&str, Vec<u8>)> = vec![
            ("must-gather.tar", tar.clone()),
            ("must-gather.tar.gz", common::gzip(&tar)),
            ("must-gather.tar.xz", common::xz(&tar)),
            // gzip data whose name says nothing (support tooling renames attachments)
            ("02527285_must-gather-20200409_184102Z", common::gzip(&tar)),
            // gzip data named `.tar` (as the CI gather step writes it)
            ("artifacts-must-gather.tar", common::gzip(&tar)),
            // zip (Windows users, the customer portal) and zstd (newer must-gather compression)
            (
                "must-gather.zip",
                common::zip_files(&common::dir_files(&dir, "")),
            ),
            ("must-gather.tar.zst", common::zstd(&tar)),
            // two zstd frames, as `zstd -T` and `pzstd` write them
            ("must-gather.tar.zst-frames", {
                let (a, b) = tar.split_at(tar.len() / 2);
                [common::zstd(a), common::zstd(b)].concat()
            }),
            // a skippable frame first, as `pzstd` writes its frame index before each frame
            ("must-gather.tar.pzst", {
                let (a, b) = tar.split_at(tar.len() / 2);
                let (fa, fb) = (common::zstd(a), common::zstd(b));
                let skippable = |n: usize| {
                    let mut h = vec![0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0];
                    h.extend_from_slice(&(n as u32).to_le_bytes());
                    h
                };
                [skippable(fa.len()), fa, skippable(fb.len()), fb].concat()
            }),
            // a zip inside a gzip-compressed tar (an attachment of an attachment)
            (
                "case.tar.gz",
                common::gzip(&common::tar_files(&[(
                    "attachments/must-gather.zip".to_string(),
                    common::zip_files(&common::dir_files(&dir, "")),
                )])),
            ),
        ];
        for (name, bytes) in variants {
            let p = tmp.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            assert_eq!(fingerprint(&p), want, "{fx} as {name}");
        }
        // Nested: the must-gather.local.* wrapper inside another directory, as a customer
        // tarball of their home directory would have it.
        let nested = tmp.path().join("case-02527285");
        let inner = nested.join("home/core/collected");
        std::fs::create_dir_all(&inner).unwrap();
        let tar_nested = common::tar_dir(&dir, "home/core/collected");
        std::fs::write(nested.join("bundle.tar.gz"), common::gzip(&tar_nested)).unwrap();
        assert_eq!(
            fingerprint(&nested.join("bundle.tar.gz")),
            want,
            "{fx} nested in an archive"
        );
    }
}

/// The real `pzstd` (it starts the stream with a skippable frame, which used to make the
/// whole input "not a must-gather ... archive, or known file"): reads like the `.tar`.
#[test]
fn pzstd_archive_reads_like_its_tar() {
    let ci = std::env::var_os("CI").is_some_and(|v| v == "true");
    if std::process::Command::new("pzstd")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            !ci,
            "pzstd is missing (the zstd package); .ci/run installs it"
        );
        eprintln!("note: pzstd not installed; skipping");
        return;
    }
    let dir = common::fixture("must-gather/seed1-blocked");
    let tmp = tempfile::tempdir().unwrap();
    let tar = tmp.path().join("must-gather.tar");
    std::fs::write(&tar, common::tar_dir(&dir, "")).unwrap();
    let out = std::process::Command::new("pzstd")
        .args(["-q", "-p", "2", "-k"])
        .arg(&tar)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let zst = tmp.path().join("must-gather.tar.zst");
    let bytes = std::fs::read(&zst).unwrap();
    assert_eq!(
        &bytes[1..4],
        &[0x2a, 0x4d, 0x18],
        "pzstd starts with a skippable frame"
    );
    assert_eq!(fingerprint(&zst), fingerprint(&tar));
}

#[test]
fn seed1_blocked_facts() {
    let b = ingest(
        &[common::fixture("must-gather/seed1-blocked")
            .to_str()
            .unwrap()
            .to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    let cv = b.cluster_version().unwrap();
    assert_eq!(cv.status.desired.version, "4.3.11");
    assert_eq!(cv.status.history[0].state, "Partial");
    assert_eq!(cv.status.history[1].version, "4.3.10");
    assert_eq!(
        fmt_k8s(&cv.status.history[1].completion_time.unwrap()),
        "2020-04-09T18:00:34Z"
    );
    assert_eq!(b.objects.cluster_operators.len(), 12);
    assert!(
        b.objects
            .cluster_operators
            .iter()
            .all(|c| c.operator_version() == Some("4.3.10"))
    );
    let cur = b.cvo_logs.iter().find(|l| !l.is_previous()).unwrap();
    assert_eq!(cur.lines, 8537);
    assert!(
        b.cvo_logs
            .iter()
            .any(|l| l.is_previous() && l.records.is_empty())
    );
    assert_eq!(
        b.objects.cvo_pods[0].metadata.name,
        "cluster-version-operator-7bbc4c5dcc-w287k"
    );
    let s = mglint::summary::summarize(&b);
    assert_eq!(s.current_version.as_deref(), Some("4.3.10"));
    assert_eq!(s.desired.as_deref(), Some("4.3.11"));
    assert_eq!(
        s.cvo_logs
            .iter()
            .find(|l| !l.previous)
            .unwrap()
            .first
            .map(|t| mglint::vocab::time::fmt_k8s(&t))
            .as_deref(),
        Some("2020-04-09T17:38:45Z")
    );
}

#[test]
fn ci_jobs_both_layouts() {
    // Old layout (second seed): container-logs/test.log, nodes.json, must-gather dir.
    let b = ingest(
        &[common::fixture("ci/seed2-rollback-4.3")
            .to_str()
            .unwrap()
            .to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    assert_eq!(b.inputs[0].kind, mglint::bundle::InputKind::CiJob);
    let p = b.prow.as_ref().unwrap();
    assert_eq!(
        p.job,
        "release-openshift-origin-installer-e2e-aws-upgrade-rollback-4.3"
    );
    assert_eq!(p.build_id, "15");
    assert_eq!(p.target, "e2e-aws-upgrade");
    let wait = b
        .text_lines
        .iter()
        .find(|l| l.message.starts_with("Waiting up to 30m0s"))
        .unwrap();
    assert_eq!(fmt_k8s(&wait.time.unwrap()), "2019-09-27T21:42:28Z");
    assert_eq!(b.objects.nodes.len(), 6);
    assert!(!b.junit.is_empty());
    // Modern layout: gather-extra JSON (gzip without suffix), intervals, JUnit.
    let b = ingest(
        &[common::fixture("ci/modern-upgrade-4.14")
            .to_str()
            .unwrap()
            .to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    assert_eq!(b.intervals.len(), 67 + 7);
    assert!(b.intervals.iter().any(|i| i.reason == "UpgradeStarted"));
    assert_eq!(b.junit.len(), 17);
    assert!(!b.objects.events.is_empty());
    assert!(
        !b.cvo_logs.is_empty()
            && b.cvo_logs
                .iter()
                .all(|l| l.records.iter().all(|r| r.time.is_some()))
    );
}

/// GNU tar as the writer (what `oc adm must-gather` and support tooling run), in each of its
/// formats, with paths over 255 bytes (PAX records or GNU long names) and a sparse file (GNU
/// sparse headers, `--sparse`): the archive reads like the directory. Skipped, visibly, where
/// no GNU tar is installed.
#[test]
fn gnu_tar_in_every_format_reads_like_the_directory() {
    let gnu = Command::new("tar")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("GNU tar"));
    if !gnu {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no GNU tar, and CI=true: .ci/run installs it"
        );
        eprintln!("SKIPPED: no GNU tar on this machine");
        return;
    }
    let fx = common::fixture("must-gather/seed1-returned");
    let want = fingerprint(&fx);
    let tmp = tempfile::tempdir().unwrap();
    let deep = format!("case/{}/{}", "d".repeat(120), "e".repeat(120));
    let root = tmp.path().join("src").join(&deep);
    std::fs::create_dir_all(&root).unwrap();
    common::copy_tree(&fx, &root);
    // A 64 MiB file that is all hole, beside the must-gather.
    std::fs::File::create(tmp.path().join("src/case/core.sparse"))
        .unwrap()
        .set_len(64 << 20)
        .unwrap();
    for (format, sparse) in [
        ("gnu", false),
        ("gnu", true),
        ("oldgnu", true),
        ("pax", false),
        ("pax", true),
        ("posix", true),
    ] {
        let out = tmp.path().join(format!("mg-{format}-{sparse}.tar"));
        let mut cmd = Command::new("tar");
        cmd.arg(format!("--format={format}"));
        if sparse {
            cmd.arg("--sparse");
        }
        let st = cmd
            .arg("-cf")
            .arg(&out)
            .arg("-C")
            .arg(tmp.path().join("src"))
            .arg("case")
            .status()
            .unwrap();
        assert!(st.success(), "tar --format={format}");
        assert_eq!(fingerprint(&out), want, "--format={format} sparse={sparse}");
    }
}
