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
        let mut cmd = Cli::command().disable_help_subcommand(true);
        cmd.build();
        let n = write_pages(cmd, &dir)?;
        if !ui.quiet {
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

/// Writes the page of `cmd` and of each visible subcommand into `dir`, named as
/// clap_mangen's `generate_to` names them; each page goes through a temporary file renamed
/// into place ([`mglint::safe_fs`]), so a link planted at a page's name is replaced, not
/// written through. Gives the number of pages.
fn write_pages(cmd: clap::Command, dir: &std::path::Path) -> Result<usize, CliError> {
    let mut n = 0;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
        n += write_pages(sub, dir)?;
    }
    let man = clap_mangen::Man::new(cmd);
    let dest = dir.join(man.get_filename());
    let mut page = Vec::new();
    man.render(&mut page)
        .and_then(|()| mglint::safe_fs::write_replace(&dest, &page))
        .map_err(|e| {
            CliError::Failed(format!(
                "cannot write the man page `{}`: {e}",
                dest.display()
            ))
        })?;
    Ok(n + 1)
}
