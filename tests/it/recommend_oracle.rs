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

/// The set's input files: `NAME-cv.yaml` and, when there, `NAME-alerts.json`.
fn set_files(dir: &Path, name: &str) -> Vec<PathBuf> {
    [format!("{name}-cv.yaml"), format!("{name}-alerts.json")]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.exists())
        .collect()
}

/// Compares every form of set `name` in `dir`; the differences, one line each.
fn compare(dir: &Path, name: &str, inputs: &RecommendInputs, how: &str) -> (usize, Vec<String>) {
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
        if err != want_err {
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
        let (k, b) = compare(&set, &n, &inputs, "loose files");
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
        let (k, b) = compare(&dir, n, &inputs_of(&files, n), "loose files");
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
        let (k, b) = compare(&dir, n, &inputs_of(&[archive], n), "must-gather archive");
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
