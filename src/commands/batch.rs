//! `mglint batch`: many inputs, one JSON Lines row each. Exits 0 when every selected input
//! got a row (whatever its outcome), 2 when the batch itself could not run.

use super::{CliError, fetch_options};
use crate::cli::BatchArgs;
use mglint::app::{self, Overrides, Settings};
use mglint::batch::{BatchOptions, parse_list, run_file, run_to};

pub fn run(a: BatchArgs) -> Result<u8, CliError> {
    use std::io::IsTerminal;
    let cwd =
        std::env::current_dir().map_err(|e| CliError::Failed(format!("current directory: {e}")))?;
    let settings = Settings::resolve(
        &cwd,
        Overrides {
            config: a.rules.config.clone(),
            select: a.rules.select.clone(),
            ignore: a.rules.ignore.clone(),
            fail_on: a.rules.fail_on.map(Into::into),
            limits: Some(app::Limits {
                max_file_bytes: a.max_file_bytes,
                max_archive_bytes: a.max_archive_bytes,
            }),
            remote: Some(fetch_options(&a.remote)),
            threads: a.jobs,
            redact: a.redact,
        },
    )?;
    let mut inputs = a.inputs.clone();
    if let Some(f) = &a.from {
        let text = if f.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin())
                .map_err(|e| CliError::Failed(format!("cannot read standard input: {e}")))?
        } else {
            std::fs::read_to_string(f)
                .map_err(|e| CliError::Failed(format!("cannot read `{}`: {e}", f.display())))?
        };
        inputs.extend(parse_list(&text));
    }
    if inputs.is_empty() {
        return Err(CliError::Usage(
            "no inputs: name them as arguments or in a file with `--from`".to_string(),
        ));
    }
    let opts = BatchOptions {
        settings,
        shard: a.shard,
        progress: !a.no_progress && std::io::stderr().is_terminal(),
    };
    let run = match &a.output {
        Some(p) => run_file(&inputs, &opts, p, a.resume),
        None => run_to(&inputs, &opts, &Default::default(), &mut std::io::stdout()),
    }
    .map_err(|e| CliError::Failed(e.to_string()))?;
    if run.skipped > 0 {
        eprintln!("note: {} inputs already had a row; skipped", run.skipped);
    }
    if a.summary && !run.truncated {
        let table = run.summary.render();
        match a.output {
            Some(_) => app::write_text(&table, None)?,
            None => eprint!("{table}"),
        }
    }
    Ok(0)
}
