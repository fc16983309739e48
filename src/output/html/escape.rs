//! HTML escaping for every string that comes from the input (text and attribute values alike)
//! and backtick spans as `<code>`. Rule pages are rendered by pulldown-cmark
//! ([`crate::output::page::render_html`]).

/// Escapes `&`, `<`, `>`, `"` and `'`: safe in text and in quoted attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than tab and newline are not allowed in HTML text.
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Escapes `s` and turns `` `name` `` spans into `<code>name</code>` (messages name things in
/// backticks). An unmatched backtick stays as it is.
pub fn code_spans(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        match after.find('`') {
            Some(close) if close > 0 => {
                out.push_str(&esc(&rest[..open]));
                out.push_str("<code>");
                out.push_str(&esc(&after[..close]));
                out.push_str("</code>");
                rest = &after[close + 1..];
            }
            _ => {
                out.push_str(&esc(&rest[..=open]));
                rest = after;
            }
        }
    }
    out.push_str(&esc(rest));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn esc_covers_text_and_attributes() {
        assert_eq!(
            esc(r#"<script>alert('x')</script> & "q""#),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(esc("a\u{1b}[31mb"), "a\u{FFFD}[31mb");
    }

    #[test]
    fn code_spans_escape_inside_and_out() {
        assert_eq!(
            code_spans("`<b>` is <i> and `x"),
            "<code>&lt;b&gt;</code> is &lt;i&gt; and `x"
        );
        assert_eq!(code_spans("a `` b"), "a `` b");
    }
}
