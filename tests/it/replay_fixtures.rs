//! `mglint replay` on the fixtures (issue 5, part 5): the seed-1 dumps (4.3 CVO, Bug 1822752)
//! are consistent only with the legacy flavour, the second seed's CI job only with the legacy
//! flavour without the history fix (Bug 1756461), and the dumps written by 4.14 CVOs only with
//! the fixed flavour; each deviation names the field, the dump's value and the model's. The RC
//! rules report the same through `mglint analyze`.

use crate::common;
use mglint::model::{Time, fmt_k8s, parse_rfc3339};
use mglint::reconciler::Flavour;
use mglint::reconciler::replay::{ReplayResult, Variant, replay};
use std::path::Path;

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
        .display()
        .to_string()
}

fn replayed(rel: &str) -> ReplayResult {
    common::load(&[fixture(rel)], &[])
        .analysis()
        .replay()
        .clone()
}

fn t(s: &str) -> Time {
    parse_rfc3339(s).unwrap()
}

const FIXED_ON: Variant = Variant {
    flavour: Flavour::Fixed,
    history_fix: true,
};
const LEGACY_ON: Variant = Variant {
    flavour: Flavour::Legacy,
    history_fix: true,
};
const LEGACY_OFF: Variant = Variant {
    flavour: Flavour::Legacy,
    history_fix: false,
};

/// `field → (dump, model)` of one run's verdict-relevant deviations.
fn deviations(r: &ReplayResult, v: Variant) -> Vec<(String, Option<String>, Option<String>)> {
    r.run_of(v)
        .expect("run")
        .core()
        .map(|d| (d.field.to_string(), d.dump.clone(), d.model.clone()))
        .collect()
}

fn has(devs: &[(String, Option<String>, Option<String>)], field: &str) -> bool {
    devs.iter().any(|d| d.0 == field)
}

#[test]
fn seed1_blocked_names_the_legacy_flavour_and_lists_what_a_fixed_cvo_would_not_write() {
    let r = replayed("must-gather/seed1-blocked");
    let v = r.verdict().expect("a verdict");
    assert_eq!(v.consistent, vec![LEGACY_ON], "{}", v.summary);
    assert_eq!(
        (v.flavour, v.history_fix),
        (Some(Flavour::Legacy), Some(true))
    );
    let fixed = deviations(&r, FIXED_ON);
    let entry = fixed
        .iter()
        .find(|d| d.0 == "history[0]")
        .expect("the Partial 4.3.11 entry");
    assert!(
        entry
            .1
            .as_deref()
            .is_some_and(|s| s.contains("Partial `4.3.11`")),
        "{entry:?}"
    );
    assert_eq!(
        entry.2, None,
        "a fixed CVO writes no entry for a rejected target"
    );
    let desired = fixed.iter().find(|d| d.0 == "desired.version").unwrap();
    assert_eq!(
        (desired.1.as_deref(), desired.2.as_deref()),
        (Some("4.3.11"), Some("4.3.10"))
    );
    let progressing = fixed
        .iter()
        .find(|d| d.0 == "conditions[Progressing].message")
        .unwrap();
    assert_eq!(progressing.2.as_deref(), Some("Cluster version is 4.3.10"));
    let accepted = fixed
        .iter()
        .find(|d| d.0 == "conditions[ReleaseAccepted]")
        .unwrap();
    assert!(
        accepted
            .2
            .as_deref()
            .is_some_and(|m| m.starts_with("False (PreconditionChecks)")),
        "{accepted:?}"
    );
    // Without the history fix the install's completion would have been overwritten.
    let off = deviations(&r, LEGACY_OFF);
    assert_eq!(
        off,
        vec![(
            "history[1].completionTime".to_string(),
            Some("2020-04-09T18:00:34Z".to_string()),
            Some("2020-04-09T18:27:49Z".to_string())
        )]
    );
    // What the derivation saw: the request at the history start, the failed precondition.
    let rej = &r.derived.rejections;
    assert_eq!(rej.len(), 1);
    assert_eq!(
        (rej[0].label(), rej[0].history_index, rej[0].at),
        ("4.3.11", Some(0), t("2020-04-09T18:28:19Z"))
    );
    assert!(
        rej[0].what.contains("ClusterVersionUpgradeable"),
        "{}",
        rej[0].what
    );
    assert!(!rej[0].evidence.is_empty());
}

#[test]
fn seed1_returned_names_the_legacy_flavour() {
    let r = replayed("must-gather/seed1-returned");
    let v = r.verdict().unwrap();
    assert_eq!(
        (v.flavour, v.history_fix),
        (Some(Flavour::Legacy), Some(true)),
        "{}",
        v.summary
    );
    let fixed = deviations(&r, FIXED_ON);
    // A fixed CVO keeps 4.3.10 and writes neither the Partial 4.3.11 nor the return entry.
    assert!(
        has(&fixed, "history[1]") && has(&fixed, "history[0]"),
        "{fixed:?}"
    );
    let model = &r.run_of(FIXED_ON).unwrap().cluster_version;
    assert_eq!(model.status.history.len(), 1);
    assert_eq!(model.status.history[0].version, "4.3.10");
    assert_eq!(model.status.observed_generation, Some(4));
}

