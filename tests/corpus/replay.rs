//! The reference reconciler on real clusters (issue 15, parts 3 and 4): the RC rules give no
//! warning on the real must-gathers or on any of oc's example sets, RC003 reports at most one
//! finding per object, and `mglint replay` says how many fields agree per setting and which CVO
//! generation the dump is consistent with. The oracles are the dumps themselves: each was
//! written by a real CVO (4.8 and 4.9 for the must-gathers, 4.14-4.18 for oc's sets), so the
//! model must find a setting and a generation that wrote every field.

use mglint::reconciler::Flavour;
use mglint::reconciler::replay::{Fit, ReplayResult};
use mglint::rules::Severity;
use std::path::{Path, PathBuf};

const SUFFIXES: [&str; 6] = [
    "-cv.yaml",
    "-co.yaml",
    "-mcp.yaml",
    "-mc.yaml",
    "-node.yaml",
    "-alerts.json",
];

/// oc's example sets in the corpus, with the CVO generations that could have written each.
const SETS: &[&str] = &[
    "4.14.1-degraded",
    "4.14.1-paused-worker-pool",
    "4.14.1-workers-started-updating-multiple-pools",
    "4.15.0-ec2-b02-cos-not-annotated",
    "4.15.0-ec2-early",
    "4.15.0-ec2-unavailable-mco-20m",
    "4.16.0-compact",
    "no-version-upgrading",
    "not-upgrading",
];

fn set_inputs(c: &Path, set: &str) -> Vec<String> {
    SUFFIXES
        .iter()
        .map(|s| c.join("oc-upgrade-status").join(format!("{set}{s}")))
        .filter(|p| p.is_file())
        .map(|p| p.to_string_lossy().to_string())
        .collect()
}

fn must_gather(c: &Path, name: &str) -> Vec<String> {
    let p: PathBuf = c.join("must-gathers").join(name);
    vec![p.to_string_lossy().to_string()]
}

/// The RC findings of an analysis, and its replay.
fn rc(inputs: &[String]) -> (Vec<mglint::rules::Finding>, ReplayResult) {
    let run = crate::common::load(inputs, &[]);
    let a = run.analysis();
    let rc = a
        .report()
        .findings
        .iter()
        .filter(|f| f.code.starts_with("RC"))
        .cloned()
        .collect();
    (rc, a.replay().clone())
}

/// No RC finding at warning level or above, and at most one RC003 finding per object, which
/// says what evidence it rests on and how confident it is.
fn assert_quiet(what: &str, findings: &[mglint::rules::Finding]) {
    let loud: Vec<String> = findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .map(|f| format!("{}: {}", f.code, f.message))
        .collect();
    assert!(loud.is_empty(), "{what}: {loud:#?}");
    let rc003: Vec<_> = findings.iter().filter(|f| f.code == "RC003").collect();
    assert!(rc003.len() <= 1, "{what}: {} RC003 findings", rc003.len());
    for f in rc003 {
        let c = f
            .confidence
            .as_ref()
            .expect("RC003 says how confident it is");
        assert!(
            c.basis.iter().any(|b| b == "reference-model") && c.basis.len() >= 2,
            "{what}: {:?}",
            c.basis
        );
    }
}

