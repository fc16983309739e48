//! The "What it reads" table of `docs/inputs.md` (the README links it), held to the code:
//! every row has a case here, and each
//! case gives mglint an input of that row and checks that what the row promises is read from it
//! (a row added to the table without a case fails, as does a case whose input reads nothing).

use crate::common;
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The first cell of every row of the input table.
fn rows() -> Vec<String> {
    let readme = std::fs::read_to_string(common::root().join("docs/inputs.md")).unwrap();
    let table = readme
        .split("## What it reads")
        .nth(1)
        .expect("docs/inputs.md has a `What it reads` section");
    table
        .lines()
        .skip_while(|l| !l.starts_with("| input |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_start_matches('|')
                .split(" | ")
                .next()
                .unwrap()
                .trim()
                .to_string()
        })
        .collect()
}

fn summary(args: &[&str], stdin: Option<&[u8]>) -> Vec<Value> {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mglint"));
    c.current_dir(common::root())
        .arg("summary")
        .args(args)
        .args(["--format", "json"])
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    if let Some(data) = stdin {
        child.stdin.take().unwrap().write_all(data).unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => vec![v],
        Err(_) => text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    }
}

/// Checks one row's promise on an input of its kind.
fn check(row: &str, tmp: &Path) {
    let mg = "fixtures/must-gather/seed1-blocked";
    let cluster = |s: &Value| s["cluster_id"].as_str().unwrap_or("").to_string();
    if row.starts_with("must-gather directories") {
        let s = &summary(&[mg], None)[0];
        assert_eq!(cluster(s), "c42dd7e1-8f3b-4c9e-b2a6-5d71e0f4a913", "{row}");
        assert_eq!(s["cvo_logs"].as_array().unwrap().len(), 2, "{row}");
    } else if row.starts_with("HyperShift") {
        let s = summary(&["fixtures/must-gather/hypershift-mgmt-two-hosted"], None);
        assert_eq!(s.len(), 3, "{row}: the management and two hosted clusters");
        assert!(
            s.iter()
                .filter(|c| !c["cvo_logs"].as_array().unwrap().is_empty())
                .count()
                == 2
        );
    } else if row.starts_with("resourcewatch") {
        let repo = tmp.join("rw");
        std::fs::create_dir(&repo).unwrap();
        crate::resourcewatch::build(&repo);
        let s = &summary(&[repo.to_str().unwrap()], None)[0];
        assert!(s["events"].as_u64().unwrap() > 0, "{row}");
        assert_eq!(s["cvo_pods"].as_array().unwrap().len(), 1, "{row}");
    } else if row.starts_with("any other directory") {
        let dir = tmp.join("loose");
        std::fs::create_dir(&dir).unwrap();
        std::fs::copy(
            common::fixture("files/cv-healthy-4.14.yaml"),
            dir.join("oc-get-cv.txt"),
        )
        .unwrap();
        let s = &summary(&[dir.to_str().unwrap()], None)[0];
        assert!(!cluster(s).is_empty(), "{row}: {s}");
    } else if row.starts_with("archives") {
        let a = tmp.join("mg.tar.gz");
        let tar = common::tar_dir(
            &common::fixture("must-gather/seed1-blocked"),
            "seed1-blocked",
        );
        std::fs::write(&a, common::gzip(&tar)).unwrap();
        let s = &summary(&[a.to_str().unwrap()], None)[0];
        assert_eq!(cluster(s), "c42dd7e1-8f3b-4c9e-b2a6-5d71e0f4a913", "{row}");
        assert_eq!(s["cvo_logs"].as_array().unwrap().len(), 2, "{row}");
    } else if row.starts_with("Insights operator archives") {
        let cv: Value = mglint::yaml::from_str(
            &std::fs::read_to_string(common::fixture("files/cv-healthy-4.14.yaml")).unwrap(),
        )
        .unwrap();
        let events = serde_json::json!({"items": [{"namespace": "openshift-machine-api",
            "lastTimestamp": "2023-11-03T15:40:01Z", "reason": "MachineHealthCheckUnhealthy",
            "message": "Machine openshift-machine-api/worker-a has unhealthy node", "type": "Normal"}]});
        let files = vec![
            (
                "insights-2023-11-03-154100/config/version.json".to_string(),
                serde_json::to_vec(&cv).unwrap(),
            ),
            (
                "insights-2023-11-03-154100/events/openshift-machine-api.json".to_string(),
                serde_json::to_vec(&events).unwrap(),
            ),
        ];
        let a = tmp.join("insights-2023-11-03-154100.tar.gz");
        std::fs::write(&a, common::gzip(&common::tar_files(&files))).unwrap();
        let s = &summary(&[a.to_str().unwrap()], None)[0];
        assert!(!cluster(s).is_empty(), "{row}: {s}");
        assert_eq!(
            s["events"], 1,
            "{row}: events/<namespace>.json is read whole"
        );
    } else if row.starts_with("Prow CI job artifacts") {
        let s = &summary(&["fixtures/ci/modern-upgrade-4.14"], None)[0];
        assert!(
            s["junit_cases"].as_u64().unwrap() > 0 && s["prow_job"].is_object(),
            "{row}"
        );
        assert!(
            !s["cvo_logs"].as_array().unwrap().is_empty(),
            "{row}: gather-extra pod logs"
        );
    } else if row.starts_with("single files") {
        let s = &summary(&["fixtures/files/cvo-4.3-blocked-raw.log"], None)[0];
        assert_eq!(s["cvo_logs"].as_array().unwrap().len(), 1, "{row}");
    } else if row.starts_with("standard input and FIFOs") {
        let cv = std::fs::read(common::fixture("files/cv-healthy-4.14.yaml")).unwrap();
        let s = &summary(&["-"], Some(&cv))[0];
        assert!(!cluster(s).is_empty(), "{row}: {s}");
    } else if row.starts_with("URLs") {
        // A fetched job reads like its local copy: tests/it/remote_fetch.rs serves the CI
        // fixture over HTTP in the GCS layout and compares (`fetched_job_ingests_like_the_local_copy`).
        let t = std::fs::read_to_string(common::root().join("tests/it/remote_fetch.rs")).unwrap();
        assert!(
            t.contains("fn fetched_job_ingests_like_the_local_copy"),
            "{row}"
        );
    } else {
        panic!("the input row of docs/inputs.md `{row}` has no case in tests/it/readme_inputs.rs");
    }
}

#[test]
fn every_row_of_the_readme_input_table_reads_what_it_says() {
    let rows = rows();
    assert!(rows.len() >= 10, "{rows:?}");
    let tmp = tempfile::tempdir().unwrap();
    for row in &rows {
        check(row, tmp.path());
    }
}
