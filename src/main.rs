//! The `mglint` binary: parse arguments, call the library, map the result to an exit code
//! (0 success, 1 findings at or above the fail level, 2 usage or input error).

mod cli;

use clap::Parser;
use cli::*;
use mglint::bundle::Bundle;
use mglint::ingest::{IngestOptions, ingest_named};
use mglint::output::RenderOptions;
use mglint::remote::{self, FetchOptions};
use mglint::source::SourceOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

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

fn setup_threads(n: Option<usize>) {
    if let Some(n) = n {
        // Only fails if a pool already exists, which cannot happen here.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
}

fn fetch_opts(a: &RemoteArgs) -> FetchOptions {
    let mut o = FetchOptions {
        endpoint: a.gcs_endpoint.clone(),
        offline: a.offline,
        timeout: Duration::from_secs(a.timeout.max(1)),
        retries: a.retries,
        max_object_bytes: a.max_object_bytes,
        with_must_gather: a.with_must_gather,
        ..FetchOptions::default()
    };
    if let Some(d) = &a.cache_dir {
        o.cache_dir = d.clone();
    }
    o
}

/// Ingests the inputs; URLs are fetched into the cache first and keep their URL as name.
fn load(args: &InputArgs) -> Result<Bundle, String> {
    setup_threads(args.threads);
    let opts = IngestOptions {
        source: SourceOptions {
            max_file_bytes: args.max_file_bytes,
            max_archive_bytes: args.max_archive_bytes,
            ..SourceOptions::default()
        },
    };
    let mut named = Vec::new();
    let mut fetch_errors = Vec::new();
    for i in &args.inputs {
        if remote::is_remote(i) {
            match remote::fetch(i, &fetch_opts(&args.remote)) {
                Ok(r) => {
                    for s in &r.skipped {
                        eprintln!("note: {i}: not downloaded: {s}");
                    }
                    named.push((r.local_dir.to_string_lossy().to_string(), i.clone()));
                }
                Err(e) => fetch_errors.push(e.to_string()),
            }
        } else {
            named.push((i.clone(), i.clone()));
        }
    }
    if named.is_empty() {
        return Err(fetch_errors.join("\n"));
    }
    let mut b = ingest_named(&named, &opts).map_err(|e| {
        let mut s = e.to_string();
        for f in &fetch_errors {
            s.push_str("\n  ");
            s.push_str(f);
        }
        s
    })?;
    b.input_errors.extend(fetch_errors);
    if args.redact
        && let Ok(mut guard) = REDACTOR.lock()
    {
        let names = b.nodes.iter().map(|n| n.metadata.name.clone()).collect();
        *guard = Some(mglint::redact::Redactor::new(names));
    }
    Ok(b)
}

/// The run's redactor, set by `load` when `--redact` is given: one mapping for every output
/// of the run, so the same value gets the same placeholder in each format.
static REDACTOR: std::sync::Mutex<Option<mglint::redact::Redactor>> = std::sync::Mutex::new(None);

/// Writes `text` to the file or to stdout; a closed pipe is not an error. Secret-looking
/// values are always masked; with `--redact`, identifying values are replaced too.
fn emit(text: &str, output: Option<&Path>) -> Result<(), String> {
    let mut text = mglint::redact::scrub_secrets(text);
    if let Ok(mut guard) = REDACTOR.lock()
        && let Some(r) = guard.as_mut()
    {
        text = r.apply(&text);
    }
    let text = text.as_str();
    match output {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| format!("cannot write `{}`: {e}", p.display()))
        }
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(format!("cannot write output: {e}"))
                }
                _ => Ok(()),
            }
        }
    }
}

/// Reports inputs that could not be opened; they make the exit code 2.
fn input_errors(b: &Bundle, code: u8) -> u8 {
    for e in &b.input_errors {
        eprintln!("error: {e}");
    }
    if b.input_errors.is_empty() { code } else { 2 }
}

fn parse_time(s: &Option<String>, flag: &str) -> Result<Option<mglint::model::Time>, String> {
    match s {
        None => Ok(None),
        Some(s) => mglint::model::parse_rfc3339(s)
            .or_else(|| mglint::model::parse_rfc3339(&format!("{s}Z")))
            .map(Some)
            .ok_or_else(|| {
                format!("{flag} `{s}`: not an RFC3339 time (e.g. 2020-04-09T18:27:49Z)")
            }),
    }
}

/// Parses `--output` values: `FORMAT=PATH` or a bare `PATH` in the `--format` format.
fn outputs(a: &AnalyzeArgs) -> Result<Vec<(AnalyzeFormat, Option<PathBuf>)>, String> {
    use clap::ValueEnum;
    if a.output.is_empty() {
        return Ok(vec![(a.format, None)]);
    }
    a.output
        .iter()
        .map(|o| match o.split_once('=') {
            Some((f, p)) if AnalyzeFormat::from_str(f, true).is_ok() => {
                Ok((AnalyzeFormat::from_str(f, true)?, Some(PathBuf::from(p))))
            }
            _ => Ok((a.format, Some(PathBuf::from(o)))),
        })
        .collect()
}

