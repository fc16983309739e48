//! `mglint rules` (the catalogue) and `mglint explain CODE` (one rule's page, rendered for
//! the terminal: headings, wrapped paragraphs and lists, indented code; no Markdown syntax).

use super::{CliError, Ui, write_plain};
use crate::cli::{ExplainArgs, RulesArgs, TextOrJson};

pub fn list(a: RulesArgs, ui: &Ui) -> Result<u8, CliError> {
    let text = match a.format {
        TextOrJson::Json => mglint::rules::render_catalogue_json(),
        TextOrJson::Text => mglint::rules::render_catalogue_text(),
    };
    write_plain(&text, None, ui)?;
    Ok(0)
}

pub fn explain(a: ExplainArgs, ui: &Ui) -> Result<u8, CliError> {
    match mglint::rules::explain(&a.code) {
        Some(page) => {
            let opts = ui.stdout_options();
            write_plain(
                &mglint::output::page::render_terminal(&page, &opts),
                None,
                ui,
            )?;
            Ok(0)
        }
        None => Err(CliError::Usage(format!(
            "no rule `{}`; `mglint rules` lists them",
            a.code
        ))),
    }
}
