//! The real must-gathers in ../shared/corpus: the install episode, and the 4.8 CVO restart
//! recorded in `previous.log`, with their times. Skipped when the corpus is absent.

use mglint::model::{fmt_k8s, fmt_ms};
use mglint::timeline::{EpisodeKind, EpisodeTag, MilestoneKind, Timeline, build};
use std::path::Path;

fn timeline(path: String) -> Timeline {
    build(&mglint::ingest::ingest(&[path], &Default::default()).expect("corpus ingests"))
}

pub fn aws_4_8_install_and_cvo_restart_from_previous_log(c: &Path) {
    let path = c
        .join("must-gathers")
        .join("must-gather-aws.tar.xz")
        .display()
        .to_string();
    let tl = timeline(path);
    let install = tl.install().expect("install episode");
    assert_eq!(
        install.kind,
        EpisodeKind::Install {
            version: "4.8.0-0.nightly-2021-07-31-065602".into()
        }
    );
    assert_eq!(fmt_k8s(&install.start), "2021-08-03T09:14:59Z");
    assert_eq!(
        install.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2021-08-03T09:45:28Z")
    );
    let done = install.milestone(MilestoneKind::Completed).unwrap();
    assert!(
        done.evidence
            .iter()
            .any(|e| e.prov.file.path().ends_with("current.log")),
        "the log confirms the completion"
    );
    assert!(!tl.install_finished_before().unwrap().contradicts_claim());

    let restarts: Vec<_> = tl.episodes_of(EpisodeTag::CvoRestart).collect();
    assert_eq!(restarts.len(), 1);
    let r = restarts[0];
    assert!(matches!(&r.kind, EpisodeKind::CvoRestart { pod, cause, .. }
        if pod == "cluster-version-operator-849b4dcf9c-dl6zb" && cause.contains("previous.log")));
    // previous.log ends with the graceful shutdown at 09:28:08; current.log starts at 09:28:09.
    assert_eq!(fmt_k8s(&r.start), "2021-08-03T09:28:08Z");
    assert_eq!(
        r.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2021-08-03T09:28:09Z")
    );
    assert!(
        r.evidence
            .iter()
            .any(|e| e.prov.file.path().ends_with("previous.log"))
    );

    let gap = tl
        .episodes_of(EpisodeTag::Unmanaged)
        .next()
        .expect("no leader until the new lease");
    assert_eq!(
        gap.end.map(|e| fmt_ms(&e)).as_deref(),
        Some("2021-08-03T09:31:43.208Z")
    );
    assert!(
        tl.episodes_of(EpisodeTag::Update).next().is_none(),
        "a fresh install, no update"
    );
    assert!(tl.episodes_of(EpisodeTag::Stall).next().is_none());
}

pub fn metal_4_9_install(c: &Path) {
    let path = c
        .join("must-gathers")
        .join("must-gather-metal.tar.xz")
        .display()
        .to_string();
    let tl = timeline(path);
    let install = tl.install().expect("install episode");
    assert_eq!(
        install.kind,
        EpisodeKind::Install {
            version: "4.9.0-0.nightly-2021-09-10-170926".into()
        }
    );
    assert_eq!(fmt_k8s(&install.start), "2021-09-14T14:06:44Z");
    assert_eq!(
        install.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2021-09-14T14:33:39Z")
    );
    assert!(
        tl.passes()
            .iter()
            .any(|p| p.state == "Initializing" && p.touched_manifests())
    );
    assert!(tl.passes().iter().all(|p| !p.stuck_before_manifests()));
}

/// The tests of this module.
pub const TESTS: &[crate::CorpusTest] = &[
    (
        "aws_4_8_install_and_cvo_restart_from_previous_log",
        aws_4_8_install_and_cvo_restart_from_previous_log,
    ),
    ("metal_4_9_install", metal_4_9_install),
];
