//! Secrets are masked in the data, where they enter the report and the timeline, so that
//! every format gets the masked value whatever its escaping (JSON `\"`, HTML `&quot;`,
//! Markdown's backslashes), with or without `--redact`; and `--redact` reaches standard error.

use crate::common;
use std::path::{Path, PathBuf};

/// One value of each secret shape, as the dump holds it (the secret part is searched for).
const SECRETS: &[(&str, &str)] = &[
    (
        r#"{"auths":{"quay.io":{"auth":"cXVheXVzZXI6cXVheXBhc3M0NTY="}}}"#,
        "cXVheXVzZXI6cXVheXBhc3M0NTY",
    ),
    ("password=Hunter2Secret99", "Hunter2Secret99"),
    (
        "Authorization: Bearer sha256~BearerTok3nValue0000",
        "BearerTok3nValue0000",
    ),
    (
        "Authorization: Basic YmFzaWN1c2VyOmJhc2ljcGFzcw==",
        "YmFzaWN1c2VyOmJhc2ljcGFzcw",
    ),
    (
        "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06YWRtaW4ifQ.c2lnbmF0dXJlSldUMTIz",
        "eyJzdWIiOiJzeXN0ZW06YWRtaW4ifQ",
    ),
    (
        "https://mirroruser:Url0Passw0rd@mirror.example.com/ocp",
        "Url0Passw0rd",
    ),
    (
        r"-----BEGIN RSA PRIVATE KEY-----\nMIIEpemBodyPemBody0123456789abcdef\n-----END RSA PRIVATE KEY-----",
        "MIIEpemBodyPemBody0123456789abcdef",
    ),
    ("AKIAIOSFODNN7SECRET1", "AKIAIOSFODNN7SECRET1"),
    (
        "aws_secret_access_key=wJalrXUtnFEMIK7MDENGbPxRfiCYSECRETKEY1",
        "wJalrXUtnFEMIK7MDENGbPxRfiCYSECRETKEY1",
    ),
    (
        "ghp_GithubTokenValue0123456789abcdefABCDEF",
        "GithubTokenValue0123456789abcdefABCDEF",
    ),
    (
        "client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpDTElFTlRLRVk=",
        "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpDTElFTlRLRVk",
    ),
    (
        "token: sha256~KubeconfigTokenValue42",
        "KubeconfigTokenValue42",
    ),
    (
        ".dockerconfigjson: eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlIjp7fX19",
        "eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlIjp7fX19",
    ),
];

/// Where each secret goes: `(in the Progressing message, in the Upgradeable messages, in the
/// operator's message)`, as index ranges into [`SECRETS`], in two dumps (each place shows a
/// bounded part of its text: one evidence line holds at most 300 bytes).
const PLACES: [[std::ops::Range<usize>; 3]; 2] = [[0..4, 4..7, 7..9], [9..13, 0..0, 0..0]];

/// The `seed1-blocked` must-gather copied under `dir` (`cases/03812345/mg`, a support
/// case's path) with secrets (the `part` of [`PLACES`]) in the ClusterVersion's Progressing
/// message, in the Upgradeable messages of the ClusterVersion, the CVO log and the
/// kube-apiserver operator: each ends up in a finding's message or evidence (CV002, CV004,
/// CV016, CO005).
fn hostile_must_gather(dir: &Path, part: usize) -> PathBuf {
    let to = dir.join("cases/03812345/mg");
    std::fs::create_dir_all(&to).unwrap();
    common::copy_tree(&common::fixture("must-gather/seed1-blocked"), &to);
    let [progressing, upgradeable, operator] = PLACES[part].clone().map(|r| {
        SECRETS[r]
            .iter()
            .map(|(s, _)| *s)
            .collect::<Vec<_>>()
            .join(" ")
    });
    let progressing = format!("'Unable to apply 4.3.11: {progressing}'");
    let privileged = format!("[privileged] {operator}");
    let upgradeable =
        format!("Cluster operator kube-apiserver cannot be upgraded ({upgradeable}):");
    let mut stack = vec![to.clone()];
    let mut changed = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let new = text
                .replace(
                    "'Unable to apply 4.3.11: it may not be safe to apply this update'",
                    &progressing,
                )
                .replace("have mutated [privileged]", &privileged)
                .replace(
                    "Cluster operator kube-apiserver cannot be upgraded:",
                    &upgradeable,
                );
            if new != text {
                std::fs::write(&p, new).unwrap();
                changed += 1;
            }
        }
    }
    assert!(changed >= 3, "{changed} files changed");
    to
}