/// `mglint batch`: exit 0 when every selected input got a row (whatever its outcome), 2 when
/// the batch itself could not run (bad list, unwritable output).
fn run_batch(a: BatchArgs) -> Result<u8, String> {
    use std::io::IsTerminal;
    let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
    let mut settings = mglint::rules::Settings::load(a.config.as_deref(), &cwd)?;
    if !a.select.is_empty() {
        settings.select = a.select.clone();
    }
    if !a.ignore.is_empty() {
        settings.ignore = a.ignore.clone();
    }
    if let Some(f) = a.fail_on {
        settings.fail_on = f;
    }
    let mut inputs = a.inputs.clone();
    if let Some(f) = &a.from {
        let text = if f.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin())
                .map_err(|e| format!("cannot read standard input: {e}"))?
        } else {
            std::fs::read_to_string(f).map_err(|e| format!("cannot read `{}`: {e}", f.display()))?
        };
        inputs.extend(mglint::batch::parse_list(&text));
    }
    if inputs.is_empty() {
        return Err("no inputs: name them as arguments or in a file with `--from`".to_string());
    }
    let opts = mglint::batch::BatchOptions {
        ingest: IngestOptions {
            source: SourceOptions {
                max_file_bytes: a.max_file_bytes,
                max_archive_bytes: a.max_archive_bytes,
                ..SourceOptions::default()
            },
        },
        settings,
        fetch: fetch_opts(&a.remote),
        threads: a.jobs.unwrap_or(0),
        shard: a.shard,
        progress: !a.no_progress && std::io::stderr().is_terminal(),
    };
    let run = match &a.output {
        Some(p) => mglint::batch::run_file(&inputs, &opts, p, a.resume)?,
        None => mglint::batch::run_to(&inputs, &opts, &Default::default(), &mut std::io::stdout())?,
    };
    if run.skipped > 0 {
        eprintln!("note: {} inputs already had a row; skipped", run.skipped);
    }
    if a.summary && !run.truncated {
        let table = run.summary.render();
        match a.output {
            Some(_) => emit(&table, None)?,
            None => eprint!("{table}"),
        }
    }
    Ok(0)
}

