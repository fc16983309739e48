//! Command-line definitions (clap derive): one subcommand per verb, the global `--color`
//! and `--quiet`, byte sizes ([`size`]), the formats each `-o` extension selects, and the
//! long help texts ([`help`]). No logic lives here.

mod codes;
pub mod completion;
mod help;
mod size;

use clap::builder::TypedValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use mglint::output::{ColorChoice, Format};
use mglint::reconciler::Flavour;
use mglint::rules::Severity;
use mglint::status::Details;
use std::path::PathBuf;

pub use size::ByteSize;

/// Analyze and lint OpenShift must-gathers, CVO logs and CI upgrade-job artifacts.
#[derive(Debug, Parser)]
#[command(
    name = "mglint",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_long_help = help::MAIN
)]
pub struct Cli {
    /// When to colour the human output: auto (a terminal, unless NO_COLOR or TERM=dumb;
    /// CLICOLOR_FORCE forces it), always or never
    #[arg(long, value_enum, global = true, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Print nothing on standard output and no notes: only errors and the exit code (files
    /// named with -o are still written)
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Ingest, rebuild the upgrade timeline, run the rules and report findings (the main job)
    Analyze(AnalyzeArgs),
    /// What was found: collection time, cluster, versions, history, CVO logs, unhealthy
    /// operators, sources, and every file that could not be read
    Summary(SummaryArgs),
    /// The upgrade timeline: events from every source in UTC, then the episodes
    Timeline(TimelineArgs),
    /// Run a scenario through the reference CVO status model and print the ClusterVersion
    Reconcile(ReconcileArgs),
    /// Check a dump against the reference CVO model: which flavour and history-fix setting it
    /// is consistent with, and every field where it deviates
    Replay(ReplayArgs),
    /// List the rule catalogue (built-in and known-issue rules), or check and test rule files
    Rules(RulesArgs),
    /// Print a rule's page
    Explain(ExplainArgs),
    /// Download a CI job's artifacts (only what the analysis needs) into a directory
    Fetch(FetchArgs),
    /// Analyze many inputs in parallel: one JSON Lines row per input (`mglint/batch/v2`),
    /// in input order, then a summary
    Batch(BatchArgs),
    /// `oc adm upgrade status`, offline: the update's control plane, nodes, worker pools and
    /// health, printed as oc prints them
    Status(StatusArgs),
    /// `oc adm upgrade recommend`, offline: the updates the cluster is offered, the risks of
    /// each and the checks oc runs before an update, printed as oc prints them
    Recommend(RecommendArgs),
    /// Published update risks (cincinnati-graph-data's blocked edges) judged against the dump:
    /// which apply to each candidate update, which do not, which cannot be evaluated offline
    Risks(RisksArgs),
    /// Print a shell completion script (e.g. `mglint completions bash > /etc/bash_completion.d/mglint`)
    Completions(CompletionsArgs),
    /// Print the man page (roff; e.g. `mglint man > mglint.1`), or write one page per
    /// command with --dir
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `mglint.1` and a page per subcommand (`mglint-analyze.1`, `mglint-rules-check.1`,
    /// …) into this directory, each page's SEE ALSO naming the others
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// Options for inputs given as URLs (Prow, gcsweb, gs://, storage.googleapis.com).
#[derive(Debug, Args)]
#[command(next_help_heading = "Remote inputs (Prow, gcsweb, gs:// and GCS URLs)")]
pub struct RemoteArgs {
    /// GCS-compatible endpoint for listings and objects
    #[arg(long, value_name = "URL", default_value = mglint::remote::DEFAULT_ENDPOINT)]
    pub gcs_endpoint: String,
    /// Cache directory for fetched artifacts [default: $XDG_CACHE_HOME/mglint or ~/.cache/mglint]
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Use only the cache; never touch the network
    #[arg(long)]
    pub offline: bool,
    /// Per-request timeout in seconds (1 to 604800, a week)
    #[arg(long, value_name = "SECS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..=604_800))]
    pub timeout: u64,
    /// Retries on server errors and dropped connections
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub retries: u32,
    /// Largest object downloaded [default: 1 GiB]
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(1 << 30), hide_default_value = true)]
    pub max_object_bytes: ByteSize,
    /// Time for one whole job (listing, downloads, retries) in seconds; what is not fetched
    /// by then is named as not downloaded
    #[arg(long, value_name = "SECS", default_value_t = 3600,
          value_parser = clap::value_parser!(u64).range(1..=604_800))]
    pub job_timeout: u64,
    /// Most bytes fetched for one job [default: 16 GiB]
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(16 << 30), hide_default_value = true)]
    pub max_job_bytes: ByteSize,
    /// Most objects the analysis may read kept from one job's listing; the listing stops there
    #[arg(long, value_name = "N", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub max_listed_objects: u64,
    /// Also download the must-gather archive when other artifacts have the data
    #[arg(long)]
    pub with_must_gather: bool,
    /// Download must-gather archives whole, instead of only the members the analysis reads
    /// (fetched by range requests from an uncompressed `.tar` when the server answers them)
    #[arg(long)]
    pub whole_archives: bool,
}

