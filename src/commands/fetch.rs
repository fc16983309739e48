//! `mglint fetch`: download what the analysis needs of a CI job into a directory.

use super::{CliError, Ui, fetch_options};
use crate::cli::FetchArgs;

pub fn run(a: FetchArgs, ui: &Ui) -> Result<u8, CliError> {
    let r = mglint::remote::fetch_to(&a.url, &a.output, &fetch_options(&a.remote))
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
    say!(
        "{}: {} ({} downloaded, {} from cache, {})",
        a.output.display(),
        mglint::vocab::text::plural(r.downloaded + r.from_cache, "file", "files"),
        r.downloaded,
        r.from_cache,
        crate::cli::ByteSize(r.bytes)
    );
    Ok(code)
}
