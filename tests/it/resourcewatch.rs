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

// The history is read in-process, confined to the input and bounded: the hostile classes
// of issue #63 (the input's git configuration, other repositories pulled in, FIFOs, huge
// trees and subjects), each on a small repository written here with the git CLI.

use mglint::ingest::resourcewatch::{History, HistoryError, Limits, read_history};

const CO: &str = "cluster-scoped-resources/config.openshift.io/clusteroperators";

fn operator(name: &str, degraded: &str, at: &str) -> String {
    format!(
        "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: {name}\n\
         status:\n  conditions:\n  - type: Degraded\n    status: \"{degraded}\"\n    \
         lastTransitionTime: \"{at}\"\n    reason: AsExpected\n"
    )
}

/// A resourcewatch repository in `dir` with two commits of the ClusterOperator `name`
/// (Degraded False, then True); `prefix` is where the must-gather tree sits in the repository.
fn small(dir: &Path, prefix: &str, name: &str) {
    git(dir, &["init", "-q", "-b", "master"], None);
    let file = dir.join(prefix).join(CO).join(format!("{name}.yaml"));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    for (status, date) in [
        ("False", "2023-11-14T09:00:00Z"),
        ("True", "2023-11-14T09:01:00Z"),
    ] {
        std::fs::write(&file, operator(name, status, date)).unwrap();
        git(dir, &["add", "-A"], None);
        git(
            dir,
            &[
                "commit",
                "-q",
                "--author",
                "resourcewatch <rw@example.com>",
                "--date",
                date,
                "-m",
                &format!("modifed clusteroperators.config.openshift.io/{name}"),
            ],
            Some(date),
        );
    }
}

fn read(dir: &Path) -> History {
    read_history(dir, "rw", &Limits::default())
}

