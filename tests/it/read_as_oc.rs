//! Files read as oc reads them (issue #58), against oc's own outputs in `fixtures/oc/`
//! (what oc's status and recommend code printed for each set, through
//! `../shared/tools/oc-oracle`): a set changed in a way oc reads the same must print oc's
//! output for the unchanged set; a change oc refuses must print oc's refusal, with the reason
//! in the words Go's `encoding/json` uses (each cited below).

use crate::common;
use mglint::recommend::{Options, RecommendInputs, plan, render_text};
use mglint::status::{Details, StatusInputs, assess};
use std::path::{Path, PathBuf};

/// What PowerShell 5's `>` writes: a byte order mark, then UTF-16 code units.
fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian {
        vec![0xfe, 0xff]
    } else {
        vec![0xff, 0xfe]
    };
    for u in text.encode_utf16() {
        out.extend_from_slice(&if big_endian {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        });
    }
    out
}

fn set(kind: &str, name: &str) -> PathBuf {
    common::fixture(&format!("oc/{kind}/{name}"))
}

/// The set's input files (`NAME-*.yaml`, `NAME-*.json`), as (file name, text).
fn set_inputs(dir: &Path, name: &str) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let f = e.file_name().to_string_lossy().into_owned();
            (f.starts_with(&format!("{name}-")) && (f.ends_with(".yaml") || f.ends_with(".json")))
                .then(|| (f, std::fs::read_to_string(e.path()).unwrap()))
        })
        .collect();
    v.sort();
    v
}

/// Writes the files into a new directory; their paths.
fn write_all(dir: &Path, files: &[(String, Vec<u8>)]) -> Vec<String> {
    files
        .iter()
        .map(|(f, bytes)| {
            let p = dir.join(f);
            std::fs::write(&p, bytes).unwrap();
            p.to_string_lossy().into_owned()
        })
        .collect()
}

fn status_output(files: &[String]) -> Result<String, String> {
    status_output_at(files, Details::None)
}

fn status_output_at(files: &[String], details: Details) -> Result<String, String> {
    let run = common::load(files, &[]);
    let b = &run.analyses()[0].bundle;
    let mut i = StatusInputs::from_bundle(b, None).map_err(|e| e.to_string())?;
    i.oc_mock = true;
    let a = assess(&i).map_err(|e| e.to_string())?;
    Ok(mglint::status::render_text(&a, details))
}

/// What the oracle records for a recommend run: standard output, then the error.
fn recommend_output(files: &[String], name: &str) -> String {
    let run = common::load(files, &[]);
    let b = &run.analyses()[0].bundle;
    let inputs = RecommendInputs::from_bundle(b)
        .unwrap()
        .oc_mock(&format!("examples/{name}-cv.yaml"));
    let a = render_text(&plan(&inputs), &Options::default());
    let mut out = a.out;
    if let Some(e) = a.error {
        out.push_str(&format!("\nerror: {e}\n"));
    }
    out
}

#[test]
fn status_reads_yaml_saved_on_windows_as_oc_reads_it() {
    // apimachinery's YAML reader (`yaml.NewYAMLOrJSONDecoder`, through `utf16.BOMOverride`)
    // reads UTF-16 with a byte order mark, and a UTF-8 mark, as the same text.
    for (name, how) in [
        ("alerts-critical-during-update", "utf-16le"),
        ("baseline-update", "utf-16be"),
        ("nodes-workers-updating", "utf-8 bom"),
    ] {
        let dir = set("status", name);
        let want = std::fs::read_to_string(dir.join(format!("{name}.output"))).unwrap();
        let files: Vec<(String, Vec<u8>)> = set_inputs(&dir, name)
            .into_iter()
            .map(|(f, text)| {
                let bytes = if !f.ends_with(".yaml") {
                    text.into_bytes()
                } else if how == "utf-16le" {
                    utf16(&text, false)
                } else if how == "utf-16be" {
                    utf16(&text, true)
                } else {
                    [b"\xef\xbb\xbf".as_slice(), text.as_bytes()].concat()
                };
                (f, bytes)
            })
            .collect();
        let tmp = tempfile::tempdir().unwrap();
        let got = status_output(&write_all(tmp.path(), &files))
            .unwrap_or_else(|e| panic!("{name} ({how}): {e}"));
        assert_eq!(got, want, "{name} ({how})");
    }
}

