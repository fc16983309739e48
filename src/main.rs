//! The `mglint` binary: parse arguments, call the library, map the result to an exit code
//! (0 success, 1 findings at or above the fail level, 2 usage or input error).

mod cli;

use clap::Parser;
use cli::{Cli, Command, InputArgs, TextOrJson};
use mglint::ingest::{IngestOptions, ingest};
use mglint::source::SourceOptions;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn setup_threads(args: &InputArgs) {
    if let Some(n) = args.threads {
        // Only fails if a pool already exists, which cannot happen here.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build_global();
    }
}

fn ingest_opts(args: &InputArgs) -> IngestOptions {
    IngestOptions {
        source: SourceOptions {
            max_file_bytes: args.max_file_bytes,
            max_archive_bytes: args.max_archive_bytes,
            ..SourceOptions::default()
        },
    }
}

/// Writes `text` to the file or to stdout; a closed pipe is not an error.
fn emit(text: &str, output: Option<&std::path::Path>) -> Result<(), String> {
    match output {
        Some(p) => std::fs::write(p, text).map_err(|e| format!("cannot write `{}`: {e}", p.display())),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write output: {e}")),
                _ => Ok(()),
            }
        }
    }
}

fn run(cli: Cli) -> Result<u8, String> {
    match cli.command {
        Command::Summary(a) => {
            setup_threads(&a.input);
            let bundle = ingest(&a.input.inputs, &ingest_opts(&a.input)).map_err(|e| e.to_string())?;
            let s = mglint::summary::summarize(&bundle);
            let text = match a.format {
                TextOrJson::Text => mglint::summary::render_text(&s),
                TextOrJson::Json => serde_json::to_string_pretty(&s).map_err(|e| e.to_string())? + "\n",
            };
            emit(&text, a.output.as_deref())?;
            for e in &bundle.input_errors {
                eprintln!("error: {e}");
            }
            Ok(if bundle.input_errors.is_empty() { 0 } else { 2 })
        }
    }
}
