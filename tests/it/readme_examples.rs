//! The README's examples, held to the binary: the quick start's output is what the command
//! prints, and every `mglint` command of its `sh` blocks runs as written (`must-gather.tar.gz`
//! being a packed fixture, `jobs.txt` a list of fixtures), with the exit code the README
//! gives and every file it names with `-o` written.

use crate::common;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(common::root().join("README.md")).unwrap()
}

/// The fenced blocks of a Markdown text whose info string is `lang`.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for l in text.lines() {
        match (&mut cur, l.strip_prefix("```")) {
            (None, Some(info)) if info.trim() == lang => cur = Some(String::new()),
            (Some(b), Some("")) => {
                out.push(std::mem::take(b));
                cur = None;
            }
            (Some(b), _) => {
                b.push_str(l);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_quick_start_prints_what_the_readme_shows() {
    let readme = readme();
    let shown = blocks(&readme, "text")
        .into_iter()
        .next()
        .expect("the quick start shows its output");
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args([
            "analyze",
            "fixtures/must-gather/seed1-blocked",
            "--exit-zero",
        ])
        .current_dir(common::root())
        .env("COLUMNS", "100")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with(&shown),
        "the README's quick-start output is not what the command prints:\n{out}"
    );
    assert!(
        readme.contains(
            "cargo run --release -- analyze fixtures/must-gather/seed1-blocked --exit-zero"
        )
    );
}

#[test]
fn every_mglint_command_of_the_readme_runs_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let tar = common::tar_dir(
        &common::fixture("must-gather/seed1-blocked"),
        "seed1-blocked",
    );
    std::fs::write(dir.path().join("must-gather.tar.gz"), common::gzip(&tar)).unwrap();
    std::fs::write(
        dir.path().join("jobs.txt"),
        format!(
            "# two fixtures\n{}\n{}\n",
            common::fixture("must-gather/seed1-blocked").display(),
            common::fixture("ci/seed2-rollback-4.3").display()
        ),
    )
    .unwrap();
    let mut ran = 0;
    for block in blocks(&readme(), "sh") {
        for line in block.lines() {
            let cmd = line.split("  #").next().unwrap().trim();
            let Some(rest) = cmd.strip_prefix("mglint ") else {
                continue;
            };
            let args: Vec<&str> = rest.split_whitespace().collect();
            let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
                .args(&args)
                .current_dir(dir.path())
                .env("NO_COLOR", "1")
                .output()
                .unwrap();
            let code = o.status.code();
            assert!(
                matches!(code, Some(0 | 1)),
                "`{cmd}` exited {code:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            for w in args.windows(2) {
                if matches!(w[0], "-o" | "--output") {
                    let p = dir.path().join(w[1].rsplit('=').next().unwrap());
                    assert!(
                        std::fs::metadata(&p).is_ok_and(|m| m.len() > 0),
                        "`{cmd}` did not write {}",
                        p.display()
                    );
                }
            }
            ran += 1;
        }
    }
    assert!(
        ran >= 10,
        "only {ran} commands found in the README's sh blocks"
    );
}

#[test]
fn the_settings_file_example_of_the_docs_works_as_written() {
    let doc = std::fs::read_to_string(common::root().join("docs/commands.md")).unwrap();
    let toml = blocks(&doc, "toml")
        .into_iter()
        .next()
        .expect("docs/commands.md shows a mglint.toml");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mglint.toml"), toml).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["analyze", "--format", "json"])
        .arg(common::fixture("must-gather/seed1-blocked"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{err}");
    assert!(err.contains("settings from"), "{err}");
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        report["settings"]["select"],
        serde_json::json!(["CV", "CO"])
    );
}
