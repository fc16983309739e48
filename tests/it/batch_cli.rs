//! `mglint batch` through the binary over job directories generated from the fixtures (the two
//! CI jobs with distinct build ids, the three must-gathers) plus bad inputs: a missing path,
//! an empty directory, truncated archives. Rows, input order, error rows, thread-count
//! independence, shards that cover the list exactly once, and `--resume`.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The count of one code in a row's `codes` list (0 when absent).
fn code(r: &Value, code: &str) -> u64 {
    count(r, "codes", "code", code)
}

/// The count of one episode kind in a row's `episodes` list (0 when absent).
fn kind(r: &Value, kind: &str) -> u64 {
    count(r, "episodes", "kind", kind)
}

fn count(r: &Value, list: &str, key: &str, value: &str) -> u64 {
    r[list]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c[key] == value)
        .and_then(|c| c["count"].as_u64())
        .unwrap_or(0)
}

const FIXTURES: [&str; 5] = [
    "ci/seed2-rollback-4.3",
    "ci/modern-upgrade-4.14",
    "must-gather/seed1-blocked",
    "must-gather/seed1-returned",
    "must-gather/fixed-cvo-rejected-4.14",
];

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// Links (or copies) a directory tree; `prowjob.json` is rewritten with `build_id`.
fn copy_job(from: &Path, to: &Path, build_id: &str) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_job(&src, &dst, build_id);
        } else if e.file_name() == "prowjob.json" {
            let text = std::fs::read_to_string(&src).unwrap();
            let key = r#""build_id": ""#;
            let start = text.find(key).unwrap() + key.len();
            let end = start + text[start..].find('"').unwrap();
            let text = format!("{}{build_id}{}", &text[..start], &text[end..]);
            std::fs::write(&dst, text.as_bytes()).unwrap();
        } else if std::fs::hard_link(&src, &dst).is_err() {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

fn tar_gz_dir(dir: &Path, prefix: &str) -> Vec<u8> {
    let enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut b = tar::Builder::new(enc);
    b.append_dir_all(prefix, dir).unwrap();
    b.into_inner().unwrap().finish().unwrap()
}

/// What each generated input is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    Fixture(usize),
    Bad,
}

/// Generates `n` inputs in `root`: copies of the fixtures in turn, with bad inputs at
/// positions 7, 50, 99, 150 and 198 (missing path, empty directory, an archive cut in the
/// middle of an entry, an archive cut inside its first header, a missing path).
fn generate(root: &Path, n: usize) -> (Vec<String>, Vec<Expect>) {
    let mg = fixture("must-gather/seed1-blocked");
    let whole = tar_gz_dir(&mg, "must-gather.local.1");
    let (mut inputs, mut expect) = (Vec::new(), Vec::new());
    let mut copies = 0;
    for i in 0..n {
        let p = root.join(format!("job-{i:03}"));
        match i {
            7 | 198 => {}
            50 => std::fs::create_dir_all(&p).unwrap(),
            99 | 150 => {
                let cut = if i == 99 { whole.len() / 2 } else { 60 };
                let p = root.join(format!("job-{i:03}.tar.gz"));
                std::fs::write(&p, &whole[..cut]).unwrap();
                inputs.push(p.to_string_lossy().to_string());
                expect.push(Expect::Bad);
                continue;
            }
            _ => {
                let f = copies % FIXTURES.len();
                copy_job(&fixture(FIXTURES[f]), &p, &format!("{}", 1_900_000 + i));
                copies += 1;
                inputs.push(p.to_string_lossy().to_string());
                expect.push(Expect::Fixture(f));
                continue;
            }
        }
        inputs.push(p.to_string_lossy().to_string());
        expect.push(Expect::Bad);
    }
    (inputs, expect)
}

fn write_list(root: &Path, inputs: &[String]) -> PathBuf {
    let p = root.join("jobs.txt");
    let mut f = std::fs::File::create(&p).unwrap();
    writeln!(f, "# generated upgrade jobs\n").unwrap();
    for i in inputs {
        writeln!(f, "{i}").unwrap();
    }
    p
}

