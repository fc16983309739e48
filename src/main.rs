//! The `mglint` binary: parse arguments, run the verb, map the result to an exit code (0
//! success, 1 findings at or above the fail level, 2 usage or input error). Everything else
//! lives in the library (`mglint::app` is the entry point) and in one module per verb.

mod cli;
mod commands;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let ui = commands::Ui::new(cli.color, cli.quiet);
    let code = match commands::run(cli.command, &ui) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", commands::for_stderr(&e.to_string()));
            2
        }
    };
    if code == 2 {
        commands::name_unwritten();
    }
    ExitCode::from(code)
}
