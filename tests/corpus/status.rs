//! `mglint status` against `oc adm upgrade status`'s own golden outputs (the nine example
//! sets in `../shared/corpus/oc-upgrade-status/`): every set, default and `--details=all`,
//! (a) from the loose files named one by one, (b) from a must-gather archive built here with
//! one file per object, (c) with every RFC 3339 time in the inputs shifted by 400 days and
//! 3 hours (absolute times in the output shift alike; durations do not change). Outputs must
//! match byte for byte, trailing blanks aside; a mismatch prints a diff.
//!
//! Also the real must-gathers (`../shared/corpus/must-gathers/*.tar.xz`): a not-updating
//! verdict, and JSON that validates against `docs/schemas/status.schema.json`.

use crate::common;

use mglint::ingest::{IngestOptions, ingest};
use mglint::status::{Details, StatusInputs, assess, render_json, render_text};
use std::path::{Path, PathBuf};

/// The example sets in the corpus.
pub fn examples_dir(c: &Path) -> PathBuf {
    c.join("oc-upgrade-status")
}

const SUFFIXES: [&str; 7] = [
    "-cv.yaml",
    "-co.yaml",
    "-mcp.yaml",
    "-mc.yaml",
    "-node.yaml",
    "-alerts.json",
    "-mco-deployment.yaml",
];

/// The input files of a set that exist.
pub fn loose_files(dir: &Path, set: &str) -> Vec<PathBuf> {
    SUFFIXES
        .iter()
        .map(|s| dir.join(format!("{set}{s}")))
        .filter(|p| p.is_file())
        .collect()
}

fn status_text(inputs: &[String], details: Details) -> String {
    let bundle = ingest(inputs, &IngestOptions::default()).expect("ingest");
    let inputs = StatusInputs::from_bundle(&bundle, None).expect("status inputs");
    let a = assess(&inputs).expect("assess");
    render_text(&a, details)
}

fn trim_lines(s: &str) -> Vec<&str> {
    s.lines().map(str::trim_end).collect()
}

/// Fails with a line diff unless the texts are equal, trailing blanks aside.
fn assert_same(expected: &str, actual: &str, what: &str) {
    let (e, a) = (trim_lines(expected), trim_lines(actual));
    if e == a && expected.ends_with('\n') == actual.ends_with('\n') {
        return;
    }
    let mut diff = String::new();
    let n = e.len().max(a.len());
    for i in 0..n {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => diff.push_str(&format!("  {x}\n")),
            (x, y) => {
                if let Some(x) = x {
                    diff.push_str(&format!("- {x}\n"));
                }
                if let Some(y) = y {
                    diff.push_str(&format!("+ {y}\n"));
                }
            }
        }
    }
    panic!("{what}: output differs from oc's (- expected, + actual):\n{diff}");
}

fn golden(dir: &Path, set: &str, details: Details) -> String {
    let ext = if details == Details::All {
        "detailed-output"
    } else {
        "output"
    };
    std::fs::read_to_string(dir.join(format!("{set}.{ext}"))).expect("golden output")
}

fn loose(c: &Path, set: &str, details: Details) {
    let dir = examples_dir(c);
    let inputs: Vec<String> = loose_files(&dir, set)
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    assert_same(
        &golden(&dir, set, details),
        &status_text(&inputs, details),
        set,
    );
}

/// Every file of a set, as it is in the corpus (inputs and golden outputs), copied into a
/// fresh directory: what a support engineer gets when a customer attaches a folder.
pub fn set_directory(c: &Path, set: &str) -> tempfile::TempDir {
    let dir = examples_dir(c);
    let tmp = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let ours = name
            .strip_prefix(set)
            .is_some_and(|rest| rest.starts_with('-') || rest.starts_with('.'))
            && SUFFIXES.iter().any(|s| name == format!("{set}{s}"))
            || name == format!("{set}.output")
            || name == format!("{set}.detailed-output");
        if ours {
            std::fs::copy(e.path(), tmp.path().join(&name)).unwrap();
        }
    }
    tmp
}

/// The set's files in one directory, the directory named as the input.
fn directory(c: &Path, set: &str, details: Details) {
    let dir = examples_dir(c);
    let tmp = set_directory(c, set);
    let inputs = vec![tmp.path().to_string_lossy().to_string()];
    assert_same(
        &golden(&dir, set, details),
        &status_text(&inputs, details),
        set,
    );
}

