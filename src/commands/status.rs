//! `mglint status`: the offline `oc adm upgrade status`. oc's text on stdout; which "now"
//! was used, and any departure from oc's rules, on stderr.

use super::timeline::parse_time;
use super::{CliError, Ui, emit, finish, load, pick_format, settings};
use crate::cli::{StatusArgs, StatusFormat};
use mglint::status::{
    StatusInputs, assess, render_json, render_markdown, render_text, unread_files,
};
use mglint::vocab::text::JsonLayout;

pub fn run(a: StatusArgs, ui: &Ui) -> Result<u8, CliError> {
    let format = pick_format(a.format, a.output.as_deref(), StatusFormat::Text)?;
    let now = parse_time(&a.now, "--now")?;
    super::guard_outputs(&a.input.inputs, &[a.output.as_deref()])?;
    let s = settings(&a.input, None, ui)?;
    let run = load(&a.input, &s, ui)?;
    if let [one] = run.analyses() {
        let text = match render(&one.bundle, now, format, JsonLayout::Pretty, &a, ui) {
            Ok(text) => text,
            // JSON is still a document of its schema (its `error` form) when the cluster
            // cannot be assessed, as with several clusters; the error and exit 2 as ever.
            Err(e) if format == StatusFormat::Json => {
                let doc = super::error_doc(
                    mglint::vocab::schema::STATUS,
                    &one.bundle,
                    &e.to_string(),
                    JsonLayout::Pretty,
                );
                emit(&run, &doc, a.output.as_deref(), ui)?;
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        emit(&run, &text, a.output.as_deref(), ui)?;
        return Ok(finish(run, 0));
    }
    // Several clusters: each its own status; one that cannot be assessed says why in its
    // section instead of hiding the others.
    let json = format == StatusFormat::Json;
    let text = super::per_cluster(&run, json, |an, layout| {
        render(&an.bundle, now, format, layout, &a, ui).unwrap_or_else(|e| {
            if json {
                super::error_doc(
                    mglint::vocab::schema::STATUS,
                    &an.bundle,
                    &e.to_string(),
                    layout,
                )
            } else {
                format!("error: {e}\n")
            }
        })
    });
    emit(&run, &text, a.output.as_deref(), ui)?;
    Ok(finish(run, 0))
}

/// One cluster's status in `format`; "now" and oc's departures as notes on stderr.
fn render(
    bundle: &mglint::bundle::Bundle,
    now: Option<mglint::model::Time>,
    format: StatusFormat,
    layout: JsonLayout,
    a: &StatusArgs,
    ui: &Ui,
) -> Result<String, CliError> {
    let inputs =
        StatusInputs::from_bundle(bundle, now).map_err(|e| CliError::Failed(e.to_string()))?;
    let t = inputs
        .now
        .time
        .to_rfc3339_opts(chrono::SecondsFormat::Nanos, true);
    ui.note(&format!("now = {t} ({})", inputs.now.source.describe()));
    let mut assessment = assess(&inputs).map_err(|e| CliError::Failed(e.to_string()))?;
    for n in &assessment.notes {
        ui.note(n);
    }
    // Never a confident answer from an incomplete input: each file that could not be read
    // and may hold what oc reads is named, and without --partial there is no verdict.
    assessment.unread = unread_files(bundle)
        .into_iter()
        .filter(|u| u.matters())
        .collect();
    for u in &assessment.unread {
        ui.note(&format!("could not read {}", u.describe()));
    }
    if !assessment.unread.is_empty() && !a.partial {
        return Err(CliError::Failed(format!(
            "{} input file(s) could not be read (named above); the assessment would be incomplete: pass --partial to print what can be told",
            assessment.unread.len()
        )));
    }
    let api: Vec<_> = bundle
        .objects
        .update_statuses
        .iter()
        .flat_map(|u| u.value.insights.iter())
        .collect();
    Ok(match format {
        StatusFormat::Text if !api.is_empty() => {
            // oc's text first, exactly; then what the cluster itself reported.
            let mut t = render_text(&assessment, a.details);
            t.push_str("\n= Update insights the cluster reported (UpdateStatus API) =\n");
            for i in api {
                t.push_str(&format!("{}\n", i.line()));
            }
            t
        }
        StatusFormat::Text if !assessment.unread.is_empty() => {
            let mut t = if !assessment.updating
                && assessment.unread.iter().any(|u| u.decides_updating())
            {
                // "not updating" is a verdict the missing pools or nodes could overturn.
                "Whether the cluster is updating is unknown: the ClusterVersion is not Progressing, but the worker pools could not all be read.\n".to_string()
            } else {
                render_text(&assessment, a.details)
            };
            t.push_str(&unknown_section(&assessment));
            t
        }
        StatusFormat::Text => render_text(&assessment, a.details),
        StatusFormat::Json => render_json(&assessment, layout),
        StatusFormat::Markdown if !assessment.unread.is_empty() => {
            let mut t = render_markdown(&assessment);
            t.push_str(&unknown_section(&assessment));
            t
        }
        StatusFormat::Markdown => render_markdown(&assessment),
    })
}

/// What `--partial` adds after oc's text: the parts the unread files leave unknown.
fn unknown_section(a: &mglint::status::Assessment) -> String {
    let mut t = String::from("\n= Unknown (input files that could not be read) =\n");
    for u in &a.unread {
        t.push_str(&u.describe());
        t.push('\n');
    }
    mglint::vocab::text::show_controls(&t).into_owned()
}