/// Runs mglint, asserting its exit code is one of `codes` (0: every input analysed, 1: some
/// input errored, 2: all did).
fn mglint(args: &[&str], codes: &[i32]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| codes.contains(&c)),
        "mglint {args:?} exited {:?}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn rows(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The number on the summary line that starts with `label`.
fn summary_value(summary: &str, label: &str) -> usize {
    summary
        .lines()
        .find_map(|l| {
            l.strip_prefix(label)
                .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or_else(|| panic!("no `{label}` line in the summary:\n{summary}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn batch_over_200_jobs_gives_200_rows_in_order_at_any_thread_count() {
    if !crate::common::heavy("batch_over_200_jobs_gives_200_rows_in_order_at_any_thread_count") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (inputs, expect) = generate(tmp.path(), 200);
    let list = write_list(tmp.path(), &inputs);
    let (one, two) = (tmp.path().join("j1.jsonl"), tmp.path().join("j2.jsonl"));
    let out1 = mglint(
        &[
            "batch",
            "--from",
            s(&list),
            "-j",
            "1",
            "--output",
            s(&one),
            "--summary",
        ],
        &[1],
    );
    let out2 = mglint(
        &["batch", "--from", s(&list), "-j", "2", "--output", s(&two)],
        &[1],
    );
    let (text1, text2) = (
        std::fs::read_to_string(&one).unwrap(),
        std::fs::read_to_string(&two).unwrap(),
    );
    assert!(text1 == text2, "rows differ between -j 1 and -j 2");
    // Not a terminal: no progress bar on standard error.
    for o in [&out1, &out2] {
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !err.contains("inputs,") && !err.contains('\r'),
            "progress drawn when piped: {err}"
        );
    }

    let rows = rows(&text1);
    assert_eq!(rows.len(), 200);
    let mut build_ids = std::collections::BTreeSet::new();
    for (i, (r, e)) in rows.iter().zip(&expect).enumerate() {
        assert_eq!(r["schema"], "mglint/batch/v2");
        assert_eq!(r["index"], i);
        assert_eq!(r["input"], inputs[i].as_str());
        let outcome = r["outcome"].as_str().unwrap();
        let errors = r["errors"].as_array().unwrap();
        match e {
            Expect::Bad => {
                assert_eq!(outcome, "error", "row {i}: {r}");
                assert!(!errors.is_empty(), "row {i}: {r}");
            }
            Expect::Fixture(f) => {
                assert_ne!(outcome, "error", "row {i}: {r}");
                assert!(errors.is_empty(), "row {i}: {r}");
                let codes = r["codes"].as_array().unwrap();
                let total: u64 = codes.iter().map(|c| c["count"].as_u64().unwrap()).sum();
                let sev = &r["summary"];
                let by_sev = ["errors", "warnings", "info"]
                    .iter()
                    .map(|k| sev[k].as_u64().unwrap())
                    .sum::<u64>();
                assert_eq!(total, by_sev, "row {i}: {r}");
                match *f {
                    0 | 1 => {
                        assert_eq!(r["kind"], "ci-job");
                        assert!(
                            build_ids.insert(r["build_id"].as_str().unwrap().to_string()),
                            "row {i}"
                        );
                        assert_eq!(r["build_id"], format!("{}", 1_900_000 + i).as_str());
                        assert_eq!(r["job_result"], "FAILURE");
                        assert_eq!(r["outcome"], "findings");
                        assert_eq!(code(r, "CI001"), 1, "row {i}: {r}");
                    }
                    _ => {
                        assert_eq!(r["kind"], "must-gather");
                        assert!(r["job"].is_null() && r["build_id"].is_null());
                    }
                }
                let u = &r["updates"][r["updates"].as_array().unwrap().len() - 1];
                match *f {
                    0 => {
                        assert_eq!(r["from"], "4.3.0-0.ci-2019-09-27-181735");
                        assert_eq!(r["to"], "4.3.0-0.ci-2019-09-27-182824");
                        assert_eq!(code(r, "CV001"), 1, "row {i}: {r}");
                        assert_eq!(
                            (u["duration_seconds"].as_i64(), u["state"].as_str()),
                            (Some(2587), Some("completed"))
                        );
                    }
                    1 => {
                        assert_eq!(
                            r["job"],
                            "periodic-ci-openshift-release-master-ci-4.14-upgrade-from-stable-4.14-e2e-aws-ovn-upgrade"
                        );
                        assert_eq!(
                            (r["from"].as_str(), r["to"].as_str()),
                            (Some("4.14.0"), Some("4.14.1"))
                        );
                        // 14:30:49 → 15:38:22
                        assert_eq!(
                            (u["duration_seconds"].as_i64(), u["state"].as_str()),
                            (Some(4053), Some("completed"))
                        );
                    }
                    2 => {
                        assert_eq!(r["outcome"], "findings");
                        assert_eq!(code(r, "CV002"), 1, "row {i}: {r}");
                        assert_eq!(
                            (u["from"].as_str(), u["to"].as_str()),
                            (Some("4.3.10"), Some("4.3.11"))
                        );
                        assert!(u["end"].is_null() && u["duration_seconds"].is_null());
                        assert_eq!(u["state"], "open");
                        assert_eq!(kind(r, "stall"), 1);
                    }
                    3 => {
                        assert_eq!(u["state"], "completed");
                        assert_eq!(
                            (u["from"].as_str(), u["to"].as_str()),
                            (Some("4.3.11"), Some("4.3.10"))
                        );
                        assert_eq!(kind(r, "cancel"), 1);
                    }
                    _ => assert_eq!(r["version"], "4.14.8"),
                }
            }
        }
    }
    assert_eq!(build_ids.len(), 78);
    let missing = &rows[7]["errors"];
    assert!(
        missing.to_string().contains("no such file or directory"),
        "{missing}"
    );
    let cut = &rows[99];
    assert_eq!(cut["kind"], "archive");
    assert!(cut["errors"].to_string().contains("truncated"), "{cut}");

    let summary = String::from_utf8_lossy(&out1.stdout);
    let count = |o: &str| rows.iter().filter(|r| r["outcome"] == o).count();
    assert_eq!(summary_value(&summary, "inputs"), 200);
    assert_eq!(summary_value(&summary, "errors"), 5);
    assert_eq!(summary_value(&summary, "ok"), count("ok"));
    assert_eq!(summary_value(&summary, "with findings"), count("findings"));
    assert_eq!(count("ok") + count("findings"), 195);
    // The code found in most inputs comes first, with its input and finding counts.
    let mut per_code: std::collections::BTreeMap<String, (usize, u64)> = Default::default();
    for r in &rows {
        for c in r["codes"].as_array().unwrap() {
            let e = per_code
                .entry(c["code"].as_str().unwrap().to_string())
                .or_default();
            e.0 += 1;
            e.1 += c["count"].as_u64().unwrap();
        }
    }
    let most = per_code.values().map(|v| v.0).max().unwrap();
    assert!(most >= 78, "{per_code:?}");
    let top = summary
        .lines()
        .skip_while(|l| !l.starts_with("top codes"))
        .nth(1)
        .unwrap_or("");
    let cols: Vec<&str> = top.split_whitespace().collect();
    assert_eq!(cols.len(), 3, "{summary}");
    assert_eq!(
        (per_code[cols[0]].0, per_code[cols[0]].1.to_string()),
        (most, cols[2].to_string()),
        "{summary}"
    );
    assert_eq!(cols[1], most.to_string());
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn batch_shards_cover_the_list_exactly_once() {
    if !crate::common::heavy("batch_shards_cover_the_list_exactly_once") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (inputs, _) = generate(tmp.path(), 200);
    let list = write_list(tmp.path(), &inputs);
    let mut from_shards: Vec<(u64, String)> = Vec::new();
    let mut shard_of = vec![u64::MAX; inputs.len()];
    for k in 0..3 {
        let out = tmp.path().join(format!("shard-{k}.jsonl"));
        mglint(
            &[
                "batch",
                "--from",
                s(&list),
                "--shard",
                &format!("{k}/3"),
                "--output",
                s(&out),
            ],
            &[0, 1],
        );
        let text = std::fs::read_to_string(&out).unwrap();
        let n = text.lines().count();
        assert!((40..=100).contains(&n), "shard {k}/3 has {n} of 200 rows");
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let i = v["index"].as_u64().unwrap();
            shard_of[i as usize] = k;
            from_shards.push((i, line.to_string()));
        }
    }
    from_shards.sort();
    let indices: Vec<u64> = from_shards.iter().map(|(i, _)| *i).collect();
    assert_eq!(
        indices,
        (0..200).collect::<Vec<u64>>(),
        "shards overlap or miss inputs"
    );
    for (i, line) in &from_shards {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["input"], inputs[*i as usize].as_str());
        // Each input's shard is FNV-1a-64 of its text modulo 3, whatever the rest of the list.
        assert!(
            mglint::batch::Shard {
                index: shard_of[*i as usize],
                count: 3
            }
            .contains(&inputs[*i as usize])
        );
    }
}

#[test]
fn batch_resume_skips_inputs_with_rows_and_appends() {
    let tmp = tempfile::tempdir().unwrap();
    let (inputs, _) = generate(tmp.path(), 12);
    let out = tmp.path().join("rows.jsonl");
    let fresh = tmp.path().join("fresh.jsonl");
    let mut args: Vec<&str> = vec!["batch", "--output", s(&fresh)];
    args.extend(inputs.iter().map(String::as_str));
    mglint(&args, &[1]);
    let fresh_text = std::fs::read_to_string(&fresh).unwrap();

    // A first run over the first 5 inputs, killed while writing the sixth row.
    let mut args: Vec<&str> = vec!["batch", "--output", s(&out)];
    args.extend(inputs[..5].iter().map(String::as_str));
    mglint(&args, &[0]);
    let first = std::fs::read_to_string(&out).unwrap();
    assert_eq!(first.lines().count(), 5);
    let torn = &fresh_text.lines().nth(5).unwrap()[..40];
    std::fs::OpenOptions::new()
        .append(true)
        .open(&out)
        .unwrap()
        .write_all(torn.as_bytes())
        .unwrap();
    // Inputs with a row are not read again: removing one changes nothing.
    std::fs::remove_dir_all(&inputs[0]).unwrap();

    let list = write_list(tmp.path(), &inputs);
    let o = mglint(
        &[
            "batch",
            "--from",
            s(&list),
            "--output",
            s(&out),
            "--resume",
            "--summary",
        ],
        &[1],
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("5 inputs already had a row"));
    let resumed = std::fs::read_to_string(&out).unwrap();
    assert!(
        resumed == fresh_text,
        "resumed output differs from one full run:\n{resumed}\n---\n{fresh_text}"
    );
    assert_eq!(
        summary_value(&String::from_utf8_lossy(&o.stdout), "inputs"),
        12
    );

    // Nothing left to do: the file stays as it is.
    mglint(
        &["batch", "--from", s(&list), "--output", s(&out), "--resume"],
        &[0],
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), fresh_text);
}

#[test]
fn batch_without_resume_overwrites_and_writes_rows_to_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    let good = fixture("ci/seed2-rollback-4.3");
    let missing = tmp.path().join("gone");
    let out = mglint(&["batch", s(&good), s(&missing), "--summary"], &[1]);
    let rows = rows(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (rows[0]["outcome"].as_str(), rows[1]["outcome"].as_str()),
        (Some("findings"), Some("error"))
    );
    // The summary goes to standard error when the rows go to standard output.
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(summary_value(&err, "with findings"), 1, "{err}");
    assert_eq!(summary_value(&err, "errors"), 1, "{err}");

    let file = tmp.path().join("rows.jsonl");
    std::fs::write(&file, "old\n").unwrap();
    mglint(&["batch", s(&missing), "-o", s(&file)], &[2]);
    assert_eq!(rows_in(&file), 1);
}

