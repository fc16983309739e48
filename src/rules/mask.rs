//! Secrets masked in the report as it is built (see [`crate::vocab::secrets`]): every text
//! from the input that a finding carries (its message, its evidence's text, label and
//! snippet, its details) and the reasons of unread files and inputs, so that no format's
//! escaping can keep a value the masking would have found.

use super::model::{Detail, EvidenceItem, Finding, Report, Snippet};
use crate::vocab::files::FileText;
use crate::vocab::secrets::{mask_in_place, mask_lines};
use std::collections::HashMap;

impl Report {
    /// Masks every secret in the texts the report took from the input.
    pub fn mask_secrets(&mut self) {
        // Evidence snippets share their file's text: each file is masked once.
        let mut files: HashMap<usize, Option<FileText>> = HashMap::new();
        for f in &mut self.findings {
            mask_finding(f, &mut files);
        }
        for u in &mut self.unread {
            mask_in_place(&mut u.reason);
        }
        self.input_errors.iter_mut().for_each(mask_in_place);
    }
}

fn mask_finding(f: &mut Finding, files: &mut HashMap<usize, Option<FileText>>) {
    mask_in_place(&mut f.message);
    for (_, d) in f.details.iter_mut() {
        match d {
            Detail::Text(s) => mask_in_place(s),
            Detail::List(l) => l.iter_mut().for_each(mask_in_place),
            Detail::Count(_) | Detail::Seconds(_) | Detail::Time(_) => {}
        }
    }
    for e in &mut f.evidence {
        mask_evidence(e, files);
    }
}

fn mask_evidence(e: &mut EvidenceItem, files: &mut HashMap<usize, Option<FileText>>) {
    mask_in_place(&mut e.text);
    if let Some(l) = &mut e.label {
        mask_in_place(l);
    }
    if let Some(s) = &mut e.snippet {
        let key = s.text.key();
        let masked = files
            .entry(key)
            .or_insert_with(|| mask_lines(&s.text).map(FileText::from))
            .clone();
        if let Some(text) = masked {
            *s = remap(s, text);
        }
    }
}

/// The snippet over its masked text, its span moved to the same line and column (cut to the
/// line's new end): masking keeps the lines.
fn remap(s: &Snippet, text: FileText) -> Snippet {
    let old: &str = &s.text;
    let at = crate::vocab::text::floor_char_boundary(old, s.span.0);
    let line = memchr::memchr_iter(b'\n', &old.as_bytes()[..at]).count();
    let col = at - old[..at].rfind('\n').map_or(0, |i| i + 1);
    let len = s.span.1.saturating_sub(s.span.0);
    let start = text
        .split_inclusive('\n')
        .take(line)
        .map(str::len)
        .sum::<usize>();
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let from = crate::vocab::text::floor_char_boundary(&text, (start + col).min(line_end));
    let to = crate::vocab::text::floor_char_boundary(&text, (from + len).min(line_end)).max(from);
    Snippet {
        text,
        first_line: s.first_line,
        span: (from, to),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snippet_keeps_its_line_when_masked() {
        let text = FileText::from("a: 1\npassword: hunter2xyz\nmessage: failed to apply\n");
        let s = Snippet {
            span: (35, 41),
            first_line: 1,
            text,
        };
        let masked = mask_lines(&s.text).unwrap();
        let m = remap(&s, FileText::from(masked));
        assert!(!m.text.contains("hunter2xyz"), "{}", m.text);
        assert_eq!(&m.text[m.span.0..m.span.1], "failed");
    }
}
