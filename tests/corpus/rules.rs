//! Realistic expectations on the public samples in ../shared/corpus (skipped when absent): the
//! healthy must-gathers give no finding at warning or error, and the `oc` example sets give
//! the Update Health findings oc itself prints, at oc's levels.

use mglint::rules::{Report, Severity};
use std::path::{Path, PathBuf};

fn report(paths: &[PathBuf]) -> Report {
    let inputs: Vec<String> = paths
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    crate::common::report(&inputs, &[])
}

fn objects(r: &Report, code: &str) -> Vec<String> {
    r.findings_of(code).map(|f| f.object.name.clone()).collect()
}

pub fn healthy_must_gathers_have_no_errors(c: &Path) {
    for name in ["must-gather-aws.tar.xz", "must-gather-metal.tar.xz"] {
        let r = report(&[c.join("must-gathers").join(name)]);
        let errors: Vec<String> = r
            .findings
            .iter()
            .filter(|f| f.severity >= Severity::Warning)
            .map(|f| format!("{}: {}", f.code, f.message))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        assert_eq!(r.exit_code(), 0);
        // Nightly builds, nothing requested or offered: no published risk is on any of their
        // updates, so CV025 has nothing to say (and the reports no risk section).
        assert_eq!(r.findings_of("CV025").count(), 0, "{name}");
        assert!(r.published_risks.is_empty(), "{name}");
        // The CVO log and the objects were there: the log and history rules ran.
        for code in [
            "CV001", "CV005", "UH001", "UH004", "LOG002", "CV022", "CV023", "CV024", "CV025",
        ] {
            assert_eq!(
                r.outcome(code).unwrap().status,
                mglint::rules::Status::Ran,
                "{name}: {code}"
            );
        }
    }
}

pub fn degraded_4_14_1_update_gives_the_operator_findings_oc_shows(c: &Path) {
    let r = report(&[
        c.join("cv_4.14.0-rc3-to-4.14.1_failing-etcd-kas-degraded.yaml"),
        c.join("co-list_4.14.1-upgrade_etcd-kas-degraded.yaml"),
        c.join("mcp-list_4.14.1-upgrade_degraded.yaml"),
        c.join("node-list_4.14.1-upgrade_degraded.yaml"),
    ]);
    // `oc adm upgrade status` for this set: four operators degraded, one unavailable (all
    // errors: degraded for 58m, unavailable for 1h), the ClusterVersion failing to proceed (a
    // warning).
    assert_eq!(
        objects(&r, "UH002"),
        vec![
            "etcd",
            "kube-apiserver",
            "kube-controller-manager",
            "kube-scheduler"
        ]
    );
    assert_eq!(objects(&r, "UH001"), vec!["control-plane-machine-set"]);
    for code in ["UH001", "UH002"] {
        for f in r.findings_of(code) {
            assert_eq!(f.severity, Severity::Error, "{}", f.message);
        }
    }
    let failing: Vec<_> = r.findings_of("UH003").collect();
    assert_eq!(failing[0].severity, Severity::Warning);
    assert_eq!(failing.len(), 1);
    assert_eq!(
        failing[0].details.get("operators"),
        Some(&mglint::rules::Detail::List(vec![
            "etcd".into(),
            "kube-apiserver".into()
        ]))
    );
    assert!(
        failing[0].message.contains("during the update to `4.14.1`"),
        "{}",
        failing[0].message
    );
    // The update has not completed: no operator is "behind" a completed release, and the
    // stalled update is not mistaken for the legacy precondition stall.
    for code in [
        "CO003", "CV001", "CV002", "CV003", "CV004", "MC001", "UH004",
    ] {
        assert!(
            r.findings_of(code).next().is_none(),
            "{code}: {:?}",
            objects(&r, code)
        );
    }
    for f in r.findings_of("UH002") {
        assert!(
            f.evidence[0]
                .display_path()
                .ends_with("co-list_4.14.1-upgrade_etcd-kas-degraded.yaml")
        );
        assert!(f.evidence[0].line.is_some(), "{:?}", f.evidence[0]);
        assert_eq!(f.evidence[0].text, "status: \"True\"");
    }
}

