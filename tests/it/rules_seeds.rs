//! The Done-when cases of the seed rules on the seed fixtures: the blocked 4.3.10 → 4.3.11
//! must-gather (CV002, CV003, CV004, not CV001), the state after the return to 4.3.10 (none of
//! the four), the 4.3 rollback CI job (CV001 from the test log), the 4.1.18 → 4.1.20 → 4.1.18
//! history (CV001) and the 4.3 verification history (no CV001), plus the fixed CVO.

use crate::common;
use mglint::rules::{ConfidenceLevel, Finding, Report, Severity};

fn report(inputs: &[&str]) -> Report {
    let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
    common::report(&inputs, &[])
}

fn codes(r: &Report) -> Vec<&str> {
    let mut v: Vec<&str> = r.findings.iter().map(|f| &*f.code).collect();
    v.dedup();
    v
}

fn one<'a>(r: &'a Report, code: &'a str) -> &'a Finding {
    let v: Vec<&Finding> = r.findings_of(code).collect();
    assert_eq!(v.len(), 1, "{code}: {v:#?}");
    v[0]
}

const SEED: [&str; 4] = ["CV001", "CV002", "CV003", "CV004"];

#[test]
fn seed1_blocked_reports_the_stall_the_hidden_version_and_the_way_back() {
    let r = report(&["fixtures/must-gather/seed1-blocked"]);
    let c = codes(&r);
    for code in ["CV002", "CV003", "CV004"] {
        assert!(c.contains(&code), "{code} missing: {c:?}");
    }
    assert!(!c.contains(&"CV001"), "{c:?}");

    let stall = one(&r, "CV002");
    assert_eq!(stall.severity, Severity::Error);
    assert_eq!(stall.details["target"], "4.3.11");
    assert_eq!(stall.details["running"], "4.3.10");
    assert_eq!(stall.details["precondition"], "ClusterVersionUpgradeable");
    assert_eq!(stall.details["blocking_operators"], "kube-apiserver");
    assert!(
        stall.details["stalled_since"]
            .to_string()
            .starts_with("2020-04-09T18:27:4"),
        "{}",
        stall.details["stalled_since"]
    );
    assert!(
        stall
            .message
            .contains("DefaultSecurityContextConstraints_Mutated"),
        "{}",
        stall.message
    );
    assert!(stall.details.contains_key("unmanaged_for_seconds"));
    let conf = stall.confidence.as_ref().unwrap();
    assert_eq!(conf.level, ConfidenceLevel::High, "{conf:?}");
    assert!(
        conf.basis.iter().any(|b| b == "cvo-log") && conf.basis.iter().any(|b| b == "conditions")
    );
    assert!(stall.evidence.iter().any(
        |e| e.display_path().ends_with("current.log") && e.text.contains("Running sync 4.3.11")
    ));
    assert!(
        stall
            .evidence
            .iter()
            .any(|e| e.display_path().ends_with("version.yaml") && e.line.is_some())
    );

    let hidden = one(&r, "CV003");
    assert_eq!(hidden.details["running"], "4.3.10");
    assert!(
        hidden.details["found_in"]
            .to_string()
            .contains("history[1]")
    );
    assert!(
        hidden.details["found_in"]
            .to_string()
            .contains("CVO pod's image"),
        "{}",
        hidden.details["found_in"]
    );

    let back = one(&r, "CV004");
    let img = "registry.svc.ci.openshift.org/ocp/release@sha256:edb4364367cff4f751ffdc032bc830a469548f998127b523047a8dd518c472cd";
    assert_eq!(
        back.details["way_back"],
        format!(
            "oc adm upgrade --to-image {img} --allow-explicit-upgrade --allow-upgrade-with-warnings"
        )
    );
    assert!(
        back.message
            .contains("`oc adm upgrade --to 4.3.10` is refused"),
        "{}",
        back.message
    );
}

#[test]
fn seed1_after_the_return_reports_none_of_the_four() {
    let r = report(&["fixtures/must-gather/seed1-returned"]);
    let c = codes(&r);
    for code in SEED {
        assert!(!c.contains(&code), "{code} reported: {c:?}");
    }
    // The stall is over but it happened: the log still shows it.
    let past = one(&r, "LOG003");
    assert!(past.message.contains("4.3.11"), "{}", past.message);
}

