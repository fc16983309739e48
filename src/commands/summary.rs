//! `mglint summary`: what was found, as text or JSON.

use super::{CliError, emit, finish, load, settings};
use crate::cli::{SummaryArgs, TextOrJson};

pub fn run(a: SummaryArgs) -> Result<u8, CliError> {
    let s = settings(&a.input, None)?;
    let run = load(&a.input, &s)?;
    let summary = mglint::summary::summarize(&run.analysis().bundle);
    let text = match a.format {
        TextOrJson::Text => mglint::summary::render_text(&summary),
        TextOrJson::Json => mglint::summary::render_json(&summary),
    };
    emit(&run, &text, a.output.as_deref())?;
    Ok(finish(&run, 0))
}
