//! What users see, snapshotted: every output format on the seed fixtures (human without colour
//! at a fixed width, JSON, JUnit, Markdown, SARIF), byte-identical across runs and thread counts.

use crate::common;
use mglint::output::{Format, RenderOptions, render};
use mglint::rules::Report;

fn report(input: &str, select: &[&str]) -> Report {
    common::report(&[input.to_string()], select)
}

const OPTS: RenderOptions = RenderOptions {
    color: false,
    width: 100,
    max_bytes: 0,
};
const BLOCKED: &str = "fixtures/must-gather/seed1-blocked";
const CI: &str = "fixtures/ci/seed2-rollback-4.3";

#[test]
fn human_seed1_blocked() {
    insta::assert_snapshot!(render(&report(BLOCKED, &[]), Format::Human, &OPTS));
}

#[test]
fn human_seed2_ci() {
    insta::assert_snapshot!(render(&report(CI, &[]), Format::Human, &OPTS));
}

#[test]
fn json_seed1_blocked() {
    insta::assert_snapshot!(render(&report(BLOCKED, &[]), Format::Json, &OPTS));
}

#[test]
fn json_seed2_ci() {
    insta::assert_snapshot!(render(&report(CI, &[]), Format::Json, &OPTS));
}

#[test]
fn junit_seed1_blocked() {
    insta::assert_snapshot!(render(&report(BLOCKED, &[]), Format::Junit, &OPTS));
}

#[test]
fn markdown_seed1_blocked() {
    insta::assert_snapshot!(render(&report(BLOCKED, &[]), Format::Markdown, &OPTS));
}

#[test]
fn sarif_seed1_blocked() {
    // The seed rules only: SARIF embeds each selected rule's page.
    insta::assert_snapshot!(render(
        &report(BLOCKED, &["CV001", "CV002", "CV003", "CV004"]),
        Format::Sarif,
        &OPTS
    ));
}

#[test]
fn human_without_findings_still_says_what_ran() {
    let out = render(
        &report("fixtures/files/cv-4.3-verification.yaml", &[]),
        Format::Human,
        &OPTS,
    );
    insta::assert_snapshot!(out);
}

#[test]
fn colour_only_when_asked() {
    let r = report(BLOCKED, &["CV002"]);
    assert!(!render(&r, Format::Human, &OPTS).contains('\u{1b}'));
    let coloured = render(
        &r,
        Format::Human,
        &RenderOptions {
            color: true,
            width: 100,
            max_bytes: 0,
        },
    );
    assert!(coloured.contains('\u{1b}'));
    // `--color never` never colours; `always` always does.
    assert!(!RenderOptions::for_stdout(mglint::output::ColorChoice::Never).color);
    assert!(RenderOptions::for_stdout(mglint::output::ColorChoice::Always).color);
}

#[test]
fn output_is_deterministic_across_runs_and_thread_counts() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let r = report(BLOCKED, &[]);
            [
                Format::Human,
                Format::Json,
                Format::Junit,
                Format::Markdown,
                Format::Sarif,
            ]
            .map(|f| render(&r, f, &OPTS))
        })
    };
    let one = run(1);
    assert_eq!(one, run(4));
    assert_eq!(one, run(1));
}
