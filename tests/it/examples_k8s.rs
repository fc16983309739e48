//! The Kubernetes example in `examples/batch-indexed-job.yaml` stays a valid Indexed Job
//! whose command is a `mglint batch` the CLI accepts, one shard per completion index.

use crate::common;

#[test]
fn the_indexed_job_example_runs_one_shard_per_index() {
    let text =
        std::fs::read_to_string(common::root().join("examples/batch-indexed-job.yaml")).unwrap();
    let job: serde_json::Value = yaml_serde::from_str(&text).expect("valid YAML");
    assert_eq!(job["apiVersion"], "batch/v1");
    assert_eq!(job["kind"], "Job");
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let n = spec["completions"].as_u64().unwrap();
    let c = &spec["template"]["spec"]["containers"][0];
    let script = c["args"][0].as_str().unwrap();
    assert!(
        script.contains(&format!("--shard \"${{JOB_COMPLETION_INDEX}}/{n}\"")),
        "{script}"
    );
    // The command line, with the index filled in, is one the CLI accepts.
    let line = script
        .trim_start_matches("exec ")
        .replace("${JOB_COMPLETION_INDEX}", "0")
        .replace('"', "");
    let mut words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.remove(0), "mglint");
    words.push("--help");
    let o = common::mglint(&words);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Every volume the container mounts is declared.
    let volumes: Vec<&str> = spec["template"]["spec"]["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for m in c["volumeMounts"].as_array().unwrap() {
        assert!(volumes.contains(&m["name"].as_str().unwrap()), "{m}");
    }
}
