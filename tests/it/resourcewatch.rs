//! A resourcewatch repository (openshift/origin `pkg/resourcewatch`) as a timeline source: the
//! repository is built with `git` from the fixture's commit sequence (as the tool writes it:
//! one file per commit, the observation time as the author date), then its working tree is
//! read as a must-gather and its history gives the condition changes the last snapshot cannot
//! show (an operator Degraded for a minute and back).

use crate::common;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str], date: Option<&str>) {
    let mut c = Command::new("git");
    c.current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@test.com");
    if let Some(d) = date {
        c.env("GIT_COMMITTER_DATE", d);
    }
    let o = c.output().expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The repository the fixture describes, in `dir`.
pub(crate) fn build(dir: &Path) {
    git(dir, &["init", "-q", "-b", "master"], None);
    let commits = std::fs::read_to_string(common::fixture(
        "resourcewatch/rw-4.14-update/commits.jsonl",
    ))
    .unwrap();
    for line in commits.lines() {
        let c: Value = serde_json::from_str(line).unwrap();
        let path = dir.join(c["path"].as_str().unwrap());
        match c["content"].as_str() {
            Some(text) => {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, text).unwrap();
            }
            None => std::fs::remove_file(&path).unwrap(),
        }
        git(dir, &["add", "-A"], None);
        let author = format!(
            "{} <{}>",
            c["author"].as_str().unwrap(),
            c["email"].as_str().unwrap()
        );
        let date = c["date"].as_str().unwrap();
        git(
            dir,
            &[
                "commit",
                "-q",
                "--author",
                &author,
                "--date",
                date,
                "-m",
                c["subject"].as_str().unwrap(),
            ],
            Some(date),
        );
    }
}

fn json(args: &[&str]) -> Value {
    let o = common::mglint(args);
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn the_history_of_a_resourcewatch_repository_is_a_timeline() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("resourcewatch");
    std::fs::create_dir(&repo).unwrap();
    build(&repo);
    let r = repo.to_str().unwrap();
    let tl = json(&["timeline", r, "--format", "json"]);
    let events = tl["events"].as_array().unwrap();
    let transition = |kind: &str, name: &str, cond: &str, status: &str| -> Vec<&Value> {
        events
            .iter()
            .filter(|e| {
                e["object"]["kind"] == kind
                    && e["object"]["name"] == name
                    && e["condition"] == cond
                    && e["status"] == status
            })
            .collect()
    };
    // authentication went Degraded at 09:41:12 and back at 09:42:14: the working tree shows
    // only the second; the history shows both, each with the commit it was read from.
    let degraded = transition("ClusterOperator", "authentication", "Degraded", "True");
    assert_eq!(degraded.len(), 1, "{degraded:?}");
    assert_eq!(degraded[0]["time"], "2023-11-14T09:41:12.000Z");
    assert_eq!(degraded[0]["reason"], "APIServerDeployment_UnavailablePod");
    let ev = &degraded[0]["evidence"][0];
    assert_eq!(ev["input"], r);
    let path = ev["path"].as_str().unwrap();
    assert!(
        path.starts_with(
            "cluster-scoped-resources/config.openshift.io/clusteroperators/authentication.yaml@"
        ),
        "{path}"
    );
    assert!(
        ev["text"]
            .as_str()
            .unwrap()
            .contains("modifed clusteroperators.config.openshift.io/authentication")
    );
    let recovered = transition("ClusterOperator", "authentication", "Degraded", "False");
    assert!(
        recovered
            .iter()
            .any(|e| e["time"] == "2023-11-14T09:42:14.000Z"),
        "{recovered:?}"
    );
    // The ClusterVersion's update: Progressing True at acceptance, False at completion, the
    // latter read from the tree and the history (one event, two pieces of evidence).
    let progressing = transition("ClusterVersion", "version", "Progressing", "True");
    assert!(
        progressing
            .iter()
            .any(|e| e["time"] == "2023-11-14T09:12:06.000Z"),
        "{progressing:?}"
    );
    let done = transition("ClusterVersion", "version", "Progressing", "False");
    let last = done.last().unwrap();
    assert_eq!(last["time"], "2023-11-14T10:22:03.000Z");
    assert_eq!(last["evidence"].as_array().unwrap().len(), 2, "{last}");
    // The update episode the timeline derives is the one the history shows.
    let update = tl["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "update")
        .expect("an update episode");
    assert_eq!(
        (update["from"].as_str(), update["to"].as_str()),
        (Some("4.14.0"), Some("4.14.1"))
    );

    // The tree's Events and the CVO pod are read; a healthy update raises no error.
    let s = json(&["summary", r, "--format", "json"]);
    assert!(s["events"].as_u64().unwrap() > 0, "{s}");
    assert_eq!(
        s["cvo_pods"][0]["name"],
        "cluster-version-operator-7d9c4b8f56-h2lkx"
    );
    let report = json(&["analyze", r, "--format", "json", "--exit-zero"]);
    assert_eq!(report["summary"]["errors"], 0, "{}", report["findings"]);
}

#[test]
fn a_tree_without_history_is_read_as_before() {
    // The same working tree with its `.git` removed: no history events, the tree alone.
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("resourcewatch");
    std::fs::create_dir(&repo).unwrap();
    build(&repo);
    std::fs::remove_dir_all(repo.join(".git")).unwrap();
    let tl = json(&["timeline", repo.to_str().unwrap(), "--format", "json"]);
    let events = tl["events"].as_array().unwrap();
    assert!(events.iter().all(|e| {
        !e["evidence"][0]["path"]
            .as_str()
            .unwrap_or("")
            .contains('@')
    }));
    assert!(
        !events
            .iter()
            .any(|e| e["object"]["name"] == "authentication"
                && e["condition"] == "Degraded"
                && e["status"] == "True")
    );
}
