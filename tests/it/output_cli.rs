//! The CLI as users meet it: the format inferred from `-o`'s extension (and `--format`
//! winning, an unknown extension a usage error), `--color` with the usual environment
//! conventions, `-q`, completions and the man page, `--help` with examples, exit codes and
//! human-readable defaults, `mglint explain` rendered for the terminal, batch exit codes.

use crate::common;
use std::path::Path;
use std::process::{Command, Output};

const BLOCKED: &str = "fixtures/must-gather/seed1-blocked";

/// The binary with a clean colour environment plus `env`.
fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mglint"));
    c.current_dir(common::root()).args(args);
    for k in [
        "NO_COLOR",
        "CLICOLOR_FORCE",
        "CLICOLOR",
        "COLUMNS",
        "TERM",
        "CI",
    ] {
        c.env_remove(k);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run mglint")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn p(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

#[test]
fn the_format_comes_from_the_extension_unless_format_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("r.json", "\"schema\": \"mglint/report/v2\""),
        ("r.xml", "<testsuites name=\"mglint\""),
        ("r.sarif", "\"version\": \"2.1.0\""),
        ("r.sarif.json", "\"version\": \"2.1.0\""),
        ("r.md", "# mglint report"),
        ("r.html", "<!DOCTYPE html>"),
        ("r.txt", "error[CV002]"),
    ];
    for (name, marker) in cases {
        let o = run(
            &[
                "analyze",
                BLOCKED,
                "--exit-zero",
                "-o",
                &p(dir.path(), name),
            ],
            &[],
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert!(
            text.contains(marker),
            "{name} is not the right format:\n{}",
            &text[..200.min(text.len())]
        );
    }
    // --format wins over the extension, for -o and --output alike.
    let o = run(
        &[
            "analyze",
            BLOCKED,
            "--exit-zero",
            "--format",
            "json",
            "--output",
            &p(dir.path(), "x.txt"),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        std::fs::read_to_string(dir.path().join("x.txt"))
            .unwrap()
            .starts_with('{')
    );
    // FORMAT=PATH names the format whatever the extension.
    let o = run(
        &[
            "analyze",
            BLOCKED,
            "--exit-zero",
            "--output",
            &format!("junit={}", p(dir.path(), "j.out")),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        std::fs::read_to_string(dir.path().join("j.out"))
            .unwrap()
            .starts_with("<?xml")
    );
    // An extension that names no format is a usage error, and nothing is written.
    let o = run(&["analyze", BLOCKED, "-o", &p(dir.path(), "r.bin")], &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--format") && err.contains("r.bin"), "{err}");
    assert!(!dir.path().join("r.bin").exists());
    // The other verbs infer too.
    let o = run(&["summary", BLOCKED, "-o", &p(dir.path(), "s.json")], &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        std::fs::read_to_string(dir.path().join("s.json"))
            .unwrap()
            .contains("mglint/summary/v2")
    );
    let o = run(&["timeline", BLOCKED, "-o", &p(dir.path(), "t.json")], &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        std::fs::read_to_string(dir.path().join("t.json"))
            .unwrap()
            .contains("mglint/timeline/v2")
    );
    assert_eq!(
        run(&["timeline", BLOCKED, "-o", &p(dir.path(), "t.csv")], &[])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let esc = |o: &Output| o.stdout.contains(&0x1b);
    let args = ["analyze", BLOCKED, "--exit-zero", "--select", "CV002"];
    // Standard output is a pipe here: auto means no colour, always means colour.
    assert!(!esc(&run(&args, &[])));
    let mut always = args.to_vec();
    always.extend(["--color", "always"]);
    assert!(esc(&run(&always, &[])));
    assert!(
        esc(&run(&always, &[("NO_COLOR", "1")])),
        "--color always wins over NO_COLOR"
    );
    let mut never = args.to_vec();
    never.extend(["--color", "never"]);
    assert!(!esc(&run(&never, &[("CLICOLOR_FORCE", "1")])));
    // CLICOLOR_FORCE turns auto on even in a pipe; NO_COLOR turns it off again.
    assert!(esc(&run(&args, &[("CLICOLOR_FORCE", "1")])));
    assert!(!esc(&run(
        &args,
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    assert!(!esc(&run(&args, &[("TERM", "dumb")])));
    // CLICOLOR_FORCE=0 is "not forced" (as `--help` says), not "forced".
    assert!(!esc(&run(&args, &[("CLICOLOR_FORCE", "0")])));
    // `--format text` is the human view, as every other command calls it.
    let mut text = args.to_vec();
    text.extend(["--format", "text"]);
    let (t, h) = (run(&text, &[]), run(&args, &[]));
    assert_eq!(t.status.code(), h.status.code());
    assert_eq!(t.stdout, h.stdout);
}

#[test]
fn quiet_prints_nothing_but_keeps_the_exit_code() {
    let o = run(&["analyze", BLOCKED, "-q"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        o.stdout.is_empty() && o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(&["analyze", "/no/such/input", "-q"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("/no/such/input"),
        "errors still show"
    );
}

#[test]
fn completions_and_man_page_are_generated() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let o = run(&["completions", shell], &[]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let s = stdout(&o);
        // fish spells a long option `-l fail-on`; the others `--fail-on`.
        assert!(
            s.contains("mglint") && s.contains("analyze") && s.contains("fail-on"),
            "{shell}"
        );
    }
    let o = run(&["man"], &[]);
    assert_eq!(o.status.code(), Some(0));
    let man = stdout(&o);
    assert!(
        man.starts_with(".ie") || man.contains(".TH mglint"),
        "{}",
        &man[..200]
    );
    assert!(man.contains("analyze"));
}

#[test]
fn completion_offers_files_for_inputs_and_codes_for_select_ignore_and_explain() {
    let zsh = stdout(&run(&["completions", "zsh"], &[]));
    let line = |start: &str| {
        zsh.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no {start}:\n{zsh}"))
            .to_string()
    };
    // `explain CODE`, `--select` and `--ignore` offer the families and the codes.
    for start in ["':code -- Rule code", "'*--select=", "'*--ignore="] {
        let l = line(start);
        for code in ["ALL", " CV ", "CV002", "KI001"] {
            assert!(l.contains(code), "{start} does not offer {code}: {l}");
        }
    }
    // Inputs complete as files.
    assert!(
        line("'*::inputs -- Must-gather").ends_with(":_files' \\"),
        "{zsh}"
    );
    // bash offers the codes to `explain` too.
    let bash = stdout(&run(&["completions", "bash"], &[]));
    let explain = bash
        .split("mglint__subcmd__explain)")
        .nth(1)
        .and_then(|t| t.lines().nth(1))
        .unwrap_or("");
    assert!(
        explain.contains("CV002") && explain.contains("KI001"),
        "{explain}"
    );
}

#[test]
fn man_dir_writes_a_page_per_command_that_man_reads() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&["man", "--dir", dir.path().to_str().unwrap()], &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let pages: std::collections::BTreeSet<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    for want in [
        "mglint.1",
        "mglint-analyze.1",
        "mglint-status.1",
        "mglint-rules-check.1",
    ] {
        assert!(pages.contains(want), "{want}: {pages:?}");
    }
    // Every page another names in SEE ALSO exists.
    let see = regex::Regex::new(r"\\fB(mglint[a-z-]*)\\fR\((\d)\)").unwrap();
    for p in &pages {
        let text = std::fs::read_to_string(dir.path().join(p)).unwrap();
        assert!(text.contains(".TH"), "{p}");
        for c in see.captures_iter(&text) {
            let name = format!("{}.{}", &c[1], &c[2]);
            assert!(pages.contains(&name), "{p} refers to {name}, not written");
        }
    }
    // man itself renders one (when it is installed).
    if std::path::Path::new("/usr/bin/man").exists() {
        let o = std::process::Command::new("man")
            .args(["-l", "-P", "cat"])
            .arg(dir.path().join("mglint-analyze.1"))
            .env("MANWIDTH", "80")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success() && text.contains("--fail-on"), "{text}");
    }
}

/// A link planted at a page's name (pointing outside the directory) is replaced by the
/// page; the file it pointed at is untouched.
#[test]
fn man_dir_replaces_a_planted_link_and_leaves_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    let dir = tmp.path().join("man1");
    std::fs::create_dir(&dir).unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("mglint-analyze.1")).unwrap();
    let o = run(&["man", "--dir", dir.to_str().unwrap()], &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let page = dir.join("mglint-analyze.1");
    assert!(!std::fs::symlink_metadata(&page).unwrap().is_symlink());
    assert!(std::fs::read_to_string(&page).unwrap().contains(".TH"));
}

#[test]
fn help_has_examples_exit_codes_environment_and_readable_defaults() {
    let top = stdout(&run(&["--help"], &[]));
    for want in [
        "Examples:",
        "Exit codes:",
        "Environment:",
        "NO_COLOR",
        "SSL_CERT_FILE",
        "--color",
    ] {
        assert!(top.contains(want), "mglint --help lacks {want}");
    }
    let analyze = stdout(&run(&["analyze", "--help"], &[]));
    for want in [
        "Examples:",
        "Exit codes:",
        "[default: 64 GiB]",
        "[default: 2 GiB]",
        "Remote inputs",
        "--threads",
    ] {
        assert!(analyze.contains(want), "analyze --help lacks {want}");
    }
    assert!(!analyze.contains("68719476736"));
    let batch = stdout(&run(&["batch", "--help"], &[]));
    assert!(
        batch.contains("-j, --threads") && batch.contains("Exit codes:"),
        "{batch}"
    );
    // Sizes are read as people write them.
    let o = run(
        &[
            "summary",
            BLOCKED,
            "--max-file-bytes",
            "512MiB",
            "--max-archive-bytes",
            "8 GiB",
        ],
        &[],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn explain_renders_the_page_for_the_terminal() {
    let o = run(&["explain", "CV002"], &[("COLUMNS", "80")]);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(
        page.starts_with("CV002 reconcile-stalled-on-preconditions\n"),
        "{page}"
    );
    assert!(page.contains("\nWhat it flags\n"));
    for raw in ["## ", "```", "**", "\n---"] {
        assert!(!page.contains(raw), "raw Markdown `{raw}` left:\n{page}");
    }
    // Prose is wrapped at COLUMNS; code blocks (indented) and a lone URL are never broken.
    let long: Vec<&str> = page
        .lines()
        .filter(|l| l.chars().count() > 80)
        .filter(|l| !l.starts_with("    ") && l.split_whitespace().count() > 2)
        .collect();
    assert!(long.is_empty(), "prose lines over 80 columns: {long:#?}");
}

#[test]
fn batch_exit_codes_say_whether_inputs_could_be_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let rows = p(dir.path(), "rows.jsonl");
    let ok = common::fixture("files/cv-4.3-verification.yaml");
    let ok = ok.to_str().unwrap();
    let blocked = common::fixture("must-gather/seed1-blocked");
    let blocked = blocked.to_str().unwrap();
    let code = |args: &[&str]| {
        let mut a = vec!["batch", "-o", rows.as_str(), "--no-progress"];
        a.extend(args);
        run(&a, &[]).status.code()
    };
    assert_eq!(
        code(&[ok, blocked]),
        Some(0),
        "findings alone do not fail a batch"
    );
    assert_eq!(
        code(&[ok, blocked, "--fail-on", "error"]),
        Some(1),
        "unless --fail-on is given"
    );
    assert_eq!(code(&[ok, "/no/such/a"]), Some(1), "some input errored");
    assert_eq!(
        code(&["/no/such/a", "/no/such/b"]),
        Some(2),
        "every input errored"
    );
    assert_eq!(code(&["-j", "1", ok]), Some(0));
    assert_eq!(code(&["--jobs", "1", ok]), Some(0), "--jobs stays an alias");
}
