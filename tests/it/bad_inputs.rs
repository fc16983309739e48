//! The corrupted-input corpus in fixtures/bad/: each case lays one bad file over a good
//! must-gather (`_base`), and must produce the expected diagnostic naming that file while
//! the good parts are still read (and, once analysed, still produce their findings).

use crate::common;

use mglint::ingest::{IngestOptions, ingest};

#[test]
fn corrupted_input_corpus() {
    let bad = common::fixture("bad");
    let mut cases: Vec<_> = std::fs::read_dir(&bad)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_type().unwrap().is_dir() && !e.file_name().to_string_lossy().starts_with('_')
        })
        .map(|e| e.path())
        .collect();
    cases.sort();
    assert!(cases.len() >= 30, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let expect = std::fs::read_to_string(case.join("expect.txt")).unwrap();
        let mut lines = expect.lines();
        let want = lines.next().unwrap().to_string();
        let suffix = lines.next().unwrap().to_string();
        let dir = tempfile::tempdir().unwrap();
        common::copy_tree(&bad.join("_base"), dir.path());
        common::copy_tree(&case.join("files"), dir.path());
        let b = match ingest(
            &[dir.path().to_str().unwrap().to_string()],
            &IngestOptions::default(),
        ) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{name}: ingest failed: {e}"));
                continue;
            }
        };
        // The good parts are still there.
        let cv = b
            .objects
            .cluster_versions
            .iter()
            .find(|c| c.metadata.name == "version");
        if cv.map(|c| c.status.history.len()) != Some(3) {
            failures.push(format!("{name}: good ClusterVersion lost"));
        }
        if !b
            .objects
            .cluster_operators
            .iter()
            .any(|c| c.metadata.name == "dns")
        {
            failures.push(format!("{name}: good ClusterOperator lost"));
        }
        let about: Vec<_> = b
            .diagnostics
            .iter()
            .filter(|d| d.prov.file.path().ends_with(&suffix))
            .collect();
        if want == "-" {
            if !about.is_empty() {
                failures.push(format!(
                    "{name}: expected no diagnostic, got {:?}",
                    about.iter().map(|d| &d.reason).collect::<Vec<_>>()
                ));
            }
        } else if !about.iter().any(|d| d.reason.contains(&want)) {
            failures.push(format!(
                "{name}: expected a diagnostic on `…{suffix}` containing `{want}`, got {:?}",
                b.diagnostics
                    .iter()
                    .map(|d| format!("{}: {}", d.prov.file.path(), d.reason))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every case, as the binary runs it (`analyze -j 1`) under a 512 MiB address-space limit
/// (`prlimit --as`): no crash, exit 0 or 1, and JSON out. Time against `summary` is measured
/// by `bench/bad.sh`, not here.
#[cfg_attr(
    not(mglint_heavy),
    ignore = "heavy: MGLINT_TEST_ALL=1 or CI=true runs it"
)]
#[test]
fn every_case_runs_within_512_mib() {
    if !crate::common::heavy("every_case_runs_within_512_mib") {
        return;
    }
    let bad = common::fixture("bad");
    let mut failures = Vec::new();
    let mut n = 0;
    for e in std::fs::read_dir(&bad).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !e.file_type().unwrap().is_dir() || name.starts_with('_') {
            continue;
        }
        n += 1;
        let dir = tempfile::tempdir().unwrap();
        common::copy_tree(&bad.join("_base"), dir.path());
        common::copy_tree(&e.path().join("files"), dir.path());
        let out = super::robust_bounds::limited_json(512 << 20, "analyze", dir.path());
        let json = serde_json::from_slice::<serde_json::Value>(&out.stdout);
        if !matches!(out.status.code(), Some(0 | 1)) || json.is_err() {
            failures.push(format!(
                "{name}: {:?}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(n >= 40, "only {n} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