fn problems(h: &History) -> String {
    h.problems
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A shell script at `path` that creates `marker` when run.
fn trap(path: &Path, marker: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(
        path,
        format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn append(path: &Path, text: &str) {
    let mut s = std::fs::read_to_string(path).unwrap_or_default();
    s.push_str(text);
    std::fs::write(path, s).unwrap();
}

/// Re-signs `HEAD` with a (fake) PGP signature header, as a signed commit carries.
fn sign_head(dir: &Path) {
    let o = Command::new("git")
        .current_dir(dir)
        .args(["cat-file", "commit", "HEAD"])
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    let body = String::from_utf8(o.stdout).unwrap();
    let (head, msg) = body.split_once("\n\n").unwrap();
    let signed = format!(
        "{head}\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n{msg}"
    );
    let path = dir.join("signed-commit");
    std::fs::write(&path, signed).unwrap();
    let o = Command::new("git")
        .current_dir(dir)
        .args(["hash-object", "-t", "commit", "-w", "signed-commit"])
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    let id = String::from_utf8(o.stdout).unwrap();
    git(dir, &["update-ref", "refs/heads/master", id.trim()], None);
}

fn degraded(h: &History, name: &str) -> Vec<String> {
    h.snapshots
        .iter()
        .filter(|s| s.name == name)
        .map(|s| {
            s.conditions
                .iter()
                .map(|c| format!("{}={}", c.type_, c.status))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn a_packed_history_reads_as_the_loose_one() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("resourcewatch");
    std::fs::create_dir(&repo).unwrap();
    build(&repo);
    let loose = read(&repo);
    assert!(loose.problems.is_empty(), "{}", problems(&loose));
    assert!(loose.snapshots.len() > 10, "{:?}", loose.snapshots.len());
    // Packed with deltas (trees and blobs against each other), nothing loose left.
    git(&repo, &["gc", "-q", "--aggressive", "--prune=now"], None);
    let packs = std::fs::read_dir(repo.join(".git/objects/pack"))
        .unwrap()
        .count();
    assert!(packs >= 2, "a pack and its index");
    let packed = read(&repo);
    assert!(packed.problems.is_empty(), "{}", problems(&packed));
    let key = |h: &History| -> Vec<String> {
        h.snapshots
            .iter()
            .map(|s| {
                format!(
                    "{} {} {} {} {} {:?} {}",
                    s.time,
                    s.commit,
                    s.subject,
                    s.path,
                    s.removed,
                    s.kind,
                    s.conditions.len()
                )
            })
            .collect()
    };
    assert_eq!(key(&loose), key(&packed));
}

#[test]
fn signature_programs_of_the_dump_config_are_never_run() {
    for include in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("rw");
        std::fs::create_dir(&repo).unwrap();
        small(&repo, "", "dns");
        sign_head(&repo);
        let marker = tmp.path().join("ran");
        let script = tmp.path().join("gpg.sh");
        trap(&script, &marker);
        let evil = format!(
            "[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {s}\n[gpg \"ssh\"]\n\tprogram = {s}\n\
             [gpg \"x509\"]\n\tprogram = {s}\n[core]\n\tfsmonitor = {s}\n",
            s = script.display()
        );
        if include {
            std::fs::write(repo.join(".git/evil.cfg"), evil).unwrap();
            append(&repo.join(".git/config"), "[include]\n\tpath = evil.cfg\n");
        } else {
            append(&repo.join(".git/config"), &evil);
        }
        let h = read(&repo);
        assert!(h.problems.is_empty(), "{}", problems(&h));
        assert_eq!(degraded(&h, "dns"), ["Degraded=False", "Degraded=True"]);
        // The whole command too, every verb that reads the history.
        let o = common::mglint(&["timeline", repo.to_str().unwrap(), "--format", "json"]);
        assert!(o.status.code().is_some_and(|c| c < 2));
        assert!(
            !marker.exists(),
            "the dump's program was run (include: {include})"
        );
    }
}

#[test]
fn a_promisor_object_is_missing_and_never_fetched() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("rw");
    std::fs::create_dir(&repo).unwrap();
    small(&repo, "", "dns");
    // The last version of the file, as a blob:none partial clone lacks it.
    let o = Command::new("git")
        .current_dir(&repo)
        .args(["rev-parse", &format!("HEAD:{CO}/dns.yaml")])
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    let blob = String::from_utf8(o.stdout).unwrap().trim().to_string();
    std::fs::remove_file(repo.join(format!(".git/objects/{}/{}", &blob[..2], &blob[2..]))).unwrap();
    let marker = tmp.path().join("fetched");
    let script = tmp.path().join("ssh.sh");
    trap(&script, &marker);
    append(
        &repo.join(".git/config"),
        &format!(
            "[core]\n\trepositoryformatversion = 1\n\tsshCommand = {s}\n[extensions]\n\t\
             partialClone = origin\n[remote \"origin\"]\n\turl = ssh://git@example.invalid/rw.git\n\t\
             promisor = true\n\tpartialclonefilter = blob:none\n\tuploadpack = {s}\n",
            s = script.display()
        ),
    );
    let h = read(&repo);
    assert_eq!(degraded(&h, "dns"), ["Degraded=False"]);
    let p = problems(&h);
    assert!(
        p.contains(&format!("object {blob} is missing")) && p.contains("dns.yaml"),
        "{p}"
    );
    let o = common::mglint(&["timeline", repo.to_str().unwrap(), "--format", "json"]);
    assert!(o.status.code().is_some_and(|c| c < 2));
    assert!(!marker.exists(), "a fetch was attempted");
}

#[test]
fn another_repository_is_never_read_through_gitfile_symlink_commondir_or_alternates() {
    let tmp = tempfile::tempdir().unwrap();
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    small(&other, "", "etcd");
    let other_git = other.join(".git");
    let dump = |name: &str| {
        let d = tmp.path().join(name);
        std::fs::create_dir_all(d.join(CO)).unwrap();
        d
    };
    let gitfile = dump("gitfile");
    std::fs::write(
        gitfile.join(".git"),
        format!("gitdir: {}\n", other_git.display()),
    )
    .unwrap();
    let link = dump("link");
    std::os::unix::fs::symlink(&other_git, link.join(".git")).unwrap();
    // commondir and alternates in a repository of its own (with no history of its own).
    let common_dir = tmp.path().join("commondir");
    std::fs::create_dir(&common_dir).unwrap();
    small(&common_dir, "", "dns");
    std::fs::write(
        common_dir.join(".git/commondir"),
        format!("{}\n", other_git.display()),
    )
    .unwrap();
    let alternates = tmp.path().join("alternates");
    std::fs::create_dir(&alternates).unwrap();
    small(&alternates, "", "dns");
    std::fs::write(
        alternates.join(".git/objects/info/alternates"),
        format!("{}\n", other_git.join("objects").display()),
    )
    .unwrap();
    let http = tmp.path().join("http");
    std::fs::create_dir(&http).unwrap();
    small(&http, "", "dns");
    std::fs::write(
        http.join(".git/objects/info/http-alternates"),
        "https://example.invalid/objects\n",
    )
    .unwrap();
    for (dir, why) in [
        (&gitfile, "`.git` is a file"),
        (&link, "`.git` is a symbolic link"),
        (&common_dir, "`.git/commondir` is present"),
        (&alternates, "`.git/objects/info/alternates` is present"),
        (&http, "`.git/objects/info/http-alternates` is present"),
    ] {
        let h = read(dir);
        assert!(h.snapshots.is_empty(), "{dir:?}: {:?}", h.snapshots);
        let p = problems(&h);
        assert!(
            p.starts_with("the resourcewatch history is not read: ") && p.contains(why),
            "{dir:?}: {p}"
        );
    }
}

#[test]
fn no_upward_search_from_an_empty_or_broken_git() {
    // The outer repository holds a must-gather tree with a history of its own.
    let tmp = tempfile::tempdir().unwrap();
    let outer = tmp.path().join("outer");
    std::fs::create_dir(&outer).unwrap();
    small(&outer, "dump", "etcd");
    let dump = outer.join("dump");
    for git in ["empty", "broken", "no-head"] {
        let dot = dump.join(".git");
        let _ = std::fs::remove_dir_all(&dot);
        let _ = std::fs::remove_file(&dot);
        match git {
            "empty" => std::fs::create_dir(&dot).unwrap(),
            "broken" => std::fs::write(&dot, "garbage\n").unwrap(),
            _ => {
                std::fs::create_dir_all(dot.join("objects")).unwrap();
                std::fs::create_dir_all(dot.join("refs")).unwrap();
            }
        }
        let h = read(&dump);
        assert!(h.snapshots.is_empty(), "{git}: {:?}", h.snapshots);
        assert!(!problems(&h).is_empty(), "{git}");
        let tl = json(&["timeline", dump.to_str().unwrap(), "--format", "json"]);
        let events = tl["events"].as_array().unwrap();
        // The working tree's etcd is read; no event comes from a commit.
        assert!(events.iter().any(|e| e["object"]["name"] == "etcd"));
        assert!(
            !events.iter().any(|e| e["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v["path"].as_str().unwrap_or("").contains('@'))),
            "{git}: the outer repository's history was read"
        );
    }
}

#[test]
fn a_fifo_under_git_never_blocks() {
    let mkfifo = |p: &Path| {
        let _ = std::fs::remove_file(p);
        assert!(common::mkfifo(p));
    };
    for place in ["object", "ref", "packed-refs", "pack"] {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("rw");
        std::fs::create_dir(&repo).unwrap();
        small(&repo, "", "dns");
        match place {
            "object" => {
                let o = Command::new("git")
                    .current_dir(&repo)
                    .args(["rev-parse", "HEAD"])
                    .output()
                    .unwrap();
                let id = String::from_utf8(o.stdout).unwrap().trim().to_string();
                mkfifo(&repo.join(format!(".git/objects/{}/{}", &id[..2], &id[2..])));
            }
            "ref" => mkfifo(&repo.join(".git/refs/heads/master")),
            "packed-refs" => {
                std::fs::remove_file(repo.join(".git/refs/heads/master")).unwrap();
                mkfifo(&repo.join(".git/packed-refs"));
            }
            _ => {
                git(&repo, &["gc", "-q"], None);
                let pack = std::fs::read_dir(repo.join(".git/objects/pack"))
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .find(|p| p.extension().is_some_and(|e| e == "pack"))
                    .unwrap();
                mkfifo(&pack);
            }
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let r = repo.clone();
        std::thread::spawn(move || {
            let _ = tx.send(problems(&read(&r)));
        });
        let p = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("{place}: the read blocked"));
        assert!(p.contains("is a FIFO, not read"), "{place}: {p}");
    }
}

#[test]
fn a_huge_tree_and_subject_cost_a_bound() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("rw");
    std::fs::create_dir(&repo).unwrap();
    small(&repo, "", "dns");
    // 20,000 more files in the followed directory (one blob), in one commit whose subject is
    // 200 KB on one line.
    let o = Command::new("git")
        .current_dir(&repo)
        .args(["hash-object", "-w", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"{}\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let blob = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let mut info = String::new();
    for i in 0..20_000 {
        info.push_str(&format!("100644 {blob}\t{CO}/zz-{i:05}.yaml\n"));
    }
    let list = tmp.path().join("index-info");
    std::fs::write(&list, info).unwrap();
    let o = Command::new("sh")
        .current_dir(&repo)
        .arg("-c")
        .arg(format!(
            "git update-index --index-info < '{}'",
            list.display()
        ))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .status()
        .unwrap();
    assert!(o.success());
    let file = repo.join(CO).join("dns.yaml");
    std::fs::write(&file, operator("dns", "False", "2023-11-14T09:02:00Z")).unwrap();
    git(&repo, &["add", &format!("{CO}/dns.yaml")], None);
    let subject = "x".repeat(200_000);
    let msg = tmp.path().join("msg");
    std::fs::write(&msg, &subject).unwrap();
    git(
        &repo,
        &[
            "commit",
            "-q",
            "--author",
            "resourcewatch <rw@example.com>",
            "--date",
            "2023-11-14T09:02:00Z",
            "-F",
            msg.to_str().unwrap(),
        ],
        Some("2023-11-14T09:02:00Z"),
    );
    let h = read(&repo);
    // The third snapshot of dns is read, its subject cut.
    assert_eq!(
        degraded(&h, "dns"),
        ["Degraded=False", "Degraded=True", "Degraded=False"]
    );
    let last = h.snapshots.iter().rfind(|s| s.name == "dns").unwrap();
    assert_eq!(
        last.subject.len(),
        mglint::ingest::resourcewatch::MAX_SUBJECT_BYTES
    );
    // Only a bounded number of entries is looked at, and the cut is said.
    let bound = mglint::ingest::resourcewatch::MAX_TREE_ENTRIES;
    assert!(
        h.stats.tree_entries_examined <= 2 * bound + 100,
        "{} entries looked at",
        h.stats.tree_entries_examined
    );
    let p = problems(&h);
    assert!(
        p.contains(&format!("tree `{CO}` at commit "))
            && p.contains(&format!("has more than {bound} entries")),
        "{p}"
    );
}

#[test]
fn the_deadline_and_the_inflation_bound_end_the_read_and_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("rw");
    std::fs::create_dir(&repo).unwrap();
    small(&repo, "", "dns");
    let h = read_history(
        &repo,
        "rw",
        &Limits {
            deadline: std::time::Duration::ZERO,
            ..Limits::default()
        },
    );
    assert!(h.snapshots.is_empty());
    assert!(
        problems(&h).contains("the 0 s deadline for reading the history passed"),
        "{}",
        problems(&h)
    );
    // Enough for the two commits and their trees, not for the second blob.
    let all = read(&repo).stats.bytes_inflated;
    let h = read_history(
        &repo,
        "rw",
        &Limits {
            max_inflated_bytes: all - 100,
            ..Limits::default()
        },
    );
    assert_eq!(degraded(&h, "dns"), ["Degraded=False"]);
    assert!(
        h.problems
            .iter()
            .any(|p| matches!(p, HistoryError::Stopped { .. })
                && p.to_string()
                    .contains("bytes were inflated, the repository's bound")),
        "{}",
        problems(&h)
    );
}

#[test]
fn a_sha256_repository_is_refused_with_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("rw");
    std::fs::create_dir(&repo).unwrap();
    std::fs::create_dir_all(repo.join(CO)).unwrap();
    git(
        &repo,
        &["init", "-q", "--object-format=sha256", "-b", "master"],
        None,
    );
    std::fs::write(
        repo.join(CO).join("dns.yaml"),
        operator("dns", "False", "2023-11-14T09:00:00Z"),
    )
    .unwrap();
    git(&repo, &["add", "-A"], None);
    git(
        &repo,
        &["commit", "-q", "--author", "a <a@b>", "-m", "s"],
        None,
    );
    let h = read(&repo);
    assert!(h.snapshots.is_empty());
    assert!(problems(&h).contains("SHA-256"), "{}", problems(&h));
}
