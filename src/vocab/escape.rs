//! The one escaping policy for text that comes from the input, in every text format (the
//! human view, `summary`, `timeline`, `status`, `recommend` and `replay` text, Markdown,
//! HTML, JUnit and SARIF messages).
//!
//! - **Controls shown, never sent** ([`show_controls`]): every control character other than a
//!   newline and a tab (the C0 controls, DEL, the C1 controls: ESC starting a colour, a
//!   window-title or a clear-screen sequence, BEL, backspace, CR, NUL) and the bidirectional
//!   overrides and isolates (U+202A–U+202E, U+2066–U+2069, which reorder what a reader sees)
//!   are written in one visible form, the same in every format: `\x1b` below U+0080,
//!   `\u{9b}` / `\u{202e}` above. Text without them is passed through unchanged (`oc`'s text
//!   stays byte-identical for ordinary input).
//! - **One line where one line is meant** ([`one_line`]): names in headings and Markdown
//!   evidence lines also show a newline as `\x0a` (and a tab as `\x09`), so a name can never
//!   forge a heading, a table row or a line of another report.
//! - **Markdown** ([`markdown_text`], [`markdown_code`]): on top of the above, text from the
//!   input is backslash-escaped so that no HTML tag, link, autolink, emphasis, entity or table
//!   cell can come from it; a zero-width space (U+200B) breaks what GitHub would link after
//!   rendering: `scheme:\u{200b}//` and `www\u{200b}.` (its extended autolinks) and
//!   `@\u{200b}everyone` (a mention), so no link and no notification comes from the input
//!   while the text still reads the same. Code spans (GitHub neither links
//!   nor mentions inside them) get a fence longer than any backtick run and are one line.
//!   Links mglint writes itself (to rule pages, to a section of the same document) stay live.
//! - **JSON is data** ([`to_json`]): its strings keep the input's text as it was, and a
//!   consumer parses the original back; every character [`show_controls`] shows is written as
//!   a JSON escape (`\u001b`, and also `\u007f`, `\u009b`, `\u202e`, which JSON would allow
//!   raw), so `cat report.json` is as inert as the text formats.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is shown escaped wherever text is written for a reader: a control character
/// other than newline and tab, or a bidirectional override or isolate.
pub fn is_hostile(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

/// The bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The visible form of one character: `\x1b` below U+0080, `\u{202e}` above.
fn push_shown(out: &mut String, c: char) {
    if (c as u32) < 0x80 {
        let _ = write!(out, "\\x{:02x}", c as u32);
    } else {
        let _ = write!(out, "\\u{{{:x}}}", c as u32);
    }
}

/// `s` with every character `shown` selects written in its visible form.
fn show_where(s: &str, shown: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(&shown) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if shown(c) {
            push_shown(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` safe to show a reader: every control character other than a newline and a tab, and
/// every bidirectional override or isolate, shown escaped as `\x1b`, `\x07`, `\u{9b}`,
/// `\u{202e}`, so that text from the input can neither restyle, rewrite nor reorder the
/// screen or the page.
pub fn show_controls(s: &str) -> Cow<'_, str> {
    show_where(s, is_hostile)
}

/// `s` on one line: as [`show_controls`], and a newline or a tab shown as `\x0a`, `\x09`
/// too (a name in a heading, an evidence line, a table cell).
pub fn one_line(s: &str) -> Cow<'_, str> {
    show_where(s, |c| c == '\n' || c == '\t' || is_hostile(c))
}

/// Inline Markdown text from the input (one line's worth: a newline is kept for the caller
/// to lay out): controls shown, every character with a meaning in CommonMark or GFM
/// backslash-escaped (no emphasis, link, autolink, HTML, entity, strikethrough or table
/// cell), `scheme://` and `www.` broken by a zero-width space so they are not linked,
/// `@name` so it notifies nobody.
pub fn markdown_text(s: &str) -> String {
    let s = show_controls(s);
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '#' | '|' | '~' | '$' => {
                out.push('\\');
                out.push(c);
            }
            // `scheme://` and `www.` would become links in GFM (its extended autolinks);
            // `@name` and `@org/team` a mention on GitHub, which finds them in the rendered
            // text, where a backslash is gone: see [`push_inert`].
            c => {
                if !push_inert(&mut out, c, chars.peek().copied()) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Longest run of backticks in `s`.
pub fn longest_backtick_run(s: &str) -> usize {
    s.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// `s` as one Markdown code span: one line (controls, newlines and tabs shown), a fence one
/// longer than any backtick run inside, padded with a space when `s` starts or ends with a
/// backtick or a space (CommonMark strips one).
pub fn markdown_code(s: &str) -> String {
    let s = one_line(s);
    let fence = "`".repeat(longest_backtick_run(&s) + 1);
    let pad = if s.starts_with(['`', ' ']) || s.ends_with(['`', ' ']) || s.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// A JSON formatter that writes every character [`is_hostile`] selects as a `\uXXXX` escape
/// (JSON escapes C0 itself; DEL, C1 and the bidi controls it would write raw) and leaves the
/// layout to `F`.
struct Inert<F>(F);

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for Inert<F> {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some(i) = rest.find(is_hostile) {
            w.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().unwrap_or_default();
            write!(w, "\\u{:04x}", c as u32)?;
            rest = &rest[i + c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// `v` as JSON (pretty: indented by two spaces, as `serde_json::to_string_pretty`; else on
/// one line), with every character [`is_hostile`] selects written as a `\uXXXX` escape.
pub fn to_json<T: serde::Serialize + ?Sized>(v: &T, pretty: bool) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(128);
    if pretty {
        let f = Inert(serde_json::ser::PrettyFormatter::new());
        v.serialize(&mut serde_json::Serializer::with_formatter(&mut out, f))?;
    } else {
        let f = Inert(serde_json::ser::CompactFormatter);
        v.serialize(&mut serde_json::Serializer::with_formatter(&mut out, f))?;
    }
    // The serializer writes UTF-8 only.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Writes `c` so that it starts no autolink or mention on GitHub (`scheme://`, `www.`,
/// `@name`): a zero-width space after a `:` before `/`, before the `.` of a `www` that starts
/// a word, and after an `@` before a name; `false` (nothing written) for any other character.
/// A zero-width space keeps the text readable and the link or mention dead.
pub fn push_inert(out: &mut String, c: char, next: Option<char>) -> bool {
    match c {
        ':' if next == Some('/') => out.push_str(":\u{200b}"),
        '.' if out.ends_with("www")
            && !out[..out.len() - 3].ends_with(|p: char| p.is_alphanumeric()) =>
        {
            out.push_str("\u{200b}.");
        }
        '@' if next.is_some_and(|n| n.is_alphanumeric() || n == '-') => out.push_str("@\u{200b}"),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str =
        "a\u{1b}]0;pwned\u{7}b\u{1b}[2Jc\u{0}\r\u{9b}\u{7f}\u{202e}x\u{2066}\n\tok";

    #[test]
    fn controls_and_bidi_overrides_are_shown_in_one_form() {
        assert_eq!(
            show_controls(HOSTILE),
            "a\\x1b]0;pwned\\x07b\\x1b[2Jc\\x00\\x0d\\u{9b}\\x7f\\u{202e}x\\u{2066}\n\tok"
        );
        assert_eq!(
            one_line(HOSTILE),
            "a\\x1b]0;pwned\\x07b\\x1b[2Jc\\x00\\x0d\\u{9b}\\x7f\\u{202e}x\\u{2066}\\x0a\\x09ok"
        );
        assert!(matches!(show_controls("plain\ttext\n"), Cow::Borrowed(_)));
        assert!(matches!(one_line("4.14.1 élan"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_keeps_the_text_and_writes_no_control_raw() {
        let v = serde_json::json!({"m": HOSTILE, "n": [1, {"k": "é\u{85}"}]});
        for pretty in [true, false] {
            let s = to_json(&v, pretty).unwrap();
            assert!(!s.chars().any(is_hostile), "{s}");
            assert!(s.contains("\\u202e") && s.contains("\\u009b") && s.contains("\\u007f"));
            let back: serde_json::Value = serde_json::from_str(&s).unwrap();
            assert_eq!(back, v);
        }
        let plain = serde_json::json!({"a": [1, "b"], "c": {}});
        assert_eq!(
            to_json(&plain, true).unwrap(),
            serde_json::to_string_pretty(&plain).unwrap()
        );
        assert_eq!(
            to_json(&plain, false).unwrap(),
            serde_json::to_string(&plain).unwrap()
        );
    }

    /// What a CommonMark renderer makes of inline Markdown.
    fn html(md: &str) -> String {
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, pulldown_cmark::Parser::new(md));
        out
    }

    #[test]
    fn markdown_text_builds_no_markup_link_or_mention() {
        let t = markdown_text(
            "<img src=x onerror=alert(1)> [link](http://evil) <http://evil> \
             www.evil.example @everyone @org/team a@b \u{1b}[31m",
        );
        let h = html(&t);
        for bad in [
            "<img",
            "<a ",
            "http://",
            "www.evil",
            "@everyone",
            "@org",
            "\u{1b}",
        ] {
            assert!(!h.contains(bad), "{bad}: {t} → {h}");
        }
        assert!(
            h.contains("\\x1b[31m") && h.contains("@\u{200b}everyone"),
            "{h}"
        );
        assert!(
            h.contains("http:\u{200b}//evil") && h.contains("www\u{200b}.evil"),
            "{h}"
        );
        // An address, a version and a word with `www` in it are left alone.
        assert_eq!(markdown_text("a@ 4.14.1 awwwe.x"), "a@ 4.14.1 awwwe.x");
    }

    #[test]
    fn code_spans_are_one_line_and_outlast_any_backtick_run() {
        assert_eq!(markdown_code("x"), "`x`");
        assert_eq!(markdown_code("a`b"), "``a`b``");
        assert_eq!(markdown_code("``x"), "``` ``x ```");
        assert_eq!(markdown_code("a\n# b\u{7}"), "`a\\x0a# b\\x07`");
    }
}