#[test]
fn a_cvo_log_saved_as_utf16_reads_as_the_same_log() {
    let log = common::fixture("files/cvo-4.3-blocked-raw.log");
    let text = std::fs::read_to_string(&log).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let utf8 = write_all(tmp.path(), &[("a.log".into(), text.clone().into_bytes())]);
    let le = write_all(tmp.path(), &[("b.log".into(), utf16(&text, false))]);
    let records = |f: &[String]| {
        let run = common::load(f, &[]);
        let b = &run.analyses()[0].bundle;
        b.cvo_logs
            .iter()
            .flat_map(|l| l.records.iter().map(|r| (r.time, r.message.to_string())))
            .collect::<Vec<_>>()
    };
    let (a, b) = (records(&utf8), records(&le));
    assert!(a.len() > 10, "{} records", a.len());
    assert_eq!(a, b);
}

#[test]
fn a_file_in_another_encoding_is_refused_naming_the_reason() {
    let dir = set("status", "baseline-update");
    let cv = std::fs::read_to_string(dir.join("baseline-update-cv.yaml")).unwrap();
    let mut bomless = utf16(&cv, false);
    bomless.drain(..2);
    let tmp = tempfile::tempdir().unwrap();
    let files = write_all(tmp.path(), &[("cv.yaml".into(), bomless)]);
    let out = common::mglint(&["analyze", &files[0]]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cv.yaml") && err.contains("UTF-16 without a byte order mark"),
        "{err}"
    );
}

/// The alerts of recommend set `alerts-critical`, changed by `edit`, with its ClusterVersion.
fn recommend_with_alerts(edit: impl Fn(&str) -> Vec<u8>) -> String {
    let name = "alerts-critical";
    let dir = set("recommend", name);
    let inputs = set_inputs(&dir, name);
    let files: Vec<(String, Vec<u8>)> = inputs
        .into_iter()
        .map(|(f, t)| {
            let b = if f.ends_with("-alerts.json") {
                edit(&t)
            } else {
                t.into_bytes()
            };
            (f, b)
        })
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    recommend_output(&write_all(tmp.path(), &files), name)
}

fn oc_recommend(name: &str) -> String {
    std::fs::read_to_string(set("recommend", name).join(format!("{name}.output"))).unwrap()
}

/// oc's output when the alerts could not be parsed, with Go's reason.
fn oc_refusal(reason: &str) -> String {
    oc_recommend("alerts-file-malformed").replace("unexpected end of JSON input", reason)
}

#[test]
fn alerts_keys_match_as_go_matches_them() {
    // encoding/json: "preferring an exact match but also accepting a case-insensitive
    // match"; a later key for the same field overwrites the earlier one.
    let got = recommend_with_alerts(|t| {
        t.replace("\"labels\"", "\"Labels\"")
            .replace(
                "\"severity\": \"critical\"",
                "\"severity\": \"warning\", \"SEVERITY\": \"critical\"",
            )
            .into_bytes()
    });
    assert_eq!(got, oc_recommend("alerts-critical"));
}

#[test]
fn alerts_values_oc_ignores_or_repairs_do_not_stop_it() {
    // An unknown label of any type is skipped; a lone surrogate escape is U+FFFD ("invalid
    // UTF-16 surrogate pairs are not treated as an error"); `null` leaves a field unset.
    let got = recommend_with_alerts(|t| {
        t.replace(
            "\"reason\": \"UpdatingPrometheusFailed\"",
            "\"reason\": \"UpdatingPrometheus\\ud800Failed\", \"port\": 9100, \"up\": true, \"pod\": null",
        )
        .into_bytes()
    });
    assert_eq!(got, oc_recommend("alerts-critical"));
}

