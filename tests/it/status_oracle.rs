//! `status` and `analyze` against oc itself, on the generated sets in `fixtures/oc/status/`
//! (written by `scripts/oc-sets/generate.py`; each set's `NAME.output` and
//! `NAME.detailed-output` are what oc's own status code printed for it, through
//! `../shared/tools/oc-oracle`).
//!
//! - `status` prints oc's text byte for byte, both detail levels, when judging as oc's mock
//!   mode does (`StatusInputs::oc_mock`); the two places mglint departs from that mode on
//!   purpose are each pinned by their own test below.
//! - `analyze` agrees with oc's Update Health: every insight at Error has a finding at error
//!   naming the same object, every Warning one at warning or above, and no operator, node or
//!   pool finding is at warning or error where oc has no insight at that level for the object.

use crate::common;
use mglint::rules::Severity;
use mglint::status::{Details, StatusInputs, assess, render_text};
use std::path::{Path, PathBuf};

fn sets() -> Vec<PathBuf> {
    let v = common::set_dirs("oc/status");
    assert!(v.len() >= 100, "{} generated sets", v.len());
    v
}

fn name(set: &Path) -> String {
    set.file_name().unwrap().to_string_lossy().into_owned()
}

/// The set's input files (oc's outputs left out).
fn inputs(set: &Path) -> Vec<String> {
    let n = name(set);
    let mut v: Vec<String> = std::fs::read_dir(set)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let f = p.file_name().unwrap().to_string_lossy();
            f.starts_with(&format!("{n}-")) && (f.ends_with(".yaml") || f.ends_with(".json"))
        })
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn oc(set: &Path, form: &str) -> Option<String> {
    std::fs::read_to_string(set.join(format!("{}.{form}", name(set)))).ok()
}

fn status_text(set: &Path, oc_mock: bool, details: Details) -> Result<String, String> {
    let run = common::load(&inputs(set), &[]);
    let b = &run.analyses()[0].bundle;
    let mut i = StatusInputs::from_bundle(b, None).map_err(|e| e.to_string())?;
    i.oc_mock = oc_mock;
    let a = assess(&i).map_err(|e| e.to_string())?;
    Ok(render_text(&a, details))
}

