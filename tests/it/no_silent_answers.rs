//! No confident wrong answer: a file `status` needs that could not be read is named and the
//! verdict withheld (exit 2, or `--partial` with the part said to be unknown); a settings file
//! is never taken silently, and one inside the input is never taken at all.

use crate::common;
use common::find;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where to cut `text` so that it ends inside a double-quoted value (as a transfer cut short
/// leaves it): after the second character of the first non-empty quoted value past `from`.
fn cut_inside_a_quoted_value(text: &str, from: usize) -> usize {
    let b = text.as_bytes();
    (from..b.len() - 5)
        .find(|&i| &b[i..i + 3] == b": \"" && b[i + 3].is_ascii_alphanumeric())
        .expect("a quoted value")
        + 5
}

/// The UH006 failing must-gather (an update with a paused worker pool), copied.
fn update_with_pools(dir: &Path) -> PathBuf {
    let to = dir.join("mg");
    std::fs::create_dir_all(&to).unwrap();
    common::copy_tree(&common::fixture("rules/UH006/fail"), &to);
    to
}

fn status(args: &[&str]) -> (i32, String, String) {
    let o = common::mglint(&[&["status"], args].concat());
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_truncated_or_mistyped_pool_file_is_named_and_the_verdict_withheld() {
    let tmp = tempfile::tempdir().unwrap();
    let mg = update_with_pools(tmp.path());
    let mg_s = mg.to_str().unwrap();
    let (rc, intact, _) = status(&[mg_s]);
    assert_eq!(rc, 0);
    assert!(intact.contains("= Worker Upgrade ="), "{intact}");
    let worker = find(&mg, "machineconfigpools/worker.yaml").pop().unwrap();
    let text = std::fs::read_to_string(&worker).unwrap();
    // Cut inside a quoted value, as a transfer cut short leaves it.
    let cut = cut_inside_a_quoted_value(&text, text.len() / 2);
    for (how, broken) in [
        ("truncated", text[..cut].to_string()),
        (
            "mistyped",
            text.replacen("machineCount: 3", "machineCount: three", 1),
        ),
    ] {
        assert_ne!(broken, text, "{how}");
        std::fs::write(&worker, &broken).unwrap();
        let (rc, out, err) = status(&[mg_s]);
        assert_eq!(rc, 2, "{how}: {out}{err}");
        assert!(out.is_empty(), "{how}: no verdict on stdout: {out}");
        assert!(
            err.contains("worker.yaml") && err.contains("(MachineConfigPool)"),
            "{how}: {err}"
        );
        assert!(err.contains("--partial"), "{how}: {err}");
        // Accepted as incomplete: the answer, the note still printed, the part called unknown.
        let (rc, out, err) = status(&[mg_s, "--partial"]);
        assert_eq!(rc, 0, "{how}: {err}");
        assert!(err.contains("worker.yaml"), "{how}: {err}");
        assert!(
            out.contains("= Unknown (input files that could not be read) =")
                && out.contains("the nodes and worker pools"),
            "{how}: {out}"
        );
        let (rc, json, _) = status(&[mg_s, "--partial", "--format", "json"]);
        assert_eq!(rc, 0);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["partial"], true, "{how}");
        assert_eq!(v["unread"][0]["kind"], "MachineConfigPool", "{how}");
    }
    std::fs::write(&worker, &text).unwrap();
}

#[test]
fn an_unreadable_pool_file_on_a_cluster_not_progressing_is_not_called_not_updating() {
    // A generated set oc calls "not updating" (its outputs are oc's).
    let set = common::fixture("oc/status/cv-not-updating");
    let oc = std::fs::read_to_string(set.join("cv-not-updating.output")).unwrap();
    assert_eq!(oc, "The cluster is not updating.\n");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("set");
    std::fs::create_dir_all(&dir).unwrap();
    common::copy_tree(&set, &dir);
    for f in ["cv-not-updating.output", "cv-not-updating.detailed-output"] {
        let _ = std::fs::remove_file(dir.join(f));
    }
    let dir_s = dir.to_str().unwrap();
    let (rc, out, _) = status(&[dir_s]);
    assert_eq!((rc, out.as_str()), (0, oc.as_str()));
    // A word where oc wants a boolean: the pools cannot be read.
    let mcp = dir.join("cv-not-updating-mcp.yaml");
    let text = std::fs::read_to_string(&mcp).unwrap();
    let broken = text.replacen("paused: false", "paused: sometimes", 1);
    assert_ne!(broken, text);
    std::fs::write(&mcp, broken).unwrap();
    let (rc, _, err) = status(&[dir_s]);
    assert_eq!(rc, 2, "{err}");
    let (rc, out, err) = status(&[dir_s, "--partial"]);
    assert_eq!(rc, 0, "{err}");
    assert!(!out.contains("The cluster is not updating."), "{out}");
    assert!(
        out.starts_with("Whether the cluster is updating is unknown"),
        "{out}"
    );
}

fn analyze_in(cwd: &Path, args: &[&str]) -> (i32, serde_json::Value, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .current_dir(cwd)
        .args([&["analyze", "--format", "json", "--exit-zero"], args].concat())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let v = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    (
        o.status.code().unwrap_or(-1),
        v,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn codes(v: &serde_json::Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| f["code"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_settings_file_inside_the_input_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let mg = tmp.path().join("mg");
    std::fs::create_dir_all(&mg).unwrap();
    common::copy_tree(&common::fixture("rules/UH002/fail"), &mg);
    let (_, before, _) = analyze_in(&mg, &["."]);
    assert!(codes(&before).contains(&"UH002".to_string()), "{before}");
    // A must-gather that ships its own settings, analysed from inside it.
    std::fs::write(
        mg.join("mglint.toml"),
        "ignore = [\"UH\", \"CV\", \"KI\"]\n",
    )
    .unwrap();
    let (rc, after, err) = analyze_in(&mg, &["."]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(codes(&after), codes(&before));
    assert!(
        err.contains("mglint.toml") && err.contains("inside the input"),
        "{err}"
    );
    assert_eq!(after["settings"]["file"], serde_json::Value::Null);
}

#[test]
fn a_settings_file_found_implicitly_is_announced_and_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("mglint.toml"), "ignore = [\"UH002\"]\n").unwrap();
    let input = common::fixture("rules/UH002/fail");
    let input = input.to_str().unwrap();
    let (_, v, err) = analyze_in(tmp.path(), &[input]);
    assert!(err.contains("settings from"), "{err}");
    assert!(!codes(&v).contains(&"UH002".to_string()));
    assert!(
        v["settings"]["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("mglint.toml")),
        "{v}"
    );
    assert_eq!(v["settings"]["ignore"][0], "UH002");
    // --no-config: nothing read, nothing announced.
    let (_, v, err) = analyze_in(tmp.path(), &[input, "--no-config"]);
    assert!(!err.contains("settings from"), "{err}");
    assert!(codes(&v).contains(&"UH002".to_string()));
}

#[test]
fn a_retired_code_still_selects_what_replaced_it() {
    let input = common::fixture("rules/UH002/fail");
    let input = input.to_str().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (_, v, err) = analyze_in(tmp.path(), &[input, "--select", "CO002"]);
    assert_eq!(codes(&v), vec!["UH002".to_string()], "{err}");
    let o = common::mglint(&["explain", "CO002"]);
    let page = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(page.contains("retired") && page.contains("UH002"), "{page}");
}

#[test]
fn analyze_and_timeline_name_the_file_they_could_not_read_and_exit_2_unless_partial() {
    let tmp = tempfile::tempdir().unwrap();
    let mg = update_with_pools(tmp.path());
    let mg_s = mg.to_str().unwrap();
    // Intact: a complete report that passes, and a timeline, both exit 0.
    let o = common::mglint(&["analyze", mg_s]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("(passes at --fail-on error)"));
    let worker = find(&mg, "machineconfigpools/worker.yaml").pop().unwrap();
    let text = std::fs::read_to_string(&worker).unwrap();
    std::fs::write(
        &worker,
        &text[..cut_inside_a_quoted_value(&text, text.len() / 2)],
    )
    .unwrap();
    for verb in ["analyze", "timeline"] {
        for partial in [false, true] {
            let mut args = vec![verb, mg_s, "--format", "json"];
            if partial {
                args.push("--partial");
            }
            let o = common::mglint(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            // The note is printed either way; the exit says whether incomplete is accepted.
            assert!(
                err.contains("could not read")
                    && err.contains("worker.yaml")
                    && err.contains("(MachineConfigPool)"),
                "{args:?}: {err}"
            );
            assert_eq!(
                o.status.code(),
                Some(if partial { 0 } else { 2 }),
                "{args:?}: {err}"
            );
            assert_eq!(err.contains("pass --partial"), !partial, "{args:?}: {err}");
            // The JSON is written in both cases and carries the file.
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(
                v["unread"][0]["kind"], "MachineConfigPool",
                "{args:?}: {}",
                v["unread"]
            );
            assert!(
                v["unread"][0]["path"]
                    .as_str()
                    .unwrap()
                    .ends_with("worker.yaml"),
                "{}",
                v["unread"]
            );
        }
    }
    // The report also has the IN001 finding, and says "incomplete", never "passes".
    let o = common::mglint(&["analyze", mg_s, "--partial"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("(is incomplete at --fail-on error: 1 input file could not be read (IN001))"),
        "{out}"
    );
    assert!(!out.contains("passes at"), "{out}");
    assert!(out.contains("IN001"), "{out}");
    let o = common::mglint(&["analyze", mg_s, "--partial", "--format", "markdown"]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(
        md.contains("is incomplete at `--fail-on error` (1 input file could not be read: `IN001`)"),
        "{md}"
    );
    // JUnit: the inputs case fails, naming the file.
    let o = common::mglint(&["analyze", mg_s, "--partial", "--format", "junit"]);
    let xml = String::from_utf8_lossy(&o.stdout);
    let case = xml
        .split("<testcase")
        .find(|c| c.contains("[mglint] inputs can be read"))
        .unwrap();
    let case = &case[..case.find("</testcase>").unwrap_or(case.len())];
    assert!(
        case.contains("<failure") && case.contains("worker.yaml"),
        "{case}"
    );
}
