//! Text from the input never drives the terminal: a ClusterVersion condition message holding
//! a window-title sequence (`ESC]0;…BEL`), a clear-screen (`ESC[2J`) and colours reaches the
//! human report, `summary`, `timeline`, `replay` and `status` shown escaped (`\x1b`), with
//! colour on or off.

use crate::common;
use std::process::Command;

/// The UH003 failing must-gather with a hostile Failing message (YAML `\e` is ESC, `\a`
/// BEL).
fn hostile_input(dir: &std::path::Path) -> String {
    let evil = r#"message: "Cluster operator etcd is degraded \e]0;pwned\a\e[2J\e[31mred\e[0m""#;
    common::failing_update_with_message(dir, evil)
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// A must-gather whose node `ip-10-0-20-88…` has a hostile name (for `status`, whose tables
/// carry node names).
fn hostile_must_gather(dir: &std::path::Path) -> String {
    let to = dir.join("mg");
    copy_dir(&common::fixture("must-gather/fixed-cvo-rejected-4.14"), &to);
    let mut nodes = Vec::new();
    let mut stack = vec![to.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("ip-10-0-20-88")
            {
                nodes.push(p);
            }
        }
    }
    assert_eq!(nodes.len(), 1, "{nodes:?}");
    let text = std::fs::read_to_string(&nodes[0]).unwrap();
    let name = "name: ip-10-0-20-88.us-east-2.compute.internal";
    assert!(text.contains(name));
    let text = text.replace(name, r#"name: "ip-10-0-20-88\e]0;pwned\a\e[2J""#);
    std::fs::write(&nodes[0], text).unwrap();
    to.to_str().unwrap().to_string()
}

fn run(args: &[&str]) -> (String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn terminal_escapes_from_the_input_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let input = hostile_input(dir.path());
    let mg = hostile_must_gather(dir.path());
    let cases: [(&[&str], bool); 7] = [
        (
            &["analyze", &input, "--exit-zero", "--color", "never"],
            true,
        ),
        (
            &["analyze", &input, "--exit-zero", "--color", "always"],
            true,
        ),
        (&["summary", &input], false),
        (&["timeline", &input], true),
        (&["replay", &input], false),
        (&["status", &mg], true),
        (&["summary", &mg], false),
    ];
    for (args, shows_message) in cases {
        let (out, err) = run(args);
        // Ours: colour sequences (`ESC[…m`) with --color always. Never the input's.
        let raw = out.replace("\x1b[0m", "").replace("\x1b[1m", "");
        for bad in ["\x1b]", "\x07", "\x1b[2J", "\x1b[31mred"] {
            assert!(!raw.contains(bad), "{args:?} printed {bad:?} raw:\n{out}");
            assert!(
                !err.contains(bad),
                "{args:?} printed {bad:?} raw on stderr:\n{err}"
            );
        }
        if shows_message {
            assert!(
                out.contains(r"\x1b]0;pwned\x07\x1b[2J"),
                "{args:?}: not shown escaped:\n{out}"
            );
        }
    }
}

/// A cluster ID holding ESC, a newline and NUL (the ClusterVersion is the input's, not ours):
/// `summary` shows it on its own line, escaped, so no line of the summary is forged; and a
/// node name with ESC reaches `status --format markdown` escaped.
#[test]
fn a_hostile_cluster_id_or_node_name_is_shown_escaped_on_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(common::fixture("rules/CV005/pass/clusterversion.yaml")).unwrap();
    let at = text.find("clusterID: ").unwrap();
    let end = at + text[at..].find('\n').unwrap();
    let hostile = format!(
        "{}clusterID: \"abc\\e[31mRED\\nforged: line\\0\"{}",
        &text[..at],
        &text[end..]
    );
    let cv = tmp.path().join("cv.yaml");
    std::fs::write(&cv, hostile).unwrap();
    let o = common::mglint(&["summary", cv.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains('\u{1b}') && !out.contains('\0'), "{out:?}");
    assert!(!out.lines().any(|l| l.starts_with("forged")), "{out}");
    assert!(
        out.contains(r"cluster ID       abc\x1b[31mRED\x0aforged: line\x00"),
        "{out}"
    );
    // A node name with ESC, in status's Markdown.
    let mg = tmp.path().join("mg");
    copy_dir(&common::fixture("rules/UH005/fail"), &mg);
    let mut stack = vec![mg.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().contains("/core/nodes/") {
                let t: Vec<String> = std::fs::read_to_string(&p)
                    .unwrap()
                    .lines()
                    .map(|l| match l.strip_prefix("  name: ") {
                        Some(name) => format!("  name: \"\\e[2J{name}\""),
                        None => l.to_string(),
                    })
                    .collect();
                std::fs::write(&p, t.join("\n") + "\n").unwrap();
            }
        }
    }
    let o = common::mglint(&[
        "status",
        mg.to_str().unwrap(),
        "--format",
        "markdown",
        "--partial",
    ]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!md.contains('\u{1b}'), "{md:?}");
    assert!(
        md.contains(r"`\x1b[2Jip-"),
        "the node is listed, escaped, as a code span: {md}"
    );
}
