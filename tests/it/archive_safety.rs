//! Hostile archives: path traversal, absolute paths, links pointing outside, device files,
//! duplicate names, decompression bombs, deep nesting. mglint reads them in memory, reports
//! what it skipped, and writes nothing anywhere.

use crate::common;

use mglint::ingest::{IngestOptions, ingest};
use mglint::model::Severity;
use mglint::source::SourceOptions;
use std::path::Path;

const CV: &str = "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nstatus:\n  history:\n  - state: Completed\n    version: 4.14.8\n    image: quay.io/openshift-release-dev/ocp-release@sha256:aaaa\n    startedTime: \"2024-01-10T10:00:00Z\"\n    completionTime: \"2024-01-10T10:40:00Z\"\n";
const CV_PATH: &str =
    "mg/img/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml";

/// A raw tar header with any name bytes (the tar crate refuses `..` through its safe API).
fn raw_entry(out: &mut Vec<u8>, name: &str, kind: u8, link: &str, data: &[u8]) {
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name.as_bytes());
    h[100..107].copy_from_slice(b"0000644");
    h[108..115].copy_from_slice(b"0000000");
    h[116..123].copy_from_slice(b"0000000");
    let size = format!("{:011o}", data.len());
    h[124..135].copy_from_slice(size.as_bytes());
    h[136..147].copy_from_slice(b"14500000000");
    h[156] = kind;
    h[157..157 + link.len()].copy_from_slice(link.as_bytes());
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|b| *b as u32).sum();
    h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    out.extend_from_slice(&h);
    out.extend_from_slice(data);
    out.resize(out.len().div_ceil(512) * 512, 0);
}

fn finish(mut out: Vec<u8>) -> Vec<u8> {
    out.extend_from_slice(&[0u8; 1024]);
    out
}

fn list_files(dir: &Path) -> Vec<String> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        v.push(e.file_name().to_string_lossy().to_string());
        if e.file_type().unwrap().is_dir() {
            v.extend(list_files(&e.path()));
        }
    }
    v
}

#[test]
fn hostile_entries_are_skipped_and_nothing_is_written() {
    let work = tempfile::tempdir().unwrap();
    let mut tar = Vec::new();
    raw_entry(
        &mut tar,
        "../../escaped/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
        b'0',
        "",
        CV.as_bytes(),
    );
    raw_entry(
        &mut tar,
        "/abs/cluster-scoped-resources/core/nodes/n.yaml",
        b'0',
        "",
        b"kind: Node\nmetadata:\n  name: n\n",
    );
    raw_entry(
        &mut tar,
        "mg/img/cluster-scoped-resources/config.openshift.io/clusteroperators/etcd.yaml",
        b'2',
        "/etc/passwd",
        b"",
    );
    raw_entry(
        &mut tar,
        "mg/img/cluster-scoped-resources/config.openshift.io/clusteroperators/dns.yaml",
        b'1',
        "../../outside",
        b"",
    );
    raw_entry(
        &mut tar,
        "mg/img/cluster-scoped-resources/core/nodes/dev.yaml",
        b'3',
        "",
        b"",
    );
    raw_entry(
        &mut tar,
        "mg/img/timestamp",
        b'0',
        "",
        b"2024-01-10 12:00:00.1 +0000 UTC m=+0.01\n",
    );
    raw_entry(
        &mut tar,
        "mg/img/timestamp",
        b'0',
        "",
        b"2024-01-10 12:05:00.1 +0000 UTC m=+0.01\n",
    );
    let archive = work.path().join("input.tar");
    std::fs::write(&archive, finish(tar)).unwrap();
    let run_dir = work.path().join("cwd");
    let home = work.path().join("home");
    std::fs::create_dir_all(&run_dir).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["summary", "--format", "json", archive.to_str().unwrap()])
        .current_dir(&run_dir)
        .env("HOME", &home)
        .env("TMPDIR", &home)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The traversal entry is read in memory under its normalised name; never written.
    assert_eq!(v["history"][0]["version"], "4.14.8");
    let unread = v["unread"].as_array().unwrap();
    let reasons: Vec<String> = unread
        .iter()
        .map(|u| format!("{} {}", u["path"], u["reason"]))
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("etcd.yaml") && r.contains("link or special file")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("dns.yaml") && r.contains("link or special file")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("dev.yaml") && r.contains("link or special file")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("timestamp") && r.contains("duplicate entry")),
        "{reasons:?}"
    );
    assert_eq!(
        v["collection_times"].as_array().unwrap().len(),
        1,
        "only the later duplicate is used"
    );
    // Nothing was created: not in the working dir, HOME, TMPDIR, nor next to the archive.
    assert!(list_files(&run_dir).is_empty());
    assert!(list_files(&home).is_empty());
    let mut left = list_files(work.path());
    left.sort();
    assert_eq!(left, vec!["cwd", "home", "input.tar"]);
    assert!(!work.path().join("escaped").exists() && !Path::new("/abs").exists());
}

