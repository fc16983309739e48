//! The first seed (Bug 1822752) on the seed1 fixtures: the update to 4.3.11 is requested at
//! 18:27:49, no manifest of the running 4.3.10 is reconciled until the return to 4.3.10 at
//! 18:55:16, and the return completes at 18:55:34.

use mglint::model::{Time, fmt_k8s, parse_rfc3339};
use mglint::timeline::{
    EpisodeKind, EpisodeTag, Filter, MilestoneKind, StallCause, Timeline, build, render_json,
    render_table,
};
use std::path::Path;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/must-gather")
        .join(name)
        .display()
        .to_string()
}

fn timeline(names: &[&str]) -> Timeline {
    let inputs: Vec<String> = names.iter().map(|n| fixture(n)).collect();
    let bundle = mglint::ingest::ingest(&inputs, &Default::default()).expect("fixtures ingest");
    build(&bundle)
}

fn t(s: &str) -> Time {
    parse_rfc3339(s).unwrap()
}

fn at(m: Option<&mglint::timeline::Milestone>) -> Option<String> {
    m.map(|m| fmt_k8s(&m.time))
}

#[test]
fn update_requested_stalled_and_returned() {
    let tl = timeline(&["seed1-blocked", "seed1-returned"]);
    let to11 = tl
        .episodes_of(EpisodeTag::Update)
        .find(|e| matches!(&e.kind, EpisodeKind::Update { to, .. } if to == "4.3.11"))
        .expect("update to 4.3.11");
    assert_eq!(
        at(to11.milestone(MilestoneKind::Requested)).as_deref(),
        Some("2020-04-09T18:27:49Z")
    );
    assert!(to11.milestone(MilestoneKind::Accepted).is_none());
    assert!(to11.milestone(MilestoneKind::FirstManifest).is_none());
    assert_eq!(
        at(to11.milestone(MilestoneKind::Abandoned)).as_deref(),
        Some("2020-04-09T18:55:16Z")
    );
    assert_eq!(to11.running_release.as_deref(), Some("4.3.10"));

    // No manifest of 4.3.10 reconciled from the request until the return.
    let (requested, returned) = (t("2020-04-09T18:27:49Z"), t("2020-04-09T18:55:16Z"));
    assert_eq!(
        tl.manifests_applied("4.3.10", requested, returned).count(),
        0
    );
    assert!(
        tl.manifests_applied("4.3.10", t("2020-04-09T18:00:00Z"), requested)
            .count()
            > 0
    );
    assert!(
        tl.manifests_applied("4.3.10", returned, t("2020-04-09T18:56:00Z"))
            .count()
            > 0
    );

    let stall = tl.episodes_of(EpisodeTag::Stall).next().expect("stall");
    let EpisodeKind::Stall { cause, detail } = &stall.kind else {
        unreachable!()
    };
    assert_eq!(*cause, StallCause::PreconditionFailed);
    assert!(detail.contains("`ClusterVersionUpgradeable`"), "{detail}");
    assert!(stall.start <= requested);
    let end = stall.end.expect("the stall ends with the return");
    assert!(
        (end - returned).num_seconds().abs() <= 2,
        "stall ends at {}",
        fmt_k8s(&end)
    );
    assert_eq!(stall.running_release.as_deref(), Some("4.3.10"));
    assert_eq!(stall.target_release.as_deref(), Some("4.3.11"));

    let back = tl
        .episodes_of(EpisodeTag::Update)
        .find(|e| matches!(&e.kind, EpisodeKind::Update { to, .. } if to == "4.3.10"))
        .expect("return to 4.3.10");
    assert_eq!(fmt_k8s(&back.start), "2020-04-09T18:55:16Z");
    assert_eq!(
        at(back.milestone(MilestoneKind::Completed)).as_deref(),
        Some("2020-04-09T18:55:34Z")
    );
    assert!(back.milestone(MilestoneKind::FirstManifest).is_some());

    let cancel = tl
        .episodes_of(EpisodeTag::Cancel)
        .next()
        .expect("cancel A→B→A");
    assert_eq!(
        cancel.kind,
        EpisodeKind::Cancel {
            from: "4.3.10".into(),
            to: "4.3.11".into()
        }
    );
    assert_eq!(
        cancel.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2020-04-09T18:55:34Z")
    );
}

#[test]
fn the_same_log_in_two_dumps_is_read_once() {
    let both = timeline(&["seed1-blocked", "seed1-returned"]);
    let returned = timeline(&["seed1-returned"]);
    assert_eq!(both.passes().len(), returned.passes().len());
    assert!(both.episodes_of(EpisodeTag::CvoRestart).next().is_none());
    let stuck: Vec<u32> = both
        .passes()
        .iter()
        .filter(|p| p.stuck_before_manifests())
        .map(|p| p.attempt)
        .collect();
    assert_eq!(
        stuck,
        (0..stuck.len() as u32).collect::<Vec<_>>(),
        "attempts count up from 0"
    );
    assert!(stuck.len() >= 2);
}

#[test]
fn blocked_dump_alone_shows_an_open_stall() {
    let tl = timeline(&["seed1-blocked"]);
    let stall = tl.episodes_of(EpisodeTag::Stall).next().expect("stall");
    assert_eq!(stall.end, None, "still stuck when the dump was taken");
    assert_eq!(stall.running_release.as_deref(), Some("4.3.10"));
    assert!(tl.episodes_of(EpisodeTag::Cancel).next().is_none());
}

#[test]
fn renders_table_and_versioned_json() {
    let tl = timeline(&["seed1-blocked", "seed1-returned"]);
    let table = render_table(&tl, &Filter::default());
    assert!(table.contains("after update to 4.3.11 requested]"));
    assert!(table.contains("\nEPISODES\n"));
    let doc: serde_json::Value = serde_json::from_str(&render_json(
        &tl,
        &Filter::default(),
        mglint::vocab::text::JsonLayout::Pretty,
    ))
    .unwrap();
    assert_eq!(doc["schema"], "mglint/timeline/v2");
    assert_eq!(doc["kind"], "timeline");
    assert!(doc["events"].as_array().is_some_and(|e| !e.is_empty()));
    assert_eq!(
        render_json(
            &tl,
            &Filter::default(),
            mglint::vocab::text::JsonLayout::Pretty
        ),
        render_json(
            &timeline(&["seed1-blocked", "seed1-returned"]),
            &Filter::default(),
            mglint::vocab::text::JsonLayout::Pretty,
        )
    );
}
