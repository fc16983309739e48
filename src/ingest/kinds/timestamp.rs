//! A must-gather's `timestamp` file: the start and end of the gather, one time a line.

use super::{FileCx, Head, Reader, Sniff};
use crate::bundle::Bundle;
use crate::model::{Provenance, Severity, Sourced, Time, parse_go_time, parse_rfc3339};
use crate::source::VFile;

pub(crate) struct Timestamps;

impl Reader for Timestamps {
    type Out = Vec<Sourced<Time>>;

    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<Vec<Sourced<Time>>> {
        let (data, _) = cx.load(f, true)?;
        let text = String::from_utf8_lossy(&data);
        let mut times = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let n = Some(i as u32 + 1);
            match parse_go_time(line).or_else(|| parse_rfc3339(line)) {
                Some(t) => times.push(Sourced {
                    value: t,
                    prov: cx.prov.at_line(n),
                }),
                None => {
                    let shown = line.chars().take(80).collect::<String>();
                    cx.note(Severity::Warning, n, format!("not a timestamp: `{shown}`"));
                }
            }
        }
        Some(times)
    }

    fn merge(out: Vec<Sourced<Time>>, _prov: &Provenance, b: &mut Bundle) {
        b.collection_times.extend(out);
    }

    fn provenances(out: &mut Vec<Sourced<Time>>, set: &mut dyn FnMut(&mut Provenance)) {
        out.iter_mut().for_each(|t| set(&mut t.prov));
    }

    fn present(b: &Bundle) -> bool {
        !b.collection_times.is_empty()
    }

    /// A time as Go prints it, first.
    fn sniff(h: &Head<'_>) -> Sniff {
        match parse_go_time(h.first).is_some() {
            true => Sniff::Is,
            false => Sniff::No,
        }
    }
}