/// The 4.8 (AWS) and 4.9 (metal) must-gathers: fresh installs whose CVO log shows the pass
/// that completed the install and the status sync that recorded it.
pub fn real_must_gathers_give_no_rc_warning_and_one_generation(c: &Path) {
    for (name, minor, pass_end, sync, completion) in [
        (
            "must-gather-aws.tar.xz",
            "4.8",
            "2021-08-03T09:45:27.617Z",
            "2021-08-03T09:45:28.813Z",
            "2021-08-03T09:45:28Z",
        ),
        (
            "must-gather-metal.tar.xz",
            "4.9",
            "2021-09-14T14:33:31.231Z",
            "2021-09-14T14:33:39.333Z",
            "2021-09-14T14:33:39Z",
        ),
    ] {
        let (findings, r) = rc(&must_gather(c, name));
        assert_quiet(name, &findings);
        assert!(findings.is_empty(), "{name}: {findings:#?}");
        let v = r.verdict().expect("a ClusterVersion to compare");
        assert_eq!(v.flavour, Some(Flavour::Legacy), "{name}: {}", v.summary);
        assert_eq!(v.generations, vec!["4.6-4.10"], "{name}: {}", v.summary);
        let c = r.comparison.as_ref().unwrap();
        // Legacy runs agree on every compared field; fixed runs differ only in ReleaseAccepted,
        // which 4.8/4.9 do not write.
        for run in &c.runs {
            let expected = match run.variant.flavour {
                Flavour::Legacy => (19, 19),
                Flavour::Fixed => (19, 20),
            };
            assert_eq!(
                (run.agree(), run.compared),
                expected,
                "{name} {}: {:?}",
                run.variant.label(),
                run.deviations
            );
            assert_eq!(
                run.cvo_version.as_deref(),
                Some(if run.variant.flavour == Flavour::Legacy {
                    minor
                } else {
                    "4.11"
                })
            );
        }
        // 4.1-4.5 wrote `status.desired.force`; 4.6+ (a Release) does not.
        for g in &c.generations[..2] {
            let best = g.best().unwrap();
            let fields: Vec<String> = best.core().map(|d| d.field.to_string()).collect();
            assert_eq!(
                fields,
                vec!["desired.force"],
                "{name} {}",
                g.generation.label
            );
        }
        // The completion was written by the status sync after the pass, and the replay says so.
        assert_eq!(
            r.derived.timings.len(),
            1,
            "{name}: {:?}",
            r.derived.timings
        );
        let t = &r.derived.timings[0];
        assert_eq!(t.fit, Fit::Logged, "{name}");
        assert_eq!(
            (
                mglint::model::fmt_ms(&t.pass_end),
                mglint::model::fmt_k8s(&t.claimed)
            ),
            (pass_end.to_string(), completion.to_string()),
            "{name}"
        );
        let mglint::reconciler::replay::CompletionWrite::Logged { at, .. } = &t.write else {
            panic!("{name}: the merge line is in the log")
        };
        assert_eq!(mglint::model::fmt_ms(at), sync, "{name}");
        // The text and JSON say so too.
        let text = mglint::reconciler::replay::render_text(&r);
        assert!(
            text.contains("legacy, history fix on (consistent: 19 of 19 fields agree"),
            "{text}"
        );
        assert!(
            text.contains("  4.6-4.10   consistent: 19 of 19 fields agree"),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(
            &mglint::reconciler::replay::render_json(&r, mglint::vocab::text::JsonLayout::Pretty),
        )
        .unwrap();
        assert_eq!(
            json["verdict"]["generations"],
            serde_json::json!(["4.6-4.10"])
        );
        assert_eq!(
            json["runs"][2]["fields"],
            serde_json::json!({"compared": 19, "agree": 19, "unknown": 0})
        );
    }
}

/// Every oc example set: no RC warning; those a real fixed CVO wrote are consistent with the
/// fixed flavour, history fix on, and both fixed generations.
fn oc_set(c: &Path, set: &str) {
    let (findings, r) = rc(&set_inputs(c, set));
    assert_quiet(set, &findings);
    let v = r.verdict().expect("a ClusterVersion to compare");
    if set == "4.15.0-ec2-early" {
        // Hand-assembled: history[1] (4.14.1) is Partial while Available says "Done applying
        // 4.14.1". No CVO log: one RC003 finding, info, low confidence.
        assert!(v.generations.is_empty(), "{}", v.summary);
        let f: Vec<_> = findings.iter().filter(|f| f.code == "RC003").collect();
        assert_eq!(f.len(), 1, "{findings:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert_eq!(
            f[0].details["fields"],
            mglint::rules::Detail::from(vec![
                "history[1].completionTime".to_string(),
                "conditions[Available].message".to_string(),
            ])
        );
        return;
    }
    assert!(findings.is_empty(), "{set}: {findings:#?}");
    assert_eq!(v.flavour, Some(Flavour::Fixed), "{set}: {}", v.summary);
    assert_eq!(
        v.generations,
        vec!["4.11-4.13", "4.14+"],
        "{set}: {}",
        v.summary
    );
    let fixed = r.comparison.as_ref().unwrap().runs[0].clone();
    assert_eq!(
        fixed.agree(),
        fixed.compared,
        "{set}: {:?}",
        fixed.deviations
    );
    if set == "4.15.0-ec2-b02-cos-not-annotated" {
        // 70 history entries back to 4.5: every field of every entry agrees.
        assert_eq!(fixed.compared, 436);
    }
}

/// The AWS must-gather with its install's completionTime edited in both ClusterVersion files.
fn edited_aws(c: &Path, completion: &str) -> (tempfile::TempDir, Vec<String>) {
    let tmp = tempfile::tempdir().unwrap();
    crate::common::unpack_tar_xz(&c.join("must-gathers/must-gather-aws.tar.xz"), tmp.path());
    let mut edited = 0;
    let mut stack = vec![tmp.path().to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                stack.push(p);
            } else if name == "clusterversions.yaml" || name == "version.yaml" {
                let text = std::fs::read_to_string(&p).unwrap();
                let from = "completionTime: \"2021-08-03T09:45:28Z\"";
                if text.contains(from) {
                    let to = format!("completionTime: \"{completion}\"");
                    std::fs::write(&p, text.replace(from, &to)).unwrap();
                    edited += 1;
                }
            }
        }
    }
    assert_eq!(edited, 2, "the aggregate and the per-object file");
    let input = tmp.path().to_string_lossy().to_string();
    (tmp, vec![input])
}

