use super::*;

/// `text` masked (plain, then rendered) keeps none of `secret` and keeps `kept`.
#[track_caller]
fn masks(text: &str, secret: &str, kept: &str) {
    let m = mask(text);
    assert!(!m.contains(secret), "`{secret}` left in {m}");
    assert!(m.contains(kept), "`{kept}` lost in {m}");
    assert!(m.contains(PLACEHOLDER), "{m}");
}

#[test]
fn pull_secret_auth_in_json_yaml_and_base64() {
    let auth = "dXNlcjpwYXNzd29yZDEyMzQ1Njc4OTA=";
    masks(
        &format!(r#"{{"auths":{{"quay.io":{{"auth":"{auth}","email":"a@b.c"}}}}}}"#),
        auth,
        r#""email":"a@b.c""#,
    );
    masks(
        &format!("auths:\n  quay.io:\n    auth: {auth}\n    email: a@b.c"),
        auth,
        "quay.io",
    );
    // The Docker config as a secret's data holds it: base64 of `{"auths":…`.
    let b64 = "eyJhdXRocyI6eyJxdWF5LmlvIjp7ImF1dGgiOiJkWE5sY2pwd1lYTnoifX19";
    masks(
        &format!(".dockerconfigjson: {b64}"),
        b64,
        ".dockerconfigjson",
    );
    masks(&format!("data {b64} end"), b64, "end");
    // Escaped JSON inside a message, rendered as JSON and as HTML.
    let escaped = format!(
        r#"{{"message":"pull secret {{\"auths\":{{\"quay.io\":{{\"auth\":\"{auth}\"}}}}}}"}}"#
    );
    let m = mask_rendered(&escaped);
    assert!(!m.contains(auth), "{m}");
    assert!(serde_json::from_str::<serde_json::Value>(&m).is_ok(), "{m}");
    let html = format!("<!DOCTYPE html><p>{{&quot;auth&quot;:&quot;{auth}&quot;}}</p>");
    let m = mask_rendered(&html);
    assert!(!m.contains(auth) && m.contains("&lt;secret&gt;"), "{m}");
    let xml = format!("<?xml version=\"1.0\"?><f m=\"{{&#34;auth&#34;:&#34;{auth}&#34;}}\"/>");
    let m = mask_rendered(&xml);
    assert!(!m.contains(auth) && !m.contains("<secret>"), "{m}");
}

#[test]
fn password_token_and_secret_keys() {
    masks("password: hunter2xyz", "hunter2xyz", "password: ");
    masks("db passwd=S3cr3t! next", "S3cr3t!", "next");
    masks(
        r#"{"client_secret":"abcDEF123456"}"#,
        "abcDEF123456",
        "client_secret",
    );
    masks(
        "access_token=ya29.A0ARrdaM-xyz&x=1",
        "ya29.A0ARrdaM",
        "access_token=",
    );
    masks(
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI",
        "aws_secret_access_key",
    );
}

#[test]
fn markdown_escapes_are_seen_through() {
    let m = mask_rendered(r"aws\_secret\_access\_key = wJalrXUtnFEMI\_K7MDENG/bPxRfiCY and more");
    assert!(
        !m.contains("wJalrXUtnFEMI") && !m.contains("K7MDENG"),
        "{m}"
    );
    assert!(m.ends_with(" and more"), "{m}");
}

#[test]
fn authorization_headers() {
    masks(
        "Authorization: Bearer sha256~Zm9vYmFyYmF6cXV4MTIz rejected",
        "Zm9vYmFyYmF6cXV4MTIz",
        "Bearer <secret> rejected",
    );
    masks(
        "Authorization: Basic dXNlcjpodW50ZXIy",
        "dXNlcjpodW50ZXIy",
        "Basic <secret>",
    );
}

#[test]
fn json_web_tokens() {
    masks(
        "id eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlMTIzNDU2 used",
        "eyJzdWIiOiJzeXN0ZW0ifQ",
        " used",
    );
}

#[test]
fn url_userinfo() {
    masks(
        "mirror https://admin:hunter2@mirror.example.com/ocp",
        "hunter2",
        "https://admin:<secret>@mirror.example.com/ocp",
    );
}

#[test]
fn pem_private_keys_over_lines_and_escaped() {
    let body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun";
    for kind in ["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "] {
        let block =
            format!("-----BEGIN {kind}PRIVATE KEY-----\n{body}\n-----END {kind}PRIVATE KEY-----");
        masks(&format!("key:\n{block}\ndone"), body, "done");
        // One line with `\n` escapes, as a JSON string holds it.
        let one = block.replace('\n', "\\n");
        masks(&format!("tls.key: {one} done"), body, " done");
        let json = format!(r#"{{"k":"{one}","n":1}}"#);
        let m = mask_rendered(&json);
        assert!(!m.contains(body), "{m}");
        assert!(serde_json::from_str::<serde_json::Value>(&m).is_ok(), "{m}");
    }
    // Cut before its end (evidence is one line of at most 300 bytes).
    masks(
        &format!("-----BEGIN RSA PRIVATE KEY-----\\n{body}…"),
        body,
        "BEGIN RSA",
    );
    // Base64-encoded, as a secret's `tls.key` holds it.
    masks(
        "tls.key: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB",
        "LS0tLS1CRUdJTiBSU0Eg",
        "tls.key",
    );
    // Line by line, keeping the lines: line numbers of a file stay right.
    let file = format!(
        "a: 1\nkey: |\n  -----BEGIN RSA PRIVATE KEY-----\n  {body}\n  {body}\n  -----END RSA PRIVATE KEY-----\nb: 2\n"
    );
    let m = mask_lines(&file).unwrap();
    assert!(!m.contains(body), "{m}");
    assert_eq!(m.lines().count(), file.lines().count());
    assert!(m.ends_with("-----END RSA PRIVATE KEY-----\nb: 2\n"), "{m}");
}

#[test]
fn aws_and_github_credentials() {
    masks(
        "key AKIAIOSFODNN7EXAMPLE used",
        "AKIAIOSFODNN7EXAMPLE",
        " used",
    );
    masks(
        "key ASIAY34FZKBOKMUTVV7A used",
        "ASIAY34FZKBOKMUTVV7A",
        " used",
    );
    for t in [
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "gho_16C7e42F292c6912E7710c838347Ae178B4a",
        "ghu_16C7e42F292c6912E7710c838347Ae178B4a",
        "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
        "ghr_16C7e42F292c6912E7710c838347Ae178B4a",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
    ] {
        masks(&format!("clone with {t} failed"), t, " failed");
    }
}

#[test]
fn kubeconfig_keys_and_tokens() {
    let kc = "users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=\n    token: sha256~k8sTOKENvalue0123456789\n";
    let m = mask_lines(kc).unwrap();
    assert!(
        !m.contains("LS0tLS1CRUdJTiBSU0Eg") && !m.contains("k8sTOKENvalue"),
        "{m}"
    );
    // The certificate is public: kept.
    assert!(
        m.contains("client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t"),
        "{m}"
    );
}

#[test]
fn ordinary_text_is_not_masked() {
    for s in [
        "quay.io/openshift-release-dev/ocp-release@sha256:ec07f30d2659d3e279b16055331fc9c3c0ba99f313e5026fddb5a7b2d54c6eb6",
        "clusterID: c42dd7e1-8f3b-4c9e-b2a6-5d71e0f4a913",
        "the tokenizer: failed on input",
        "secret not found",
        "error running apply for secret \"openshift-config/pull-secret\" (5 of 498)",
        "token: none",
        "reason: RetrievePayload",
        "Cluster operator authentication is degraded: OAuthServerDeploymentDegraded",
        "basic authentication failed",
        "bearer tokens are refreshed",
        "key: value",
    ] {
        assert_eq!(mask(s), s);
        assert_eq!(mask_rendered(s), s);
    }
}

/// Real ClusterVersion, operator and CVO log text from the fixtures and the corpus: nothing
/// in it is a secret, so nothing changes.
#[test]
fn real_cvo_and_cluster_version_text_is_unchanged() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mg = root.join("fixtures/must-gather/seed1-blocked/must-gather.local.5682391746210987345/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0e32607b7431e9805ad3d6d83bce6a591abe7830ad4f02c6e15b3de422cf0158");
    let mut files = vec![
        mg.join("cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"),
        mg.join("cluster-scoped-resources/config.openshift.io/clusteroperators/authentication.yaml"),
        mg.join("namespaces/openshift-cluster-version/pods/cluster-version-operator-7bbc4c5dcc-w287k/cluster-version-operator/cluster-version-operator/logs/current.log"),
        mg.join("namespaces/openshift-cluster-version/pods/cluster-version-operator-7bbc4c5dcc-w287k/cluster-version-operator/cluster-version-operator/logs/previous.log"),
    ];
    let corpus = root.join("../shared/corpus");
    if let Ok(dir) = std::fs::read_dir(&corpus) {
        files.extend(dir.flatten().map(|e| e.path()).filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            (n.starts_with("cv_") || n.starts_with("co_")) && p.is_file()
        }));
    }
    let mut read = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        read += 1;
        if let Some(m) = mask_lines(&text) {
            let diff: Vec<(&str, &str)> = text
                .lines()
                .zip(m.lines())
                .filter(|(a, b)| a != b)
                .take(3)
                .collect();
            panic!("{} changed: {diff:?}", f.display());
        }
    }
    assert!(read >= 4, "the fixtures were not found");
}
