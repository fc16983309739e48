//! `mglint risks`: the published update risks (cincinnati-graph-data's blocked edges, bundled
//! or from `--risks DIR`) judged against each cluster of the input, for every candidate update
//! (taken, requested, offered, conditional, and each `--to`). A risk file of `--risks DIR`
//! that cannot be read is named on stderr and the others are still used.

use super::{CliError, Ui, emit, finish, load, pick_format, risks_catalogue, settings_with_risks};
use crate::cli::{RisksArgs, RisksFormat};
use mglint::risks::report::{render_json, render_text};
use mglint::rules::known::KnownSet;
use std::sync::Arc;

pub fn run(a: RisksArgs, ui: &Ui) -> Result<u8, CliError> {
    let format = pick_format(a.format, a.output.as_deref(), RisksFormat::Text)?;
    super::guard_outputs(&a.input.inputs, &[a.output.as_deref()])?;
    let mut s = settings_with_risks(&a.input, None, Some(&a.source), ui)?;
    // The series read objects the analysis does not keep whole (capabilities, feature set,
    // proxy, platform): ask ingestion for them.
    let mut wants = (*s.known.wants).clone();
    mglint::risks::series::add_wants(&mut wants);
    let mut known = KnownSet::default();
    known.wants = Arc::new(wants);
    s.known = Arc::new(known);
    let cat = risks_catalogue(&s)?;
    let run = load(&a.input, &s, ui)?;
    super::note_unread(&run, ui);
    let json = format == RisksFormat::Json;
    let text = super::per_cluster(&run, json, |an, layout| {
        let (m, e) = mglint::risks::evaluate(cat, &an.bundle, &a.to);
        if json {
            render_json(&an.bundle.identity(), cat, &m.derived(), &e, layout)
        } else {
            render_text(cat, &e)
        }
    });
    emit(&run, &text, a.output.as_deref(), ui)?;
    Ok(finish(run, 0))
}
