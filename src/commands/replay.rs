//! `mglint replay`: the dump checked against the reference reconciler, and the derived
//! scenario written out with `-o`.

use super::{CliError, Ui, emit, finish, load, settings};
use crate::cli::{ReplayArgs, TextOrJson};
use mglint::reconciler::replay::{render_json, render_text, scenario_yaml};

pub fn run(a: ReplayArgs, ui: &Ui) -> Result<u8, CliError> {
    super::guard_outputs(&a.input.inputs, &[a.output.as_deref()])?;
    let s = settings(&a.input, None, ui)?;
    let run = load(&a.input, &s, ui)?;
    let r = run.analysis().replay();
    if let Some(p) = &a.output {
        let yaml = scenario_yaml(r).map_err(|e| CliError::Failed(e.to_string()))?;
        emit(&run, &yaml, Some(p), ui)?;
    }
    // The scenario (`-o`) is the first cluster's; the report covers every cluster.
    let text = super::per_cluster(&run, a.format == TextOrJson::Json, |an| match a.format {
        TextOrJson::Text => render_text(an.replay()),
        TextOrJson::Json => render_json(an.replay()),
    });
    emit(&run, &text, None, ui)?;
    let code = run
        .analyses()
        .iter()
        .map(|an| an.replay().exit_code())
        .max()
        .unwrap_or(0);
    Ok(finish(&run, code))
}
