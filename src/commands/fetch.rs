//! `mglint fetch`: download what the analysis needs of a CI job into a directory.

use super::{CliError, Ui, fetch_options};
use crate::cli::FetchArgs;
use mglint::app::{Overrides, Settings};

pub fn run(a: FetchArgs, ui: &Ui) -> Result<u8, CliError> {
    // The known-issue rules' wants: the members of a must-gather archive fetched by range
    // requests are those `analyze` reads, with its default rules.
    let cwd =
        std::env::current_dir().map_err(|e| CliError::Failed(format!("current directory: {e}")))?;
    let settings = Settings::resolve(
        &cwd,
        Overrides {
            remote: Some(fetch_options(&a.remote)),
            known_rules: true,
            no_config: true,
            ..Overrides::default()
        },
    )?;
    let r = mglint::remote::fetch_to(&a.url, &a.output, &settings.remote)
        .map_err(|e| CliError::Failed(e.to_string()))?;
    for s in &r.skipped {
        ui.note(&format!("not downloaded: {s}"));
    }
    for f in &r.failed {
        say!("error: `{}` could not be downloaded: {}", f.path, f.reason);
    }
    // The directory holds the rest of the job; the exit code says it is not all of it.
    let code = if r.failed.is_empty() { 0 } else { 2 };
    if ui.quiet {
        return Ok(code);
    }
    for line in archive_lines(&r.archives) {
        say!("{line}");
    }
    say!(
        "{}: {} ({} downloaded, {} from cache, {} fetched)",
        a.output.display(),
        mglint::vocab::text::plural(r.downloaded + r.from_cache, "file", "files"),
        r.downloaded,
        r.from_cache,
        mglint::vocab::text::plural(
            usize::try_from(r.fetched).unwrap_or(usize::MAX),
            "byte",
            "bytes"
        )
    );
    Ok(code)
}

/// One line per must-gather archive: the members fetched by range requests and their share
/// of the archive, or why it was downloaded whole.
pub fn archive_lines(archives: &[mglint::remote::ArchiveFetch]) -> Vec<String> {
    archives
        .iter()
        .map(|x| match &x.whole {
            None => format!(
                "`{}`: {} of {} members fetched by range requests: {} of {} bytes ({:.1} %) in {} requests",
                x.path,
                x.kept,
                x.members,
                x.fetched,
                x.size,
                x.fetched as f64 * 100.0 / x.size.max(1) as f64,
                x.requests
            ),
            Some(why) => format!("`{}`: downloaded whole, {} bytes ({why})", x.path, x.fetched),
        })
        .collect()
}