/// Options shared by commands that read inputs.
#[derive(Debug, Args)]
#[command(next_help_heading = "Inputs")]
pub struct InputArgs {
    /// Must-gather directories or archives, CI job artifact directories or URLs, or single files
    #[arg(required = true, value_name = "INPUT", value_hint = clap::ValueHint::AnyPath)]
    pub inputs: Vec<String>,
    /// Worker threads [default: all cores, or RAYON_NUM_THREADS; at most four per
    /// core]
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    /// Largest single file read into memory, after decompression [default: 2 GiB]
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(2 << 30), hide_default_value = true)]
    pub max_file_bytes: ByteSize,
    /// Largest total decompressed size of one archive [default: 64 GiB]
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(64 << 30), hide_default_value = true)]
    pub max_archive_bytes: ByteSize,
    /// Replace cluster IDs, domains, IP addresses, node names, image registries, AWS account
    /// IDs in ARNs and support case numbers in the output and on standard error with stable
    /// placeholders, for output that will be shared
    #[arg(long)]
    pub redact: bool,
    #[command(flatten)]
    pub remote: RemoteArgs,
}

/// A format that `-o PATH` can select by the file's extension.
pub trait ByExtension: Sized + Copy {
    /// The format a file name's extension selects (`None`: unknown or absent).
    fn from_path(path: &std::path::Path) -> Option<Self>;
    /// The extensions accepted, for the error message (`.json, .txt`).
    fn extensions() -> String;
}

/// The extension of a path, lower-cased.
fn extension(path: &std::path::Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    /// Text for people (`human` is the same)
    #[value(alias = "human")]
    Text,
    /// The versioned JSON document
    Json,
}

impl ByExtension for TextOrJson {
    fn from_path(path: &std::path::Path) -> Option<Self> {
        match extension(path)?.as_str() {
            "txt" | "text" => Some(TextOrJson::Text),
            "json" => Some(TextOrJson::Json),
            _ => None,
        }
    }
    fn extensions() -> String {
        ".txt, .json".to_string()
    }
}

#[derive(Debug, Args)]
#[command(after_long_help = help::INPUTS)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Accepted as by the other verbs; a summary is complete when files could not be read
    /// (it names each, with why), so it never exits 2 for them
    #[arg(help_heading = "Output", long)]
    pub partial: bool,
    /// Output format [default: from -o's extension, else text]
    #[arg(help_heading = "Output", long, value_enum)]
    pub format: Option<TextOrJson>,
    /// Write to this file instead of standard output
    #[arg(help_heading = "Output", long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
}

impl ByExtension for Format {
    fn from_path(path: &std::path::Path) -> Option<Self> {
        Format::from_path(path)
    }
    fn extensions() -> String {
        Format::extensions()
    }
}

