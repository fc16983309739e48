//! Pointing evidence at a line: finds where a value (a timestamp, a name) sits inside the text
//! of the resource file an object was parsed from, so that evidence says `file:line`.

use crate::bundle::Bundle;
use crate::model::{Provenance, Time, fmt_time};

/// Largest file searched for a line (bigger files get file-level provenance).
const MAX_SEARCH: usize = 64 << 20;
/// How far around a candidate the context word is looked for.
const CONTEXT_WINDOW: usize = 600;

/// The provenance of `needle` inside `text`: after the object's own position (its span, or
/// the first `name: <anchor>`), the occurrence of `needle` closest to an occurrence of
/// `context`. Falls back to `prov` unchanged.
pub fn locate(
    prov: &Provenance,
    text: Option<&str>,
    anchor: Option<&str>,
    needle: &str,
    context: &str,
) -> Provenance {
    let Some(text) = text else {
        return prov.clone();
    };
    if text.len() > MAX_SEARCH || needle.is_empty() {
        return prov.clone();
    }
    let mut base = prov
        .span
        .map(|s| s.0 as usize)
        .filter(|&b| b < text.len())
        .unwrap_or(0);
    if prov.span.is_none()
        && let Some(a) = anchor.filter(|a| !a.is_empty())
            && let Some(p) = find_anchor(text, a) {
                base = p;
            }
    let Some(hay) = text.get(base..) else {
        return prov.clone();
    };
    let mut best: Option<(usize, usize)> = None;
    for (pos, _) in hay.match_indices(needle).take(256) {
        let dist = if context.is_empty() {
            0
        } else {
            context_distance(hay, pos, context)
        };
        if best.is_none_or(|(d, _)| dist < d) {
            best = Some((dist, pos));
        }
        if dist == 0 {
            break;
        }
    }
    let Some((_, pos)) = best else {
        return prov.clone();
    };
    let start = base + pos;
    let line = memchr::memchr_iter(b'\n', &text.as_bytes()[..start]).count() as u32 + 1;
    prov.at(line, start as u64, (start + needle.len()) as u64)
}

/// The distance from `pos` to the nearest occurrence of `context` within the window
/// (`usize::MAX` when there is none).
fn context_distance(hay: &str, pos: usize, context: &str) -> usize {
    let lo = floor_boundary(hay, pos.saturating_sub(CONTEXT_WINDOW));
    let hi = ceil_boundary(hay, (pos + CONTEXT_WINDOW).min(hay.len()));
    let Some(window) = hay.get(lo..hi) else {
        return usize::MAX;
    };
    window
        .match_indices(context)
        .map(|(p, _)| (lo + p).abs_diff(pos))
        .min()
        .unwrap_or(usize::MAX)
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The first `name: <a>` (YAML) or `"name": "<a>"` (JSON) in `text`.
fn find_anchor(text: &str, a: &str) -> Option<usize> {
    let yaml = format!("name: {a}\n");
    let yaml_q = format!("name: \"{a}\"");
    let json = format!("\"name\": \"{a}\"");
    let json_c = format!("\"name\":\"{a}\"");
    [yaml, yaml_q, json, json_c]
        .iter()
        .filter_map(|n| text.find(n.as_str()))
        .min()
}

/// A timestamp as the API server writes it.
pub fn ts(t: &Time) -> String {
    fmt_time(t)
}

/// The collection time of the input a file came from (its `timestamp` file), else the
/// collection time of the whole bundle.
pub fn snapshot_time(bundle: &Bundle, prov: &Provenance) -> Option<Time> {
    bundle
        .collection_times
        .iter()
        .filter(|t| t.prov.input == prov.input)
        .map(|t| t.value)
        .max()
        .or_else(|| bundle.collection_time())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn prov() -> Provenance {
        let i: Arc<str> = Arc::from("in");
        let p: Arc<str> = Arc::from("cos.yaml");
        Provenance::file(&i, &p)
    }

    #[test]
    fn picks_the_occurrence_next_to_the_context_inside_the_named_object() {
        let text = "items:\n- metadata:\n    name: a\n  status:\n    conditions:\n    - lastTransitionTime: \"2020-04-09T18:00:00Z\"\n      type: Available\n- metadata:\n    name: b\n  status:\n    conditions:\n    - lastTransitionTime: \"2020-04-09T18:00:00Z\"\n      type: Degraded\n    - lastTransitionTime: \"2020-04-09T18:00:00Z\"\n      type: Available\n";
        let p = locate(
            &prov(),
            Some(text),
            Some("b"),
            "2020-04-09T18:00:00Z",
            "type: Available",
        );
        assert_eq!(p.line, Some(14));
        let p = locate(
            &prov(),
            Some(text),
            Some("b"),
            "2020-04-09T18:00:00Z",
            "type: Degraded",
        );
        assert_eq!(p.line, Some(12));
    }

    #[test]
    fn falls_back_to_the_file_when_the_value_is_absent() {
        let p = locate(&prov(), Some("kind: X\n"), None, "2020", "");
        assert_eq!(p.line, None);
        let p = locate(&prov(), None, None, "2020", "");
        assert_eq!(p.line, None);
    }
}