#[test]
fn gzip_bomb_entry_hits_the_file_cap() {
    let d = tempfile::tempdir().unwrap();
    let zeros = vec![0u8; 64 << 20];
    let tar = common::tar_files(&[
        (CV_PATH.to_string(), CV.as_bytes().to_vec()),
        (
            "mg/img/namespaces/openshift-cluster-version/core/events.yaml".to_string(),
            zeros,
        ),
    ]);
    let gz = common::gzip(&tar);
    assert!(gz.len() < 1 << 20, "a bomb: {} bytes compressed", gz.len());
    let p = d.path().join("bomb.tar.gz");
    std::fs::write(&p, gz).unwrap();
    let opts = IngestOptions {
        source: SourceOptions {
            max_file_bytes: 8 << 20,
            ..SourceOptions::default()
        },
    };
    let b = ingest(&[p.to_str().unwrap().to_string()], &opts).unwrap();
    assert_eq!(b.objects.cluster_versions.len(), 1);
    let d = b
        .diagnostics
        .iter()
        .find(|d| d.prov.file.path().ends_with("events.yaml"))
        .expect("cap diagnostic");
    assert!(d.reason.contains("byte cap"), "{}", d.reason);
}

#[test]
fn xz_bomb_archive_hits_the_total_cap() {
    let d = tempfile::tempdir().unwrap();
    let tar = common::tar_files(&[
        (CV_PATH.to_string(), CV.as_bytes().to_vec()),
        (
            "mg/img/namespaces/openshift-etcd/pods/etcd-0/etcd/etcd/logs/current.log".to_string(),
            vec![b'a'; 48 << 20],
        ),
    ]);
    let p = d.path().join("bomb.tar.xz");
    std::fs::write(&p, common::xz(&tar)).unwrap();
    let opts = IngestOptions {
        source: SourceOptions {
            max_archive_bytes: 16 << 20,
            ..SourceOptions::default()
        },
    };
    let b = ingest(&[p.to_str().unwrap().to_string()], &opts).unwrap();
    assert_eq!(
        b.objects.cluster_versions.len(),
        1,
        "entries before the cap are kept"
    );
    assert!(
        b.diagnostics
            .iter()
            .any(|d| d.level == Severity::Error && d.reason.contains("cap reached")),
        "{:?}",
        b.diagnostics
    );
}

