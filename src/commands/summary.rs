//! `mglint summary`: what was found, as text or JSON.

use super::{CliError, Ui, emit, finish, load, pick_format, settings};
use crate::cli::{SummaryArgs, TextOrJson};

pub fn run(a: SummaryArgs, ui: &Ui) -> Result<u8, CliError> {
    let format = pick_format(a.format, a.output.as_deref(), TextOrJson::Text)?;
    super::guard_outputs(&a.input.inputs, &[a.output.as_deref()])?;
    let s = settings(&a.input, None, ui)?;
    let run = load(&a.input, &s, ui)?;
    let text = super::per_cluster(&run, format == TextOrJson::Json, |an, layout| {
        let summary = mglint::summary::summarize(&an.bundle);
        match format {
            TextOrJson::Text => mglint::summary::render_text(&summary),
            TextOrJson::Json => mglint::summary::render_json(&summary, layout),
        }
    });
    emit(&run, &text, a.output.as_deref(), ui)?;
    Ok(finish(run, 0))
}
