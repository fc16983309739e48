//! `mglint fetch`: download what the analysis needs of a CI job into a directory.

use super::{CliError, fetch_options};
use crate::cli::FetchArgs;

pub fn run(a: FetchArgs) -> Result<u8, CliError> {
    let r = mglint::remote::fetch_to(&a.url, &a.output, &fetch_options(&a.remote))
        .map_err(|e| CliError::Failed(e.to_string()))?;
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
