//! Helpers shared by integration tests: locating the shared corpus (skipping when absent),
//! fixtures, and building archives of fixture directories in memory.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The crate root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/corpus`, or `None` (with a printed note) when it is absent.
pub fn corpus() -> Option<PathBuf> {
    let p = root().join("../shared/corpus");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("note: ../shared/corpus not found; skipping corpus-based test");
        None
    }
}

/// Every file under `dir` whose name ends with `suffix`.
pub fn find(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A fixture path.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("fixtures").join(rel)
}

/// Builds a tar archive (uncompressed) of a directory, with paths under `prefix`.
pub fn tar_dir(dir: &Path, prefix: &str) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    b.follow_symlinks(false);
    b.append_dir_all(prefix, dir).expect("tar fixture");
    b.into_inner().expect("tar finish")
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Unpacks a `.tar.xz` into a directory (tests only; mglint itself never extracts).
pub fn unpack_tar_xz(archive: &Path, dest: &Path) {
    let f = std::fs::File::open(archive).unwrap();
    let mut a = tar::Archive::new(liblzma::read::XzDecoder::new(f));
    a.unpack(dest).unwrap();
}

/// Runs the mglint binary.
pub fn mglint(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run mglint")
}

/// Builds a tar archive from (path, bytes) pairs, in the given order.
pub fn tar_files(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (p, data) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1_700_000_000);
        h.set_entry_type(tar::EntryType::Regular);
        b.append_data(&mut h, p, data.as_slice()).unwrap();
    }
    b.into_inner().unwrap()
}

/// Copies a directory tree (tests lay fixtures over each other in temp dirs).
pub fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// The UH003 failing must-gather (an update whose ClusterVersion is Failing with
/// `Cluster operator etcd is degraded`) copied into `dir` with that message replaced by
/// `message_yaml` (a whole `message: ...` YAML value); returns the copy's path.
pub fn failing_update_with_message(dir: &Path, message_yaml: &str) -> String {
    let to = dir.join("failing-update");
    std::fs::create_dir_all(&to).unwrap();
    copy_tree(&fixture("rules/UH003/fail"), &to);
    let mut stack = vec![to.clone()];
    let mut replaced = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "version.yaml") {
                let cv = std::fs::read_to_string(&p).unwrap();
                let new = cv.replace("message: Cluster operator etcd is degraded", message_yaml);
                assert_ne!(new, cv);
                std::fs::write(&p, new).unwrap();
                replaced += 1;
            }
        }
    }
    assert_eq!(replaced, 1);
    to.to_string_lossy().into_owned()
}

/// Loads inputs through the library's one entry point, with the given rule selection
/// (codes or prefixes; empty runs every rule).
///
/// An input named `mglint-rules` (a fixture convention) is not an input: it is a directory
/// of local known-issue rules, loaded as `--rules` would (without the bundled catalogue).
pub fn load(inputs: &[String], select: &[&str]) -> mglint::Run {
    let (rule_dirs, inputs): (Vec<String>, Vec<String>) = inputs
        .iter()
        .cloned()
        .partition(|i| i.ends_with("/mglint-rules"));
    let mut settings = mglint::Settings {
        selection: mglint::rules::Selection {
            select: select.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        },
        ..Default::default()
    };
    if !rule_dirs.is_empty() {
        let sources = mglint::rules::known::Sources {
            bundled: false,
            dirs: rule_dirs.iter().map(PathBuf::from).collect(),
        };
        settings.known = std::sync::Arc::new(mglint::rules::known::KnownSet::load(&sources));
        settings.rule_sources = sources;
    }
    mglint::app::load(&inputs, &settings).unwrap_or_else(|e| panic!("{inputs:?}: {e}"))
}

/// The report of [`load`].
pub fn report(inputs: &[String], select: &[&str]) -> mglint::rules::Report {
    load(inputs, select).analysis().report().clone()
}

