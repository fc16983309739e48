//! Unit tests of the page structure on small synthetic timelines and reports.

use super::*;
use crate::model::{Provenance, parse_rfc3339};
use crate::rules::{Counts, EvidenceItem, Finding, ObjectRef, SCHEMA, Severity, Tool};
use crate::timeline::{
    EventKind, EventSource, Evidence, Subject, TimelineEvent, condition_stretches,
};

fn t(s: &str) -> Time {
    parse_rfc3339(s).unwrap()
}

/// A condition transition of the ClusterOperator `operator`.
fn ev(time: &str, operator: &str, cond: &str, status: &str, msg: &str) -> TimelineEvent {
    let prov = Provenance::detached("in", "co.yaml").at(3, 0, 1);
    TimelineEvent::new(
        t(time),
        EventSource::ClusterOperator,
        Subject::ClusterOperator(operator.into()),
        EventKind::ConditionTransition {
            condition: cond.into(),
            status: status.into(),
            reason: String::new(),
        },
        msg,
        Evidence::new(prov, msg),
    )
}

fn timeline(events: Vec<TimelineEvent>, reference: &str) -> Timeline {
    Timeline {
        events,
        episodes: Vec::new(),
        passes: Vec::new(),
        instances: Vec::new(),
        history: Vec::new(),
        loads: Vec::new(),
        history_merges: Vec::new(),
        reference: Some(t(reference)),
        unread: Vec::new(),
        cluster: Default::default(),
        monitor: Default::default(),
        cvo_namespace: Default::default(),
    }
}

fn report(findings: Vec<Finding>) -> Report {
    Report {
        schema: SCHEMA,
        tool: Tool::default(),
        inputs: Vec::new(),
        input_errors: Vec::new(),
        absent: Vec::new(),
        collected_at: None,
        fail_on: Severity::Error,
        settings: Default::default(),
        unread: Vec::new(),
        cluster: Default::default(),
        summary: Counts::default(),
        findings,
        rules: Vec::new(),
        published_risks: Vec::new(),
        published_risks_commit: String::new(),
    }
}

fn finding(code: &'static str, msg: &str, at: &str, object: &str) -> Finding {
    Finding {
        code: code.into(),
        name: "operator-degraded".into(),
        severity: Severity::Error,
        category: "cluster-operator",
        message: msg.into(),
        object: ObjectRef::new("ClusterOperator", "", object),
        at: Some(t(at)),
        evidence: vec![EvidenceItem::new("in", "co.yaml", Some(3), msg)],
        help: "look".into(),
        references: vec!["https://example.com/x".into()],
        confidence: None,
        details: Default::default(),
    }
}

/// `data-lane` values of the rows drawn, in order.
fn lanes_of(html: &str) -> Vec<String> {
    html.split("data-lane=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn degraded_operator_gets_a_lane_and_healthy_ones_fold() {
    let tl = timeline(
        vec![
            ev("2023-11-03T14:00:00Z", "dns", "Available", "True", "ok"),
            ev(
                "2023-11-03T15:41:09Z",
                "authentication",
                "Degraded",
                "True",
                "route broken",
            ),
        ],
        "2023-11-03T16:00:00Z",
    );
    let html = render_html(
        &report(vec![]),
        &tl,
        &condition_stretches(&tl),
        &HtmlMeta::default(),
    );
    let lanes = lanes_of(&html);
    assert!(
        lanes.contains(&"co/authentication".to_string()),
        "{lanes:?}"
    );
    assert!(!lanes.contains(&"co/dns".to_string()));
    assert!(html.contains("data-quiet=\"co/dns\""));
    // The degraded span runs to the end of the data.
    assert!(html.contains("data-start=\"2023-11-03T15:41:09Z\" data-end=\"2023-11-03T16:00:00Z\" data-cond=\"Degraded=True\""));
}

#[test]
fn hostile_strings_are_escaped_everywhere() {
    let bad = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>";
    let tl = timeline(
        vec![ev("2023-11-03T15:41:09Z", bad, "Degraded", "True", bad)],
        "2023-11-03T16:00:00Z",
    );
    let rep = report(vec![finding(
        "UH002",
        &format!("`{bad}` is degraded: {bad}"),
        "2023-11-03T15:41:09Z",
        bad,
    )]);
    let meta = HtmlMeta {
        cluster_id: Some(bad.into()),
        inputs: vec![HtmlInput {
            name: bad.into(),
            kind: "file".into(),
            files_read: 1,
        }],
        ..HtmlMeta::default()
    };
    let html = render_html(&rep, &tl, &condition_stretches(&tl), &meta);
    assert!(!html.contains("<img"), "an element was injected");
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the page's own script"
    );
    // Every `onerror=` is inside escaped text (`&lt;img src=x onerror=…&gt;`).
    assert_eq!(
        html.matches("onerror=").count(),
        html.matches("&lt;img src=x onerror=alert(2)&gt;").count()
    );
    assert!(html.contains(
        "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"
    ));
}

#[test]
fn csp_allows_exactly_the_page_script() {
    let html = render_html(
        &report(vec![]),
        &timeline(vec![], "2023-11-03T16:00:00Z"),
        ConditionStretches::NONE,
        &HtmlMeta::default(),
    );
    let script = html
        .split("<script>")
        .nth(1)
        .and_then(|s| s.split("</script>").next())
        .unwrap();
    let hash = super::csp_hash(script);
    assert!(html.contains(&format!("script-src 'sha256-{hash}'")));
    // Known vectors (FIPS 180-2), base64 as CSP wants them.
    assert_eq!(
        super::csp_hash(""),
        "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
    );
    assert_eq!(
        super::csp_hash("abc"),
        "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
    );
    assert!(html.contains("default-src 'none'"));
}

