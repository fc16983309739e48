//! Input text on the page. Every string that comes from the input reaches the page through
//! maud's escaping: spliced as [`Text`] (which also shows control characters, not allowed in
//! HTML text, as `\x1b`) or as [`code_spans`] (backtick spans as `<code>`). Nothing here
//! writes markup by hand.

use maud::{Markup, Render, html};
use std::fmt::Write;

/// Input text, escaped by maud (`&`, `<`, `>`, `"`: safe in text and in quoted attribute
/// values), with control characters other than tab and newline, and bidirectional overrides,
/// shown as `\x1b`, `\u{202e}` ([`crate::vocab::escape::show_controls`]).
#[derive(Debug, Clone, Copy)]
pub struct Text<'a>(pub &'a str);

impl Render for Text<'_> {
    fn render_to(&self, buffer: &mut String) {
        let mut out = maud::Escaper::new(buffer);
        let _ = out.write_str(&crate::vocab::escape::show_controls(self.0));
    }
}

/// One piece of a message: plain text or a backtick span.
enum Span<'a> {
    Plain(&'a str),
    Code(&'a str),
}

/// Splits `s` at `` `name` `` spans (messages name things in backticks). An unmatched
/// backtick, or an empty pair, stays as it is.
fn spans(s: &str) -> Vec<Span<'_>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        match after.find('`') {
            Some(close) if close > 0 => {
                out.push(Span::Plain(&rest[..open]));
                out.push(Span::Code(&after[..close]));
                rest = &after[close + 1..];
            }
            _ => {
                out.push(Span::Plain(&rest[..=open]));
                rest = after;
            }
        }
    }
    out.push(Span::Plain(rest));
    out
}

/// `s` with its backtick spans as `<code>` elements, everything escaped.
pub fn code_spans(s: &str) -> Markup {
    html! {
        @for span in spans(s) {
            @match span {
                Span::Plain(p) => (Text(p)),
                Span::Code(c) => code { (Text(c)) },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_for_text_and_attributes() {
        let page = html! { p title=(Text("\"q\" <b>")) { (Text(r#"<script>alert('x')</script> & "q""#)) } };
        assert_eq!(
            page.into_string(),
            "<p title=\"&quot;q&quot; &lt;b&gt;\">&lt;script&gt;alert('x')&lt;/script&gt; &amp; &quot;q&quot;</p>"
        );
        assert_eq!(
            html! { (Text("a\u{1b}[31mb\tc\nd")) }.into_string(),
            "a\\x1b[31mb\tc\nd"
        );
    }

    #[test]
    fn code_spans_escape_inside_and_out() {
        assert_eq!(
            code_spans("`<b>` is <i> and `x").into_string(),
            "<code>&lt;b&gt;</code> is &lt;i&gt; and `x"
        );
        assert_eq!(code_spans("a `` b").into_string(), "a `` b");
    }
}