#[test]
fn seed2_ci_job_names_the_legacy_flavour_with_the_history_fix_off() {
    let r = replayed("ci/seed2-rollback-4.3");
    let v = r.verdict().unwrap();
    assert_eq!(v.consistent, vec![LEGACY_OFF], "{}", v.summary);
    assert_eq!(
        (v.flavour, v.history_fix),
        (Some(Flavour::Legacy), Some(false))
    );
    let run = r.run_of(FIXED_ON).unwrap();
    let d = run
        .core()
        .find(|d| d.field.to_string() == "history[1].completionTime")
        .expect("the clobbered install");
    assert_eq!(
        d.describe(&FIXED_ON),
        "history[1].completionTime: dump 2019-09-27T21:45:59Z, a correct CVO (fixed flavour, history fix on) would have written 2019-09-27T21:41:05Z"
    );
    let legacy_on = deviations(&r, LEGACY_ON);
    assert_eq!(legacy_on.len(), 1, "{legacy_on:?}");
    let inf = &r.derived.inferences;
    assert_eq!(inf.len(), 1);
    assert_eq!(
        (inf[0].field.object_path().as_str(), inf[0].value),
        (
            "status.history[1].completionTime",
            t("2019-09-27T21:41:05Z")
        )
    );
    assert_eq!(inf[0].claimed, Some(t("2019-09-27T21:45:59Z")));
    assert!(inf[0].basis.contains("Available"), "{}", inf[0].basis);
    assert!(r.derived.notes.iter().any(|n| n.starts_with(
        "inferred: `4.3.0-0.ci-2019-09-27-181735` completed at 2019-09-27T21:41:05Z"
    )));
}

#[test]
fn dumps_written_by_fixed_cvos_name_the_fixed_flavour() {
    for rel in [
        "ci/modern-upgrade-4.14",
        "must-gather/fixed-cvo-rejected-4.14",
        "files/cv-healthy-4.14.yaml",
    ] {
        let r = replayed(rel);
        let v = r.verdict().unwrap();
        assert_eq!(v.consistent, vec![FIXED_ON], "{rel}: {}", v.summary);
        assert_eq!(
            (v.flavour, v.history_fix),
            (Some(Flavour::Fixed), Some(true)),
            "{rel}"
        );
        assert_eq!(r.exit_code(), 0);
        // The legacy model has no ReleaseAccepted; the dump does.
        assert!(
            has(&deviations(&r, LEGACY_ON), "conditions[ReleaseAccepted]"),
            "{rel}"
        );
    }
}

#[test]
fn a_rejected_target_on_a_fixed_cvo_would_have_stalled_a_legacy_one() {
    let r = replayed("must-gather/fixed-cvo-rejected-4.14");
    let legacy = deviations(&r, LEGACY_ON);
    let extra = legacy
        .iter()
        .find(|d| d.0 == "history")
        .expect("a legacy CVO pushes the target");
    assert!(
        extra
            .2
            .as_deref()
            .is_some_and(|m| m.contains("Partial `4.15.0` 2024-03-05T10:15:31Z")),
        "{extra:?}"
    );
    let desired = legacy.iter().find(|d| d.0 == "desired.version").unwrap();
    assert_eq!(
        (desired.1.as_deref(), desired.2.as_deref()),
        (Some("4.14.8"), Some("4.15.0"))
    );
    // The derivation: the target from the log, the load results as they changed.
    let rej = &r.derived.rejections;
    assert_eq!(rej.len(), 1);
    assert_eq!((rej[0].label(), rej[0].history_index), ("4.15.0", None));
    assert_eq!(fmt_k8s(&rej[0].at), "2024-03-05T10:16:02Z");
    assert!(
        rej[0].what.contains("EtcdRecentBackup"),
        "the first rejection names both checks: {}",
        rej[0].what
    );
    let fixed = &r.run_of(FIXED_ON).unwrap().cluster_version;
    let ra = fixed.condition("ReleaseAccepted").unwrap();
    assert!(
        ra.message
            .contains("failed because of \"AdminAckRequired\"")
            && !ra.message.contains("Multiple"),
        "{}",
        ra.message
    );
    assert_eq!(fixed.status.observed_generation, Some(4));
}

#[test]
fn the_4_1_trace_and_the_4_3_verification_tell_the_history_fix_apart() {
    let r = replayed("files/cv-4.1.18-4.1.20-4.1.18-legacy.yaml");
    let v = r.verdict().unwrap();
    assert_eq!(v.consistent, vec![LEGACY_OFF], "{}", v.summary);
    let d = deviations(&r, LEGACY_ON);
    assert_eq!(d[0].0, "history[2].completionTime");
    assert_eq!(d[0].2.as_deref(), Some("2019-10-14T03:13:16Z"));
    assert!(
        r.derived
            .notes
            .iter()
            .any(|n| n.starts_with("not visible: the CVO's sync passes"))
    );
    let r = replayed("files/cv-4.3-verification.yaml");
    assert_eq!(
        r.verdict().unwrap().consistent,
        vec![LEGACY_ON],
        "{}",
        r.verdict().unwrap().summary
    );
}

