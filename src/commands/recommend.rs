//! `mglint recommend`: the offline `oc adm upgrade recommend`. oc's standard output on
//! stdout, its warnings and its final `error: …` on stderr, its exit code (1 when, with
//! `--version`, an issue was not accepted); files that could not be read are named and make
//! it exit 2 unless `--partial`.

use super::{CliError, Ui, emit, finish, load, pick_format, risks_catalogue, settings_with_risks};
use crate::cli::{RecommendArgs, StatusFormat};
use mglint::recommend::{
    Options, RecommendInputs, plan, render_json, render_markdown, render_text, shown_versions,
};
use mglint::risks::report::{recommend_section_markdown, render_recommend_section};

pub fn run(a: RecommendArgs, ui: &Ui) -> Result<u8, CliError> {
    let format = pick_format(a.format, a.output.as_deref(), StatusFormat::Text)?;
    let opts = Options {
        show_outdated: a.show_outdated_releases,
        version: a.version.clone(),
        quiet: ui.quiet,
        accept: a.accept.iter().map(|s| s.trim().to_string()).collect(),
    };
    // oc checks its flags before it reads anything.
    if let Err(e) = mglint::recommend::check_options(&opts) {
        say!("error: {e}");
        return Ok(1);
    }
    if a.published_risks && format == StatusFormat::Json {
        say!(
            "error: --published-risks adds a section to the text and Markdown forms; `mglint risks --format json` has every verdict as JSON"
        );
        return Ok(2);
    }
    if a.risks.risks.is_some() && !a.published_risks {
        return Err(CliError::Usage(
            "--risks names where the risks of --published-risks come from; add --published-risks"
                .into(),
        ));
    }
    super::guard_outputs(&a.input.inputs, &[a.output.as_deref()])?;
    let risks = a.published_risks.then_some(&a.risks);
    let mut s = settings_with_risks(&a.input, None, risks, ui)?;
    let catalogue = if a.published_risks {
        // The series read objects recommend does not keep whole: ask ingestion for them
        // (recommend runs no rule, so no known-issue rule is lost).
        let mut wants = (*s.known.wants).clone();
        mglint::risks::series::add_wants(&mut wants);
        let mut known = mglint::rules::known::KnownSet::default();
        known.wants = std::sync::Arc::new(wants);
        s.known = std::sync::Arc::new(known);
        Some(risks_catalogue(&s)?)
    } else {
        None
    };
    let run = load(&a.input, &s, ui)?;
    let unread = super::note_unread(&run, ui);
    let code = std::cell::Cell::new(0u8);
    let json = format == StatusFormat::Json;
    let text = super::per_cluster(&run, json, |an, layout| {
        let inputs = match RecommendInputs::from_bundle(&an.bundle) {
            Ok(i) => i,
            Err(e) => {
                code.set(code.get().max(2));
                return if json {
                    super::error_doc(
                        mglint::vocab::schema::RECOMMEND,
                        &an.bundle,
                        &e.to_string(),
                        layout,
                    )
                } else {
                    say!("error: {e}");
                    String::new()
                };
            }
        };
        let p = plan(&inputs);
        // The exit code is oc's in every format (1 when the --version answer is an error).
        let answer = render_text(&p, &opts);
        code.set(code.get().max(answer.exit_code()));
        // The section oc does not have, only when asked for: the default forms stay oc's.
        let risks = catalogue.as_ref().map(|cat| {
            let asked: Vec<String> = opts.version.iter().cloned().collect();
            let (_, e) = mglint::risks::evaluate(cat, &an.bundle, &asked);
            render_recommend_section(cat, &e, &shown_versions(&p, &opts))
        });
        match format {
            StatusFormat::Json => render_json(&p, &opts, layout),
            StatusFormat::Markdown => {
                let mut md = render_markdown(&p, &opts);
                if let Some(r) = &risks {
                    md.push_str(&recommend_section_markdown(r));
                }
                md
            }
            StatusFormat::Text => {
                eprint!("{}", super::for_stderr(&answer.err));
                if let Some(e) = &answer.error {
                    // oc's warnings may end without a newline; its error follows on that line.
                    say!("error: {e}");
                }
                let mut out = answer.out;
                if let Some(r) = &risks {
                    out.push_str(&mglint::vocab::escape::show_controls(r));
                }
                out
            }
        }
    });
    emit(&run, &text, a.output.as_deref(), ui)?;
    let code = finish(run, code.get());
    Ok(super::partial_exit(code, unread, a.partial))
}