/// Rule selection and the fail level (over `mglint.toml`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Rules")]
pub struct RuleArgs {
    /// Only run rules whose code starts with one of these (comma-separated; e.g. CV,UH002)
    #[arg(long, value_delimiter = ',', value_name = "CODES", value_parser = codes::CodeParser, hide_possible_values = true)]
    pub select: Vec<String>,
    /// Skip rules whose code starts with one of these (comma-separated)
    #[arg(long, value_delimiter = ',', value_name = "CODES", value_parser = codes::CodeParser, hide_possible_values = true)]
    pub ignore: Vec<String>,
    /// Exit 1 when a finding at or above this severity exists [default: error, or mglint.toml]
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<Severity>,
    /// Settings file [default: ./mglint.toml when present, announced on stderr; never one
    /// inside an input]
    #[arg(long, value_name = "PATH", conflicts_with = "no_config", value_hint = clap::ValueHint::FilePath)]
    pub config: Option<PathBuf>,
    /// Read no settings file (not even ./mglint.toml)
    #[arg(long)]
    pub no_config: bool,
    #[command(flatten)]
    pub known: KnownArgs,
}

/// Where known-issue rules come from (over `rule-dirs` in mglint.toml and
/// $XDG_CONFIG_HOME/mglint/rules/).
#[derive(Debug, Args, Default)]
pub struct KnownArgs {
    /// Also load the known-issue rule files (*.yaml) of this directory; repeatable
    #[arg(long = "rules", value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub rules: Vec<PathBuf>,
    /// Leave the bundled known-issue catalogue (KI rules) out
    #[arg(long)]
    pub no_bundled_rules: bool,
}

#[derive(Debug, Args)]
#[command(after_long_help = help::ANALYZE)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub risks: RisksSourceArgs,
    /// Exit 0 even when a finding is at or above the fail level (input errors still exit 2)
    #[arg(help_heading = "Output", long)]
    pub exit_zero: bool,
    /// Accept an incomplete answer when input files could not be read (each is named on
    /// stderr and in the output); without it such an input exits 2
    #[arg(help_heading = "Output", long)]
    pub partial: bool,
    /// Output format [default: from -o's extension, else human]
    #[arg(help_heading = "Output", long, value_enum)]
    pub format: Option<Format>,
    /// Write the report here, in the format its extension names (or --format); repeat as
    /// FORMAT=PATH to write several formats in one run (e.g. --output junit=junit_mglint.xml
    /// --output json=report.json --output html=report.html)
    #[arg(
        help_heading = "Output",
        long,
        short = 'o',
        value_name = "[FORMAT=]PATH"
    )]
    pub output: Vec<String>,
    /// Markdown: cut the report at a finding boundary to at most N bytes, with an "N more
    /// findings" line (GitHub refuses a comment over 65,536 characters); 0: no cap
    #[arg(help_heading = "Output", long, value_name = "N", default_value_t = mglint::output::markdown::DEFAULT_MAX_BYTES)]
    pub max_bytes: usize,
}

#[derive(Debug, Args)]
#[command(after_long_help = help::INPUTS)]
pub struct TimelineArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Accept an incomplete answer when input files could not be read (each is named on
    /// stderr and in the output); without it such an input exits 2
    #[arg(help_heading = "Output", long)]
    pub partial: bool,
    /// Output format [default: from -o's extension, else text]
    #[arg(help_heading = "Output", long, value_enum)]
    pub format: Option<TextOrJson>,
    /// Only events at or after this time (RFC3339, e.g. 2020-04-09T18:00:00Z)
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Only events at or before this time (RFC3339)
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
    /// Only these sources (comma-separated: cluster-version, cluster-operator, node,
    /// machine-config-pool, pod, kube-event, cvo-log, interval, test-log, junit, prow)
    #[arg(long, value_delimiter = ',', value_name = "SOURCES")]
    pub source: Vec<String>,
    /// Only this subject (e.g. clusterversion/version, kube-apiserver)
    #[arg(long, value_name = "SUBJECT")]
    pub subject: Option<String>,
    /// Write to this file instead of standard output
    #[arg(help_heading = "Output", long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
}

