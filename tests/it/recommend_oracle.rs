//! `recommend` against oc itself: every form of every generated set in
//! `fixtures/oc/recommend/` (written by `scripts/oc-sets/recommend.py`; each output is what
//! oc's own recommend code printed for it through `../shared/tools/oc-oracle`) and of oc's own
//! five example sets in `../shared/corpus/oc-upgrade-recommend/`, byte for byte: standard
//! output, then (as the oracle records it) `"\nerror: " + message + "\n"` when oc ended with
//! an error; and standard error in `NAME.<form>.stderr`.
//!
//! The sets are read as oc's mock mode reads them (`RecommendInputs::oc_mock`: a missing
//! alerts file is "no test data" at the path oc derives); the corpus sets also from a
//! must-gather archive holding the same ClusterVersion and alerts.

use crate::common;
use mglint::recommend::{Options, RecommendInputs, plan, render_text};
use std::path::{Path, PathBuf};

fn name(set: &Path) -> String {
    set.file_name().unwrap().to_string_lossy().into_owned()
}

/// The generated sets, one directory each.
fn generated() -> Vec<PathBuf> {
    let v = common::set_dirs("oc/recommend");
    assert!(v.len() >= 40, "{} generated sets", v.len());
    v
}

/// One form of a set: its flags, and the file of oc's output.
struct Form {
    opts: Options,
    file: PathBuf,
}

/// Every form oc was run with for set `name` in `dir`: default, outdated, each version.
fn forms(dir: &Path, name: &str) -> Vec<Form> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let f = e.file_name().to_string_lossy().into_owned();
        let Some(form) = f.strip_prefix(&format!("{name}.")) else {
            continue;
        };
        let opts = if form == "output" {
            Options::default()
        } else if form == "show-outdated-releases-output" {
            Options {
                show_outdated: true,
                ..Options::default()
            }
        } else if let Some(v) = form
            .strip_prefix("version-")
            .and_then(|r| r.strip_suffix("-output"))
        {
            Options {
                version: Some(v.to_string()),
                ..Options::default()
            }
        } else {
            continue;
        };
        v.push(Form {
            opts,
            file: e.path(),
        });
    }
    v.sort_by(|a, b| a.file.cmp(&b.file));
    v
}

/// What the oracle writes for a run: stdout, then the error after a blank line; stderr.
fn oracle_form(inputs: &RecommendInputs, o: &Options) -> (String, String) {
    let a = render_text(&plan(inputs), o);
    let mut out = a.out;
    if let Some(e) = a.error {
        out.push_str(&format!("\nerror: {e}\n"));
    }
    (out, a.err)
}

fn inputs_of(files: &[PathBuf], name: &str) -> RecommendInputs {
    let files: Vec<String> = files
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let run = common::load(&files, &[]);
    let b = &run.analyses()[0].bundle;
    RecommendInputs::from_bundle(b)
        .unwrap()
        .oc_mock(&format!("examples/{name}-cv.yaml"))
}

/// The set's input files: `NAME-cv.yaml` and, when there, `NAME-alerts.json`,
/// `NAME-featuregate.yaml` and `NAME-infrastructure.yaml` (the files oc's mock mode reads).
fn set_files(dir: &Path, name: &str) -> Vec<PathBuf> {
    [
        format!("{name}-cv.yaml"),
        format!("{name}-alerts.json"),
        format!("{name}-featuregate.yaml"),
        format!("{name}-infrastructure.yaml"),
    ]
    .iter()
    .map(|f| dir.join(f))
    .filter(|p| p.exists())
    .collect()
}

/// Where a must-gather keeps the file of a set named `file`.
fn must_gather_path(file: &Path) -> String {
    let root = "must-gather.local.1/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123456789abcdef";
    let name = file.file_name().unwrap().to_string_lossy();
    let config = format!("{root}/cluster-scoped-resources/config.openshift.io");
    if name.ends_with("-cv.yaml") {
        format!("{config}/clusterversions/version.yaml")
    } else if name.ends_with("-featuregate.yaml") {
        format!("{config}/featuregates/cluster.yaml")
    } else if name.ends_with("-infrastructure.yaml") {
        format!("{config}/infrastructures/cluster.yaml")
    } else {
        format!("{root}/monitoring/alerts.json")
    }
}

/// The set's files in a must-gather archive (in `tmp`).
fn as_must_gather(files: &[PathBuf], tmp: &Path) -> PathBuf {
    let entries: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| (must_gather_path(f), std::fs::read(f).unwrap()))
        .collect();
    let archive = tmp.join("must-gather.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&entries))).unwrap();
    archive
}

/// The sets (one directory each) under `dir`, each named by its `-cv.yaml`.
fn newest_sets(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut v: Vec<(PathBuf, String)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| (e.path(), e.file_name().to_string_lossy().into_owned()))
        .filter(|(d, n)| d.join(format!("{n}-cv.yaml")).exists())
        .collect();
    v.sort();
    v
}