/// The sets' names (for other modules' tests over every set).
pub fn set_names() -> Vec<&'static str> {
    sets().collect()
}

const IMAGE_DIR: &str = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-5b9aa0d1c1f6c4e3d8f1b7a0e2c9d4f6a8b3c5e7d9f1a2b4c6d8e0f1a3b5c7d9";

/// Where a must-gather keeps an object of this kind.
fn must_gather_path(kind: &str, name: &str) -> Option<String> {
    let dir = match kind {
        "ClusterVersion" => "cluster-scoped-resources/config.openshift.io/clusterversions",
        "ClusterOperator" => "cluster-scoped-resources/config.openshift.io/clusteroperators",
        "Node" => "cluster-scoped-resources/core/nodes",
        "MachineConfigPool" => {
            "cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigpools"
        }
        "MachineConfig" => {
            "cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigs"
        }
        "Deployment" => "namespaces/openshift-machine-config-operator/apps/deployments",
        _ => return None,
    };
    Some(format!("{dir}/{name}.yaml"))
}

/// A must-gather (tar.gz, in memory) with one YAML file per object of the set, the alerts
/// as `monitoring/alerts.json`, and no `timestamp` file (so "now" comes from the data).
fn must_gather(dir: &Path, set: &str) -> Vec<u8> {
    let root = format!("must-gather.local.5180893014437563411/{IMAGE_DIR}");
    let mut files = vec![(
        format!("{root}/version"),
        b"openshift/must-gather\n4.16.0\n".to_vec(),
    )];
    for f in loose_files(dir, set) {
        let text = std::fs::read_to_string(&f).unwrap();
        if f.to_string_lossy().ends_with("-alerts.json") {
            files.push((format!("{root}/monitoring/alerts.json"), text.into_bytes()));
            continue;
        }
        let (docs, _) = mglint::yaml::values_multi(&text).unwrap();
        for doc in docs {
            let items = match doc.get("items").and_then(|i| i.as_array()) {
                Some(items) => items.clone(),
                None => vec![doc],
            };
            for item in items {
                let kind = item["kind"].as_str().unwrap_or_default();
                let name = item["metadata"]["name"].as_str().unwrap_or_default();
                let path = must_gather_path(kind, name).unwrap_or_else(|| panic!("kind {kind}"));
                let yaml = mglint::yaml::to_string(&item).unwrap();
                files.push((format!("{root}/{path}"), yaml.into_bytes()));
            }
        }
    }
    common::gzip(&common::tar_files(&files))
}

fn archived(c: &Path, set: &str, details: Details) {
    let dir = examples_dir(c);
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("must-gather.tar.gz");
    std::fs::write(&archive, must_gather(&dir, set)).unwrap();
    let inputs = vec![archive.to_string_lossy().to_string()];
    assert_same(
        &golden(&dir, set, details),
        &status_text(&inputs, details),
        set,
    );
}

/// 400 days and 3 hours.
const SHIFT_SECS: i64 = (400 * 24 + 3) * 3600;

/// Shifts every RFC 3339 timestamp in `text` by [`SHIFT_SECS`], keeping its fraction digits.
fn shift_times(text: &str) -> String {
    let re =
        regex::Regex::new(r"\b(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})")
            .unwrap();
    re.replace_all(text, |c: &regex::Captures| {
        let t = mglint::model::parse_rfc3339(&c[0]).expect("timestamp");
        let t = t + chrono::TimeDelta::seconds(SHIFT_SECS);
        let frac = c.get(2).map_or("", |m| m.as_str());
        let nanos = format!("{:09}", t.timestamp_subsec_nanos());
        let frac = if frac.is_empty() {
            String::new()
        } else {
            format!(".{}", &nanos[..frac.len() - 1])
        };
        format!("{}{frac}Z", t.format("%Y-%m-%dT%H:%M:%S"))
    })
    .into_owned()
}

fn shifted(c: &Path, set: &str, details: Details) {
    let dir = examples_dir(c);
    let tmp = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    for f in loose_files(&dir, set) {
        let text = std::fs::read_to_string(&f).unwrap();
        let out = tmp.path().join(f.file_name().unwrap());
        std::fs::write(&out, shift_times(&text)).unwrap();
        inputs.push(out.to_string_lossy().to_string());
    }
    let expected = shift_times(&golden(&dir, set, details));
    assert_same(&expected, &status_text(&inputs, details), set);
}

