//! `mglint reconcile`: a scenario through the reference CVO model; exits 1 with a diff when
//! the result differs from the scenario's `expect`.

use super::{CliError, Ui, pick_format, write_plain};
use crate::cli::{ReconcileArgs, YamlOrJson};
use mglint::reconciler::{self, RunOptions};

pub fn run(a: ReconcileArgs, ui: &Ui) -> Result<u8, CliError> {
    let format = pick_format(a.format, a.output.as_deref(), YamlOrJson::Yaml)?;
    super::guard_outputs(
        &[a.scenario.to_string_lossy().into_owned()],
        &[a.output.as_deref()],
    )?;
    let text =
        mglint::vocab::bounded::read_to_string(&a.scenario, mglint::vocab::bounded::SCENARIO_BYTES)
            .map_err(|e| CliError::Failed(format!("`{}`: {e}", a.scenario.display())))?;
    let scenario = reconciler::load_scenario(&text)
        .map_err(|e| CliError::Failed(format!("`{}`: {e}", a.scenario.display())))?;
    let opts = RunOptions {
        flavour: a.flavour,
        history_fix: a.history_fix,
        // The trace is printed only with --trace (and quiet prints nothing).
        no_trace: !a.trace || ui.quiet,
    };
    let out = reconciler::run(&scenario, &opts);
    for n in &out.notes {
        ui.note(n);
    }
    if a.trace && !ui.quiet {
        eprint!(
            "{}",
            super::for_stderr(&reconciler::render_trace(&out.trace))
        );
    }
    let cv = match format {
        YamlOrJson::Yaml => reconciler::render_yaml(&out.cluster_version),
        YamlOrJson::Json => reconciler::render_json(&out.cluster_version),
    }
    .map_err(|e| CliError::Failed(e.to_string()))?;
    let cv = mglint::redact::scrub_secrets(&cv);
    write_plain(&cv, a.output.as_deref(), ui)?;
    if out.expect_mismatches.is_empty() {
        Ok(0)
    } else {
        say!(
            "the result differs from `expect`:\n{}",
            reconciler::render_mismatches(&out.expect_mismatches)
        );
        Ok(1)
    }
}
