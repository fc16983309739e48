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
