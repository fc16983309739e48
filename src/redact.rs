//! Redaction of rendered output for sharing: cluster IDs, IP addresses, domains, node names,
//! image registries, AWS account IDs in ARNs and support case numbers in paths become stable
//! placeholders (the same value maps to the same placeholder within a run), and secret-looking
//! values (the shapes of [`crate::vocab::secrets`], masked already where they enter the
//! report) are masked again in every output, with or without `--redact`.
//!
//! It works on the rendered text of any format: placeholders are plain ASCII, so JSON, XML,
//! SARIF, Markdown and HTML stay valid.

use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

static UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
        .expect("static regex")
});
static IPV4: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b")
        .expect("static regex")
});
static IPV6: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:[0-9a-fA-F]{1,4}:){1,7}:(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})?|\b(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}\b")
        .expect("static regex")
});
/// A host named after its IPv4 address, as AWS names instances (`ip-10-0-22-225`): the
/// address is the secret, whether or not the host is a node of the dump (a bootstrap host
/// that took a leader lease is not). Matched inside identifiers (`ip-10-0-22-225_8a0a…`, a
/// leader-election holder identity), not inside a longer word or number.
static IP_HOST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^A-Za-z0-9-])(ip-(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:-(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})(?:[^A-Za-z0-9-]|$)")
        .expect("static regex")
});
/// An image pull spec's registry host (`host[:port]/`), when the host has a dot or a port.
static REGISTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b([a-zA-Z0-9][a-zA-Z0-9-]*(?:\.[a-zA-Z0-9][a-zA-Z0-9-]*)+(?::\d+)?)/[a-z0-9][a-z0-9._/-]*(?:@sha256:[0-9a-f]{64}|:[A-Za-z0-9._-]+)")
        .expect("static regex")
});
/// Host names with a common top-level domain (API group names are kept, see `KEEP`).
static DOMAIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+(?:com|net|org|io|internal|local|cloud|dev|info|biz|us|uk|de|fr|cn|jp|in|br|ca|au|eu|gov|edu|mil|xyz|app|ai|tech|online|site|corp|lan|intranet|example)\b")
        .expect("static regex")
});
/// Kubernetes/OpenShift API groups and project hosts that name types, not a customer.
const KEEP: &[&str] = &[
    "openshift.io",
    "k8s.io",
    "kubernetes.io",
    "coreos.com",
    "x-k8s.io",
    "metal3.io",
];

/// An AWS account ID in an ARN (`arn:aws:iam::123456789012:role/x`, 12 digits).
static ARN_ACCOUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\barn:aws[a-z-]*:[a-z0-9-]*:[a-z0-9-]*:(\d{12}):").expect("static regex")
});
/// A support case number (8 digits) in a path or a name: `/cases/03812345/`, `case-03812345`,
/// `case_03812345`, `case03812345`.
static CASE_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\bcases?[/_-]?(\d{8})\b").expect("static regex"));

/// Masks secret-looking values in a rendered text (see [`crate::vocab::secrets`], which
/// also masks them where they enter the report): the second net, which also finds them in
/// their escaped forms. Applied to every output.
pub fn scrub_secrets(text: &str) -> String {
    crate::vocab::secrets::mask_rendered(text).into_owned()
}

/// A redactor several outputs share (a run's outputs, its standard error, a batch's rows).
pub type SharedRedactor = std::sync::Arc<std::sync::Mutex<Redactor>>;

/// Whether `host` is a Kubernetes or OpenShift API group (or a project host) of [`KEEP`].
fn is_api_group(host: &str) -> bool {
    let h = host.to_ascii_lowercase();
    KEEP.iter()
        .any(|k| h == *k || h.ends_with(&format!(".{k}")))
}