/// `on` or `off`, as `true` or `false` (`reconcile --history-fix`).
fn on_off() -> impl TypedValueParser<Value = bool> {
    clap::builder::PossibleValuesParser::new(["on", "off"]).map(|s| s == "on")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum YamlOrJson {
    Yaml,
    Json,
}

impl ByExtension for YamlOrJson {
    fn from_path(path: &std::path::Path) -> Option<Self> {
        match extension(path)?.as_str() {
            "yaml" | "yml" => Some(YamlOrJson::Yaml),
            "json" => Some(YamlOrJson::Json),
            _ => None,
        }
    }
    fn extensions() -> String {
        ".yaml, .json".to_string()
    }
}

#[derive(Debug, Args)]
pub struct ReconcileArgs {
    /// Scenario file (see docs/scenario-format.md)
    #[arg(value_name = "SCENARIO")]
    pub scenario: PathBuf,
    /// Override the scenario's flavour
    #[arg(long, value_enum)]
    pub flavour: Option<Flavour>,
    /// Override the Bug 1756461 history fix (off reproduces the bug)
    #[arg(long, value_name = "ON|OFF", value_parser = on_off())]
    pub history_fix: Option<bool>,
    /// Output format of the resulting ClusterVersion [default: from -o's extension, else yaml]
    #[arg(help_heading = "Output", long, value_enum)]
    pub format: Option<YamlOrJson>,
    /// Print, per event, the release being reconciled, the worker state and status changes
    #[arg(long)]
    pub trace: bool,
    /// Write the ClusterVersion here instead of standard output
    #[arg(help_heading = "Output", long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct RulesArgs {
    #[command(subcommand)]
    pub action: Option<RulesAction>,
    /// Output format
    #[arg(help_heading = "Output", long, value_enum, default_value_t = TextOrJson::Text)]
    pub format: TextOrJson,
    /// Settings file [default: ./mglint.toml when present]
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub known: KnownArgs,
}

/// `mglint rules check|test`.
#[derive(Debug, Subcommand)]
pub enum RulesAction {
    /// Validate known-issue rule files: every problem with its file, line and column (exit 2
    /// when a file is invalid)
    Check(RuleFilesArgs),
    /// Run the test cases rule files carry (`tests:`: an input relative to the rule file, and
    /// whether the rule must fire on it); exit 1 when a case fails, 2 when a file is invalid
    Test(RuleFilesArgs),
}

#[derive(Debug, Args)]
pub struct RuleFilesArgs {
    /// Rule files, or directories of them (*.yaml)
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Rule code (e.g. CV001, KI003, X-ACME-001) or slug
    #[arg(value_name = "CODE", value_parser = codes::CodeParser, hide_possible_values = true)]
    pub code: String,
    /// Settings file [default: ./mglint.toml when present]
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub known: KnownArgs,
}

#[derive(Debug, Args)]
pub struct FetchArgs {
    /// Prow job URL, gcsweb URL, gs://bucket/path or https://storage.googleapis.com/bucket/path
    #[arg(value_name = "URL")]
    pub url: String,
    /// Directory to write the job's artifacts into
    #[arg(help_heading = "Output", long, short = 'o', value_name = "DIR")]
    pub output: PathBuf,
    /// What to print when done: a line per must-gather archive and the total (text), or one
    /// JSON document (`mglint/fetch/v1`)
    #[arg(help_heading = "Output", long, value_enum, default_value_t = TextOrJson::Text)]
    pub format: TextOrJson,
    #[command(flatten)]
    pub remote: RemoteArgs,
}

#[derive(Debug, Args)]
#[command(after_long_help = help::BATCH)]
pub struct BatchArgs {
    /// Must-gathers, CI job artifact directories, archives or URLs; each is analysed on its own
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// Read more inputs from this file (`-` for standard input), one a line; blank lines and
    /// lines starting with `#` are ignored
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Analyse only shard K of N (0-based): inputs whose FNV-1a hash modulo N is K, so N
    /// workers given the same list cover it exactly once
    #[arg(long, value_name = "K/N")]
    pub shard: Option<mglint::batch::Shard>,
    /// Worker threads, each analysing one input at a time [default: all cores, or
    /// RAYON_NUM_THREADS; at most four per core]
    #[arg(long = "threads", short = 'j', alias = "jobs", value_name = "N")]
    pub threads: Option<usize>,
    /// Accept an incomplete answer when files inside an input could not be read: its row
    /// keeps its outcome and names them in `errors`; without it such a row is an `error`
    /// row, as `analyze` exits 2 on it
    #[arg(help_heading = "Output", long)]
    pub partial: bool,
    /// Row format [default: from -o's extension (.txt: text), else json]
    #[arg(help_heading = "Output", long, value_enum)]
    pub format: Option<BatchFormat>,
    /// Write the rows to this file instead of standard output
    #[arg(help_heading = "Output", long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Keep the rows already in --output (JSON rows), skip their inputs and append the new rows
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Print a summary table (to standard output with --output, else to standard error)
    #[arg(help_heading = "Output", long)]
    pub summary: bool,
    /// Never draw the progress bar (it is only drawn when standard error is a terminal)
    #[arg(help_heading = "Output", long)]
    pub no_progress: bool,
    /// Rule selection; a row's outcome is `findings` when a finding at or above
    /// `--fail-on` exists
    #[command(flatten)]
    pub rules: RuleArgs,
    #[command(flatten)]
    pub risks: RisksSourceArgs,
    /// Replace identifying values in the rows with stable placeholders (one mapping for the
    /// whole batch)
    #[arg(long)]
    pub redact: bool,
    /// Largest single file read into memory, after decompression [default: 2 GiB]
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(2 << 30), hide_default_value = true)]
    pub max_file_bytes: ByteSize,
    /// Largest total decompressed size of one archive [default: 64 GiB]
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(64 << 30), hide_default_value = true)]
    pub max_archive_bytes: ByteSize,
    #[command(flatten)]
    pub remote: RemoteArgs,
}

