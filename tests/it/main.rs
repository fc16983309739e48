//! The integration tests, in one binary (one link instead of thirty): each module is one
//! area, over the fixtures in `fixtures/` and the real binary. Tests on the shared corpus
//! (`../shared/corpus`) are in the `corpus` test binary, which reports them as ignored when
//! the corpus is absent.

#[path = "../common/mod.rs"]
mod common;
#[path = "../reconciler_support/mod.rs"]
mod reconciler_support;
#[path = "../remote_support/mod.rs"]
mod remote_support;

mod archive_safety;
mod bad_inputs;
mod batch_cli;
mod batch_prow_step;
mod batch_remote;
mod cli_exit_codes;
mod fuzz_regressions;
mod html_chromium;
mod html_report;
mod ingest_bad;
mod ingest_packaging;
mod layers;
mod output_formats;
mod output_schema;
mod reconciler_conformance;
mod reconciler_conformance_status;
mod reconciler_scenarios;
mod reconciler_seeds;
mod reconciler_upstream;
mod redact_cli;
mod remote_fetch;
mod replay_fixtures;
mod replay_roundtrip;
mod robust_bounds;
mod rules_catalogue;
mod rules_fixtures;
mod rules_seeds;
mod timeline_ci;
mod timeline_robust;
mod timeline_seed1;