/// Stable placeholder mapping for one run.
#[derive(Debug, Default)]
pub struct Redactor {
    map: BTreeMap<(&'static str, String), String>,
    counters: BTreeMap<&'static str, usize>,
    /// Exact strings the dump says identify the cluster (node names and their short forms,
    /// the infrastructure name, domains, API hosts), with the placeholder kind of each.
    names: Vec<(String, &'static str)>,
}

/// A value shorter than this is not learned (it would match inside ordinary words).
const MIN_NAME: usize = 3;
/// A cut value (`ip-10-0-13…`) is recognised from this many characters on.
const MIN_PREFIX: usize = 6;

impl Redactor {
    /// A redactor that also knows what the bundle says is identifying (see
    /// [`crate::app::identifying_names`]): those values are redacted wherever they appear.
    pub fn new(names: Vec<(&'static str, String)>) -> Self {
        let mut r = Redactor::default();
        r.learn_names(names);
        r
    }

    /// Adds values to redact wherever they appear (those of one more input). A node name
    /// with a domain is also learned without it (`ip-10-0-1-2.ec2.internal` → `ip-10-0-1-2`).
    pub fn learn_names(&mut self, names: Vec<(&'static str, String)>) {
        for (kind, n) in names {
            if kind == "node"
                && let Some((short, _)) = n.split_once('.')
                && short.len() >= MIN_NAME
            {
                self.names.push((short.to_string(), kind));
            }
            if n.len() >= MIN_NAME {
                self.names.push((n, kind));
            }
        }
        // Longest first, so `a.b.c` is replaced before `a`.
        self.names
            .sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
        self.names.dedup_by(|a, b| a.0 == b.0);
    }

    /// A learned value cut short by an ellipsis (`ci-ln-5ylibmb-d5…`): the text was
    /// shortened before it reached the redactor, so the cut part is replaced as the value
    /// it begins.
    fn cut_values(&mut self, text: &str) -> String {
        if !text.contains('…') || self.names.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (at, _) in text.match_indices('…') {
            let head = &text[last..at];
            let start = head
                .char_indices()
                .rev()
                .take_while(|(_, c)| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
                .last()
                .map_or(head.len(), |(i, _)| i);
            let token = &head[start..];
            let hit = (token.len() >= MIN_PREFIX)
                .then(|| {
                    self.names
                        .iter()
                        .find(|(n, _)| n.starts_with(token) && n.len() > token.len())
                        .cloned()
                })
                .flatten();
            out.push_str(&head[..start]);
            match hit {
                Some((n, kind)) => out.push_str(&self.placeholder(kind, &n)),
                None => out.push_str(token),
            }
            last = at;
        }
        out.push_str(&text[last..]);
        out
    }

    /// Replaces `value` where it is not part of a longer name (`master-2` is not replaced
    /// inside `rendered-master-20a8…`; `ip-10-0-1-2` is, in `ip-10-0-1-2_8a0a`).
    fn replace_word(&mut self, text: &str, value: &str, kind: &'static str) -> String {
        let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (at, _) in text.match_indices(value) {
            let end = at + value.len();
            if at < last
                || alnum(text[..at].chars().next_back())
                || alnum(text[end..].chars().next())
            {
                continue;
            }
            out.push_str(&text[last..at]);
            out.push_str(&self.placeholder(kind, value));
            last = end;
        }
        out.push_str(&text[last..]);
        out
    }

    fn placeholder(&mut self, kind: &'static str, value: &str) -> String {
        if let Some(p) = self.map.get(&(kind, value.to_string())) {
            return p.clone();
        }
        let n = self.counters.entry(kind).or_insert(0);
        *n += 1;
        let p = match kind {
            "domain" => format!("domain-{n}.example"),
            "registry" => format!("registry-{n}.example"),
            _ => format!("{kind}-{n}"),
        };
        self.map.insert((kind, value.to_string()), p.clone());
        p
    }

    fn replace(
        &mut self,
        text: &str,
        re: &Regex,
        kind: &'static str,
        group: usize,
        keep: impl Fn(&str, Option<char>) -> bool,
    ) -> String {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for c in re.captures_iter(text) {
            let Some(m) = c.get(group) else { continue };
            if keep(m.as_str(), text[m.end()..].chars().next()) {
                continue;
            }
            out.push_str(&text[last..m.start()]);
            let p = self.placeholder(kind, m.as_str());
            out.push_str(&p);
            last = m.end();
        }
        out.push_str(&text[last..]);
        out
    }

    /// Support case numbers: in a directory (`cases/03812345/`) the number becomes the
    /// placeholder (`cases/case-1/`), in a name (`case-03812345`) the name does (`case-1`).
    fn case_numbers(&mut self, text: &str) -> String {
        if !CASE_NUMBER.is_match(text) {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for c in CASE_NUMBER.captures_iter(text) {
            let (Some(whole), Some(digits)) = (c.get(0), c.get(1)) else {
                continue;
            };
            let from = if text[whole.start()..digits.start()].ends_with('/') {
                digits.start()
            } else {
                whole.start()
            };
            out.push_str(&text[last..from]);
            out.push_str(&self.placeholder("case", digits.as_str()));
            last = whole.end();
        }
        out.push_str(&text[last..]);
        out
    }

    /// Redacts one rendered output (and masks secrets).
    pub fn apply(&mut self, text: &str) -> String {
        let mut t = scrub_secrets(text);
        t = self.cut_values(&t);
        let names = self.names.clone();
        for (n, kind) in &names {
            if t.contains(n.as_str()) {
                t = self.replace_word(&t, n, kind);
            }
        }
        t = self.replace(&t, &IP_HOST, "node", 1, |_, _| false);
        // An API group is no registry: `config.openshift.io/clusteroperators/x.yaml:28` is an
        // evidence path and its line (HTML and the terminal write them so), not a pull spec.
        // Nor is a must-gather directory (`must-gather.local.5682…/quay-io-…`).
        t = self.replace(&t, &REGISTRY, "registry", 1, |h, _| {
            h.ends_with(".example")
                || is_api_group(h)
                || h.to_ascii_lowercase().starts_with("must-gather.")
        });
        t = self.replace(&t, &UUID, "cluster-id", 0, |_, _| false);
        t = self.replace(&t, &ARN_ACCOUNT, "account", 1, |_, _| false);
        t = self.case_numbers(&t);
        t = self.replace(&t, &IPV4, "ip", 0, |_, _| false);
        t = self.replace(&t, &IPV6, "ip", 0, |s, _| {
            !s.contains("::") && s.matches(':').count() < 7
        });
        t = self.replace(&t, &DOMAIN, "domain", 0, |d, next| {
            let d = d.to_ascii_lowercase();
            // `must-gather.local.123`, `file.local-x`: a name goes on, so this is no host.
            matches!(next, Some('.' | '-' | '_'))
                || d.starts_with("must-gather.")
                || d.ends_with(".example")
                || KEEP
                    .iter()
                    .any(|k| d == *k || d.ends_with(&format!(".{k}")))
        });
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_placeholders_across_formats() {
        let mut r = Redactor::new(vec![("node", "ip-10-0-135-16.ec2.internal".into())]);
        let a = r.apply("clusterID c42dd7e1-8f3b-4c9e-b2a6-5d71e0f4a913 node ip-10-0-135-16.ec2.internal at 10.0.135.16 image quay.io/openshift-release-dev/ocp-release@sha256:ec07f30d2659d3e279b16055331fc9c3c0ba99f313e5026fddb5a7b2d54c6eb6");
        assert!(
            !a.contains("c42dd7e1")
                && !a.contains("10.0.135.16")
                && !a.contains("quay.io")
                && !a.contains("ec2.internal"),
            "{a}"
        );
        assert!(
            a.contains("cluster-id-1")
                && a.contains("node-1")
                && a.contains("ip-1")
                && a.contains("registry-1.example/openshift-release-dev"),
            "{a}"
        );
        let b = r.apply(r#"{"cluster":"c42dd7e1-8f3b-4c9e-b2a6-5d71e0f4a913","api":"api.ci-op-x.origin-ci-int-aws.dev.rhcloud.com"}"#);
        assert!(b.contains("\"cluster-id-1\""), "{b}");
        assert!(b.contains("domain-1.example"), "{b}");
        assert!(serde_json::from_str::<serde_json::Value>(&b).is_ok());
    }

    #[test]
    fn arn_accounts_and_case_numbers_are_redacted() {
        let mut r = Redactor::new(Vec::new());
        let s = r.apply(
            "role arn:aws:iam::123456789012:role/installer read /cases/03812345/must-gather.tar.gz \
             and case-03812345, arn:aws:s3:::bucket kept",
        );
        assert_eq!(
            s,
            "role arn:aws:iam::account-1:role/installer read /cases/case-1/must-gather.tar.gz \
             and case-1, arn:aws:s3:::bucket kept"
        );
        // The same values give the same placeholders in the next output of the run.
        assert_eq!(
            r.apply("{\"p\":\"case_03812345\",\"a\":\"arn:aws-us-gov:sts::123456789012:assumed-role/x\"}"),
            "{\"p\":\"case-1\",\"a\":\"arn:aws-us-gov:sts::account-1:assumed-role/x\"}"
        );
    }

    #[test]
    fn api_groups_versions_and_times_are_kept() {
        let mut r = Redactor::new(Vec::new());
        let s = "must-gather.local.5682391746210987345/config.openshift.io/clusterversions/version.yaml 4.3.10 18:27:49 machineconfiguration.openshift.io sync_worker.go";
        assert_eq!(r.apply(s), s);
    }

    #[test]
    fn secrets_are_masked_always() {
        let s = scrub_secrets(
            r#"Authorization: Bearer sha256~abcdefghijklmnop {"auths":{"quay.io":{"auth":"dXNlcjpwYXNzd29yZA==","email":"a@b"}}} token=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlMTIz https://user:hunter2@mirror.example.com/x"#,
        );
        assert!(
            !s.contains("abcdefghijklmnop")
                && !s.contains("dXNlcjpwYXNzd29yZA")
                && !s.contains("eyJzdWIi")
                && !s.contains("hunter2"),
            "{s}"
        );
    }

    #[test]
    fn learned_values_short_forms_and_cut_values_are_redacted() {
        let mut r = Redactor::new(vec![
            ("node", "ip-10-0-22-225.ec2.internal".into()),
            ("infra", "ci-ln-5ylibmb-d5d6b-dfvr6".into()),
            (
                "domain",
                "ci-ln-5ylibmb-d5d6b.origin-ci-int-aws.dev.rhcloud.com".into(),
            ),
        ]);
        let s = r.apply(
            "ip-10-0-22-225_8a0a became leader; machine ci-ln-5ylibmb-d5d6b-dfvr6-master-0; \
             cut ci-ln-5ylib… and ip-10-0-22… api.ci-ln-5ylibmb-d5d6b.origin-ci-int-aws.dev.rhcloud.com",
        );
        for leak in ["ip-10-0-22", "5ylib", "dfvr6", "rhcloud"] {
            assert!(!s.contains(leak), "{leak} in {s}");
        }
        assert!(s.contains("infra-1-master-0"), "{s}");
        assert!(
            s.starts_with("node-") && s.contains("_8a0a became leader"),
            "{s}"
        );
        // A host named after its address is redacted though no node has that name (the
        // bootstrap host of the real AWS must-gather held the CVO's lease); the same host
        // gets the same placeholder, a longer word or number keeps it.
        let mut r = Redactor::new(Vec::new());
        let s = r.apply(
            "ip-10-0-22-225_8a0a97a1 became leader; ip-10-0-22-225_4e76 became leader; \
             zip-10-0-22-225 ip-10-0-22-2255 ip-10-0-22",
        );
        assert_eq!(
            s,
            "node-1_8a0a97a1 became leader; node-1_4e76 became leader; \
             zip-10-0-22-225 ip-10-0-22-2255 ip-10-0-22"
        );
        // Not inside a longer name.
        let mut r = Redactor::new(vec![("node", "master-2".into())]);
        assert_eq!(
            r.apply("rendered-master-20a8 on master-2"),
            "rendered-master-20a8 on node-1"
        );
    }
}

#[cfg(test)]
mod api_group_tests {
    use super::*;

    #[test]
    fn an_evidence_path_with_its_line_is_not_taken_for_a_pull_spec() {
        let mut r = Redactor::new(Vec::new());
        let path =
            "cluster-scoped-resources/config.openshift.io/clusteroperators/kube-apiserver.yaml:28";
        assert_eq!(r.apply(path), path);
        let root = "seed1/must-gather.local.5682391746210987345/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0e32:latest";
        assert_eq!(r.apply(root), root);
        // A real pull spec still is one.
        let spec = "quay.io/openshift-release-dev/ocp-release:4.14.8-x86_64";
        assert!(r.apply(spec).starts_with("registry-1.example/"));
    }
}
