//! Small text helpers shared by every layer.

/// First line of `s`, cut at `max` bytes on a char boundary, with `…` when anything was cut
/// (a longer line or further lines).
pub fn one_line(s: &str, max: usize) -> String {
    let first = s.lines().next().unwrap_or("");
    if first.len() <= max && !s.contains('\n') {
        return first.to_string();
    }
    format!("{}…", &first[..floor_char_boundary(first, max)])
}

/// `s` with its lines kept (trailing blank lines and spaces dropped), cut at `max` bytes on a
/// char boundary with `…` when longer.
pub fn bounded(s: &str, max: usize) -> String {
    let t: Vec<&str> = s.lines().map(str::trim_end).collect();
    let t = t.join("\n");
    let t = t.trim_end();
    if t.len() <= max {
        return t.to_string();
    }
    format!("{}…", &t[..floor_char_boundary(t, max)])
}

/// The largest char boundary of `s` at or below `i`.
pub fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary of `s` at or above `i`.
pub fn ceil_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// `1 file`, `2 files`: a count with the right form of the noun (regular plurals only, or
/// the plural given).
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

pub use super::escape::show_controls;

/// Go's `%q` of a string (`strconv.Quote`): printable characters as they are, the usual
/// escapes, `\xNN` for other control bytes, `\uNNNN` / `\UNNNNNNNN` for other unprintables.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if printable(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and U+0020, by the
/// Unicode tables of Go's `unicode` package ([`super::go_print`]); unassigned code points,
/// format characters (the tag characters U+E0000–U+E007F among them), private use, controls
/// and other spaces are not printable.
pub fn printable(c: char) -> bool {
    let u = c as u32;
    super::go_print::PRINTABLE
        .binary_search_by(|&(lo, hi)| {
            if hi < u {
                std::cmp::Ordering::Less
            } else if lo > u {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// How a JSON document is written: pretty, as a document of its own, or whole on one line,
/// as one of several in JSON Lines (one per cluster).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonLayout {
    Pretty,
    Line,
}

impl JsonLayout {
    /// `v` serialized in this layout, without a final newline.
    pub fn write<T: serde::Serialize + ?Sized>(self, v: &T) -> serde_json::Result<String> {
        // Controls JSON would write raw (DEL, C1, bidi) escaped too: see `vocab::escape`.
        super::escape::to_json(v, self == JsonLayout::Pretty)
    }

    /// `v` as a document: pretty with a final newline, or one line without one (the JSON
    /// Lines writer ends each line). Serializing plain data cannot fail; if it did, `{}`.
    pub fn document<T: serde::Serialize + ?Sized>(self, v: &T) -> String {
        let mut s = self.write(v).unwrap_or_else(|_| "{}".to_string());
        if self == JsonLayout::Pretty {
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quote_escapes_what_go_calls_unprintable() {
        // Go: strconv.Quote escapes every rune !IsPrint(r) as \u/\U (strconv/quote.go), with
        // IsPrint from Unicode 15.0.0's categories L, M, N, P, S plus U+0020.
        for (c, want) in [
            ('\u{e0041}', "\\U000e0041"),  // TAG LATIN CAPITAL LETTER A (Cf)
            ('\u{e007f}', "\\U000e007f"),  // CANCEL TAG (Cf)
            ('\u{0378}', "\\u0378"),       // unassigned
            ('\u{00ad}', "\\u00ad"),       // SOFT HYPHEN (Cf)
            ('\u{2028}', "\\u2028"),       // LINE SEPARATOR (Zl)
            ('\u{00a0}', "\\u00a0"),       // NO-BREAK SPACE (Zs)
            ('\u{1fae8}', "\u{1fae8}"),    // SHAKING FACE, assigned in Unicode 15.0
            ('\u{0301}', "\u{0301}"),      // COMBINING ACUTE ACCENT (Mn): printable
            ('\u{10ffff}', "\\U0010ffff"), // noncharacter
        ] {
            assert_eq!(
                go_quote(&c.to_string()),
                format!("\"{want}\""),
                "U+{:04X}",
                c as u32
            );
        }
        assert_eq!(super::super::go_print::UNICODE_VERSION, "15.0.0");
    }

    #[test]
    fn one_line_cuts_on_char_boundary_and_marks_more_lines() {
        assert_eq!(one_line("abc", 10), "abc");
        assert_eq!(one_line("abc\ndef", 10), "abc…");
        assert_eq!(one_line("ééé", 3), "é…");
        assert_eq!(one_line("", 3), "");
    }

    #[test]
    fn bounded_keeps_lines_and_cuts_long_text() {
        assert_eq!(bounded("a  \nb\n\n", 10), "a\nb");
        assert_eq!(bounded("ééé", 3), "é…");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "error", "errors"), "1 error");
        assert_eq!(plural(0, "error", "errors"), "0 errors");
    }

    #[test]
    fn json_layouts_keep_field_order_and_strings() {
        #[derive(serde::Serialize)]
        struct Doc {
            z: &'static str,
            a: Vec<u8>,
        }
        let d = Doc {
            z: "a b\" \n c",
            a: vec![1, 2],
        };
        assert_eq!(
            JsonLayout::Line.document(&d),
            "{\"z\":\"a b\\\" \\n c\",\"a\":[1,2]}"
        );
        let pretty = JsonLayout::Pretty.document(&d);
        assert!(
            pretty.starts_with("{\n  \"z\": ") && pretty.ends_with("\n}\n"),
            "{pretty}"
        );
    }
}