/// The example sets, by test name.
const NAMED_SETS: &[(&str, &str)] = &[
    ("degraded_4_14_1", "4.14.1-degraded"),
    ("paused_worker_pool_4_14_1", "4.14.1-paused-worker-pool"),
    (
        "workers_started_updating_multiple_pools_4_14_1",
        "4.14.1-workers-started-updating-multiple-pools",
    ),
    (
        "cos_not_annotated_4_15_0_ec2_b02",
        "4.15.0-ec2-b02-cos-not-annotated",
    ),
    ("early_4_15_0_ec2", "4.15.0-ec2-early"),
    (
        "unavailable_mco_20m_4_15_0_ec2",
        "4.15.0-ec2-unavailable-mco-20m",
    ),
    ("compact_4_16_0", "4.16.0-compact"),
    ("no_version_upgrading", "no-version-upgrading"),
    ("not_upgrading", "not-upgrading"),
];

/// The example set names.
fn sets() -> impl Iterator<Item = &'static str> {
    NAMED_SETS.iter().map(|(_, s)| *s)
}

/// One test per set, form and output: 9 sets × (loose, directory, must-gather, shifted) ×
/// (output, detailed output), plus the checks below.
pub fn tests() -> Vec<crate::DynTest> {
    type Form = fn(&Path, &str, Details);
    let forms: [(&str, Form); 4] = [
        ("loose", loose),
        ("directory", directory),
        ("must_gather", archived),
        ("shifted", shifted),
    ];
    let mut out: Vec<crate::DynTest> = Vec::new();
    for (name, set) in NAMED_SETS.iter().copied() {
        for (form, f) in forms {
            for (out_name, details) in
                [("output", Details::None), ("detailed_output", Details::All)]
            {
                out.push((
                    format!("{name}::{form}_{out_name}"),
                    Box::new(move |c: &Path| f(c, set, details)),
                ));
            }
        }
    }
    for (name, f) in TESTS.iter().copied() {
        out.push((name.to_string(), Box::new(f)));
    }
    out
}

pub fn time_shift_keeps_fraction_digits(_: &Path) {
    assert_eq!(
        shift_times("a: \"2023-11-03T14:43:55Z\" b: 2023-11-24T15:43:23.156620559Z"),
        "a: \"2024-12-07T17:43:55Z\" b: 2024-12-28T18:43:23.156620559Z"
    );
}

/// The JSON schema of `mglint/status/v2`.
fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(common::root().join("docs/schemas/status.schema.json"))
        .expect("schema file");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&schema).expect("schema compiles")
}

fn assert_valid(v: &jsonschema::Validator, json: &str, what: &str) {
    let doc: serde_json::Value = serde_json::from_str(json).expect("status JSON parses");
    let errors: Vec<String> = v
        .iter_errors(&doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: JSON does not match the schema:\n{}",
        errors.join("\n")
    );
}

/// The JSON of every example set validates, and says what the text says.
pub fn examples_json_validates_against_the_schema(c: &Path) {
    let dir = examples_dir(c);
    let v = validator();
    for set in sets() {
        let inputs: Vec<String> = loose_files(&dir, set)
            .iter()
            .map(|p| p.to_string_lossy().to_string())
            .collect();
        let bundle = ingest(&inputs, &IngestOptions::default()).unwrap();
        let a = assess(&StatusInputs::from_bundle(&bundle, None).unwrap()).unwrap();
        let json = render_json(&a, mglint::vocab::text::JsonLayout::Pretty);
        assert_valid(&v, &json, set);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(doc["schema"], "mglint/status/v2");
        assert_eq!(doc["now_source"], "latest-condition");
        let not_updating = golden(&dir, set, Details::None) == "The cluster is not updating.\n";
        assert_eq!(doc["updating"], !not_updating, "{set}");
    }
}

