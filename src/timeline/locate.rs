//! Pointing evidence at a line: finds where a value (a timestamp, a name) sits inside the text
//! of the resource file an object was parsed from, so that evidence says `file:line`.

use crate::bundle::Bundle;
use crate::model::{Provenance, Time, fmt_time};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Largest file searched for a line (bigger files get file-level provenance).
const MAX_SEARCH: usize = 256 << 20;
/// How far after an object's start its fields are looked for.
const OBJECT_WINDOW: usize = 64 << 10;
/// A context this close (same line, in practice) ends the search: later candidates belong to
/// later objects.
const NEAR_ENOUGH: usize = 80;
/// How far around a candidate the context word is looked for.
const CONTEXT_WINDOW: usize = 600;

/// Line starts and first `name` positions of one file's text, built once per file.
struct TextIndex {
    line_starts: Vec<usize>,
    names: HashMap<String, usize>,
}

impl TextIndex {
    fn build(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        let mut names = HashMap::new();
        let b = text.as_bytes();
        for (pos, _) in text.match_indices("name") {
            let before = pos.checked_sub(1).map(|i| b[i]);
            if !matches!(
                before,
                None | Some(b' ' | b'\t' | b'"' | b'-' | b'{' | b',' | b'\n')
            ) {
                continue;
            }
            let rest = &text[pos + 4..];
            let rest = rest.strip_prefix('"').unwrap_or(rest);
            let Some(rest) = rest.strip_prefix(':') else {
                continue;
            };
            let rest = rest.trim_start_matches(' ');
            let rest = rest.strip_prefix('"').unwrap_or(rest);
            let end = rest.find(['"', '\n', ',', '}', '\r']).unwrap_or(rest.len());
            let value = rest[..end].trim_end();
            if !value.is_empty() {
                names.entry(value.to_string()).or_insert(pos);
            }
        }
        TextIndex { line_starts, names }
    }

    fn line_of(&self, offset: usize) -> u32 {
        self.line_starts.partition_point(|&s| s <= offset) as u32
    }
}

thread_local! {
    static CACHE: RefCell<HashMap<(usize, usize), Rc<TextIndex>>> = RefCell::new(HashMap::new());
}

/// Forgets the per-file indexes (called before and after each timeline build, since they
/// are keyed by the address of texts that live only as long as the bundle).
pub fn reset_cache() {
    CACHE.with(|c| c.borrow_mut().clear());
}

fn index(text: &str) -> Rc<TextIndex> {
    let key = (text.as_ptr() as usize, text.len());
    CACHE.with(|c| {
        c.borrow_mut()
            .entry(key)
            .or_insert_with(|| Rc::new(TextIndex::build(text)))
            .clone()
    })
}

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
    let idx = index(text);
    let mut base = prov
        .span
        .map(|s| s.0 as usize)
        .filter(|&b| b < text.len())
        .unwrap_or(0);
    if prov.span.is_none()
        && let Some(a) = anchor.filter(|a| !a.is_empty())
        && let Some(&p) = idx.names.get(a)
    {
        base = p;
    }
    let stop = ceil_boundary(text, (base + OBJECT_WINDOW).min(text.len()));
    let Some(hay) = text.get(base..stop) else {
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
        if dist <= NEAR_ENOUGH {
            break;
        }
    }
    let Some((_, pos)) = best else {
        return prov.clone();
    };
    let start = base + pos;
    prov.at(
        idx.line_of(start),
        start as u64,
        (start + needle.len()) as u64,
    )
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
