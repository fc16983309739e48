//! `mglint fetch`: download what the analysis needs of a CI job into a directory.

use super::{CliError, Ui, fetch_options};
use crate::cli::{FetchArgs, TextOrJson};
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
    if a.format == TextOrJson::Json {
        let doc = Document {
            schema: mglint::vocab::schema::FETCH,
            source: mglint::remote::GcsLocation::parse(&a.url)
                .map(|l| l.gs_url())
                .unwrap_or_default(),
            output: a.output.display().to_string(),
            files: r.downloaded + r.from_cache,
            downloaded: r.downloaded,
            from_cache: r.from_cache,
            fetched_bytes: r.fetched,
            object_bytes: r.bytes,
            archives: &r.archives,
            skipped: &r.skipped,
            failed: &r.failed,
        };
        let text = mglint::vocab::escape::to_json(&doc, true)
            .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
        mglint::app::write_text(&format!("{text}\n"), None)?;
        return Ok(code);
    }
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

/// `mglint fetch --format json` (`mglint/fetch/v1`).
#[derive(serde::Serialize)]
struct Document<'a> {
    schema: &'static str,
    /// `gs://<bucket>/<path>` of the job.
    source: String,
    /// The directory written.
    output: String,
    /// Files the directory holds for the analysis, downloaded now or already there.
    files: usize,
    downloaded: usize,
    from_cache: usize,
    /// Every byte received for the job (listing pages and objects).
    fetched_bytes: u64,
    /// The bytes of objects among them.
    object_bytes: u64,
    archives: &'a [mglint::remote::ArchiveFetch],
    skipped: &'a [String],
    failed: &'a [mglint::remote::FailedObject],
}
