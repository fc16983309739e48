//! The table and JSON renderings, and the filter.

use super::*;
use crate::timeline::{EventSource, Filter, build, render_json, render_table};

#[test]
fn table_has_rows_relative_times_and_episodes() {
    let tl = build(&seed1());
    let out = render_table(&tl, &Filter::default());
    let header = out.lines().next().unwrap();
    assert!(header.starts_with("TIME (UTC)"), "{header}");
    let stuck = out.lines().find(|l| l.contains("attempt 4")).unwrap();
    assert!(stuck.starts_with("2020-04-09 18:40:26.944"), "{stuck}");
    assert!(
        stuck.contains("[+12m37s after update to 4.3.11 requested]"),
        "{stuck}"
    );
    let episodes = out.split("\nEPISODES\n").nth(1).unwrap();
    assert!(episodes.contains("cancel 4.3.10 → 4.3.11 → 4.3.10: 2020-04-09 18:27:49.000 → 2020-04-09 18:55:34.000 (27m45s)"), "{episodes}");
    assert!(episodes.contains("stall (precondition-failed)"));
    assert!(episodes.contains("  running release: 4.3.10"));
}

#[test]
fn filter_by_source_subject_and_time() {
    let tl = build(&seed1());
    let f = Filter {
        source: vec![EventSource::CvoLog],
        since: Some(t("2020-04-09T18:40:00Z")),
        until: Some(t("2020-04-09T18:41:00Z")),
        subject: None,
    };
    let out = render_table(&tl, &f);
    let rows: Vec<_> = out
        .split("\nEPISODES\n")
        .next()
        .unwrap()
        .lines()
        .skip(1)
        .collect();
    assert_eq!(rows.len(), 4, "{rows:#?}");
    assert!(rows.iter().all(|r| r.contains("cvo-log")));
    let f = Filter {
        subject: Some("version".into()),
        ..Default::default()
    };
    assert!(
        tl.events
            .iter()
            .filter(|e| f.keeps(e))
            .all(|e| e.subject == crate::timeline::Subject::cluster_version())
    );
    let f = Filter {
        subject: Some("nothing-like-this".into()),
        ..Default::default()
    };
    assert!(render_table(&tl, &f).contains("(no events)"));
}

#[test]
fn json_is_versioned_and_parses() {
    let tl = build(&seed2());
    let doc: serde_json::Value = serde_json::from_str(&render_json(
        &tl,
        &Filter::default(),
        crate::vocab::text::JsonLayout::Pretty,
    ))
    .unwrap();
    assert_eq!(doc["schema"], "mglint/timeline/v2");
    assert_eq!(doc["kind"], "timeline");
    let install = doc["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "install")
        .unwrap();
    assert_eq!(
        install["finished_before"]["before"],
        "2019-09-27T21:42:28.080Z"
    );
    assert_eq!(
        install["finished_before"]["claimed"],
        "2019-09-27T21:45:59.000Z"
    );
    let first = &doc["events"][0];
    assert!(first["time"].is_string() && first["source"].is_string() && first["kind"].is_string());
    // Evidence is flat, as the report's is, and the event names its object as findings do.
    let ev = &first["evidence"][0];
    assert!(ev["input"].is_string() && ev["path"].is_string() && ev["prov"].is_null());
    let cv = doc["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["source"] == "cluster-version")
        .unwrap();
    assert_eq!(cv["object"]["kind"], "ClusterVersion");
    assert_eq!(cv["object"]["namespace"], "");
    assert!(cv["subject"].is_null());
}