#[test]
fn nesting_is_bounded() {
    let d = tempfile::tempdir().unwrap();
    // must-gather.tar inside must-gather.tar ... five levels deep, CV at the bottom.
    let mut inner = common::tar_files(&[(CV_PATH.to_string(), CV.as_bytes().to_vec())]);
    for _ in 0..5 {
        inner = common::tar_files(&[(
            "artifacts/gather-must-gather/artifacts/must-gather.tar".to_string(),
            common::gzip(&inner),
        )]);
    }
    let p = d.path().join("deep.tar");
    std::fs::write(&p, &inner).unwrap();
    let err = ingest(
        &[p.to_str().unwrap().to_string()],
        &IngestOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("nested deeper than 3 levels"),
        "{err}"
    );
    // Two levels are fine.
    let mut inner = common::tar_files(&[(CV_PATH.to_string(), CV.as_bytes().to_vec())]);
    for _ in 0..2 {
        inner = common::tar_files(&[(
            "artifacts/gather-must-gather/artifacts/must-gather.tar".to_string(),
            common::gzip(&inner),
        )]);
    }
    std::fs::write(&p, &inner).unwrap();
    let b = ingest(
        &[p.to_str().unwrap().to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    assert_eq!(b.objects.cluster_versions.len(), 1);
    assert!(
        b.objects.cluster_versions[0]
            .prov
            .file
            .path()
            .contains("must-gather.tar::"),
        "{}",
        b.objects.cluster_versions[0].prov.file.path()
    );
}

#[cfg(unix)]
#[test]
fn directory_symlinks_and_fifos_are_not_followed() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("mg");
    let cvdir = root.join("img/cluster-scoped-resources/config.openshift.io/clusterversions");
    std::fs::create_dir_all(&cvdir).unwrap();
    std::fs::write(cvdir.join("version.yaml"), CV).unwrap();
    // A loop: img/namespaces -> .. ; and a FIFO where a log should be.
    std::os::unix::fs::symlink("..", root.join("img/loop")).unwrap();
    let logs = root.join("img/namespaces/openshift-cluster-version/pods/cluster-version-operator-1/cluster-version-operator/cluster-version-operator/logs");
    std::fs::create_dir_all(&logs).unwrap();
    let fifo = logs.join("current.log");
    let made = common::mkfifo(&fifo);
    let b = ingest(
        &[root.to_str().unwrap().to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    assert_eq!(b.objects.cluster_versions.len(), 1);
    if made {
        assert!(
            b.diagnostics
                .iter()
                .any(|d| d.prov.file.path().ends_with("current.log")
                    && d.reason.contains("not a regular file")),
            "{:?}",
            b.diagnostics
        );
    }
}

/// A PAX extended header (`x`) carrying `size`.
fn pax_size(out: &mut Vec<u8>, size: usize) {
    let rec = |len: usize| format!("{len} size={size}\n");
    // The record's length counts its own digits.
    let mut len = rec(0).len();
    while rec(len).len() != len {
        len = rec(len).len();
    }
    raw_entry(out, "PaxHeaders/x", b'x', "", rec(len).as_bytes());
}

#[test]
fn an_oversized_entry_sized_by_pax_is_skipped_and_the_archive_goes_on() {
    // ustar size 0, real size in a PAX record (what tar writes for large files): it used to
    // bypass the size check, be read up to the cap, and stop the archive there.
    let d = tempfile::tempdir().unwrap();
    let big = vec![b'x'; 64 << 10];
    let mut tar = Vec::new();
    pax_size(&mut tar, big.len());
    let mut entry = Vec::new();
    raw_entry(
        &mut entry,
        "mg/img/namespaces/openshift-cluster-version/core/events.yaml",
        b'0',
        "",
        &big,
    );
    // Zero the ustar size field and fix the checksum.
    entry[124..135].copy_from_slice(b"00000000000");
    entry[148..156].copy_from_slice(b"        ");
    let sum: u32 = entry[..512].iter().map(|b| *b as u32).sum();
    entry[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    tar.extend_from_slice(&entry);
    raw_entry(&mut tar, CV_PATH, b'0', "", CV.as_bytes());
    let p = d.path().join("pax.tar");
    std::fs::write(&p, finish(tar)).unwrap();
    let opts = IngestOptions {
        source: SourceOptions {
            max_file_bytes: 16 << 10,
            ..SourceOptions::default()
        },
    };
    let b = ingest(&[p.to_str().unwrap().to_string()], &opts).unwrap();
    assert_eq!(
        b.objects.cluster_versions.len(),
        1,
        "the entry after the oversized one was lost: {:?}",
        b.diagnostics.iter().map(|d| &d.reason).collect::<Vec<_>>()
    );
    let d = b
        .diagnostics
        .iter()
        .find(|d| d.prov.file.path().ends_with("events.yaml"))
        .expect("cap diagnostic");
    assert!(
        d.reason
            .contains("65536 bytes, more than the 16384 byte cap; skipped"),
        "{}",
        d.reason
    );
}

#[test]
fn many_duplicate_entries_keep_the_last_copy() {
    // 20k copies of one wanted entry: each used to scan every file kept so far.
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for i in 0..20_000 {
        let cv = CV.replace("4.14.8", &format!("4.14.{i}"));
        files.push((CV_PATH.to_string(), cv.into_bytes()));
    }
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("dups.tar");
    std::fs::write(&p, common::tar_files(&files)).unwrap();
    let b = ingest(
        &[p.to_str().unwrap().to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    assert_eq!(b.objects.cluster_versions.len(), 1);
    assert_eq!(
        b.objects.cluster_versions[0].status.history[0].version,
        "4.14.19999"
    );
    let dups: Vec<_> = b
        .diagnostics
        .iter()
        .filter(|d| d.reason.contains("duplicate entry"))
        .collect();
    assert_eq!(dups.len(), 1, "one collapsed warning");
    assert!(dups[0].reason.contains("19999 times"), "{}", dups[0].reason);
}

/// A tar of the one good ClusterVersion, with its end blocks.
fn cv_tar() -> Vec<u8> {
    let mut t = Vec::new();
    raw_entry(&mut t, CV_PATH, b'0', "", CV.as_bytes());
    finish(t)
}

/// The same after 300 KB of a file mglint does not read: more than the reader looks at
/// ahead, so the compressed stream's end is not reached while the tar is read.
fn big_cv_tar() -> Vec<u8> {
    let mut t = Vec::new();
    let filler: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
    raw_entry(
        &mut t,
        "mg/img/namespaces/x/pods/p/c/c/logs/other.bin",
        b'0',
        "",
        &filler,
    );
    raw_entry(&mut t, CV_PATH, b'0', "", CV.as_bytes());
    finish(t)
}

#[test]
fn formats_mglint_does_not_read_are_named() {
    // By magic bytes, whatever the file is called: bzip2, 7z, lz4 (frame and legacy),
    // LZMA-alone and a v7 tar (no ustar magic) each get their name, not "not a must-gather".
    let mut v7 = cv_tar();
    v7[257..265].fill(0); // no magic, no version: the pre-POSIX header
    v7[148..156].copy_from_slice(b"        ");
    let sum: u32 = v7[..512].iter().map(|b| *b as u32).sum();
    v7[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    let mut lzma = vec![0x5d, 0x00, 0x00, 0x80, 0x00];
    lzma.extend_from_slice(&[0xff; 8]);
    lzma.extend_from_slice(&[0x00, 0x21, 0x1b, 0x49, 0x8a]);
    let cases: [(&str, Vec<u8>, &str); 6] = [
        (
            "mg.tar.bz2",
            b"BZh91AY&SY\x12\x34\x56\x78rest".to_vec(),
            "bzip2",
        ),
        ("mg.7z", b"7z\xbc\xaf\x27\x1c\x00\x04rest".to_vec(), "7z"),
        (
            "mg.tar.lz4",
            b"\x04\x22\x4d\x18\x64\x40\xa7rest".to_vec(),
            "lz4",
        ),
        ("old.lz4", b"\x02\x21\x4c\x18rest".to_vec(), "lz4"),
        ("mg.tar.lzma", lzma, "lzma"),
        ("mg.tar", v7, "v7 tar"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, data, what) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, data).unwrap();
        let out = common::mglint(&["summary", p.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(&format!("unsupported format: {what}")),
            "{name}: {err}"
        );
    }
}

/// Ingests `data` as an archive named `name`, checks that its one ClusterVersion was read,
/// and gives the errors reported.
fn errors_of_one_cv_archive(name: &str, data: Vec<u8>) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, data).unwrap();
    let b = ingest(
        &[p.to_str().unwrap().to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    assert_eq!(b.objects.cluster_versions.len(), 1, "{name}");
    b.diagnostics
        .iter()
        .filter(|d| d.level == Severity::Error)
        .map(|d| d.reason.clone())
        .collect()
}

#[test]
fn corrupt_compressed_data_after_the_tar_end_is_reported() {
    // The tar ends before the compressed stream does: the gzip CRC and the xz padding are only
    // checked when the stream is read to its end. The archive is still read.
    let mut gz = common::gzip(&big_cv_tar());
    let crc = gz.len() - 8;
    gz[crc] ^= 0xff;
    let mut xz = common::xz(&big_cv_tar());
    xz.extend_from_slice(&[0, 0, 0]); // stream padding must be a multiple of four bytes
    for (name, data) in [("mg.tar.gz", gz), ("mg.tar.xz", xz)] {
        let errs = errors_of_one_cv_archive(name, data);
        assert!(
            errs.iter()
                .any(|e| e.starts_with("corrupt data after the end of the tar archive")),
            "{name}: {errs:?}"
        );
    }
}

/// A ustar header of type `kind` declaring `size` bytes (the data is written by the caller).
fn header_only(out: &mut impl std::io::Write, name: &str, kind: u8, size: u64) {
    let mut h = Vec::new();
    raw_entry(&mut h, name, kind, "", b"");
    h[124..135].copy_from_slice(format!("{size:011o}").as_bytes());
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h[..512].iter().map(|b| *b as u32).sum();
    h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    out.write_all(&h[..512]).unwrap();
}

/// `n` bytes of `byte`, then the padding to the next block.
fn filler(out: &mut impl std::io::Write, byte: u8, n: u64) {
    let chunk = vec![byte; 1 << 20];
    let mut left = n;
    while left > 0 {
        let k = left.min(chunk.len() as u64) as usize;
        out.write_all(&chunk[..k]).unwrap();
        left -= k as u64;
    }
    out.write_all(&vec![0u8; ((512 - n % 512) % 512) as usize])
        .unwrap();
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn huge_extension_headers_are_streamed_and_the_rest_is_analyzed() {
    if !crate::common::heavy("huge_extension_headers_are_streamed_and_the_rest_is_analyzed") {
        return;
    }
    // A PAX header holding a 600 MiB record and a 100 KiB path, and a 600 MiB GNU long name,
    // in a `.tar.gz` of a few MB: the tar crate read each whole (RSS past the limit); now neither
    // is held, each named entry is reported, and the ClusterVersion after them is analyzed.
    use flate2::{Compression, write::GzEncoder};
    use std::io::Write;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("ext.tar.gz");
    let mut gz = GzEncoder::new(
        std::io::BufWriter::new(std::fs::File::create(&p).unwrap()),
        Compression::fast(),
    );
    let big: u64 = 600 << 20;
    let path = format!("mg/img/{}", "p".repeat(100 << 10));
    let prefix = " comment=";
    let body = prefix.len() as u64 + big + 1;
    let mut len = body + 1;
    while format!("{len}").len() as u64 + body != len {
        len = format!("{len}").len() as u64 + body;
    }
    let path_rec = {
        let body = " path=".len() + path.len() + 1;
        let mut l = body + 1;
        while format!("{l}").len() + body != l {
            l = format!("{l}").len() + body;
        }
        format!("{l} path={path}\n")
    };
    header_only(&mut gz, "PaxHeaders/x", b'x', len + path_rec.len() as u64);
    gz.write_all(format!("{len}{prefix}").as_bytes()).unwrap();
    let mut chunk = vec![b'c'; 1 << 20];
    let mut left = big;
    while left > 0 {
        let k = left.min(chunk.len() as u64) as usize;
        gz.write_all(&chunk[..k]).unwrap();
        left -= k as u64;
    }
    chunk.clear();
    gz.write_all(b"\n").unwrap();
    gz.write_all(path_rec.as_bytes()).unwrap();
    let written = len + path_rec.len() as u64;
    gz.write_all(&vec![0u8; ((512 - written % 512) % 512) as usize])
        .unwrap();
    header_only(&mut gz, "short", b'0', 3);
    filler(&mut gz, b'1', 3);
    header_only(&mut gz, "././@LongLink", b'L', big);
    filler(&mut gz, b'n', big);
    header_only(&mut gz, "short", b'0', 3);
    filler(&mut gz, b'2', 3);
    let mut t = Vec::new();
    raw_entry(&mut t, CV_PATH, b'0', "", CV.as_bytes());
    gz.write_all(&finish(t)).unwrap();
    gz.finish().unwrap().flush().unwrap();
    let packed = std::fs::metadata(&p).unwrap().len();
    assert!(packed < 32 << 20, "{packed} bytes");

    let out = super::robust_bounds::limited_json(512 << 20, "analyze", &p);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{:?}: {stderr}",
        out.status
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = r["findings"].as_array().unwrap();
    let reasons: Vec<&str> = findings
        .iter()
        .map(|f| f["message"].as_str().unwrap_or_default())
        .collect();
    for want in [
        "archive entry name: PAX path of 102407 bytes, longer than the 65536 byte bound; skipped",
        "archive entry name: GNU long name of 629145600 bytes, longer than the 65536 byte bound; skipped",
    ] {
        assert!(
            reasons.iter().any(|r| r.contains(want)),
            "{want}: {reasons:?}"
        );
    }
    assert!(
        findings
            .iter()
            .any(|f| f["object"]["kind"].as_str() == Some("ClusterVersion")),
        "the ClusterVersion after the headers is analyzed: {reasons:?}"
    );
}

/// Zips inside zips are held in memory to be read by their central directory when the chain
/// together fits in `--max-file-bytes`; when it does not, the inner one is read as it streams
/// (from its local headers), so nothing is lost and memory stays bounded.
#[test]
fn nested_zips_share_one_memory_bound() {
    let cv = std::fs::read(common::fixture("rules/CV005/pass/clusterversion.yaml")).unwrap();
    // Incompressible padding, so each level is as large as what it holds.
    let pad = common::noise(300_000, 0x2545_f491_4f6c_dd1d);
    let inner = common::zip_files(&[
        ("clusterversion.yaml".to_string(), cv),
        ("pad.bin".to_string(), pad),
    ]);
    let mid = common::zip_files(&[("inner.zip".to_string(), inner)]);
    let outer = common::zip_files(&[("mid.zip".to_string(), mid)]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("case.zip");
    std::fs::write(&file, outer).unwrap();
    let f = file.to_str().unwrap();
    // Room for every level: the ClusterVersion is read.
    let o = common::mglint(&["summary", f, "--max-file-bytes", "4000000"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("4.14"), "{out}");
    // Room for one level at a time, not for the chain: the innermost zip is streamed, and
    // its ClusterVersion read all the same.
    let o = common::mglint(&["summary", f, "--max-file-bytes", "500000"]);
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("4.14"), "{out}");
    assert!(!out.contains("error"), "{out}");
}

/// The same under an address-space limit, at a size where the old per-level bound let the
/// chain hold three times `--max-file-bytes`: three nested stored zips of 150 MB each with a
/// 200 MB bound run in 512 MiB; the levels past what may be held are streamed, and the
/// ClusterVersion beside the padding in the innermost is read.
#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn a_chain_of_large_stored_zips_stays_under_the_bound_under_prlimit() {
    if !crate::common::heavy("a_chain_of_large_stored_zips_stays_under_the_bound_under_prlimit") {
        return;
    }
    use std::io::Write;
    let stored = |name: &str, data: &[u8]| {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .large_file(true);
        w.start_file(name, opts).unwrap();
        w.write_all(data).unwrap();
        w.finish().unwrap().into_inner()
    };
    let pad = common::noise(150_000_000, 0x9e37_79b9_7f4a_7c15);
    let inner = {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .large_file(true);
        w.start_file("pad.bin", opts).unwrap();
        w.write_all(&pad).unwrap();
        w.start_file("clusterversion.yaml", opts).unwrap();
        w.write_all(
            &std::fs::read(common::fixture("rules/CV005/pass/clusterversion.yaml")).unwrap(),
        )
        .unwrap();
        w.finish().unwrap().into_inner()
    };
    drop(pad);
    let mid = stored("inner.zip", &inner);
    drop(inner);
    let outer = stored("mid.zip", &mid);
    drop(mid);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chain.zip");
    std::fs::write(&file, outer).unwrap();
    let out = super::robust_bounds::limited(
        512 << 20,
        &[
            "summary",
            "-j",
            "1",
            file.to_str().unwrap(),
            "--max-file-bytes",
            "200000000",
        ],
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.code().is_some(),
        "killed: {:?}: {text}",
        out.status
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("4.14"), "the ClusterVersion is read: {text}");
}

#[test]
fn an_xz_block_whose_data_does_not_match_its_check_is_reported() {
    // Incompressible bytes are stored as they are in an xz block, so a byte flipped among
    // them passes the LZMA2 decoder and only the block's CRC64 check can see it: the check
    // is computed (with the CPU's carry-less multiply where it has one) and a mismatch is an
    // error, not silently read data.
    let noise = common::noise(200_000, 0x9e37_79b9_7f4a_7c15);
    let mut t = Vec::new();
    raw_entry(&mut t, CV_PATH, b'0', "", CV.as_bytes());
    raw_entry(&mut t, "mg/img/namespaces/x/noise.bin", b'0', "", &noise);
    let tar = finish(t);
    let good = common::xz(&tar);
    let mut bad = good.clone();
    let probe = &noise[100_000..100_032];
    let at = bad
        .windows(probe.len())
        .position(|w| w == probe)
        .expect("incompressible bytes are stored verbatim");
    bad[at + 7] ^= 0x01;
    for (name, data, damaged) in [("good.tar.xz", good, false), ("bad.tar.xz", bad, true)] {
        let errs = errors_of_one_cv_archive(name, data);
        assert_eq!(!errs.is_empty(), damaged, "{name}: {errs:?}");
    }
}
