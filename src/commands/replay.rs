//! `mglint replay`: the dump checked against the reference reconciler (the verdict on
//! stdout or `-o`), and the derived scenario written out with `--scenario` (a `.yaml` `-o`
//! is still taken as the scenario, as before that flag, with a note).

use super::{CliError, Ui, emit, finish, load, settings};
use crate::cli::{ReplayArgs, TextOrJson};
use mglint::reconciler::replay::{render_json, render_text, scenario_yaml};

pub fn run(a: ReplayArgs, ui: &Ui) -> Result<u8, CliError> {
    let (scenario, output) = match (&a.scenario, &a.output) {
        (None, Some(o)) if is_yaml(o) => {
            ui.note(&format!(
                "`-o {}` writes the derived scenario; say `--scenario {}` (`-o` is for the verdict)",
                o.display(),
                o.display()
            ));
            (Some(o.clone()), None)
        }
        (s, o) => (s.clone(), o.clone()),
    };
    super::guard_outputs(&a.input.inputs, &[scenario.as_deref(), output.as_deref()])?;
    let s = settings(&a.input, None, ui)?;
    let run = load(&a.input, &s, ui)?;
    let unread = super::note_unread(&run, ui);
    let r = run.analysis().replay();
    if let Some(p) = &scenario {
        let yaml = scenario_yaml(r).map_err(|e| CliError::Failed(e.to_string()))?;
        emit(&run, &yaml, Some(p), ui)?;
    }
    // The scenario is the first cluster's; the verdict covers every cluster.
    let text = super::per_cluster(&run, a.format == TextOrJson::Json, |an, layout| {
        match a.format {
            TextOrJson::Text => render_text(an.replay()),
            TextOrJson::Json => render_json(an.replay(), layout),
        }
    });
    let text = match a.format {
        TextOrJson::Text => super::for_terminal(text, output.as_deref()),
        TextOrJson::Json => text,
    };
    emit(&run, &text, output.as_deref(), ui)?;
    let code = run
        .analyses()
        .iter()
        .map(|an| an.replay().exit_code())
        .max()
        .unwrap_or(0);
    let code = finish(run, code);
    Ok(super::partial_exit(code, unread, a.partial))
}

fn is_yaml(p: &std::path::Path) -> bool {
    p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"))
}
