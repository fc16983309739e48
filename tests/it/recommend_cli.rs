//! `mglint recommend` as a user runs it: oc's text on stdout, its warnings and final error on
//! stderr, oc's exit codes (1 when a `--version` answer has issues not in `--accept`), files
//! that could not be read named (exit 2 unless `--partial`), and the other formats.

use crate::common;

fn run(args: &[&str]) -> (i32, String, String) {
    let o = common::mglint(&[&["recommend"], args].concat());
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn set(name: &str) -> (String, std::path::PathBuf) {
    let dir = common::fixture(&format!("oc/recommend/{name}"));
    (dir.to_str().unwrap().to_string(), dir)
}

#[test]
fn a_set_directory_prints_oc_s_text_and_exit_code() {
    let (s, dir) = set("alerts-critical");
    let oc = |f: &str| std::fs::read_to_string(dir.join(format!("alerts-critical.{f}"))).unwrap();
    let (rc, out, err) = run(&[&s]);
    assert_eq!((rc, out.as_str()), (0, oc("output").as_str()), "{err}");
    let (rc, out, _) = run(&[&s, "--show-outdated-releases"]);
    assert_eq!(
        (rc, out.as_str()),
        (0, oc("show-outdated-releases-output").as_str())
    );
    // With --version: oc's text, then its error on stderr and exit 1 (the oracle's file has
    // the error after a blank line).
    let (rc, out, err) = run(&[&s, "--version", "4.16.11"]);
    let want = oc("version-4.16.11-output");
    let (want_out, want_err) = want.split_once("\nerror: ").unwrap();
    assert_eq!(rc, 1);
    assert_eq!(out, want_out);
    assert!(err.ends_with(&format!("error: {want_err}")), "{err}");
    // --to is the same flag; accepting the issue makes it pass, with oc's wording.
    let name = want_err.rsplit(": ").next().unwrap().trim();
    let (rc, out, err) = run(&[&s, "--to", "4.16.11", "--accept", name]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.ends_with(&format!(
        "Update to 4.16.11 has no known issues relevant to this cluster other than the accepted {name}.\n"
    )), "{out}");
    // -q: nothing but the error.
    let (rc, out, err) = run(&["-q", &s, "--version", "4.16.11"]);
    assert_eq!((rc, out.as_str()), (1, ""));
    assert_eq!(err, format!("error: {want_err}"));
    // An empty --version is no target, as in oc, in every format (it once panicked in JSON).
    for format in ["text", "json", "markdown"] {
        let (rc, out, err) = run(&[&s, "--version", "", "--format", format]);
        assert_eq!(rc, 0, "{format}: {err}");
        assert!(!out.contains("Update to"), "{format}: {out}");
    }
    // oc's flag checks come first.
    let (rc, _, err) = run(&["-q", &s]);
    assert_eq!(rc, 1);
    assert_eq!(
        err,
        "error: --quiet can only be set when --version is set\n"
    );
}

#[test]
fn an_alerts_file_that_cannot_be_read_is_named_and_exits_2_unless_partial() {
    let (s, dir) = set("alerts-file-malformed");
    let (rc, out, err) = run(&[&s]);
    assert_eq!(rc, 2, "{err}");
    assert!(
        err.contains("could not read") && err.contains("alerts-file-malformed-alerts.json"),
        "{err}"
    );
    assert!(err.contains("--partial"), "{err}");
    // oc's own answer says the precheck failed, and so does ours.
    let oc = std::fs::read_to_string(dir.join("alerts-file-malformed.output")).unwrap();
    assert_eq!(out, oc);
    let (rc, out, err) = run(&[&s, "--partial"]);
    assert_eq!((rc, out.as_str()), (0, oc.as_str()), "{err}");
    assert!(err.contains("alerts-file-malformed-alerts.json"), "{err}");
}

#[test]
fn no_cluster_version_is_an_error_naming_what_is_missing() {
    // A lone ClusterOperator file: readable, but nothing recommend can answer from.
    let tmp = tempfile::tempdir().unwrap();
    let co = tmp.path().join("co.yaml");
    std::fs::write(
        &co,
        "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: etcd\nstatus:\n  conditions:\n  - type: Available\n    status: \"True\"\n",
    )
    .unwrap();
    let (rc, out, err) = run(&[co.to_str().unwrap()]);
    assert_eq!(rc, 2, "{out}{err}");
    assert!(err.contains("no ClusterVersion"), "{err}");
}

#[test]
fn json_and_markdown_carry_the_same_facts() {
    let (s, _) = set("conditional-risks-without-conditions");
    let (rc, json, err) = run(&[&s, "--format", "json"]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["schema"], "mglint/recommend/v1");
    let targets: Vec<&serde_json::Value> = v["minors"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["targets"].as_array().unwrap())
        .collect();
    let nr = targets
        .iter()
        .find(|t| t["version"] == "4.17.13")
        .expect("4.17.13 is offered");
    assert_eq!(nr["recommended"], false);
    assert_eq!(nr["reason"], "NoConditions");
    assert!(!nr["risks"].as_array().unwrap().is_empty());
    let (rc, md, _) = run(&[&s, "--format", "markdown"]);
    assert_eq!(rc, 0);
    assert!(md.starts_with("## Update recommendations\n"), "{md}");
    assert!(md.contains("| 4.17.13 | no | NoConditions |"), "{md}");
}

/// `analyze` says what the recommend view knows, from the same facts: the generated sets'
/// ClusterVersions (oc printed the risks for each; see their outputs).
#[test]
fn analyze_names_the_risks_recommend_shows() {
    let codes = |set: &str| -> Vec<(String, String, String)> {
        let p = common::fixture(&format!("oc/recommend/{set}"));
        let o = common::mglint(&[
            "analyze",
            p.to_str().unwrap(),
            "--format",
            "json",
            "--partial",
        ]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"].as_str().is_some_and(|c| c.starts_with("CV02")))
            .map(|f| {
                (
                    f["code"].as_str().unwrap().to_string(),
                    f["severity"].as_str().unwrap().to_string(),
                    f["message"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    // Offered targets oc shows as not recommended (its output lists both with their reasons).
    let f = codes("conditional-not-recommended-first");
    let cv022 = f.iter().find(|(c, _, _)| c == "CV022").expect("CV022");
    assert_eq!(cv022.1, "info");
    assert!(
        cv022.2.contains("`4.17.14` (`AzureDefaultVMType`)")
            && cv022.2.contains("`4.17.11` (`OVNNetworkPolicyLongName`)"),
        "{cv022:?}"
    );
    // An update that ran past recorded risks.
    let f = codes("after-forced-update-accepted-risks");
    let cv022 = f.iter().find(|(c, _, _)| c == "CV022").expect("CV022");
    assert_eq!(cv022.1, "info");
    assert!(cv022.2.contains("was accepted past risks"), "{cv022:?}");
    // Failing and a critical alert, which oc's precheck lists, with no update running.
    let f = codes("everything-wrong-at-once");
    let cv023 = f.iter().find(|(c, _, _)| c == "CV023").expect("CV023");
    assert!(
        cv023.2.contains("Failing=True") && cv023.2.contains("(CriticalAlerts, Alert:firing)"),
        "{cv023:?}"
    );
    // Nothing here is above info: these are facts for planning, not faults.
    for set in [
        "z-stream-all-recommended",
        "no-channel",
        "alerts-many-kinds",
    ] {
        for (c, sev, m) in codes(set) {
            assert_eq!(sev, "info", "{set}: {c} {m}");
        }
    }
}

/// `--published-risks` adds a section oc does not have after oc's output, which stays byte for
/// byte oc's: for each update shown (the two of 4.17 here, or `--version`'s), the published
/// risks judged from the dump. Markdown gets it as a fenced section; JSON refuses the flag
/// (`mglint risks --format json` is the document for it).
#[test]
fn published_risks_is_a_section_after_oc_s_output() {
    let (s, dir) = set("conditional-not-recommended-first");
    let oc = std::fs::read_to_string(dir.join("conditional-not-recommended-first.output")).unwrap();
    let (rc, out, err) = run(&[&s, "--published-risks"]);
    assert_eq!(rc, 0, "{err}");
    let extra = out.strip_prefix(oc.as_str()).expect("oc's output first");
    assert!(
        extra.starts_with("\nPublished update risks (mglint, not oc: cincinnati-graph-data "),
        "{extra}"
    );
    for edge in [
        "  4.17.8 -> 4.17.14 (conditional)\n    applies         LabeledMachineConfigAndContainerRuntimeConfigBlocksMCO\n",
        "  4.17.8 -> 4.17.12 (offered, conditional)\n",
    ] {
        assert!(extra.contains(edge), "{edge} in {extra}");
    }
    assert!(
        !extra.contains("4.17.11"),
        "only the updates oc shows: {extra}"
    );
    let (_, one, _) = run(&[&s, "--published-risks", "--version", "4.17.11"]);
    let section = &one[one.find("\nPublished update risks").unwrap()..];
    assert!(section.contains("  4.17.8 -> 4.17.11 ("), "{section}");
    assert!(!section.contains("4.17.14"), "{section}");
    let (rc, md, _) = run(&[&s, "--published-risks", "--format", "markdown"]);
    assert_eq!(rc, 0);
    assert!(
        md.contains(
            "\n## Published update risks (mglint, not oc)\n\n```text\nPublished update risks"
        ),
        "{md}"
    );
    let (rc, _, err) = run(&[&s, "--published-risks", "--format", "json"]);
    assert_eq!(rc, 2);
    assert!(err.contains("mglint risks --format json"), "{err}");
}