#[test]
fn seed2_ci_job_reports_the_rewritten_install_completion_from_the_test_log() {
    let r = report(&["fixtures/ci/seed2-rollback-4.3"]);
    let f = one(&r, "CV001");
    let conf = f.confidence.as_ref().unwrap();
    assert_eq!(conf.level, ConfidenceLevel::High);
    assert!(conf.basis.iter().any(|b| b == "test-log"), "{conf:?}");
    assert!(
        f.evidence
            .iter()
            .any(|e| e.display_path().ends_with("test.log")
                && e.text.contains("nodes to be schedulable"))
    );
    assert_eq!(f.details["claimed_completion"], "2019-09-27T21:45:59Z");
    assert_eq!(f.details["entry"], "4.3.0-0.ci-2019-09-27-181735");
    assert!(
        f.details["finished_before"].to_string().as_str() < "2019-09-27T21:42:29Z",
        "{}",
        f.details["finished_before"]
    );
}

#[test]
fn legacy_4_1_history_is_flagged_and_the_4_3_verification_is_not() {
    let r = report(&["fixtures/files/cv-4.1.18-4.1.20-4.1.18-legacy.yaml"]);
    let f = one(&r, "CV001");
    assert!(f.message.starts_with(
        "history[2] (the install of `4.1.18`, Completed) claims completion at 2019-10-14T03:42:31Z"
    ));
    // The equality, confirmed by Available=True since the real completion (03:13:16).
    let conf = f.confidence.as_ref().unwrap();
    assert_eq!(conf.basis, vec!["snapshot-equality", "cluster-version"]);
    assert_eq!(conf.level, ConfidenceLevel::High);
    assert_eq!(f.details["finished_before"], "2019-10-14T03:13:16Z");
    assert_eq!(f.evidence[0].line.map(|l| l > 0), Some(true));
    assert!(
        f.evidence[0].text.contains("2019-10-14T03:42:31Z"),
        "{:?}",
        f.evidence[0]
    );

    let r = report(&["fixtures/files/cv-4.3-verification.yaml"]);
    assert!(r.findings_of("CV001").next().is_none(), "{:?}", codes(&r));
}

#[test]
fn fixed_cvo_rejecting_a_target_is_not_a_stall() {
    let r = report(&["fixtures/must-gather/fixed-cvo-rejected-4.14"]);
    let c = codes(&r);
    assert!(!c.contains(&"CV002") && !c.contains(&"CV003"), "{c:?}");
    let rejected = one(&r, "CV020");
    assert!(rejected.severity < Severity::Error);
    assert!(rejected.message.contains("4.15.0"), "{}", rejected.message);
    if let Some(back) = r.findings_of("CV004").next() {
        assert_eq!(back.severity, Severity::Info);
        assert_eq!(back.details["way_back"], "oc adm upgrade --clear");
    }
}

#[test]
fn a_normal_modern_update_is_none_of_the_four() {
    let r = report(&["fixtures/ci/modern-upgrade-4.14"]);
    let c = codes(&r);
    for code in SEED {
        assert!(!c.contains(&code), "{code} reported: {c:?}");
    }
}

#[test]
fn a_completion_time_that_moved_between_two_snapshots_is_reported_from_both() {
    // The same cluster seen twice: first as the fixed CVO recorded it, then rewritten.
    let r = report(&[
        "fixtures/rules/CV001/pass/clusterversion.yaml",
        "fixtures/rules/CV001/fail/clusterversion.yaml",
    ]);
    let f = one(&r, "CV001");
    assert!(
        f.message
            .contains("moved between snapshots (2019-10-14T03:13:16Z → 2019-10-14T03:42:31Z)"),
        "{}",
        f.message
    );
    let conf = f.confidence.as_ref().unwrap();
    assert_eq!(conf.level, ConfidenceLevel::High);
    assert!(conf.basis.iter().any(|b| b == "snapshots"), "{conf:?}");
}

#[test]
fn the_stall_is_found_from_the_cvo_log_alone() {
    let r = report(&["fixtures/files/cvo-4.3-blocked-raw.log"]);
    let f = one(&r, "CV002");
    assert_eq!(f.object.kind, "Pod");
    assert_eq!(f.details["target"], "4.3.11");
    assert_eq!(f.details["running"], "4.3.10");
    assert_eq!(f.details["precondition"], "ClusterVersionUpgradeable");
    assert!(
        f.message
            .contains("(`DefaultSecurityContextConstraints_Mutated`)"),
        "{}",
        f.message
    );
    assert!(
        f.message.contains("to the last CVO log line"),
        "{}",
        f.message
    );
    assert_eq!(f.confidence.as_ref().unwrap().basis, vec!["cvo-log"]);
    // Without a ClusterVersion the status rules are skipped, not passed.
    assert_eq!(
        r.outcome("CV003").unwrap().status,
        mglint::rules::Status::Skipped
    );
}
