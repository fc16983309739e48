//! The known-issue catalogue on real data: no catalogue rule fires at warning level or above
//! on the real must-gathers, on the oc example sets or on the loose samples, except where the
//! sample genuinely shows the rule's problem; and there it does fire.

use mglint::rules::Severity;
use mglint::rules::known::{KnownSet, Sources};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// The samples that show a catalogue problem, and the rules that must fire on them (at
/// warning level or above). Every other sample must give no such finding.
const SHOWS: &[(&str, &[&str])] = &[
    ("oc-upgrade-status/4.14.1-degraded", &["KI012", "KI022"]),
    ("oc-upgrade-status/4.14.1-paused-worker-pool", &["KI011"]),
    // Not at warning, as oc's Update Health lists nothing for the object: in
    // 4.15.0-ec2-b02-cos-not-annotated the TechPreviewNoUpgrade gate (KI020, config-operator)
    // speaks of the next update, this one being accepted; in 4.15.0-ec2-unavailable-mco-20m
    // etcd turned Degraded minutes ago (KI022), younger than oc's 5-minute threshold. Both
    // are reported at info, with oc's view in the message.
    (
        "cv_4.12.16_conditionalUpdates-not-recommended-risks_list.yaml",
        &["KI002"],
    ),
    (
        "cv_4.14.0-rc3-to-4.14.1_failing-etcd-kas-degraded.yaml",
        &["KI012"],
    ),
];

/// The codes of the catalogue's findings at warning or above.
fn warnings(inputs: Vec<String>) -> BTreeSet<String> {
    let settings = mglint::Settings {
        selection: mglint::rules::Selection {
            select: vec!["KI".into()],
            ..Default::default()
        },
        known: Arc::new(KnownSet::load(&Sources {
            bundled: true,
            dirs: Vec::new(),
        })),
        ..Default::default()
    };
    // A loose sample mglint does not read (a CRD schema, a tree listing) has nothing to fire on.
    let Ok(run) = mglint::app::load(&inputs, &settings) else {
        return BTreeSet::new();
    };
    let r = run.analysis().report();
    assert!(
        r.rules.iter().all(|o| o.code.starts_with("KI")),
        "only the catalogue ran"
    );
    r.findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .map(|f| f.code.to_string())
        .collect()
}

fn check(name: &str, inputs: Vec<String>, problems: &mut Vec<String>) {
    let got = warnings(inputs);
    let want: BTreeSet<String> = SHOWS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, codes)| codes.iter().map(|c| c.to_string()).collect())
        .unwrap_or_default();
    if got != want {
        problems.push(format!("{name}: fired {got:?}, expected {want:?}"));
    }
}

pub fn catalogue_fires_only_where_the_problem_is(c: &Path) {
    let mut problems = Vec::new();
    for mg in ["must-gather-aws.tar.xz", "must-gather-metal.tar.xz"] {
        let p = c.join("must-gathers").join(mg);
        check(mg, vec![p.display().to_string()], &mut problems);
    }
    let oc = c.join("oc-upgrade-status");
    let mut sets: Vec<String> = std::fs::read_dir(&oc)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.strip_suffix("-cv.yaml").map(str::to_string)
        })
        .collect();
    sets.sort();
    assert!(sets.len() >= 9, "{sets:?}");
    for set in sets {
        let files: Vec<String> = std::fs::read_dir(&oc)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                n.starts_with(&format!("{set}-")) && (n.ends_with(".yaml") || n.ends_with(".json"))
            })
            .map(|p| p.display().to_string())
            .collect();
        check(&format!("oc-upgrade-status/{set}"), files, &mut problems);
    }
    let mut loose: Vec<_> = std::fs::read_dir(c)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|e| e == "yaml" || e == "json" || e == "log")
        })
        .collect();
    loose.sort();
    for p in loose {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        check(&name, vec![p.display().to_string()], &mut problems);
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

pub const TESTS: &[crate::CorpusTest] = &[(
    "catalogue_fires_only_where_the_problem_is",
    catalogue_fires_only_where_the_problem_is,
)];
