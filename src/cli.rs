//! Command-line definitions (clap derive): one subcommand per verb. No logic lives here.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Analyze and lint OpenShift must-gathers, CVO logs and CI upgrade-job artifacts.
#[derive(Debug, Parser)]
#[command(name = "mglint", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// What was found: collection time, cluster, versions, history, CVO logs, unhealthy
    /// operators, sources, and every file that could not be read
    Summary(SummaryArgs),
}

/// Options shared by commands that read inputs.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Must-gather directories or archives, CI job artifact directories, or single files
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// Worker threads (default: all cores)
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    /// Largest single file read into memory, after decompression, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = 2 << 30)]
    pub max_file_bytes: u64,
    /// Largest total decompressed size of one archive, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 30)]
    pub max_archive_bytes: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    pub format: TextOrJson,
    /// Write to this file instead of standard output
    #[arg(long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
}
