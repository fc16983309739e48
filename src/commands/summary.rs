//! `mglint summary`: what was found, as text or JSON.

use super::{CliError, Ui, emit, finish, load, pick_format, settings};
use crate::cli::{SummaryArgs, TextOrJson};

pub fn run(a: SummaryArgs, ui: &Ui) -> Result<u8, CliError> {
    let format = pick_format(a.format, a.output.as_deref(), TextOrJson::Text)?;
    super::guard_outputs(&a.input.inputs, &[a.output.as_deref()])?;
    let s = settings(&a.input, None, ui)?;
    let run = load(&a.input, &s, ui)?;
    // `--partial` changes nothing here: the summary names every unread file itself.
    let _ = a.partial;
    let text = super::per_cluster(&run, format == TextOrJson::Json, |an, layout| {
        let summary = mglint::summary::summarize(&an.bundle);
        match format {
            TextOrJson::Text => mglint::summary::render_text(&summary),
            TextOrJson::Json => mglint::summary::render_json(&summary, layout),
        }
    });
    let text = match format {
        TextOrJson::Text => super::for_terminal(text, a.output.as_deref()),
        TextOrJson::Json => text,
    };
    emit(&run, &text, a.output.as_deref(), ui)?;
    Ok(finish(run, 0))
}
