//! `--redact` replaces identifying values in every output format with stable placeholders,
//! and secret-looking values never reach any output.

use crate::common;

#[test]
fn redacted_outputs_share_placeholders_and_stay_valid() {
    let dir = tempfile::tempdir().unwrap();
    let mg = common::fixture("must-gather/seed1-blocked");
    let out = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    let o = common::mglint(&[
        "analyze",
        "--redact",
        mg.to_str().unwrap(),
        "--output",
        &format!("json={}", out("r.json")),
        "--output",
        &format!("sarif={}", out("r.sarif")),
        "--output",
        &format!("junit={}", out("r.xml")),
        "--output",
        &format!("markdown={}", out("r.md")),
    ]);
    assert!(
        o.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in ["r.json", "r.sarif", "r.xml", "r.md"] {
        let text = std::fs::read_to_string(dir.path().join(f)).unwrap();
        for secret in [
            "c42dd7e1-8f3b-4c9e-b2a6-5d71e0f4a913",
            "registry.svc.ci.openshift.org",
            "quay.io/openshift-release-dev",
            "ec2.internal",
        ] {
            assert!(!text.contains(secret), "{f} leaks `{secret}`");
        }
        assert!(text.contains("registry-1.example/ocp/release@sha256:edb4364367cff4f751ffdc032bc830a469548f998127b523047a8dd518c472cd"), "{f}");
    }
    // Formats stay parseable.
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(j["schema"], "mglint/report/v2");
    serde_json::from_str::<serde_json::Value>(
        &std::fs::read_to_string(dir.path().join("r.sarif")).unwrap(),
    )
    .unwrap();
}

#[test]
fn without_redact_values_are_shown_but_tokens_are_masked() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("cvo.log");
    std::fs::write(
        &log,
        "I0409 18:26:05.631324       1 sync_worker.go:1] Running sync 4.3.10 (force=false) on generation 1 in state Reconciling at attempt 0\n\
         E0409 18:26:06.000000       1 task.go:81] error running apply for secret \"openshift-config/pull-secret\" (5 of 498): Authorization: Bearer sha256~Zm9vYmFyYmF6cXV4MTIzNDU2 rejected\n\
         I0409 18:26:07.000000       1 task_graph.go:1] Result of work: [error running apply for secret \"openshift-config/pull-secret\" (5 of 498): Authorization: Bearer sha256~Zm9vYmFyYmF6cXV4MTIzNDU2 rejected]\n",
    )
    .unwrap();
    let o = common::mglint(&["timeline", log.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    // The error is shown (so the token would be, were it not masked).
    assert!(
        text.contains("openshift-config/pull-secret") && text.contains("Bearer <secret>"),
        "{text}"
    );
    assert!(!text.contains("Zm9vYmFyYmF6cXV4MTIzNDU2"), "{text}");
}

/// A cluster ID that is also a release (`4.14.5`, the running one): redaction keys on what
/// the dump says is identifying, but never on a value that would scrub every mention of a
/// release, which is not a secret and which every reader needs.
#[test]
fn a_cluster_id_equal_to_a_release_does_not_scrub_the_release() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(crate::common::fixture(
        "rules/CV005/pass/clusterversion.yaml",
    ))
    .unwrap();
    let at = text.find("clusterID: ").unwrap();
    let end = at + text[at..].find('\n').unwrap();
    let cv = tmp.path().join("cv.yaml");
    std::fs::write(
        &cv,
        format!("{}clusterID: 4.14.5{}", &text[..at], &text[end..]),
    )
    .unwrap();
    let o = crate::common::mglint(&["summary", "--redact", cv.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("current version  4.14.5"), "{out}");
    assert!(out.contains("Cluster version is 4.14.5"), "{out}");
}

/// Every format gives the same redacted names for the dump's own paths: the must-gather
/// directory and the API-group folders of evidence paths are kept in HTML, Markdown and the
/// terminal as in JSON (an evidence path written `path:line`, as those formats write it, was
/// taken for a registry pull spec, and the must-gather directory renamed to a
/// `registry-N.example` that does not exist).
#[test]
fn every_format_keeps_the_dumps_own_paths() {
    let dir = tempfile::tempdir().unwrap();
    let out = |ext: &str| dir.path().join(format!("r.{ext}"));
    let input = common::fixture("must-gather/seed1-blocked");
    let o = common::mglint(&[
        "analyze",
        input.to_str().unwrap(),
        "--redact",
        "--exit-zero",
        "-o",
        out("json").to_str().unwrap(),
        "-o",
        out("html").to_str().unwrap(),
        "-o",
        out("md").to_str().unwrap(),
        "-o",
        out("txt").to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let renamed = regex::Regex::new(
        r"(?:registry|domain)-\d+\.example/(?:clusteroperators|clusterversions|quay-io)|cluster-scoped-resources/(?:registry|domain)-\d+",
    )
    .unwrap();
    for ext in ["json", "html", "md", "txt"] {
        let text = std::fs::read_to_string(out(ext)).unwrap();
        let bad: Vec<&str> = renamed.find_iter(&text).map(|m| m.as_str()).collect();
        assert!(
            bad.is_empty(),
            "{ext} renames the dump's own paths: {bad:?}"
        );
        assert!(
            text.contains("must-gather.local.5682391746210987345"),
            "{ext} lost the must-gather directory's name"
        );
    }
}