#[test]
fn a_field_no_cvo_writes_is_consistent_with_nothing() {
    let r = replayed("rules/RC003/fail/clusterversion.yaml");
    let v = r.verdict().unwrap();
    assert!(v.consistent.is_empty());
    assert_eq!(
        (v.flavour, v.history_fix, v.closest),
        (None, None, FIXED_ON)
    );
    assert!(
        v.summary.starts_with(
            "consistent with neither flavour; closest: fixed, history fix on (1 deviation)"
        ),
        "{}",
        v.summary
    );
    assert_eq!(r.exit_code(), 1);
}

fn rc_findings(rel: &str) -> Vec<(String, String)> {
    common::report(&[fixture(rel)], &["RC"])
        .findings
        .iter()
        .map(|f| (f.code.to_string(), f.message.clone()))
        .collect()
}

#[test]
fn analyze_reports_the_replay_as_rc_findings() {
    let s1 = rc_findings("must-gather/seed1-blocked");
    assert_eq!(s1.len(), 1, "{s1:?}");
    assert_eq!(s1[0].0, "RC002");
    assert!(
        s1[0].1.contains("`4.3.11` failed its checks")
            && s1[0].1.contains("kept reconciling `4.3.10`"),
        "{}",
        s1[0].1
    );
    let s2 = rc_findings("ci/seed2-rollback-4.3");
    assert_eq!(s2.len(), 1, "{s2:?}");
    assert_eq!(s2[0].0, "RC001");
    assert!(
        s2[0].1.contains("would have written 2019-09-27T21:41:05Z"),
        "{}",
        s2[0].1
    );
    for rel in [
        "ci/modern-upgrade-4.14",
        "must-gather/fixed-cvo-rejected-4.14",
        "must-gather/seed1-returned",
    ] {
        let f = rc_findings(rel);
        let expected = usize::from(rel.ends_with("seed1-returned"));
        assert_eq!(f.len(), expected, "{rel}: {f:?}");
    }
}

#[test]
fn without_a_cluster_version_the_log_is_still_derived_but_nothing_is_compared() {
    let r = replayed("files/cvo-4.3-blocked-raw.log");
    assert!(r.comparison.is_none());
    assert_eq!(r.exit_code(), 2);
    assert!(
        mglint::reconciler::replay::render_text(&r)
            .contains("verdict: no ClusterVersion to compare with")
    );
    let rej = &r.derived.rejections;
    assert_eq!(
        (rej.len(), rej.first().map(|r| r.label())),
        (1, Some("4.3.11"))
    );
    // The scenario still loads and runs.
    let yaml = mglint::reconciler::replay::scenario_yaml(&r).unwrap();
    let s = mglint::reconciler::load_scenario(&yaml).unwrap();
    let _ = mglint::reconciler::run(&s, &Default::default());
}

/// Every damaged input of fixtures/bad (a bad file laid over a good must-gather) replays
/// without a panic, and the good ClusterVersion still gets a verdict.
#[test]
fn damaged_inputs_never_panic_the_replay() {
    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bad");
    let mut n = 0;
    for e in std::fs::read_dir(&bad).unwrap().flatten() {
        let case = e.path();
        if !case.is_dir() || e.file_name().to_string_lossy().starts_with('_') {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        common::copy_tree(&bad.join("_base"), dir.path());
        common::copy_tree(&case.join("files"), dir.path());
        let b = mglint::ingest::ingest(&[dir.path().display().to_string()], &Default::default())
            .unwrap();
        let r = replay(&b, &mglint::timeline::build(&b));
        let _ = mglint::reconciler::replay::render_text(&r);
        let _ =
            mglint::reconciler::replay::render_json(&r, mglint::vocab::text::JsonLayout::Pretty);
        if b.cluster_version().is_some() {
            assert!(r.verdict().is_some(), "{}", case.display());
        }
        n += 1;
    }
    assert!(n >= 30, "only {n} damaged inputs");
}

/// The replay runs once per analysis: the three RC rules share it, and `mglint replay`
/// after `analyze` reuses it. (Counted on one thread: a one-thread pool runs it all.)
#[test]
fn the_replay_runs_once_per_analysis() {
    use mglint::reconciler::replay::runs_on_this_thread;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        let before = runs_on_this_thread();
        let run = common::load(&[fixture("must-gather/seed1-blocked")], &["RC"]);
        let a = run.analysis();
        let ran = a
            .report()
            .rules
            .iter()
            .filter(|o| o.status == mglint::rules::Status::Ran)
            .count();
        assert_eq!(ran, 3, "RC001, RC002 and RC003 ran");
        assert!(a.replay().comparison.is_some());
        assert_eq!(runs_on_this_thread() - before, 1);
    });
}