#[test]
fn alerts_go_refuses_are_refused_with_gos_reason() {
    // A wrong JSON type for a field oc's struct has fails the whole decode (UnmarshalTypeError).
    let numeric_value = recommend_with_alerts(|t| {
        t.replacen("\"annotations\"", "\"value\": 1, \"annotations\"", 1)
            .into_bytes()
    });
    assert_eq!(
        numeric_value,
        oc_refusal(
            "json: cannot unmarshal number into Go struct field Alert.data.alerts.value of type string"
        )
    );
    let numeric_severity = recommend_with_alerts(|t| {
        t.replace("\"severity\": \"critical\"", "\"severity\": 2")
            .into_bytes()
    });
    assert_eq!(
        numeric_severity,
        oc_refusal(
            "json: cannot unmarshal number into Go struct field AlertLabels.data.alerts.labels.severity of type string"
        )
    );
    // A byte order mark is a character no JSON value starts with.
    let bom = recommend_with_alerts(|t| [b"\xef\xbb\xbf".as_slice(), t.as_bytes()].concat());
    assert_eq!(
        bom,
        oc_refusal("invalid character 'ï' looking for beginning of value")
    );
}

#[test]
fn alerts_documents_without_an_alerts_array_have_none_firing() {
    // `{}` and an error response (`data: null`) decode to no alerts: oc finds nothing firing.
    let want = oc_recommend("alerts-none-firing");
    let name = "alerts-none-firing";
    let dir = set("recommend", name);
    for doc in [
        "{}",
        r#"{"status":"error","errorType":"unavailable","error":"no data","data":null}"#,
    ] {
        let files: Vec<(String, Vec<u8>)> = set_inputs(&dir, name)
            .into_iter()
            .map(|(f, t)| {
                if f.ends_with("-alerts.json") {
                    (f, doc.as_bytes().to_vec())
                } else {
                    (f, t.into_bytes())
                }
            })
            .collect();
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(
            recommend_output(&write_all(tmp.path(), &files), name),
            want,
            "{doc}"
        );
    }
}

#[test]
fn rules_responses_keep_mglints_own_reading() {
    // The must-gather's `monitoring/` rules file (`/api/v1/rules`): oc never reads that shape;
    // mglint takes the alerts nested in its rule groups (a documented choice).
    let tmp = tempfile::tempdir().unwrap();
    let rules = r#"{"status":"success","data":{"groups":[{"name":"g","rules":[{"name":"r","alerts":[{"labels":{"alertname":"KubeNodeNotReady","severity":"warning"},"state":"firing","activeAt":"2024-05-01T10:00:00Z","value":"1e+00"}]}]}]}}"#;
    let files = write_all(tmp.path(), &[("rules.json".into(), rules.into())]);
    let run = common::load(&files, &[]);
    let alerts = run.analyses()[0].bundle.merged_alerts().unwrap();
    assert_eq!(alerts.len(), 1);
    assert_eq!(alerts[0].label("alertname"), "KubeNodeNotReady");
}

#[test]
fn yaml_1_1_booleans_in_bool_fields_read_as_oc_reads_them() {
    // oc's universal decoder turns YAML into JSON with sigs.k8s.io/yaml (go-yaml v2, YAML
    // 1.1), where a plain `yes` is true: `paused: yes` is a paused pool to oc.
    let mut compared = 0;
    for (name, from, to) in [
        ("pool-paused-outdated", "paused: true", "paused: yes"),
        ("pool-custom-infra-paused", "paused: true", "paused: On"),
        ("pool-paused-outdated", "paused: false", "paused: off"),
    ] {
        let dir = set("status", name);
        let want = std::fs::read_to_string(dir.join(format!("{name}.output"))).unwrap();
        let mut changed = false;
        let files: Vec<(String, Vec<u8>)> = set_inputs(&dir, name)
            .into_iter()
            .map(|(f, t)| {
                if f.ends_with("-mcp.yaml") && t.contains(from) {
                    changed = true;
                    (f, t.replace(from, to).into_bytes())
                } else {
                    (f, t.into_bytes())
                }
            })
            .collect();
        assert!(changed, "{name}: no `{from}` to change");
        compared += 1;
        let tmp = tempfile::tempdir().unwrap();
        let got = status_output(&write_all(tmp.path(), &files))
            .unwrap_or_else(|e| panic!("{name} ({to}): {e}"));
        assert_eq!(got, want, "{name} ({to})");
    }
    assert_eq!(compared, 3);
}

/// An object of a status set as the Insights operator writes it: JSON without `kind`.
fn insights_json(yaml: &str) -> Vec<u8> {
    let (docs, _) = mglint::yaml::values_multi(yaml).unwrap();
    let mut v = docs.into_iter().next().unwrap();
    if let Some(items) = v.get("items").and_then(|i| i.as_array()) {
        v = items[0].clone();
    }
    let m = v.as_object_mut().unwrap();
    m.remove("kind");
    m.remove("apiVersion");
    serde_json::to_vec(&v).unwrap()
}