#[test]
fn status_prints_what_oc_prints_on_every_generated_set() {
    let mut bad = Vec::new();
    let mut compared = 0;
    for set in sets() {
        for (form, details) in [("output", Details::None), ("detailed-output", Details::All)] {
            let Some(want) = oc(&set, form) else {
                bad.push(format!(
                    "{}: no oc {form} (run scripts/oc-sets/regen.sh)",
                    name(&set)
                ));
                continue;
            };
            compared += 1;
            // Where oc refused the set (NAME.<form>.err), mglint refuses it too (exit 2, its
            // own message naming what is missing).
            if oc(&set, &format!("{form}.err")).is_some() {
                if let Ok(got) = status_text(&set, true, details) {
                    bad.push(format!(
                        "{} ({form}): oc refused it, mglint printed:\n{got}",
                        name(&set)
                    ));
                }
                continue;
            }
            match status_text(&set, true, details) {
                Ok(got) if got == want => {}
                Ok(got) => bad.push(format!(
                    "{} ({form}):\n--- oc\n{want}\n--- mglint\n{got}",
                    name(&set)
                )),
                Err(e) => bad.push(format!("{} ({form}): mglint failed: {e}", name(&set))),
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {compared} differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Sets where oc's mock mode judges differently from mglint on purpose (see
/// docs/status-and-recommend.md, `status` section): oc compares a NotReady node's age with the wall clock, so a node
/// NotReady for 3 minutes, or with its network unavailable for 40 seconds, is serious for
/// oc's examples and not yet for mglint. (Installs within the installer's window, which
/// `analyze` reports at info, are recognised by their findings below.)
const ANALYZE_DEPARTS: &[(&str, &str)] = &[
    (
        "node-notready-3m",
        "NotReady judged at the data's now, not the wall clock",
    ),
    (
        "node-network-unavailable-40s",
        "network judged at the data's now, not the wall clock",
    ),
];

#[test]
fn analyze_agrees_with_oc_update_health_on_every_generated_set() {
    let mut bad = Vec::new();
    let mut insights_seen = 0;
    for set in sets() {
        let n = name(&set);
        let Some(detailed) = oc(&set, "detailed-output") else {
            continue;
        };
        let want = common::oc_insights(&detailed);
        insights_seen += want.len();
        let run = common::load(&inputs(&set), &[]);
        let report = run.analyses()[0].report();
        // Installs: within the installer's window, operators still coming up are information
        // (the findings say so); only the cap is compared.
        let early_install = oc(&set, "output").is_some_and(|o| o.contains("(a new install)"))
            && report
                .findings
                .iter()
                .any(|f| f.message.contains("installer's window"));
        let departs = early_install || ANALYZE_DEPARTS.iter().any(|(s, _)| *s == n);
        bad.extend(common::disagreements_with_oc(&n, report, &want, !departs));
    }
    assert!(
        insights_seen > 150,
        "{insights_seen} insights in oc's outputs"
    );
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Departure 1: oc's mock mode compares a NotReady node with the wall clock. mglint judges
/// at the data's "now": a node NotReady for 3 minutes is not (yet) seriously unavailable.
#[test]
fn a_node_notready_for_3_minutes_is_judged_at_the_data_s_now() {
    let set = common::fixture("oc/status/node-notready-3m");
    let oc_text = oc(&set, "detailed-output").unwrap();
    assert!(oc_text.contains("is not ready"), "oc lists it:\n{oc_text}");
    let ours = status_text(&set, false, Details::All).unwrap();
    assert!(!ours.contains("is not ready"), "{ours}");
    assert_eq!(status_text(&set, true, Details::All).unwrap(), oc_text);
    // Two hours NotReady: both list it.
    let set = common::fixture("oc/status/node-notready-2h");
    assert!(
        status_text(&set, false, Details::All)
            .unwrap()
            .contains("is not ready")
    );
}

/// Departure 2: without the MCO Deployment oc compares machine-config's `operator-image`
/// with an empty image and never counts it as updated; mglint skips the comparison it cannot
/// make, so an operator at the target version counts as updated.
#[test]
fn without_the_mco_deployment_machine_config_at_target_counts_as_updated() {
    let set = common::fixture("oc/status/mco-deployment-absent-mc-updated");
    let oc_text = oc(&set, "output").unwrap();
    assert!(
        oc_text.contains("33 operators updated, 1 updating"),
        "{oc_text}"
    );
    let ours = status_text(&set, false, Details::None).unwrap();
    assert!(
        ours.contains("34 operators updated") || ours.contains("successfully completed"),
        "{ours}"
    );
    assert_eq!(status_text(&set, true, Details::None).unwrap(), oc_text);
}

/// Where oc dereferences nil and crashes (no MachineConfigPools; a Completed history entry
/// without `completionTime`), mglint still prints an answer.
#[test]
fn where_oc_crashes_status_still_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let set = common::fixture("oc/status/cv-update-completed");
    for (what, file, edit) in [
        (
            "no pools",
            "cv-update-completed-mcp.yaml",
            Box::new(|_t: &str| {
                "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPoolList\nitems: []\n"
                    .to_string()
            }) as Box<dyn Fn(&str) -> String>,
        ),
        (
            "completed without completionTime",
            "cv-update-completed-cv.yaml",
            Box::new(|t: &str| {
                let i = t.find("completionTime: \"").unwrap();
                let j = i + t[i..].find('\n').unwrap();
                format!("{}completionTime: null{}", &t[..i], &t[j..])
            }),
        ),
    ] {
        let dir = tmp.path().join(what.replace(' ', "-"));
        std::fs::create_dir_all(&dir).unwrap();
        for e in std::fs::read_dir(&set).unwrap().flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.ends_with(".yaml") {
                let text = std::fs::read_to_string(e.path()).unwrap();
                let text = if n == file { edit(&text) } else { text };
                std::fs::write(dir.join(&n), text).unwrap();
            }
        }
        let o = common::mglint(&["status", dir.to_str().unwrap(), "--details", "all"]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            out.contains("= Control Plane =") || out.contains("not updating"),
            "{what}: {out}"
        );
    }
}

/// An install in progress is never called an update: within the installer's window the
/// operators still coming up are information, and past it the findings say "install".
#[test]
fn an_install_is_never_called_an_update() {
    let early = common::fixture("oc/status/cv-installing-18m");
    let oc_text = oc(&early, "output").unwrap();
    assert!(oc_text.contains("(a new install)"), "{oc_text}");
    let run = common::load(&inputs(&early), &[]);
    let r = run.analyses()[0].report();
    let uh: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.code.starts_with("UH"))
        .collect();
    assert!(!uh.is_empty());
    for f in &uh {
        assert_eq!(f.severity, Severity::Info, "{}", f.message);
        assert!(f.message.contains("during the install"), "{}", f.message);
        assert!(f.message.contains("installer's window"), "{}", f.message);
    }
    assert!(
        r.findings.iter().all(|f| !f.message.contains("update to")),
        "{:#?}",
        r.findings
    );
    let late = common::fixture("oc/status/cv-installing-95m-console-down");
    let run = common::load(&inputs(&late), &[]);
    let r = run.analyses()[0].report();
    let console: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.code == "UH001" && f.object.name == "console")
        .collect();
    assert_eq!(console.len(), 1);
    assert_eq!(console[0].severity, Severity::Error);
    assert!(
        console[0]
            .message
            .contains("during the install of `4.16.8`"),
        "{}",
        console[0].message
    );
}

/// Preconditions gate acceptance only: on an update already accepted (here forced, with
/// `acceptedRisks`), Upgradeable=False is information about the next one.
#[test]
fn upgradeable_false_after_acceptance_is_information() {
    // (The real forced update, with `acceptedRisks`, is in tests/corpus/rules.rs.)
    let dir = common::fixture("oc/status/cv-upgradeable-false-accepted");
    let run = common::load(&inputs(&dir), &[]);
    let r = run.analyses()[0].report();
    let cv16: Vec<_> = r.findings_of("CV016").collect();
    assert_eq!(cv16.len(), 1, "{:#?}", r.findings);
    assert_eq!(cv16[0].severity, Severity::Info, "{}", cv16[0].message);
    assert!(
        cv16[0].message.contains("was accepted"),
        "{}",
        cv16[0].message
    );
}