/// Builds a zip archive (deflate) from (path, bytes) pairs, in the given order.
/// The set directories under `fixtures/<rel>` (one generated oracle set each), sorted.
pub fn set_dirs(rel: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(fixture(rel))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

pub fn zip_files(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (p, data) in files {
        w.start_file(p.as_str(), opts).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Every file under `dir` as (path relative to `dir` with `prefix`, bytes), in name order.
pub fn dir_files(dir: &Path, prefix: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&d).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                let rel = e
                    .path()
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .to_string();
                out.push((format!("{prefix}{rel}"), std::fs::read(e.path()).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// zstd-compresses `data` (one frame).
pub fn zstd(data: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}

use mglint::rules::Severity;

/// One Update Health insight as oc's detailed output prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OcInsight {
    pub level: Severity,
    pub kind: String,
    pub name: String,
    pub message: String,
}

/// The insights of oc's `--details=all` Update Health (none when it says the update is
/// proceeding well, or the cluster is not updating).
pub fn oc_insights(detailed: &str) -> Vec<OcInsight> {
    let Some(health) = detailed.split("= Update Health =\n").nth(1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for block in health
        .split("\n\nMessage: ")
        .map(|b| b.trim_start_matches("Message: "))
    {
        let message = block.lines().next().unwrap_or("").to_string();
        let level = match block
            .lines()
            .find_map(|l| l.trim().strip_prefix("Level:"))
            .map(str::trim)
        {
            Some("Error" | "Critical") => Severity::Error,
            Some("Warning") => Severity::Warning,
            _ => continue,
        };
        let mut in_resources = false;
        for l in block.lines() {
            if l.trim() == "Resources:" {
                in_resources = true;
                continue;
            }
            if in_resources {
                let Some((kind, names)) = l.trim().split_once(": ") else {
                    break;
                };
                if !l.starts_with("    ") {
                    break;
                }
                let kind = match kind {
                    "clusteroperators.config.openshift.io" => "ClusterOperator",
                    "clusterversions.config.openshift.io" => "ClusterVersion",
                    "nodes" => "Node",
                    "machineconfigpools.machineconfiguration.openshift.io" => "MachineConfigPool",
                    "alerts.config.openshift.io" => "Alert",
                    other => other,
                }
                .to_string();
                for n in names.split(", ") {
                    let name = n.rsplit('/').next().unwrap_or(n).to_string();
                    out.push(OcInsight {
                        level,
                        kind: kind.clone(),
                        name,
                        message: message.clone(),
                    });
                }
            }
        }
    }
    out
}

/// Where `report` disagrees with oc's Update Health `want` for the set `n`: an insight at
/// Error without an error finding on its object, one at Warning without a finding at warning
/// or above (both only when `each_insight` is set), and any ClusterOperator, Node or
/// MachineConfigPool finding above oc's level for that object.
pub fn disagreements_with_oc(
    n: &str,
    report: &mglint::rules::Report,
    want: &[OcInsight],
    each_insight: bool,
) -> Vec<String> {
    let mut bad = Vec::new();
    let level_of = |kind: &str, name: &str| {
        want.iter()
            .filter(|i| i.kind == kind && i.name == name)
            .map(|i| i.level)
            .max()
    };
    if each_insight {
        for i in want {
            let found = report.findings.iter().any(|f| {
                f.object.kind == i.kind && f.object.name == i.name && f.severity >= i.level
            });
            if !found {
                bad.push(format!(
                    "{n}: oc {:?} `{}` on {}/{}: no finding at that level",
                    i.level, i.message, i.kind, i.name
                ));
            }
        }
    }
    for f in &report.findings {
        if !matches!(
            f.object.kind.as_str(),
            "ClusterOperator" | "Node" | "MachineConfigPool"
        ) || f.severity < Severity::Warning
        {
            continue;
        }
        let oc_level = level_of(&f.object.kind, &f.object.name);
        if oc_level.is_none_or(|l| f.severity > l) {
            bad.push(format!(
                "{n}: {} {} on {}/{} but oc says {:?}: {}",
                f.code, f.severity, f.object.kind, f.object.name, oc_level, f.message
            ));
        }
    }
    bad
}

/// `fixtures/files/cv-healthy-4.14.yaml` (a healthy 4.14 ClusterVersion) with its cluster ID
/// replaced by `id`: the same status, another cluster.
pub fn healthy_cv_of_cluster(id: &str) -> String {
    let cv = std::fs::read_to_string(fixture("files/cv-healthy-4.14.yaml")).unwrap();
    let own = cv
        .lines()
        .find_map(|l| l.trim().strip_prefix("clusterID: "))
        .expect("the fixture has a cluster ID")
        .trim()
        .to_string();
    cv.replace(&own, id)
}

/// Whether the heavy tests run: browsers, memory and time bounds, stress and thread-count
/// comparisons over every fixture. `CI=true` or `MGLINT_TEST_ALL=1` (which `.ci/run` sets) runs
/// them; a plain `cargo test` skips each with a note, so it stays quick on a laptop.
pub fn heavy(test: &str) -> bool {
    let on = |k: &str, v: &str| std::env::var(k).is_ok_and(|x| x == v);
    if on("CI", "true") || on("MGLINT_TEST_ALL", "1") {
        return true;
    }
    eprintln!("note: {test} is a heavy test; skipping (CI=true or MGLINT_TEST_ALL=1 runs it)");
    false
}

/// Runs a Python `script` that needs the PyPI package `module` (which `.ci/run` installs) on
/// `arg`, returning its stdout; `None` with a note when the package is not installed, which
/// fails under `CI=true`. A script that fails otherwise fails the test.
pub fn python_with(module: &str, script: &str, arg: &Path) -> Option<String> {
    let o = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(arg)
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&o.stderr);
    if err.contains(&format!("No module named '{module}'")) {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{module} missing under CI (.ci/run installs it)"
        );
        eprintln!("note: the Python package {module} is not installed; skipping");
        return None;
    }
    assert!(o.status.success(), "{module}: {err}");
    Some(String::from_utf8(o.stdout).unwrap())
}

/// Makes a FIFO at `p` with the system's `mkfifo` (an input that would block a reader
/// forever): whether it was made.
pub fn mkfifo(p: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .is_ok_and(|s| s.success())
}

/// `n` bytes no compressor can shrink (xorshift 13/7/17 from `seed`).
pub fn noise(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}