/// `--details=nodes|health|operators` expand only their section: each equals the default
/// output with that section taken from oc's `--details=all` output (no example pool has
/// more than ten nodes, so `nodes` changes nothing here).
pub fn each_details_value_expands_only_its_section(c: &Path) {
    let dir = examples_dir(c);
    let split = |s: &str| -> (String, String) {
        match s.find("= Update Health =") {
            Some(i) => (s[..i].to_string(), s[i..].to_string()),
            None => (s.to_string(), String::new()),
        }
    };
    for set in sets() {
        let inputs: Vec<String> = loose_files(&dir, set)
            .iter()
            .map(|p| p.to_string_lossy().to_string())
            .collect();
        let (plain_top, plain_health) = split(&golden(&dir, set, Details::None));
        let (all_top, all_health) = split(&golden(&dir, set, Details::All));
        let cases = [
            (Details::Nodes, format!("{plain_top}{plain_health}")),
            (Details::Health, format!("{plain_top}{all_health}")),
            (Details::Operators, format!("{all_top}{plain_health}")),
        ];
        for (details, expected) in cases {
            let what = format!("{set} --details={details:?}");
            assert_same(&expected, &status_text(&inputs, details), &what);
        }
    }
}

/// The real must-gathers (healthy fresh installs): not updating, the install completed,
/// "now" from the collection time, and JSON that validates.
pub fn real_must_gathers_are_not_updating(c: &Path) {
    let dir = c.join("must-gathers");
    let v = validator();
    let mut seen = 0;
    let mut archives: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".tar.xz"))
        .collect();
    archives.sort();
    for archive in archives {
        seen += 1;
        let what = archive.display().to_string();
        let bundle = ingest(std::slice::from_ref(&what), &IngestOptions::default()).unwrap();
        assert!(
            !bundle.objects.machine_configs.is_empty(),
            "{what}: no MachineConfig read"
        );
        assert!(
            !bundle.objects.mco_deployments.is_empty(),
            "{what}: no MCO Deployment read"
        );
        let inputs = StatusInputs::from_bundle(&bundle, None).unwrap();
        assert_eq!(
            inputs.now.source,
            mglint::status::NowSource::CollectionTime,
            "{what}"
        );
        let a = assess(&inputs).unwrap();
        assert_eq!(
            render_text(&a, Details::All),
            "The cluster is not updating.\n",
            "{what}"
        );
        let json = render_json(&a, mglint::vocab::text::JsonLayout::Pretty);
        assert_valid(&v, &json, &what);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(doc["updating"], false, "{what}");
        assert_eq!(doc["control_plane"]["assessment"], "Completed", "{what}");
        assert_eq!(doc["control_plane"]["kind"], "install", "{what}");
        let md = mglint::status::render_markdown(&a);
        assert!(
            md.contains("**The cluster is not updating.**"),
            "{what}:\n{md}"
        );
        // Every node is in a pool and runs the installed release.
        let pools = [&doc["control_plane_nodes"]]
            .into_iter()
            .chain(doc["worker_pools"].as_array().unwrap());
        for p in pools {
            for n in p["nodes"].as_array().unwrap() {
                assert_eq!(n["assessment"], "Completed", "{what}: {n}");
            }
        }
    }
    assert!(seen > 0, "no must-gather archive in {}", dir.display());
}

/// The binary prints oc's text on stdout and the "now" it used on stderr.
pub fn cli_prints_oc_text_and_says_which_now(c: &Path) {
    let dir = examples_dir(c);
    let set = "4.15.0-ec2-early";
    let files: Vec<String> = loose_files(&dir, set)
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    let mut args = vec!["status", "--details", "all"];
    args.extend(files.iter().map(String::as_str));
    let out = common::mglint(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_same(
        &golden(&dir, set, Details::All),
        &String::from_utf8_lossy(&out.stdout),
        "cli",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("note: now = ")
            && stderr.contains("(latest condition transition + 368975 ns)"),
        "{stderr}"
    );
    // An explicit --now wins and is reported.
    args.extend(["--now", "2023-12-01T00:00:00Z", "--format", "json"]);
    let out = common::mglint(&args);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["now"], "2023-12-01T00:00:00.000Z");
    assert_eq!(doc["now_source"], "override");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("note: now = 2023-12-01T00:00:00.000000000Z (given with --now)")
    );
}

const TESTS: &[crate::CorpusTest] = &[
    (
        "time_shift_keeps_fraction_digits",
        time_shift_keeps_fraction_digits,
    ),
    (
        "examples_json_validates_against_the_schema",
        examples_json_validates_against_the_schema,
    ),
    (
        "each_details_value_expands_only_its_section",
        each_details_value_expands_only_its_section,
    ),
    (
        "real_must_gathers_are_not_updating",
        real_must_gathers_are_not_updating,
    ),
    (
        "cli_prints_oc_text_and_says_which_now",
        cli_prints_oc_text_and_says_which_now,
    ),
];