/// Every form of every set in `sets`, as loose files and as a must-gather archive.
fn compare_sets(sets: &[(PathBuf, String)]) -> (usize, Vec<String>) {
    let mut bad = Vec::new();
    let mut compared = 0;
    for (dir, n) in sets {
        let files = set_files(dir, n);
        let (k, b) = compare(
            dir,
            n,
            &inputs_of(&files, n),
            "loose files",
            Stderr::NotKept,
        );
        assert!(k >= 3, "{n}: only {k} forms");
        compared += k;
        bad.extend(b);
        let tmp = tempfile::tempdir().unwrap();
        let archive = as_must_gather(&files, tmp.path());
        let (k, b) = compare(
            dir,
            n,
            &inputs_of(&[archive], n),
            "must-gather archive",
            Stderr::NotKept,
        );
        compared += k;
        bad.extend(b);
    }
    (compared, bad)
}

/// oc's newest example sets (4.22.0 and 5.0.0: FeatureGate and Infrastructure inputs, the
/// `ClusterUpdateAcceptRisks` split between oc's alert checks and the CVO's risks, accepted
/// risks), from the corpus and the one kept in `fixtures/oc/newest/`.
#[test]
fn recommend_prints_what_oc_prints_on_its_newest_examples() {
    let mut sets = newest_sets(&common::fixture("oc/newest"));
    assert_eq!(sets.len(), 1, "{sets:?}");
    if let Some(corpus) = common::corpus() {
        let corpus_sets = newest_sets(&corpus.join("oc-newest/recommend"));
        assert_eq!(corpus_sets.len(), 3, "{corpus_sets:?}");
        sets.extend(corpus_sets);
    }
    let (compared, bad) = compare_sets(&sets);
    assert!(compared >= 6, "{compared} forms compared");
    assert!(
        bad.is_empty(),
        "{} of {compared} forms differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// What standard error is compared with: the oracle's record (`NAME.<form>.stderr`, absent
/// when empty), or nothing, for oc's newest example sets (oc's `examples_test.go` keeps
/// only standard output, and the 4.22.0 sets' NoChannel warning goes to standard error).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stderr {
    Recorded,
    NotKept,
}

/// Compares every form of set `name` in `dir`; the differences, one line each.
fn compare(
    dir: &Path,
    name: &str,
    inputs: &RecommendInputs,
    how: &str,
    stderr: Stderr,
) -> (usize, Vec<String>) {
    let mut bad = Vec::new();
    let all = forms(dir, name);
    for f in &all {
        let want = std::fs::read_to_string(&f.file).unwrap();
        let want_err =
            std::fs::read_to_string(format!("{}.stderr", f.file.display())).unwrap_or_default();
        let (out, err) = oracle_form(inputs, &f.opts);
        let form = f.file.file_name().unwrap().to_string_lossy().into_owned();
        if out != want {
            bad.push(format!(
                "{how} {form}: stdout differs\n--- oc\n{want}\n--- mglint\n{out}"
            ));
        }
        if stderr == Stderr::Recorded && err != want_err {
            bad.push(format!(
                "{how} {form}: stderr differs\n--- oc\n{want_err:?}\n--- mglint\n{err:?}"
            ));
        }
    }
    (all.len(), bad)
}

#[test]
fn recommend_prints_what_oc_prints_on_every_generated_set() {
    let mut bad = Vec::new();
    let mut compared = 0;
    for set in generated() {
        let n = name(&set);
        let inputs = inputs_of(&set_files(&set, &n), &n);
        let (k, b) = compare(&set, &n, &inputs, "loose files", Stderr::Recorded);
        assert!(k >= 3, "{n}: only {k} forms");
        compared += k;
        bad.extend(b);
    }
    assert!(compared >= 180, "{compared} forms compared");
    assert!(
        bad.is_empty(),
        "{} of {compared} forms differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// oc's five example sets, as loose files and as a must-gather archive.
#[test]
fn recommend_prints_what_oc_prints_on_its_own_examples() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let dir = corpus.join("oc-upgrade-recommend");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_string_lossy()
                .strip_suffix("-cv.yaml")
                .map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 5, "{names:?}");
    let mut bad = Vec::new();
    let mut compared = 0;
    for n in &names {
        let files = set_files(&dir, n);
        let (k, b) = compare(
            &dir,
            n,
            &inputs_of(&files, n),
            "loose files",
            Stderr::Recorded,
        );
        compared += k;
        bad.extend(b);
        // The same objects in a must-gather archive.
        let root = "must-gather.local.1/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123456789abcdef";
        let mut entries = vec![(
            format!(
                "{root}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
            ),
            std::fs::read(&files[0]).unwrap(),
        )];
        if let Some(alerts) = files.get(1) {
            entries.push((
                format!("{root}/monitoring/alerts.json"),
                std::fs::read(alerts).unwrap(),
            ));
        }
        let tmp = tempfile::tempdir().unwrap();
        let archive = tmp.path().join("must-gather.tar.gz");
        std::fs::write(&archive, common::gzip(&common::tar_files(&entries))).unwrap();
        let (k, b) = compare(
            &dir,
            n,
            &inputs_of(&[archive], n),
            "must-gather archive",
            Stderr::Recorded,
        );
        compared += k;
        bad.extend(b);
    }
    assert_eq!(compared, 30, "5 sets x 3 forms x 2 shapes");
    assert!(
        bad.is_empty(),
        "{} of {compared} forms differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