pub fn insights_archive_upgradeable_false_is_information(c: &Path) {
    let r = report(&[
        c.join("cv_4.7.16_insights-archive_json_upgradeable-false.json"),
        c.join("co_4.7.16_etcd_insights-archive.json"),
    ]);
    let cv16: Vec<_> = r.findings_of("CV016").collect();
    assert_eq!(cv16.len(), 1);
    assert_eq!(cv16[0].severity, Severity::Info);
    assert_eq!(objects(&r, "CO005"), vec!["etcd"]);
    assert_eq!(r.exit_code(), 0);
}

/// On oc's own example sets, `analyze` agrees with the Update Health oc printed
/// (`NAME.detailed-output`): an error finding for each Error insight's object, one at warning
/// or above for each Warning, none above oc's level on an operator, node or pool.
pub fn analyze_agrees_with_oc_on_its_examples(c: &Path) {
    let dir = crate::status::examples_dir(c);
    let mut sets: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix(".detailed-output").map(str::to_string)
        })
        .collect();
    sets.sort();
    assert!(sets.len() >= 9, "{sets:?}");
    let mut bad = Vec::new();
    let mut seen = 0;
    for set in &sets {
        let detailed = std::fs::read_to_string(dir.join(format!("{set}.detailed-output"))).unwrap();
        let want = crate::common::oc_insights(&detailed);
        seen += want.len();
        let r = report(&crate::status::loose_files(&dir, set));
        bad.extend(crate::common::disagreements_with_oc(set, &r, &want, true));
    }
    assert!(seen >= 12, "{seen} insights");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// oc's forced 4.14.0-rc.3 -> 4.15.0-ec.2 update, in progress (history holds it, with
/// `acceptedRisks`): Upgradeable=False (pools updating) blocks nothing, it is information.
pub fn forced_update_in_progress_upgradeable_false_is_information(c: &Path) {
    let dir = crate::status::examples_dir(c);
    for set in ["4.15.0-ec2-unavailable-mco-20m"] {
        let r = report(&crate::status::loose_files(&dir, set));
        let cv16: Vec<_> = r.findings_of("CV016").collect();
        assert_eq!(cv16.len(), 1, "{set}");
        assert_eq!(
            cv16[0].severity,
            Severity::Info,
            "{set}: {}",
            cv16[0].message
        );
        assert!(
            cv16[0].message.contains("was forced"),
            "{}",
            cv16[0].message
        );
        for f in r.findings_of("CO005") {
            assert_eq!(f.severity, Severity::Info, "{set}: {}", f.message);
        }
    }
}

/// The tests of this module.
/// `recommend` on the real must-gathers: neither has a channel, so the answer is oc's
/// RetrievedUpdates warning and "No updates available", and `analyze` says the same at info.
pub fn real_must_gathers_are_offered_no_update(c: &Path) {
    for name in ["must-gather-aws.tar.xz", "must-gather-metal.tar.xz"] {
        let path = c.join("must-gathers").join(name);
        let o = crate::common::mglint(&["recommend", path.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{name}: {err}");
        assert!(
            out.ends_with("No updates available. You may still upgrade to a specific release image with --to-image or wait for new updates to be available.\n"),
            "{name}: {out}"
        );
        assert!(
            err.contains("warning: Cannot refresh available updates:\n  Reason: NoChannel\n"),
            "{name}: {err}"
        );
        let r = report(&[path]);
        let cv024: Vec<_> = r.findings_of("CV024").collect();
        assert_eq!(cv024.len(), 1, "{name}");
        assert_eq!(cv024[0].severity, Severity::Info);
        assert!(
            cv024[0].message.starts_with("no update channel is set"),
            "{name}"
        );
    }
}

pub const TESTS: &[crate::CorpusTest] = &[
    (
        "real_must_gathers_are_offered_no_update",
        real_must_gathers_are_offered_no_update,
    ),
    (
        "healthy_must_gathers_have_no_errors",
        healthy_must_gathers_have_no_errors,
    ),
    (
        "degraded_4_14_1_update_gives_the_operator_findings_oc_shows",
        degraded_4_14_1_update_gives_the_operator_findings_oc_shows,
    ),
    (
        "forced_update_in_progress_upgradeable_false_is_information",
        forced_update_in_progress_upgradeable_false_is_information,
    ),
    (
        "analyze_agrees_with_oc_on_its_examples",
        analyze_agrees_with_oc_on_its_examples,
    ),
    (
        "insights_archive_upgradeable_false_is_information",
        insights_archive_upgradeable_false_is_information,
    ),
];