/// `batch --format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BatchFormat {
    /// One line per cluster for people: input, outcome, versions, counts, codes, then its
    /// errors (`human` is the same)
    #[value(alias = "human")]
    Text,
    /// One `mglint/batch/v2` JSON Lines row per cluster (`jsonl` is the same)
    #[value(alias = "jsonl")]
    Json,
}

#[derive(Debug, Args)]
#[command(after_long_help = help::INPUTS)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Accept an incomplete answer when input files could not be read (each is named on
    /// stderr); without it such an input exits 2
    #[arg(help_heading = "Output", long)]
    pub partial: bool,
    /// Output format of the verdict and deviations
    #[arg(help_heading = "Output", long, value_enum, default_value_t = TextOrJson::Text)]
    pub format: TextOrJson,
    /// Write the derived scenario here (re-run it with `mglint reconcile`)
    #[arg(help_heading = "Output", long, value_name = "SCENARIO.yaml", value_hint = clap::ValueHint::FilePath)]
    pub scenario: Option<PathBuf>,
    /// Write the verdict here (text or JSON as --format says); a `.yaml`/`.yml` path is taken
    /// as --scenario, as before that flag existed, with a note
    #[arg(help_heading = "Output", long, short = 'o', value_name = "PATH", value_hint = clap::ValueHint::FilePath)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatusFormat {
    /// Exactly what `oc adm upgrade status` prints (`human` is the same)
    #[value(alias = "human")]
    Text,
    /// The versioned `mglint/status/v2` document
    Json,
    /// Tables for a support case
    Markdown,
}

