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

/// A URL password and a token in places only the views read: the update service's URL
/// (`recommend`'s `Upstream:`) and the desired release's pull spec.
const VIEW_SECRETS: [&str; 2] = ["Gr4phPassw0rd", "PullT0kenSecret77"];

/// The secrets of [`SECRETS`] and [`VIEW_SECRETS`] in `text`, escaped or not.
fn view_leaks(text: &str) -> Vec<&'static str> {
    let mut l = leaks(text);
    l.extend(VIEW_SECRETS.iter().filter(|s| text.contains(**s)));
    l
}

#[test]
fn status_recommend_summary_and_replay_mask_in_their_data() {
    // The views' models as the library builds them, and their renderings before any
    // rendered-text net (`mglint` applies one more on the way out): no secret in either.
    let dir = tempfile::tempdir().unwrap();
    let mg = hostile_must_gather(dir.path(), 0);
    let cv = common::find(&mg, "clusterversions/version.yaml")
        .pop()
        .unwrap();
    let text = std::fs::read_to_string(&cv).unwrap();
    let planted = text
        .replacen(
            "upstream: https://api.openshift.com/api/upgrades_info/v1/graph",
            "upstream: https://graphuser:Gr4phPassw0rd@updates.example.com/graph",
            1,
        )
        .replacen(
            "desired:\n",
            "desired:\n    url: https://errata.example.com/advisory?access_token=PullT0kenSecret77\n",
            1,
        );
    assert_ne!(planted, text);
    std::fs::write(&cv, planted).unwrap();
    let run = common::load(&[mg.to_string_lossy().into_owned()], &[]);
    let an = run.analysis();
    let b = &an.bundle;
    // The bundle keeps what was read: the rules and the reconciler judge the data itself.
    let read = format!("{:?}", b.cluster_version().unwrap().value);
    assert!(
        read.contains("Gr4phPassw0rd") && read.contains("PullT0kenSecret77"),
        "{read}"
    );
    let layout = mglint::vocab::text::JsonLayout::Pretty;

    let inputs = mglint::status::StatusInputs::from_bundle(b, None).unwrap();
    let a = mglint::status::assess(&inputs).unwrap();
    let status = [
        format!("{a:?}"),
        mglint::status::render_text(&a, mglint::status::Details::All),
        mglint::status::render_json(&a, layout),
        mglint::status::render_markdown(&a),
    ];

    let inputs = mglint::recommend::RecommendInputs::from_bundle(b).unwrap();
    let p = mglint::recommend::plan(&inputs);
    let opts = mglint::recommend::Options::default();
    let answer = mglint::recommend::render_text(&p, &opts);
    let recommend = [
        format!("{p:?}"),
        answer.out.clone(),
        answer.err.clone(),
        mglint::recommend::render_json(&p, &opts, layout),
        mglint::recommend::render_markdown(&p, &opts),
    ];

    let s = mglint::summary::summarize(b);
    let summary = [
        format!("{s:?}"),
        mglint::summary::render_text(&s),
        mglint::summary::render_json(&s, layout),
    ];

    let r = an.replay();
    let replay = [
        format!("{r:?}"),
        mglint::reconciler::replay::render_text(r),
        mglint::reconciler::replay::render_json(r, layout),
        mglint::reconciler::replay::scenario_yaml(r).unwrap(),
    ];

    for (view, texts) in [
        ("status", &status[..]),
        ("recommend", &recommend[..]),
        ("summary", &summary[..]),
        ("replay", &replay[..]),
    ] {
        for (i, t) in texts.iter().enumerate() {
            assert_eq!(view_leaks(t), Vec::<&str>::new(), "{view} #{i}:\n{t}");
        }
        // The planted values reached the view's model, masked.
        assert!(texts[0].contains("<secret>"), "{view}: nothing masked");
    }
    // What each view shows of them: the upstream URL without its password.
    assert!(
        answer
            .out
            .contains("https://graphuser:<secret>@updates.example.com/graph"),
        "{}",
        answer.out
    );
    assert!(status[1].contains("<secret>"), "{}", status[1]);
    assert!(summary[1].contains("<secret>"), "{}", summary[1]);
}