/// The CVO log tells timing from a real deviation: the status sync that recorded the install
/// ran at 09:45:28.813 (`merge into existing history completed=true`). A completionTime a
/// later status sync could have written (09:46:10, within the informer resync) is no finding;
/// one no status sync writes (09:58:00, 12.5 minutes later) is one RC003 warning, high
/// confidence, with the pass and the status sync as evidence.
pub fn the_cvo_log_tells_a_late_completion_from_status_sync_timing(c: &Path) {
    let (_tmp, inputs) = edited_aws(c, "2021-08-03T09:46:10Z");
    let (findings, r) = rc(&inputs);
    assert!(findings.is_empty(), "{findings:#?}");
    assert_eq!(r.derived.timings[0].fit, Fit::Resync);

    let (_tmp, inputs) = edited_aws(c, "2021-08-03T09:58:00Z");
    let (findings, r) = rc(&inputs);
    assert_eq!(r.derived.timings[0].fit, Fit::Outside);
    let rc003: Vec<_> = findings.iter().filter(|f| f.code == "RC003").collect();
    assert_eq!(rc003.len(), 1, "{findings:#?}");
    let f = rc003[0];
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(f.details["fields"], "history[0].completionTime");
    let conf = f.confidence.as_ref().unwrap();
    assert_eq!(conf.level, mglint::rules::ConfidenceLevel::High);
    assert_eq!(conf.basis, vec!["reference-model", "cvo-log-status-sync"]);
    assert!(
        f.message.contains("the model gives `2021-08-03T09:45:28Z`"),
        "{}",
        f.message
    );
    let labels: Vec<&str> = f
        .evidence
        .iter()
        .filter_map(|e| e.label.as_deref())
        .collect();
    assert_eq!(
        labels[1..],
        [
            "the pass that completed it",
            "the status sync that recorded it"
        ],
        "{:?}",
        f.evidence
    );
    assert!(
        f.evidence[2]
            .text
            .starts_with("merge into existing history completed=true")
    );
}

/// A transcription of the 4.15.0-ec2-b02 ClusterVersion's metadata and 70-entry history only
/// (no spec, conditions, desired or observedGeneration): what it lacks is unknown, not a
/// deviation, so the replay is consistent and no RC rule fires (main before issue 15 part 3
/// gave 229 RC003 warnings here).
pub fn a_history_only_transcription_is_consistent_and_gives_no_rc_finding(c: &Path) {
    let text = std::fs::read_to_string(
        c.join("oc-upgrade-status/4.15.0-ec2-b02-cos-not-annotated-cv.yaml"),
    )
    .unwrap();
    let head = text.split("spec:").next().unwrap();
    let from = text.find("  history:").unwrap();
    let history: Vec<&str> = text[from..]
        .lines()
        .enumerate()
        .take_while(|(i, l)| {
            *i == 0 || !(l.starts_with("  ") && !l.starts_with("   ") && !l.starts_with("  -"))
        })
        .map(|(_, l)| l)
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("clusterversion.yaml");
    std::fs::write(&path, format!("{head}status:\n{}\n", history.join("\n"))).unwrap();
    let (findings, r) = rc(&[path.to_string_lossy().to_string()]);
    assert!(findings.is_empty(), "{findings:#?}");
    let fixed = &r.comparison.as_ref().unwrap().runs[0];
    assert!(fixed.consistent(), "{:?}", fixed.deviations);
    assert!(!r.derived.scenario.events.is_empty());
    // 70 entries × 6 fields, all compared; desired (3), observedGeneration and the four
    // computed conditions a 4.15 CVO writes are not in the dump.
    assert_eq!((fixed.compared, fixed.unknown), (420, 8));
    assert_eq!(r.verdict().unwrap().generations, vec!["4.11-4.13", "4.14+"]);
}

/// One test per oc example set.
pub fn tests() -> Vec<crate::DynTest> {
    let mut out: Vec<crate::DynTest> = SETS
        .iter()
        .map(|set| {
            let name = format!("oc_set_gives_no_rc_warning::{set}");
            let f: crate::DynTest = (name, Box::new(move |c: &Path| oc_set(c, set)));
            f
        })
        .collect();
    out.push((
        "a_history_only_transcription_is_consistent_and_gives_no_rc_finding".to_string(),
        Box::new(a_history_only_transcription_is_consistent_and_gives_no_rc_finding),
    ));
    out.push((
        "the_cvo_log_tells_a_late_completion_from_status_sync_timing".to_string(),
        Box::new(the_cvo_log_tells_a_late_completion_from_status_sync_timing),
    ));
    out.push((
        "real_must_gathers_give_no_rc_warning_and_one_generation".to_string(),
        Box::new(real_must_gathers_give_no_rc_warning_and_one_generation),
    ));
    out
}