impl ByExtension for StatusFormat {
    fn from_path(path: &std::path::Path) -> Option<Self> {
        match extension(path)?.as_str() {
            "txt" | "text" => Some(StatusFormat::Text),
            "json" => Some(StatusFormat::Json),
            "md" | "markdown" => Some(StatusFormat::Markdown),
            _ => None,
        }
    }
    fn extensions() -> String {
        ".txt, .json, .md".to_string()
    }
}

#[derive(Debug, Args)]
#[command(after_long_help = help::INPUTS, disable_version_flag = true)]
pub struct RecommendArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// List every update of each minor, one row each (as `oc adm upgrade recommend
    /// --show-outdated-releases`)
    #[arg(long)]
    pub show_outdated_releases: bool,
    /// Show what oc says of the update to this release (strict SemVer, e.g. 4.16.32); an issue
    /// not in --accept makes it exit 1, as oc does. With --quiet only that error is printed
    #[arg(long, alias = "to", value_name = "VERSION")]
    pub version: Option<String>,
    /// Issue names to accept (comma-separated, repeatable): Failing, Progressing,
    /// CannotRetrieveUpdates, ConditionalUpdateRisk, an alert's name, …
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub accept: Vec<String>,
    /// After oc's output, a section oc does not have: the published update risks
    /// (cincinnati-graph-data, bundled) judged from the dump for each update shown (text and
    /// Markdown; `mglint risks` has every verdict, also as JSON)
    #[arg(long)]
    pub published_risks: bool,
    #[command(flatten)]
    pub risks: RisksSourceArgs,
    /// Output format [default: from -o's extension, else text]
    #[arg(help_heading = "Output", long, value_enum)]
    pub format: Option<StatusFormat>,
    /// Write to this file instead of standard output
    #[arg(help_heading = "Output", long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Answer although input files could not be read (each is named on stderr); without it
    /// such an input exits 2
    #[arg(help_heading = "Output", long)]
    pub partial: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RisksFormat {
    /// Each candidate update with the risks that apply, cannot be evaluated, do not apply
    Text,
    /// The versioned `mglint/risks/v1` document
    Json,
}

impl ByExtension for RisksFormat {
    fn from_path(path: &std::path::Path) -> Option<Self> {
        match extension(path)?.as_str() {
            "txt" | "text" => Some(RisksFormat::Text),
            "json" => Some(RisksFormat::Json),
            _ => None,
        }
    }
    fn extensions() -> String {
        ".txt, .json".to_string()
    }
}

/// Where the published update risks come from (`risks`, `analyze`'s and `batch`'s CV025,
/// `recommend --published-risks`).
#[derive(Debug, Clone, Default, Args)]
pub struct RisksSourceArgs {
    /// Read the risks from this cincinnati-graph-data checkout (its `blocked-edges/`) instead
    /// of the bundled snapshot [settings file: `risks-dir`]
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub risks: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(after_long_help = help::INPUTS)]
pub struct RisksArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Also judge the update to this release, offered or not (repeatable)
    #[arg(long, value_name = "VERSION")]
    pub to: Vec<String>,
    #[command(flatten)]
    pub source: RisksSourceArgs,
    /// Output format [default: from -o's extension, else text]
    #[arg(long, value_enum)]
    pub format: Option<RisksFormat>,
    /// Write to this file instead of standard output
    #[arg(long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(after_long_help = help::INPUTS)]
pub struct StatusArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Show detailed output in this section (as `oc adm upgrade status --details`)
    #[arg(long, value_enum, default_value_t = Details::None)]
    pub details: Details,
    /// Assess at this time (RFC3339) [default: the collection time, else the latest
    /// condition transition + 368975 ns]
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Output format [default: from -o's extension, else text]
    #[arg(help_heading = "Output", long, value_enum)]
    pub format: Option<StatusFormat>,
    /// Write to this file instead of standard output
    #[arg(help_heading = "Output", long, short = 'o', value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Print what can be told when input files could not be read (each is named on stderr and
    /// under "Unknown"); without it such an input is an error (exit 2)
    #[arg(help_heading = "Output", long)]
    pub partial: bool,
}
