//! `mglint timeline`: every event in UTC, then the episodes; filtered by time, source and
//! subject.

use super::{CliError, Ui, emit, finish, load, pick_format, settings};
use crate::cli::{TextOrJson, TimelineArgs};
use mglint::model::{Time, parse_rfc3339};
use mglint::timeline::{EventSource, Filter};

pub fn run(a: TimelineArgs, ui: &Ui) -> Result<u8, CliError> {
    let format = pick_format(a.format, a.output.as_deref(), TextOrJson::Text)?;
    let mut filter = Filter {
        since: parse_time(&a.since, "--since")?,
        until: parse_time(&a.until, "--until")?,
        subject: a.subject.clone(),
        ..Default::default()
    };
    for s in &a.source {
        filter.source.push(
            EventSource::parse(s)
                .ok_or_else(|| CliError::Usage(format!("--source `{s}`: unknown source")))?,
        );
    }
    super::guard_outputs(&a.input.inputs, &[a.output.as_deref()])?;
    let s = settings(&a.input, None, ui)?;
    let run = load(&a.input, &s, ui)?;
    let unread = super::note_unread(&run, ui);
    let text = super::per_cluster(
        &run,
        format == TextOrJson::Json,
        |an, layout| match format {
            TextOrJson::Text => mglint::timeline::render_table(an.timeline(), &filter),
            TextOrJson::Json => mglint::timeline::render_json(an.timeline(), &filter, layout),
        },
    );
    let text = match format {
        TextOrJson::Text => super::for_terminal(text, a.output.as_deref()),
        TextOrJson::Json => text,
    };
    emit(&run, &text, a.output.as_deref(), ui)?;
    let code = finish(run, 0);
    Ok(super::partial_exit(code, unread, a.partial))
}

/// An RFC 3339 time from a flag (a missing `Z` is assumed).
pub fn parse_time(s: &Option<String>, flag: &str) -> Result<Option<Time>, CliError> {
    match s {
        None => Ok(None),
        Some(s) => parse_rfc3339(s)
            .or_else(|| parse_rfc3339(&format!("{s}Z")))
            .map(Some)
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "{flag} `{s}`: not an RFC3339 time (e.g. 2020-04-09T18:27:49Z)"
                ))
            }),
    }
}
