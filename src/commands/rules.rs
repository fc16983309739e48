//! `mglint rules` (the catalogue) and `mglint explain CODE` (one rule's page).

use super::CliError;
use crate::cli::{ExplainArgs, RulesArgs, TextOrJson};
use mglint::app::write_text;

pub fn list(a: RulesArgs) -> Result<u8, CliError> {
    let text = match a.format {
        TextOrJson::Json => mglint::rules::render_catalogue_json(),
        TextOrJson::Text => mglint::rules::render_catalogue_text(),
    };
    write_text(&text, None)?;
    Ok(0)
}

pub fn explain(a: ExplainArgs) -> Result<u8, CliError> {
    match mglint::rules::explain(&a.code) {
        Some(page) => {
            write_text(&page, None)?;
            Ok(0)
        }
        None => Err(CliError::Usage(format!(
            "no rule `{}`; `mglint rules` lists them",
            a.code
        ))),
    }
}
