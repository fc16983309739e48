//! Files of Kubernetes objects (YAML or JSON: one object, a list, an alerts API response),
//! parsed by [`crate::ingest::resources`] into the kind-keyed object store.

use super::{FileCx, Head, Reader, Sniff};
use crate::bundle::Bundle;
use crate::ingest::{diag, resources};
use crate::model::{Cause, Diagnostic, Objects, Provenance, Severity};
use crate::source::VFile;
use crate::vocab::encoding::Encoding;
use crate::vocab::files::FileText;
use crate::vocab::kind::{Location, ResourceAt, SniffMode};

/// Top-level keys that make a YAML document one of mglint's inputs.
const YAML_KEYS: &[&str] = &["---", "apiVersion:", "kind:", "items:", "metadata:"];

/// The largest resource text kept for evidence when the file gave no object.
const KEEP_FAILED_TEXT_BYTES: usize = 1 << 20;

pub(crate) struct ResourceFiles;

impl Reader for ResourceFiles {
    type Out = Objects;

    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<Objects> {
        let name = name_for_id(&f);
        let at = f.at.clone();
        let (data, enc) = cx.load(f, true)?;
        let place = match &at {
            Location::Resource(r) => r,
            _ => &ResourceAt::default(),
        };
        Some(objects(data, enc, &name, place, cx))
    }

    fn merge(mut out: Objects, _prov: &Provenance, b: &mut Bundle) {
        b.objects.append(&mut out);
    }

    fn provenances(out: &mut Objects, set: &mut dyn FnMut(&mut Provenance)) {
        out.provenances_mut().into_iter().for_each(set);
    }

    fn objects(out: &Objects) -> Option<&Objects> {
        Some(out)
    }

    fn present(b: &Bundle) -> bool {
        !b.objects.is_empty()
    }

    /// JSON objects and lists (with or without `kind`, as Insights archives write them) and
    /// alerts API responses, any JSON when the file was named; YAML by its first key.
    fn sniff(h: &Head<'_>) -> Sniff {
        if !h.json {
            return match YAML_KEYS.iter().any(|k| h.first_data.starts_with(k)) {
                true => Sniff::Is,
                false => Sniff::No,
            };
        }
        if h.mode == SniffMode::Named {
            return Sniff::Is;
        }
        let t = h.text;
        let object = ["\"kind\"", "\"apiVersion\"", "\"metadata\""]
            .iter()
            .any(|k| t.contains(k));
        // Prometheus (`{"status":"success","data":{"alerts":…}}`) and Alertmanager
        // (`[{"labels":…, "startsAt":…}]`) responses.
        let alerts = (t.contains("\"data\"")
            && (t.contains("\"alerts\"") || t.contains("\"groups\"")))
            || (t.contains("\"labels\"") && t.contains("\"startsAt\""));
        // JSON that is none of these is nothing mglint reads.
        match object || alerts {
            true => Sniff::Is,
            false => Sniff::Refuse,
        }
    }
}

/// The name objects without one are identified by: the path, or the input's name when the
/// input is the file.
pub(super) fn name_for_id(f: &VFile) -> String {
    if f.path.is_empty() {
        f.input.to_string()
    } else {
        f.path.to_string()
    }
}

/// The objects of a file's decoded bytes (`place`: where its path says it sits).
pub(super) fn objects(
    data: Vec<u8>,
    enc: Encoding,
    name: &str,
    place: &ResourceAt,
    cx: &mut FileCx<'_>,
) -> Objects {
    // The bytes become the text without a copy (see `FileText`).
    let text: FileText = match String::from_utf8(data) {
        Ok(t) => FileText::from(t),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            cx.note(
                Severity::Warning,
                None,
                format!("invalid UTF-8 at byte {at} (replaced with U+FFFD)"),
            );
            FileText::from(String::from_utf8_lossy(e.as_bytes()).into_owned())
        }
    };
    // Go's `encoding/json`, which oc reads alerts with, refuses a byte order mark.
    if let Some(e) = crate::model::alerts_go::bom_error(enc)
        && text.trim_start().starts_with('{')
        && resources::go_alerts(&text, name).is_some()
    {
        cx.error_with(
            Cause::alerts(e.to_string()),
            format!("not a valid alerts response: {e}"),
        );
        cx.text = Some(text);
        return Objects::default();
    }
    // A file read only for known-issue rules whose text lacks the keys of every rule that
    // reads it can give none of them an object: not parsed, not kept.
    // (The cheap test first: with no rule naming keys it answers at once.)
    if place.for_rules && place.object.is_none() && !cx.opts.wants.worth_parsing(place, &text) {
        return Objects::default();
    }
    let (objs, errs) =
        resources::parse_resources_at(&text, name, place.object, &cx.prov, &cx.opts.wants);
    for e in errs {
        let d = diag(&cx.prov, e.level, e.line, e.column, e.reason);
        cx.diags.push(Diagnostic { cause: e.cause, ..d });
    }
    // Kept for evidence snippets: a large file that gave nothing (a zeroed or corrupt file)
    // is not held for the rest of the run; its diagnostic has line and column.
    if !objs.is_empty() || text.len() <= KEEP_FAILED_TEXT_BYTES {
        cx.text = Some(text);
    }
    objs
}
