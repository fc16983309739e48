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

mod accept_risks;
mod archive_safety;
mod bad_inputs;
mod batch_cli;
mod batch_prow_step;
mod batch_remote;
mod cli_exit_codes;
mod cli_polish;
mod clusters_apart;
mod clusters_everywhere;
mod examples_k8s;
mod fuzz_regressions;
mod html_chromium;
mod html_report;
mod hypershift;
mod ingest_bad;
mod ingest_packaging;
mod ingest_shapes;
mod json_consumers;
mod json_schemas;
mod known_rules;
mod layers;
mod no_silent_answers;
mod output_cli;
mod output_escaping;
mod output_formats;
mod output_human;
mod output_junit;
mod output_markdown;
mod output_paths;
mod output_sarif;
mod output_sarif_github;
mod output_schema;
mod output_terminal;
mod read_as_oc;
mod readme_examples;
mod readme_inputs;
mod recommend_cli;
mod recommend_oracle;
mod reconciler_conformance;
mod reconciler_conformance_status;
mod reconciler_scenario_schema;
mod reconciler_scenarios;
mod reconciler_seeds;
mod reconciler_upstream;
mod redact_cli;
mod remote_bounds;
mod remote_fetch;
mod remote_ranged;
mod remote_tls;
mod replay_fixtures;
mod replay_roundtrip;
mod resourcewatch;
mod risks_cli;
mod robust_bounds;
mod robust_hostile;
mod rules_catalogue;
mod rules_fixtures;
mod rules_seeds;
mod secrets_masked;
mod status_oracle;
mod threads_identical;
mod timeline_ci;
mod timeline_robust;
mod timeline_seed1;
mod whole_dump;
