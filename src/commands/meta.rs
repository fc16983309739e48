//! `mglint completions SHELL` and `mglint man`: generated from the clap definitions
//! (clap_complete, clap_mangen), so they never drift from the real flags.

use super::{CliError, Ui, write_plain};
use crate::cli::{Cli, CompletionsArgs, ManArgs};
use clap::CommandFactory;

pub fn completions(a: CompletionsArgs, ui: &Ui) -> Result<u8, CliError> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "mglint", &mut out);
    write_plain(&String::from_utf8_lossy(&out), None, ui)?;
    Ok(0)
}

/// `mglint man`: the top page on stdout, or with `--dir` one page per command
/// (`mglint.1`, `mglint-analyze.1`, `mglint-rules-check.1`, …), written with clap_mangen's
/// own naming so each page's SEE ALSO names files that exist.
pub fn man(a: ManArgs, ui: &Ui) -> Result<u8, CliError> {
    let failed = |e: std::io::Error| CliError::Failed(format!("cannot write the man pages: {e}"));
    if let Some(dir) = a.dir {
        std::fs::create_dir_all(&dir).map_err(failed)?;
        let cmd = Cli::command();
        clap_mangen::generate_to(cmd, &dir).map_err(failed)?;
        if !ui.quiet {
            let n = std::fs::read_dir(&dir)
                .map(|d| {
                    d.flatten()
                        .filter(|e| e.file_name().to_string_lossy().ends_with(".1"))
                        .count()
                })
                .unwrap_or(0);
            say!("wrote {n} man pages to {}", dir.display());
        }
        return Ok(0);
    }
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| CliError::Failed(format!("cannot render the man page: {e}")))?;
    write_plain(&String::from_utf8_lossy(&out), None, ui)?;
    Ok(0)
}
