//! Tests on the real data in `../shared/corpus` (real must-gathers, oc's example sets and
//! golden outputs, Insights samples). A custom harness (libtest-mimic) so that a missing
//! corpus is visible: on a fresh clone every test here is reported as ignored, with a note;
//! with `CI=true` a missing corpus fails the run instead.

#[path = "../common/mod.rs"]
mod common;
mod ingest;
mod known;
mod redact;
mod replay;
mod risks;
mod rules;
mod status;
mod timeline;
mod yaml;

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};

/// A corpus test: its name and the function, given the corpus directory.
pub type CorpusTest = (&'static str, fn(&Path));
/// A corpus test made at run time (one per example set and form).
pub type DynTest = (
    String,
    Box<dyn Fn(&Path) + Send + Sync + std::panic::RefUnwindSafe>,
);

fn main() {
    let args = Arguments::from_args();
    let corpus = common::root().join("../shared/corpus");
    let present = corpus.is_dir();
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if !present {
        eprintln!(
            "note: {} not found: the corpus tests are ignored{}",
            corpus.display(),
            if in_ci { " (CI=true: failing)" } else { "" }
        );
    }
    let groups: &[(&str, &[CorpusTest])] = &[
        ("ingest", ingest::TESTS),
        ("known", known::TESTS),
        ("redact", redact::TESTS),
        ("risks", risks::TESTS),
        ("rules", rules::TESTS),
        ("timeline", timeline::TESTS),
        ("yaml", yaml::TESTS),
    ];
    let mut all: Vec<(String, DynTest)> = Vec::new();
    for (group, tests) in groups {
        for (name, f) in tests.iter().copied() {
            all.push((group.to_string(), (name.to_string(), Box::new(f))));
        }
    }
    for t in status::tests() {
        all.push(("status".to_string(), t));
    }
    for t in replay::tests() {
        all.push(("replay".to_string(), t));
    }
    let mut trials = Vec::new();
    for (group, (name, f)) in all {
        {
            let dir: PathBuf = corpus.clone();
            let trial = Trial::test(format!("{group}::{name}"), move || {
                if !present {
                    return Err(Failed::from(format!(
                        "{} is missing (CI=true)",
                        dir.display()
                    )));
                }
                std::panic::catch_unwind(|| f(&dir)).map_err(|p| {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "test panicked".to_string());
                    Failed::from(msg)
                })
            });
            trials.push(trial.with_ignored_flag(!present && !in_ci));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