#[test]
fn finding_marker_links_to_its_card_and_object_lane() {
    let tl = timeline(
        vec![ev(
            "2023-11-03T15:41:09Z",
            "authentication",
            "Degraded",
            "True",
            "x",
        )],
        "2023-11-03T16:00:00Z",
    );
    let rep = report(vec![finding(
        "UH002",
        "`authentication` is degraded",
        "2023-11-03T15:41:09Z",
        "authentication",
    )]);
    let html = render_html(&rep, &tl, &condition_stretches(&tl), &HtmlMeta::default());
    // Each mark links to the card and is named by its tooltip (for screen readers).
    let mark = regex::Regex::new(
        r##"<a href="#f-1" aria-label="[^"]+"><path class="mark diamond sev-error""##,
    )
    .unwrap();
    assert_eq!(mark.find_iter(&html).count(), 2);
    assert!(html.contains("<article class=\"finding sev-error\" id=\"f-1\""));
    assert!(html.contains("<code>authentication</code> is degraded"));
    assert!(html.contains("<a href=\"#rule-UH002\">"));
}

#[test]
fn empty_timeline_says_so() {
    let tl = Timeline {
        events: Vec::new(),
        episodes: Vec::new(),
        passes: Vec::new(),
        instances: Vec::new(),
        history: Vec::new(),
        loads: Vec::new(),
        history_merges: Vec::new(),
        reference: None,
        unread: Vec::new(),
        cluster: Default::default(),
        monitor: Default::default(),
        cvo_namespace: Default::default(),
    };
    let html = render_html(
        &report(vec![]),
        &tl,
        &condition_stretches(&tl),
        &HtmlMeta::default(),
    );
    assert!(html.contains("Nothing in the input could be placed in time."));
    assert!(html.contains("No findings."));
}

#[test]
fn tail_path_keeps_whole_last_segments() {
    use super::lane_model::tail_path;
    assert_eq!(tail_path("a/b.log:3", 90), "a/b.log:3");
    let long = "fixtures/must-gather/seed1-returned/must-gather.local.8127465039218475610/quay-io-x/namespaces/openshift-cluster-version/pods/cvo-7bbc/cluster-version-operator/cluster-version-operator/logs/current.log:8399";
    let t = tail_path(long, 90);
    assert!(
        t.starts_with("…/") && t.ends_with("/logs/current.log:8399"),
        "{t}"
    );
    assert!(t.len() <= 95, "{t}");
    // One segment longer than the limit is kept whole.
    assert_eq!(
        tail_path(&format!("a/{}", "x".repeat(120)), 90),
        format!("…/{}", "x".repeat(120))
    );
}

#[test]
fn axis_adapts_from_a_five_minute_upgrade_to_a_three_day_history() {
    let short = timeline(
        vec![
            ev("2023-11-03T14:30:00Z", "etcd", "Progressing", "True", "a"),
            ev("2023-11-03T14:35:00Z", "etcd", "Progressing", "False", "b"),
        ],
        "2023-11-03T14:35:00Z",
    );
    let html = render_html(
        &report(vec![]),
        &short,
        &condition_stretches(&short),
        &HtmlMeta::default(),
    );
    let ticks: Vec<&str> = html
        .split("<text class=\"tick\"")
        .skip(1)
        .filter_map(|s| s.split('>').nth(1))
        .filter_map(|s| s.split('<').next())
        .collect();
    assert!(
        ticks.contains(&"11-03 14:30") && ticks.contains(&"14:31"),
        "{ticks:?}"
    );
    let mut events = Vec::new();
    for h in 0..72 {
        let at = t("2024-03-01T00:00:00Z") + chrono::Duration::hours(h);
        let s = if h % 2 == 0 { "True" } else { "False" };
        events.push(ev(
            &crate::timeline::fmt_short(&at),
            "dns",
            "Progressing",
            s,
            "x",
        ));
    }
    let long = timeline(events, "2024-03-04T00:00:00Z");
    let html = render_html(
        &report(vec![]),
        &long,
        &condition_stretches(&long),
        &HtmlMeta::default(),
    );
    assert!(html.contains(">03-02 00:00<") && html.contains(">12:00<"));
    assert!(
        !html.contains("class=\"brk\""),
        "nothing to fold in a busy history"
    );
    assert_eq!(html.matches("data-cond=\"Progressing=True\"").count(), 36);
}

#[test]
fn lane_labels_are_cut_in_the_middle_and_never_to_the_same_text() {
    let labels = [
        "co/openshift-controller-manager",
        "co/openshift-controller-manager-operator",
        "co/openshift-apiserver",
        "node/ip-10-0-136-22.us-east-2.compute.internal",
        "node/ip-10-0-136-22.us-west-2.compute.internal",
    ];
    let shown = super::chart::shown_labels(&labels);
    for (l, s) in labels.iter().zip(&shown) {
        assert!(s.chars().count() <= 31 || s == l, "{s}");
    }
    assert_eq!(
        shown[2], "co/openshift-apiserver",
        "short labels stay whole"
    );
    let unique: std::collections::BTreeSet<&String> = shown.iter().collect();
    assert_eq!(unique.len(), labels.len(), "{shown:?}");
    // The end of a name shows: what tells an operator from its operand.
    assert!(shown[1].ends_with("-operator"), "{shown:?}");
}
