//! HTML escaping for every string that comes from the input (text and attribute values alike),
//! backtick spans as `<code>`, and a small Markdown renderer for the embedded rule pages
//! (headings, paragraphs, lists, fenced code, inline code, bold and links to `http(s)`
//! pages or in-page anchors). Everything is escaped before any markup is added.

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

/// Whether a link target may be emitted as `href`: an in-page anchor or an `http(s)` page
/// (followed only when clicked; nothing is fetched while loading).
fn safe_href(url: &str) -> bool {
    url.starts_with('#')
        || ((url.starts_with("https://") || url.starts_with("http://"))
            && !url.contains(|c: char| c.is_whitespace() || c == '"' || c == '<' || c == '>'))
}

/// Inline Markdown: `code`, **bold** and `[text](url)`, on escaped text.
pub fn inline(s: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut plain = String::new();
    let flush = |plain: &mut String, out: &mut String| {
        out.push_str(&esc(plain));
        plain.clear();
    };
    while i < chars.len() {
        let c = chars[i];
        let find = |from: usize, pat: &[char]| -> Option<usize> {
            (from..chars.len()).find(|&j| chars[j..].starts_with(pat))
        };
        if c == '`' {
            if let Some(end) = find(i + 1, &['`']) {
                flush(&mut plain, &mut out);
                let code: String = chars[i + 1..end].iter().collect();
                out.push_str("<code>");
                out.push_str(&esc(&code));
                out.push_str("</code>");
                i = end + 1;
                continue;
            }
        } else if c == '*' && chars.get(i + 1) == Some(&'*') {
            if let Some(end) = find(i + 2, &['*', '*']).filter(|&e| e > i + 2) {
                flush(&mut plain, &mut out);
                let inner: String = chars[i + 2..end].iter().collect();
                out.push_str("<strong>");
                out.push_str(&inline(&inner));
                out.push_str("</strong>");
                i = end + 2;
                continue;
            }
        } else if c == '[' {
            if let Some(mid) = find(i + 1, &[']', '(']) {
                if let Some(end) = find(mid + 2, &[')']) {
                    let text: String = chars[i + 1..mid].iter().collect();
                    let url: String = chars[mid + 2..end].iter().collect();
                    if !text.contains('[') {
                        flush(&mut plain, &mut out);
                        if safe_href(&url) {
                            out.push_str(&format!(
                                "<a href=\"{}\" rel=\"noreferrer noopener\">{}</a>",
                                esc(&url),
                                inline(&text)
                            ));
                        } else {
                            out.push_str(&inline(&text));
                        }
                        i = end + 1;
                        continue;
                    }
                }
            }
        }
        plain.push(c);
        i += 1;
    }
    flush(&mut plain, &mut out);
    out
}

/// Renders a rule page: turns `#` headings into `<h4>`..`<h6>` (the page sits inside the
/// report), and handles paragraphs, `-`/`*`/`1.` lists and fenced code blocks.
pub fn markdown(page: &str) -> String {
    let body = page;
    let mut out = String::new();
    let mut para: Vec<&str> = Vec::new();
    let mut list: Option<&'static str> = None;
    let mut item: Vec<&str> = Vec::new();
    let mut code: Option<Vec<&str>> = None;
    let close_para = |para: &mut Vec<&str>, out: &mut String| {
        if !para.is_empty() {
            out.push_str("<p>");
            out.push_str(&inline(&para.join(" ")));
            out.push_str("</p>\n");
            para.clear();
        }
    };
    let close_item = |item: &mut Vec<&str>, out: &mut String| {
        if !item.is_empty() {
            out.push_str("<li>");
            out.push_str(&inline(&item.join(" ")));
            out.push_str("</li>\n");
            item.clear();
        }
    };
    for line in body.lines() {
        if let Some(lines) = code.as_mut() {
            if line.trim_start().starts_with("```") {
                out.push_str("<pre><code>");
                out.push_str(&esc(&lines.join("\n")));
                out.push_str("</code></pre>\n");
                code = None;
            } else {
                lines.push(line);
            }
            continue;
        }
        let t = line.trim();
        let bullet = t
            .strip_prefix("- ")
            .or_else(|| t.strip_prefix("* "))
            .map(|r| ("ul", r))
            .or_else(|| {
                let digits = t.chars().take_while(char::is_ascii_digit).count();
                (digits > 0)
                    .then(|| t[digits..].strip_prefix(". "))
                    .flatten()
                    .map(|r| ("ol", r))
            });
        if t.starts_with("```") || t.is_empty() || t.starts_with('#') || bullet.is_some() {
            close_para(&mut para, &mut out);
            close_item(&mut item, &mut out);
            let keep_list = bullet.is_some_and(|(k, _)| Some(k) == list);
            if !keep_list && let Some(k) = list.take() {
                out.push_str(&format!("</{k}>\n"));
            }
        }
        if t.starts_with("```") {
            code = Some(Vec::new());
        } else if t.starts_with('#') {
            let level = t.chars().take_while(|&c| c == '#').count();
            let h = (level + 3).min(6);
            let text = t[level..].trim();
            out.push_str(&format!("<h{h}>{}</h{h}>\n", inline(text)));
        } else if let Some((kind, rest)) = bullet {
            if list.is_none() {
                out.push_str(&format!("<{kind}>\n"));
                list = Some(kind);
            }
            item.push(rest);
        } else if !t.is_empty() {
            if list.is_some() && line.starts_with(' ') {
                item.push(t);
            } else {
                if let Some(k) = list.take() {
                    close_item(&mut item, &mut out);
                    out.push_str(&format!("</{k}>\n"));
                }
                para.push(t);
            }
        }
    }
    if let Some(lines) = code {
        out.push_str("<pre><code>");
        out.push_str(&esc(&lines.join("\n")));
        out.push_str("</code></pre>\n");
    }
    close_para(&mut para, &mut out);
    close_item(&mut item, &mut out);
    if let Some(k) = list {
        out.push_str(&format!("</{k}>\n"));
    }
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

    #[test]
    fn markdown_renders_page_without_front_matter() {
        let page = "# X `slug`\n\nSome *text* with **bold** and \
                    [a link](https://example.com/a) and [bad](javascript:alert(1)).\n\n\
                    ## How\n\n- one\n  continued\n- two `<x>`\n\n```yaml\na: <b>\n```\n";
        let html = markdown(page);
        assert!(!html.contains("code: X"));
        assert!(html.contains("<h4>X <code>slug</code></h4>"));
        assert!(html.contains("<strong>bold</strong>"));
        assert!(
            html.contains(
                "<a href=\"https://example.com/a\" rel=\"noreferrer noopener\">a link</a>"
            )
        );
        assert!(!html.contains("javascript:"));
        assert!(html.contains("<li>one continued</li>"));
        assert!(html.contains("<li>two <code>&lt;x&gt;</code></li>"));
        assert!(html.contains("<pre><code>a: &lt;b&gt;</code></pre>"));
    }

    #[test]
    fn markdown_of_every_rule_page_is_balanced() {
        for meta in crate::rules::catalogue() {
            let html = markdown(&meta.render_page());
            for tag in ["ul", "ol", "pre", "p", "li"] {
                let open = html.matches(&format!("<{tag}>")).count();
                let close = html.matches(&format!("</{tag}>")).count();
                assert_eq!(open, close, "{} <{tag}>", meta.code);
            }
        }
    }
}