fn rows_in(p: &Path) -> usize {
    std::fs::read_to_string(p).unwrap().lines().count()
}

#[test]
fn batch_rejects_a_bad_shard_and_an_empty_list() {
    for (args, msg) in [
        (vec!["batch", "x", "--shard", "3/3"], "expected K/N"),
        (vec!["batch", "--from", "/dev/null"], "no inputs"),
        (vec!["batch", "x", "--resume"], "--output"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_mglint"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

/// Two writers of one rows file: the second is refused (the file is locked while a batch
/// writes it), so no row is written twice; once the first is done, `--resume` goes on.
#[test]
fn a_second_batch_on_a_locked_rows_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let rows = tmp.path().join("rows.jsonl");
    let input = crate::common::fixture("rules/CV005/pass");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_mglint"))
            .args(["batch", "--no-progress", "--resume", "-o"])
            .arg(&rows)
            .arg(&input)
            .output()
            .unwrap()
    };
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&rows)
        .unwrap();
    held.try_lock().unwrap();
    let o = run();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("another mglint batch is writing it"), "{err}");
    assert_eq!(std::fs::read_to_string(&rows).unwrap(), "");
    drop(held);
    let o = run();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&rows).unwrap().lines().count(),
        1,
        "resumed, not repeated"
    );
}