/// Where a secret is in `text`, also in its escaped forms (JSON and Markdown backslashes,
/// HTML and XML entities).
fn leaks(text: &str) -> Vec<&'static str> {
    let unescaped = text
        .replace('\\', "")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
        .replace("&#x2F;", "/")
        .replace("&#47;", "/");
    SECRETS
        .iter()
        .map(|(_, s)| *s)
        .filter(|s| text.contains(s) || unescaped.contains(s))
        .collect()
}

#[test]
fn no_format_shows_a_secret_with_or_without_redact() {
    for part in 0..PLACES.len() {
        let dir = tempfile::tempdir().unwrap();
        let mg = hostile_must_gather(dir.path(), part);
        no_secret_in_any_output(mg.to_str().unwrap());
    }
}

fn no_secret_in_any_output(mg: &str) {
    // The report as built, before any rendering, holds the placeholders and no secret: the
    // masking is in the data (the evidence snippets the human view prints included).
    let report = common::report(&[mg.to_string()], &[]);
    let model = serde_json::to_string(&report).unwrap();
    assert_eq!(
        leaks(&model),
        Vec::<&str>::new(),
        "the report holds secrets"
    );
    let snippets: String = report
        .findings
        .iter()
        .flat_map(|f| &f.evidence)
        .filter_map(|e| e.snippet.as_ref().map(|s| s.text.to_string()))
        .collect();
    assert_eq!(
        leaks(&snippets),
        Vec::<&str>::new(),
        "a snippet holds secrets"
    );
    assert!(model.contains("<secret>"), "no masked value: {model}");

    for format in ["human", "json", "junit", "markdown", "sarif", "html"] {
        for redact in [false, true] {
            let mut args = vec!["analyze", mg, "--partial", "--format", format];
            if redact {
                args.push("--redact");
            }
            let o = common::mglint(&args);
            let out = String::from_utf8_lossy(&o.stdout);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.code().is_some_and(|c| c <= 1), "{format}: {err}");
            assert!(out.contains("4.3.11"), "{format}: {out}");
            assert_eq!(leaks(&out), Vec::<&str>::new(), "{format} redact={redact}");
            assert_eq!(leaks(&err), Vec::<&str>::new(), "{format} stderr");
            match format {
                "json" | "sarif" => {
                    serde_json::from_str::<serde_json::Value>(&out).unwrap();
                }
                "junit" => assert!(!out.contains("<secret>"), "raw placeholder in XML"),
                _ => {}
            }
        }
    }

    // The other views of the same data.
    for args in [
        &["timeline", mg][..],
        &["timeline", mg, "--format", "json"],
        &["summary", mg],
        &["summary", mg, "--format", "json"],
        &["status", mg, "--partial"],
        &["status", mg, "--partial", "--format", "json"],
        &["status", mg, "--partial", "--format", "markdown"],
        &["recommend", mg, "--partial"],
        &["recommend", mg, "--partial", "--format", "json"],
        &["replay", mg],
    ] {
        let o = common::mglint(args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(leaks(&out), Vec::<&str>::new(), "{args:?}");
        assert_eq!(
            leaks(&String::from_utf8_lossy(&o.stderr)),
            Vec::<&str>::new(),
            "{args:?} stderr"
        );
    }
}

/// `--redact` applies to standard error too: the case number in the input path, in a note
/// naming an unreadable file, gets the placeholder it gets in the report.
#[test]
fn redact_reaches_standard_error_with_the_outputs_placeholders() {
    let dir = tempfile::tempdir().unwrap();
    let mg = hostile_must_gather(dir.path(), 0);
    let bad = std::fs::read_dir(&mg)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let bad = std::fs::read_dir(&bad)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .unwrap()
        .join("cluster-scoped-resources/config.openshift.io/clusteroperators/zz-broken.yaml");
    std::fs::write(
        &bad,
        "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata: {name: x\n  bad: [\n",
    )
    .unwrap();
    let mg = mg.to_str().unwrap();
    for verb in ["analyze", "timeline", "status", "recommend"] {
        let o = common::mglint(&[verb, "--redact", mg, "--format", "json"]);
        let err = String::from_utf8_lossy(&o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(err.contains("zz-broken.yaml"), "{verb}: {err}");
        assert!(!err.contains("03812345"), "{verb}: {err}");
        assert!(err.contains("/cases/case-1/mg/"), "{verb}: {err}");
        assert!(!out.contains("03812345"), "{verb}: {out}");
        // Without --redact the path is shown as it is.
        let o = common::mglint(&[verb, mg, "--format", "json"]);
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("/cases/03812345/mg/"),
            "{verb}"
        );
    }
    let o = common::mglint(&["analyze", "--redact", mg, "--partial", "--format", "json"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("/cases/case-1/mg"), "{out}");
    assert!(!out.contains("03812345"), "{out}");
}
