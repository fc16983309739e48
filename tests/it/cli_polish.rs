//! The command line as a newcomer meets it: completions that complete (run in bash, zsh and
//! fish themselves), human views wrapped to `COLUMNS`, one vocabulary of flags grouped under
//! the same headings in every verb, and every `-o` that was not written named on exit 2.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;

const SEED: &str = "fixtures/must-gather/seed1-blocked";

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mglint")
}

/// The completion script for `shell`, written into `dir`.
fn script(shell: &str, dir: &Path) -> PathBuf {
    let o = common::mglint(&["completions", shell]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p = dir.join(format!("mglint.{shell}"));
    std::fs::write(&p, &o.stdout).unwrap();
    p
}

/// Whether `shell` is installed; a note when it is not (`.ci/run` installs it, and under
/// `CI=true` its absence fails).
fn have(shell: &str) -> bool {
    let ok = Command::new(shell)
        .arg("-c")
        .arg("true")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{shell} is not installed (.ci/run installs it)"
        );
        eprintln!("note: {shell} not installed; its completion test is skipped");
    }
    ok
}

/// What bash's completion function offers for the words of a command line (the last one
/// being completed), run from the project's root.
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let prog = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD=$((${{#COMP_WORDS[@]}}-1))\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\nCOMP_POINT=${{#COMP_LINE}}\n_mglint mglint \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" ")
    );
    let o = Command::new("bash")
        .arg("-c")
        .arg(prog)
        .current_dir(common::root())
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn bash_completes_files_flags_and_rule_codes() {
    if !have("bash") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let s = script("bash", dir.path());
    // A path where an input goes: file names, never a lone `-` (every flag starts with one).
    assert_eq!(
        bash_complete(&s, &["mglint", "analyze", "fixtu"]),
        ["fixtures"]
    );
    assert_eq!(
        bash_complete(&s, &["mglint", "status", "fixtures/must-gather/seed1-bl"]),
        ["fixtures/must-gather/seed1-blocked"]
    );
    assert!(bash_complete(&s, &["mglint", "analyze", "--red"]) == ["--redact"]);
    let codes = bash_complete(&s, &["mglint", "explain", "CV00"]);
    assert!(
        codes.contains(&"CV002".to_string()) && codes.iter().all(|c| c.starts_with("CV00")),
        "{codes:?}"
    );
    assert_eq!(
        bash_complete(&s, &["mglint", "analyze", "--select", "UH00"]).len(),
        8
    );
    assert_eq!(
        bash_complete(&s, &["mglint", "completions", "fi"]),
        ["fish"]
    );
    assert_eq!(bash_complete(&s, &["mglint", "ana"]), ["analyze"]);
}

#[test]
fn fish_completes_files_flags_and_rule_codes() {
    if !have("fish") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let s = script("fish", dir.path());
    let complete = |line: &str| -> Vec<String> {
        let o = Command::new("fish")
            .arg("--no-config")
            .arg("-c")
            .arg(format!("source '{}'; complete -C '{line}'", s.display()))
            .current_dir(common::root())
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| l.split('\t').next().unwrap_or("").to_string())
            .collect()
    };
    let codes = complete("mglint explain CV00");
    assert!(codes.contains(&"CV002".to_string()), "{codes:?}");
    assert!(complete("mglint explain KI00").contains(&"KI004".to_string()));
    assert_eq!(complete("mglint analyze fixtu"), ["fixtures/"]);
    assert!(complete("mglint analyze --red").contains(&"--redact".to_string()));
}

#[test]
fn zsh_completes_files_flags_and_rule_codes() {
    if !have("zsh") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let s = script("zsh", dir.path());
    // zsh completes only in an interactive line editor: one runs in a pseudo-terminal
    // (zsh/zpty), the line is typed with a tab, and the screen is read back until the
    // expected text shows (at most 30 s; the test asserts what is shown, not how fast).
    let driver = dir.path().join("drive.zsh");
    std::fs::write(
        &driver,
        r#"zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT='> '; autoload -U compinit; compinit -u -D"
zpty -w z "source $2; compdef _mglint mglint; LISTMAX=100000; setopt NO_BEEP"
zpty -w -n z "$1"$'\t'
local out line
for i in {1..60}; do
  sleep 0.5
  while zpty -r -t z line; do out+=$line; done
  [[ $out == *$3* ]] && break
done
print -r -- "$out"
zpty -d z
"#,
    )
    .unwrap();
    let shown = |line: &str, expect: &str| -> String {
        let o = Command::new("zsh")
            .arg("-f")
            .arg(&driver)
            .arg(line)
            .arg(&s)
            .arg(expect)
            .current_dir(common::root())
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).replace('\r', "")
    };
    let codes = shown("mglint explain CV00", "CV009");
    assert!(
        codes.contains("CV002") && codes.contains("CV009"),
        "{codes}"
    );
    let files = shown("mglint analyze fixtu", "fixtures");
    assert!(files.contains("mglint analyze fixtures"), "{files}");
}

/// The widest line of a text, in characters.
fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn every_human_view_wraps_to_columns_and_a_pipe_keeps_whole_lines() {
    let views: [&[&str]; 5] = [
        &["summary", SEED],
        &["timeline", SEED],
        &["replay", SEED],
        &["rules"],
        &["explain", "CV002"],
    ];
    for args in views {
        let run = |columns: Option<&str>| {
            let mut c = Command::new(bin());
            c.args(args).env("NO_COLOR", "1").env_remove("COLUMNS");
            if let Some(w) = columns {
                c.env("COLUMNS", w);
            }
            let o = c.output().unwrap();
            assert!(o.status.code().unwrap_or(9) <= 1, "{args:?}");
            String::from_utf8(o.stdout).unwrap()
        };
        let narrow = run(Some("60"));
        assert!(widest(&narrow) <= 60, "{args:?} at 60 columns:\n{narrow}");
        // Wrapping loses no word.
        let whole = run(None);
        let words = |t: &str| -> Vec<String> {
            t.split_whitespace()
                .map(str::to_string)
                .collect::<String>()
                .chars()
                .map(String::from)
                .collect()
        };
        assert_eq!(words(&narrow), words(&whole), "{args:?}");
    }
    // Piped without COLUMNS, a timeline row stays one line (grep sees one event a line).
    let o = Command::new(bin())
        .args(["timeline", SEED])
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    assert!(widest(&String::from_utf8_lossy(&o.stdout)) > 100);
}

#[test]
fn every_verb_takes_one_vocabulary_of_output_flags_under_one_heading() {
    let dir = tempfile::tempdir().unwrap();
    for verb in [
        "analyze",
        "summary",
        "timeline",
        "status",
        "recommend",
        "replay",
        "batch",
    ] {
        let help = String::from_utf8(common::mglint(&[verb, "-h"]).stdout).unwrap();
        let output = help
            .split("\nOutput:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("`{verb} -h` has no Output heading:\n{help}"));
        let output = output.split("\n\n").next().unwrap();
        for flag in ["--format", "--output", "--partial"] {
            assert!(output.contains(flag), "{verb}: {flag} not under Output");
        }
        // `human` and `text` name the same format everywhere; --partial is accepted.
        let out = dir.path().join(format!("{verb}.out"));
        for format in ["human", "text"] {
            // (`recommend -q` is oc's: only with `--version`, only that answer's error.)
            let mut args = vec![verb, SEED, "--format", format, "--partial"];
            if verb != "recommend" {
                args.push("--quiet");
            }
            args.extend(["-o", out.to_str().unwrap()]);
            let o = common::mglint(&args);
            assert!(
                o.status.code().unwrap_or(9) <= 1,
                "{verb} --format {format}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(std::fs::metadata(&out).unwrap().len() > 0, "{verb}");
        }
    }
}

#[test]
fn batch_partial_and_format_mean_what_they_mean_for_analyze() {
    // A must-gather whose worker pool file cannot be read (a string where a count belongs),
    // beside the intact one.
    let tmp = tempfile::tempdir().unwrap();
    let mg = tmp.path().join("mg");
    std::fs::create_dir_all(&mg).unwrap();
    common::copy_tree(Path::new(SEED), &mg);
    let worker = common::find(&mg, "/worker.yaml").pop().unwrap();
    let text = std::fs::read_to_string(&worker).unwrap();
    std::fs::write(
        &worker,
        text.replacen("machineCount: 3", "machineCount: three", 1),
    )
    .unwrap();
    let mg = mg.to_str().unwrap();
    // `analyze` exits 2 on it without --partial, answers with it.
    assert_eq!(
        common::mglint(&["analyze", mg, "-q"]).status.code(),
        Some(2)
    );
    assert!(
        common::mglint(&["analyze", mg, "-q", "--partial"])
            .status
            .code()
            .unwrap_or(9)
            <= 1
    );
    let rows_of = |extra: &[&str]| {
        let out = tmp.path().join("rows.jsonl");
        let mut args = vec!["batch", mg, SEED, "-o", out.to_str().unwrap()];
        args.extend(extra);
        let o = common::mglint(&args);
        let rows: Vec<serde_json::Value> = std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (o.status.code(), rows)
    };
    // Without --partial the damaged cluster is an error row (exit 1: one of two inputs).
    let (code, rows) = rows_of(&[]);
    assert_eq!(code, Some(1));
    assert_eq!(rows[0]["outcome"], "error", "{}", rows[0]);
    assert!(rows[0]["errors"].to_string().contains("worker.yaml"));
    assert_ne!(rows[1]["outcome"], "error", "{}", rows[1]);
    // With it the row keeps its answer and still names the file (exit 0: nothing errored).
    let (code, partial) = rows_of(&["--partial"]);
    assert_eq!(code, Some(0));
    assert_ne!(partial[0]["outcome"], "error", "{}", partial[0]);
    assert!(partial[0]["errors"].to_string().contains("worker.yaml"));
    assert_eq!(partial[0]["codes"], rows[0]["codes"]);
    assert_eq!(partial[1], rows[1]);

    // --format text: a line per cluster, its errors under it; `-o x.txt` picks it too.
    let o = common::mglint(&["batch", mg, SEED, "--format", "human"]);
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with(&format!("{mg}  error  4.3.10 to 4.3.11, 2 errors")),
        "{out}"
    );
    assert!(
        lines[1].starts_with("  ") && lines[1].contains("worker.yaml"),
        "{out}"
    );
    let seed_line = lines.iter().find(|l| l.starts_with(SEED)).unwrap();
    assert!(
        seed_line.contains(" errors, ") || seed_line.contains(" error, "),
        "{out}"
    );
    let txt = tmp.path().join("rows.txt");
    let o = common::mglint(&["batch", mg, SEED, "--partial", "-o", txt.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let written = std::fs::read_to_string(&txt).unwrap();
    assert!(
        written.starts_with(&format!("{mg}  ")) && !written.contains('{'),
        "{written}"
    );
    // JSON rows are what --resume reads back: not text.
    let o = common::mglint(&[
        "batch",
        SEED,
        "--format",
        "text",
        "--resume",
        "-o",
        txt.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
}

#[test]
fn exit_2_names_every_output_that_was_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("r.html");
    let json = dir.path().join("r.json");
    let o = common::mglint(&[
        "analyze",
        "/nonexistent/must-gather",
        "-o",
        html.to_str().unwrap(),
        "-o",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    // The JSON report is written (every rule skipped, with why); the HTML page is not, and
    // stderr says so.
    assert!(json.exists() && !html.exists());
    assert!(
        err.contains(&format!("`{}` was not written", html.display())),
        "{err}"
    );
    assert!(!err.contains(&format!("`{}` was not written", json.display())));
    let out = dir.path().join("s.txt");
    let o = common::mglint(&["summary", "/nonexistent", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("s.txt` was not written"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
