//! Evidence lines as the human view shows them: the line a span points into (with one line of
//! context either side when the whole file is at hand), cut around the span with `…` so it
//! fits the width, and the span underlined.

use crate::rules::Snippet;
use crate::vocab::text::{ceil_char_boundary, floor_char_boundary};

/// One line of a file to print: its number, text and the underlined part (char columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownLine {
    pub number: u32,
    pub text: String,
    /// `(start, len)` in chars of `text` to underline, for the line the span starts on.
    pub mark: Option<(usize, usize)>,
}

/// The lines to show for a snippet: the span's line, and the lines just before and after it
/// when `context` and the text has them.
pub fn lines(s: &Snippet, line: Option<u32>, context: bool) -> Vec<ShownLine> {
    let text: &str = &s.text;
    let start = floor_char_boundary(text, s.span.0);
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let end = ceil_char_boundary(text, s.span.1.clamp(start, line_end));
    let number = line.unwrap_or_else(|| {
        let before = memchr::memchr_iter(b'\n', &text.as_bytes()[..line_start]).count();
        s.first_line + u32::try_from(before).unwrap_or(u32::MAX - s.first_line)
    });
    let this = &text[line_start..line_end];
    // Columns of the line as shown (a control character takes the width of its `\x1b`).
    let col = width(&text[line_start..start]);
    let len = width(&text[start..end]).max(1);
    let mut out = Vec::new();
    if context && line_start > 0 {
        let prev_start = text[..line_start - 1].rfind('\n').map_or(0, |i| i + 1);
        out.push(ShownLine {
            number: number.saturating_sub(1),
            text: clean(&text[prev_start..line_start - 1]),
            mark: None,
        });
    }
    out.push(ShownLine {
        number,
        text: clean(this),
        mark: Some((col, len)),
    });
    if context && line_end < text.len() {
        let next_end = text[line_end + 1..]
            .find('\n')
            .map_or(text.len(), |i| line_end + 1 + i);
        let next = &text[line_end + 1..next_end];
        if !next.is_empty() {
            out.push(ShownLine {
                number: number + 1,
                text: clean(next),
                mark: None,
            });
        }
    }
    out
}

/// Tabs as spaces, no `\r` at the end, other control characters (ANSI escapes in logs) and
/// bidi overrides shown as everywhere else (`\x1b`, [`crate::vocab::escape::show_controls`]).
fn clean(s: &str) -> String {
    shown(s.trim_end_matches('\r'))
}

/// `s` with tabs as spaces and its controls shown.
fn shown(s: &str) -> String {
    crate::vocab::escape::show_controls(&s.replace('\t', " ")).into_owned()
}

/// How many chars `s` takes once shown.
fn width(s: &str) -> usize {
    shown(s).chars().count()
}

/// Cuts `text` to at most `width` chars around the marked part, putting `…` where text was
/// cut; returns the shown text and the mark's new position.
pub fn cut(
    text: &str,
    mark: Option<(usize, usize)>,
    width: usize,
) -> (String, Option<(usize, usize)>) {
    let chars: Vec<char> = text.chars().collect();
    let width = width.max(8);
    if chars.len() <= width {
        return (text.to_string(), mark);
    }
    let (m0, mlen) = mark.unwrap_or((0, 0));
    let m0 = m0.min(chars.len());
    let mlen = mlen.min(chars.len() - m0);
    // Room for the text once a `…` is added on both sides.
    let room = width - 2;
    let from = if mlen >= room {
        m0
    } else {
        // Centre the mark in what is left, without running past either end.
        let spare = room - mlen;
        let before = spare / 2;
        m0.saturating_sub(before)
            .min(chars.len().saturating_sub(room))
    };
    let to = (from + room).min(chars.len());
    let mut out = String::new();
    let lead = usize::from(from > 0);
    if from > 0 {
        out.push('…');
    }
    out.extend(&chars[from..to]);
    if to < chars.len() {
        out.push('…');
    }
    let new_mark = mark.map(|_| {
        let s = m0.saturating_sub(from) + lead;
        let e = (m0 + mlen).min(to) - from + lead;
        (s, e.saturating_sub(s).max(1))
    });
    (out, new_mark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::files::FileText;

    #[test]
    fn the_span_line_and_its_neighbours() {
        let s = Snippet {
            text: FileText::from("a: 1\nb: two\nc: 3\n"),
            first_line: 1,
            span: (8, 11),
        };
        let l = lines(&s, Some(2), true);
        assert_eq!(l.len(), 3);
        assert_eq!(l[1].text, "b: two");
        assert_eq!(l[1].mark, Some((3, 3)));
        assert_eq!((l[0].number, l[2].number), (1, 3));
        // The line number is counted when the evidence has none.
        assert_eq!(lines(&s, None, false)[0].number, 2);
    }

    #[test]
    fn controls_in_a_line_are_shown_and_the_mark_follows() {
        // A log line with an ESC sequence before the span: shown `\x1b`, the mark still on
        // the span's text.
        let s = Snippet {
            text: FileText::from("E \u{1b}]0;x\u{7}\tmsg: NEEDLE\r\n"),
            first_line: 1,
            span: (14, 20),
        };
        let l = &lines(&s, Some(1), false)[0];
        assert_eq!(l.text, "E \\x1b]0;x\\x07 msg: NEEDLE");
        let (at, n) = l.mark.unwrap();
        let marked: String = l.text.chars().skip(at).take(n).collect();
        assert_eq!(marked, "NEEDLE");
    }

    #[test]
    fn long_lines_are_cut_around_the_span() {
        let line = format!("{}NEEDLE{}", "x".repeat(700), "y".repeat(700));
        let (shown, mark) = cut(&line, Some((700, 6)), 40);
        assert_eq!(shown.chars().count(), 40);
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        let (s, n) = mark.unwrap();
        let marked: String = shown.chars().skip(s).take(n).collect();
        assert_eq!(marked, "NEEDLE");
        // A span longer than the width is shown from its start.
        let (shown, mark) = cut(&line, Some((10, 1000)), 40);
        assert_eq!(shown.chars().count(), 40);
        assert_eq!(mark, Some((1, 38)));
        assert_eq!(
            cut("short", Some((0, 5)), 40),
            ("short".into(), Some((0, 5)))
        );
    }
}
