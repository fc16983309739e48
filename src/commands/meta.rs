//! `mglint completions SHELL` and `mglint man`: generated from the clap definitions
//! (clap_complete, clap_mangen), so they never drift from the real flags.

use super::{CliError, Ui, write_plain};
use crate::cli::{Cli, CompletionsArgs};
use clap::CommandFactory;

pub fn completions(a: CompletionsArgs, ui: &Ui) -> Result<u8, CliError> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "mglint", &mut out);
    write_plain(&String::from_utf8_lossy(&out), None, ui)?;
    Ok(0)
}

pub fn man(ui: &Ui) -> Result<u8, CliError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| CliError::Failed(format!("cannot render the man page: {e}")))?;
    write_plain(&String::from_utf8_lossy(&out), None, ui)?;
    Ok(0)
}