#[test]
fn the_older_insights_layout_gives_its_cluster_version() {
    // Insights archives before 4.5 name their records without an extension: the
    // ClusterVersion is `config/version`, which must not be taken for a must-gather's version
    // marker (content before name); `conditional/namespaces/…` holds pod logs, no must-gather.
    let dir = set("status", "baseline-update");
    let cv = std::fs::read_to_string(dir.join("baseline-update-cv.yaml")).unwrap();
    let co = std::fs::read_to_string(dir.join("baseline-update-co.yaml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("insights-2020-03-01-101010");
    let log_dir = root.join("conditional/namespaces/openshift-monitoring/pods/p/c/logs");
    std::fs::create_dir_all(root.join("config/clusteroperator")).unwrap();
    std::fs::create_dir_all(&log_dir).unwrap();
    std::fs::write(root.join("config/version"), insights_json(&cv)).unwrap();
    std::fs::write(
        root.join("config/id"),
        "0e7b0f5a-0000-4000-8000-000000000000",
    )
    .unwrap();
    std::fs::write(
        root.join("config/clusteroperator/authentication"),
        insights_json(&co),
    )
    .unwrap();
    std::fs::write(log_dir.join("current.log"), "a log line\n").unwrap();
    let run = common::load(&[root.to_string_lossy().into_owned()], &[]);
    let b = &run.analyses()[0].bundle;
    let got = b
        .cluster_version()
        .expect("a ClusterVersion from config/version");
    assert!(!got.value.status.history.is_empty());
    assert_eq!(b.cluster_operators().len(), 1);
    assert!(
        b.inputs.iter().all(|i| i.must_gather_roots.is_empty()),
        "{:?}",
        b.inputs[0].must_gather_roots
    );
    // A file named `version` anywhere is read by its content too.
    let loose = tmp.path().join("saved");
    std::fs::create_dir_all(loose.join("cluster")).unwrap();
    std::fs::write(loose.join("cluster/version"), &cv).unwrap();
    let run = common::load(&[loose.to_string_lossy().into_owned()], &[]);
    assert!(run.analyses()[0].bundle.cluster_version().is_some());
}

#[test]
fn a_year_taken_from_the_file_time_is_a_note_not_a_partial_read() {
    // A raw `oc logs` file of 2020 has no year in its lines and nothing else in the input
    // does: the year comes from the file's modification time. Every line was read: that is
    // no IN002 "file-partially-read" (a warning), but a note the summary lists.
    let log = common::fixture("files/cvo-4.3-blocked-raw.log");
    let inputs = [log.to_string_lossy().into_owned()];
    let report = common::report(&inputs, &[]);
    let in002: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.code == "IN002")
        .collect();
    assert!(in002.is_empty(), "{in002:?}");
    let run = common::load(&inputs, &[]);
    let b = &run.analyses()[0].bundle;
    assert!(
        b.diagnostics
            .iter()
            .any(|d| d.reason.contains("modification time")
                && d.level == mglint::model::Severity::Info),
        "{:?}",
        b.diagnostics
    );
}

#[test]
fn a_missing_operator_version_points_at_the_empty_version() {
    let tmp = tempfile::tempdir().unwrap();
    let co = "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: insights\nstatus:\n  conditions:\n  - type: Available\n    status: \"True\"\n    lastTransitionTime: \"2024-05-01T10:00:00Z\"\n  versions:\n  - name: operator\n    version: \"\"\n";
    let files = write_all(tmp.path(), &[("co.yaml".into(), co.into())]);
    let report = common::report(&files, &["CO006"]);
    let f = report
        .findings
        .iter()
        .find(|f| f.code == "CO006")
        .expect("a CO006 finding");
    assert_eq!(f.evidence[0].line, Some(12), "{:?}", f.evidence[0]);
    assert!(
        f.evidence[0].text.contains("version: \"\""),
        "{:?}",
        f.evidence[0]
    );
}

#[test]
fn status_details_quote_as_gos_percent_q() {
    // oc prints a node's condition reason and message with `%q` (strconv.Quote), which
    // escapes what IsPrint rejects: tag characters (Cf), unassigned code points, other
    // format characters; a printable non-ASCII letter stays as it is.
    let name = "node-notready-6m";
    let dir = set("status", name);
    let plain = "Kubelet stopped posting node status.";
    let odd = "Kubelet\u{e0041}\u{e007f} stopped \u{0378}posting\u{200b} node status é.";
    let quoted = "Kubelet\\U000e0041\\U000e007f stopped \\u0378posting\\u200b node status é.";
    let want = std::fs::read_to_string(dir.join(format!("{name}.detailed-output")))
        .unwrap()
        .replace(
            &format!("message \"{plain}\""),
            &format!("message \"{quoted}\""),
        );
    assert!(want.contains(quoted));
    let files: Vec<(String, Vec<u8>)> = set_inputs(&dir, name)
        .into_iter()
        .map(|(f, t)| {
            if f.ends_with("-node.yaml") {
                (f, t.replace(plain, odd).into_bytes())
            } else {
                (f, t.into_bytes())
            }
        })
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let got = status_output_at(&write_all(tmp.path(), &files), Details::All).unwrap();
    assert_eq!(got, want);
}

#[test]
fn a_component_must_gather_is_refused_in_words_that_are_true() {
    // A CNV must-gather: nodes and pools under cluster-scoped-resources, no ClusterVersion.
    let dir = set("status", "nodes-workers-updating");
    let read =
        |f: &str| std::fs::read_to_string(dir.join(format!("nodes-workers-updating-{f}"))).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("must-gather.local.1/registry-redhat-io-container-native-virtualization-cnv-must-gather-rhel9-sha256-0a1b");
    let csr = root.join("cluster-scoped-resources");
    std::fs::create_dir_all(csr.join("core")).unwrap();
    std::fs::create_dir_all(csr.join("machineconfiguration.openshift.io")).unwrap();
    std::fs::create_dir_all(root.join("namespaces/openshift-cnv/kubevirt.io")).unwrap();
    std::fs::write(csr.join("core/nodes.yaml"), read("node.yaml")).unwrap();
    std::fs::write(
        csr.join("machineconfiguration.openshift.io/machineconfigpools.yaml"),
        read("mcp.yaml"),
    )
    .unwrap();
    std::fs::write(
        root.join("namespaces/openshift-cnv/kubevirt.io/kubevirts.yaml"),
        "apiVersion: v1\nkind: List\nitems: []\n",
    )
    .unwrap();
    let input = tmp.path().join("must-gather.local.1");
    let run = common::load(&[input.to_string_lossy().into_owned()], &[]);
    let b = &run.analyses()[0].bundle;
    let e = StatusInputs::from_bundle(b, None).unwrap_err().to_string();
    assert!(
        e.contains("is a must-gather that holds")
            && e.contains("`Node`s")
            && e.contains("`MachineConfigPool`s"),
        "{e}"
    );
    // `summary` shows what it has, as `oc get` lists it.
    let out = common::mglint(&["summary", &input.to_string_lossy()]);
    let text = String::from_utf8_lossy(&out.stdout);
    let first_node = b.objects.nodes[0].metadata.name.clone();
    assert!(
        text.contains("Nodes (no ClusterVersion in the input")
            && text.contains("MachineConfigPools (no ClusterVersion in the input")
            && text.contains("READYMACHINECOUNT")
            && text.lines().any(|l| l.trim_start().starts_with(&first_node)
                && (l.contains("   Ready") || l.contains("NotReady"))),
        "{text}"
    );
    // The HTML report shows the same objects, as tables.
    let html = tmp.path().join("report.html");
    common::mglint(&[
        "analyze",
        &input.to_string_lossy(),
        "--exit-zero",
        "-o",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("What the dump holds")
            && page.contains(&format!("<td><code>{first_node}</code></td>"))
            && page.contains(">MachineConfigPools <span class=\"muted\">"),
        "the HTML report shows no node or pool table"
    );
    // With nothing mglint reads, it is still called a must-gather.
    std::fs::remove_dir_all(&csr).unwrap();
    let out = common::mglint(&["analyze", &input.to_string_lossy()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a must-gather (rooted at"), "{err}");
    assert!(!err.contains("no must-gather"), "{err}");
}