fn run(cli: Cli) -> Result<u8, String> {
    match cli.command {
        Command::Summary(a) => {
            let bundle = load(&a.input)?;
            let s = mglint::summary::summarize(&bundle);
            let text = match a.format {
                TextOrJson::Text => mglint::summary::render_text(&s),
                TextOrJson::Json => {
                    serde_json::to_string_pretty(&s).map_err(|e| e.to_string())? + "\n"
                }
            };
            emit(&text, a.output.as_deref())?;
            Ok(input_errors(&bundle, 0))
        }
        Command::Analyze(a) => {
            let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
            let mut settings = mglint::rules::Settings::load(a.config.as_deref(), &cwd)?;
            if !a.select.is_empty() {
                settings.select = a.select.clone();
            }
            if !a.ignore.is_empty() {
                settings.ignore = a.ignore.clone();
            }
            if let Some(f) = a.fail_on {
                settings.fail_on = f;
            }
            let outs = outputs(&a)?;
            let bundle = load(&a.input)?;
            let timeline = mglint::timeline::build(&bundle);
            let report = mglint::rules::analyze(&bundle, &timeline, &settings);
            for (format, path) in outs {
                let text = match format {
                    AnalyzeFormat::Html => {
                        let meta = mglint::output::html::HtmlMeta::from_bundle(&bundle);
                        mglint::output::html::render_html(&report, &timeline, &meta)
                    }
                    AnalyzeFormat::Report(format) => {
                        let opts = if path.is_none() {
                            RenderOptions::for_stdout()
                        } else {
                            RenderOptions::default()
                        };
                        mglint::output::render(&report, format, &opts)
                    }
                };
                emit(&text, path.as_deref())?;
            }
            let code = if a.exit_zero { 0 } else { report.exit_code() };
            Ok(input_errors(&bundle, code))
        }
        Command::Timeline(a) => {
            let mut filter = mglint::timeline::Filter {
                since: parse_time(&a.since, "--since")?,
                until: parse_time(&a.until, "--until")?,
                subject: a.subject.clone(),
                ..Default::default()
            };
            for s in &a.source {
                filter.source.push(
                    mglint::timeline::EventSource::parse(s)
                        .ok_or_else(|| format!("--source `{s}`: unknown source"))?,
                );
            }
            let bundle = load(&a.input)?;
            let tl = mglint::timeline::build(&bundle);
            let text = match a.format {
                TextOrJson::Text => mglint::timeline::render_table(&tl, &filter),
                TextOrJson::Json => mglint::timeline::render_json(&tl, &filter),
            };
            emit(&text, a.output.as_deref())?;
            Ok(input_errors(&bundle, 0))
        }
        Command::Reconcile(a) => {
            use mglint::reconciler::{Flavour, RunOptions};
            let text = std::fs::read_to_string(&a.scenario)
                .map_err(|e| format!("`{}`: {e}", a.scenario.display()))?;
            let scenario = mglint::reconciler::load_scenario(&text)
                .map_err(|e| format!("`{}`: {e}", a.scenario.display()))?;
            let opts = RunOptions {
                flavour: a.flavour.map(|f| match f {
                    FlavourArg::Fixed => Flavour::Fixed,
                    FlavourArg::Legacy => Flavour::Legacy,
                }),
                history_fix: a.history_fix.map(|h| h == OnOff::On),
            };
            let out = mglint::reconciler::run(&scenario, &opts);
            for n in &out.notes {
                eprintln!("note: {n}");
            }
            if a.trace {
                eprint!("{}", mglint::reconciler::render_trace(&out.trace));
            }
            let cv = match a.format {
                YamlOrJson::Yaml => mglint::reconciler::render_yaml(&out.cluster_version)?,
                YamlOrJson::Json => mglint::reconciler::render_json(&out.cluster_version)?,
            };
            emit(&cv, a.output.as_deref())?;
            if out.expect_mismatches.is_empty() {
                Ok(0)
            } else {
                eprintln!(
                    "the result differs from `expect`:\n{}",
                    mglint::reconciler::render_mismatches(&out.expect_mismatches)
                );
                Ok(1)
            }
        }
        Command::Replay(a) => {
            let bundle = load(&a.input)?;
            let timeline = mglint::timeline::build(&bundle);
            let r = mglint::reconciler::replay(&bundle, &timeline);
            if let Some(p) = &a.output {
                emit(&mglint::reconciler::replay::scenario_yaml(&r)?, Some(p))?;
            }
            let text = match a.format {
                TextOrJson::Text => mglint::reconciler::replay::render_text(&r),
                TextOrJson::Json => mglint::reconciler::replay::render_json(&r),
            };
            emit(&text, None)?;
            Ok(input_errors(&bundle, r.exit_code()))
        }
        Command::Rules(a) => {
            let cat = mglint::rules::catalogue();
            let text = match a.format {
                TextOrJson::Json => {
                    let rows: Vec<_> = cat
                        .iter()
                        .map(|m| serde_json::json!({"code": m.code, "name": m.name, "severity": m.severity, "summary": m.summary}))
                        .collect();
                    serde_json::to_string_pretty(
                        &serde_json::json!({"schema": "mglint/v1", "kind": "rules", "rules": rows}),
                    )
                    .map_err(|e| e.to_string())?
                        + "\n"
                }
                TextOrJson::Text => {
                    let mut s = String::new();
                    for m in &cat {
                        s.push_str(&format!(
                            "{:<7} {:<8} {:<40} {}\n",
                            m.code,
                            m.severity.to_string(),
                            m.name,
                            m.summary
                        ));
                    }
                    s.push_str(&format!(
                        "\n{} rules. `mglint explain CODE` prints a rule's page.\n",
                        cat.len()
                    ));
                    s
                }
            };
            emit(&text, None)?;
            Ok(0)
        }
        Command::Explain(a) => match mglint::rules::explain(&a.code) {
            Some(page) => {
                emit(page, None)?;
                Ok(0)
            }
            None => Err(format!("no rule `{}`; `mglint rules` lists them", a.code)),
        },
        Command::Batch(a) => run_batch(a),
        Command::Status(a) => {
            use mglint::status::{StatusInputs, assess};
            let now = parse_time(&a.now, "--now")?;
            let bundle = load(&a.input)?;
            let inputs = StatusInputs::from_bundle(&bundle, now).map_err(|e| e.to_string())?;
            let t = inputs.now.time;
            let t = t.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true);
            eprintln!("note: now = {t} ({})", inputs.now.source.describe());
            let s = assess(&inputs).map_err(|e| e.to_string())?;
            for n in &s.notes {
                eprintln!("note: {n}");
            }
            let text = match a.format {
                StatusFormat::Text => mglint::status::render_text(&s, a.details),
                StatusFormat::Json => mglint::status::render_json(&s),
                StatusFormat::Markdown => mglint::status::render_markdown(&s),
            };
            emit(&text, a.output.as_deref())?;
            Ok(input_errors(&bundle, 0))
        }
        Command::Fetch(a) => {
            let r = remote::fetch_to(&a.url, &a.output, &fetch_opts(&a.remote))
                .map_err(|e| e.to_string())?;
            for s in &r.skipped {
                eprintln!("note: not downloaded: {s}");
            }
            eprintln!(
                "{}: {} files ({} downloaded, {} from cache, {} bytes)",
                a.output.display(),
                r.downloaded + r.from_cache,
                r.downloaded,
                r.from_cache,
                r.bytes
            );
            Ok(0)
        }
    }
}