/// The column types duckdb infers for a JSON Lines file, as `name type` lines.
fn duckdb_types(path: &Path) -> Option<String> {
    let script = "import duckdb, sys\n\
        rows = duckdb.sql(f\"DESCRIBE SELECT * FROM read_json('{sys.argv[1]}', format='newline_delimited')\").fetchall()\n\
        print('\\n'.join(f'{r[0]} {r[1]}' for r in rows))\n";
    crate::common::python_with("duckdb", script, path)
}

#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn a_warehouse_types_every_column_once_whatever_the_rows() {
    if !crate::common::heavy("a_warehouse_types_every_column_once_whatever_the_rows") {
        return;
    }
    // 100 mixed rows (CI jobs, must-gathers, errors): duckdb gives each column one type, and
    // the same types for a shard of 3 rows as for all 100, so shards load into one table.
    let tmp = tempfile::tempdir().unwrap();
    let (inputs, _) = generate(tmp.path(), 100);
    let list = write_list(tmp.path(), &inputs);
    let all = tmp.path().join("all.jsonl");
    mglint(&["batch", "--from", s(&list), "--output", s(&all)], &[1]);
    let text = std::fs::read_to_string(&all).unwrap();
    let few = tmp.path().join("few.jsonl");
    let first: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&few, first.join("\n") + "\n").unwrap();
    let Some(types) = duckdb_types(&all) else {
        return;
    };
    let few_types = duckdb_types(&few).unwrap();
    let line = |t: &str, col: &str| {
        t.lines()
            .find(|l| l.starts_with(&format!("{col} ")))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no column {col}: {t}"))
    };
    assert!(
        line(&types, "codes").contains("STRUCT(code VARCHAR, count BIGINT)[]"),
        "{types}"
    );
    assert!(
        line(&types, "episodes").contains("STRUCT(kind VARCHAR, count BIGINT)[]"),
        "{types}"
    );
    assert!(!types.contains("MAP("), "{types}");
    assert!(
        line(&types, "updates").contains("duration_seconds BIGINT"),
        "{types}"
    );
    for col in [
        "codes", "episodes", "summary", "cluster", "index", "outcome",
    ] {
        assert_eq!(line(&types, col), line(&few_types, col), "{col}");
    }
}
