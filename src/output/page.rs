//! Rule pages (Markdown, from `RuleMeta::render_page`), parsed with pulldown-cmark and
//! rendered for a terminal (`mglint explain`: headings, paragraphs and lists wrapped to the
//! width, code indented, links as `text <url>`, no Markdown syntax left) or as HTML for the
//! report (headings moved down to sit under the report's own, raw HTML shown as text, links
//! kept only to `http(s)` pages and in-page anchors).

use super::RenderOptions;
use anstyle::{AnsiColor, Style};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

fn style(on: bool, s: Style, text: &str) -> String {
    if on {
        format!("{}{text}{}", s.render(), s.render_reset())
    } else {
        text.to_string()
    }
}

/// Appends a wrapped block: `text` at `width`, the first line after `first`, the others
/// after `rest`.
fn block(out: &mut String, text: &str, first: &str, rest: &str, width: usize) {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return;
    }
    let opts = textwrap::Options::new(width.max(20))
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    for l in textwrap::wrap(&text, opts) {
        out.push_str(l.trim_end());
        out.push('\n');
    }
}

/// A rule page for the terminal.
pub fn render_terminal(page: &str, opts: &RenderOptions) -> String {
    let on = opts.color;
    let width = opts.width.max(40);
    let mut out = String::new();
    let mut text = String::new();
    let mut lists: Vec<Option<u64>> = Vec::new();
    let mut item_prefix: Option<String> = None;
    let mut in_code = false;
    let mut link: Vec<String> = Vec::new();
    let indent = |lists: &Vec<Option<u64>>| "  ".repeat(lists.len());
    let flush = |out: &mut String,
                 text: &mut String,
                 item: &mut Option<String>,
                 lists: &Vec<Option<u64>>| {
        let base = indent(lists);
        match item.take() {
            Some(p) => {
                let first = format!("{}{p}", "  ".repeat(lists.len().saturating_sub(1)));
                let rest = " ".repeat(first.chars().count());
                block(out, text, &first, &rest, width);
            }
            None => block(out, text, &base, &base, width),
        }
        text.clear();
    };
    for ev in Parser::new_ext(page, Options::empty()) {
        match ev {
            Event::Start(Tag::Heading { .. }) => {
                flush(&mut out, &mut text, &mut item_prefix, &lists)
            }
            Event::End(TagEnd::Heading(level)) => {
                let title = std::mem::take(&mut text);
                let s = match level {
                    HeadingLevel::H1 => Style::new().bold().underline(),
                    _ => Style::new().bold(),
                };
                if !out.is_empty() && !out.ends_with("\n\n") {
                    out.push('\n');
                }
                out.push_str(&style(on, s, title.trim()));
                out.push_str("\n\n");
            }
            Event::End(TagEnd::Paragraph) => {
                flush(&mut out, &mut text, &mut item_prefix, &lists);
                if lists.is_empty() {
                    out.push('\n');
                }
            }
            Event::Start(Tag::List(start)) => {
                flush(&mut out, &mut text, &mut item_prefix, &lists);
                lists.push(start);
            }
            Event::End(TagEnd::List(_)) => {
                flush(&mut out, &mut text, &mut item_prefix, &lists);
                lists.pop();
                if lists.is_empty() {
                    out.push('\n');
                }
            }
            Event::Start(Tag::Item) => {
                flush(&mut out, &mut text, &mut item_prefix, &lists);
                let p = match lists.last_mut() {
                    Some(Some(n)) => {
                        let p = format!("{n}. ");
                        *n += 1;
                        p
                    }
                    _ => "• ".to_string(),
                };
                item_prefix = Some(p);
            }
            Event::End(TagEnd::Item) => flush(&mut out, &mut text, &mut item_prefix, &lists),
            Event::Start(Tag::CodeBlock(_)) => {
                flush(&mut out, &mut text, &mut item_prefix, &lists);
                in_code = true;
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code = false;
                out.push('\n');
            }
            Event::Start(Tag::Link { dest_url, .. }) => link.push(dest_url.to_string()),
            Event::End(TagEnd::Link) => {
                if let Some(url) = link.pop()
                    && !text.trim_end().ends_with(url.as_str())
                {
                    text.push_str(&format!(" <{url}>"));
                }
            }
            Event::Text(t) if in_code => {
                for l in t.lines() {
                    let line = format!("{}    {l}", indent(&lists));
                    out.push_str(&style(
                        on,
                        Style::new().fg_color(Some(AnsiColor::Cyan.into())),
                        line.trim_end(),
                    ));
                    out.push('\n');
                }
            }
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => text.push_str(&t),
            Event::Code(c) => text.push_str(&style(
                on,
                Style::new().fg_color(Some(AnsiColor::Cyan.into())),
                &c,
            )),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            Event::Rule => out.push_str(&format!("{}\n\n", "─".repeat(width.min(60)))),
            _ => {}
        }
    }
    flush(&mut out, &mut text, &mut item_prefix, &lists);
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// Whether a link may be followed from the report: an in-page anchor or an `http(s)` page.
fn safe_href(url: &str) -> bool {
    url.starts_with('#') || url.starts_with("https://") || url.starts_with("http://")
}

/// A rule page as HTML for the report: headings `shift` levels down, raw HTML as text, only
/// safe links.
pub fn render_html(page: &str, shift: usize) -> String {
    let down = |l: HeadingLevel| {
        let n = (l as usize + shift).min(6);
        HeadingLevel::try_from(n).unwrap_or(HeadingLevel::H6)
    };
    let mut unsafe_links = 0usize;
    let events = Parser::new_ext(page, Options::empty()).filter_map(|ev| match ev {
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => Some(Event::Start(Tag::Heading {
            level: down(level),
            id,
            classes,
            attrs,
        })),
        Event::End(TagEnd::Heading(level)) => Some(Event::End(TagEnd::Heading(down(level)))),
        Event::Html(t) | Event::InlineHtml(t) => Some(Event::Text(t)),
        Event::Start(Tag::Link { dest_url, .. }) if !safe_href(&dest_url) => {
            unsafe_links += 1;
            None
        }
        Event::Start(Tag::Image { dest_url, .. }) => {
            Some(Event::Text(CowStr::from(dest_url.to_string())))
        }
        Event::End(TagEnd::Image) => None,
        Event::End(TagEnd::Link) if unsafe_links > 0 => {
            unsafe_links -= 1;
            None
        }
        ev => Some(ev),
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_pages_have_no_markdown_syntax() {
        let page = "# CV1 `slug`\n\nSome **bold** text with a [link](https://example.com).\n\n## How\n\n- one\n- two `x`\n\n```yaml\na: b\n```\n";
        let t = render_terminal(page, &RenderOptions::default());
        assert!(
            t.starts_with("CV1 slug\n\nSome bold text with a link <https://example.com>."),
            "{t}"
        );
        assert!(t.contains("• one\n• two x\n"), "{t}");
        assert!(t.contains("\n    a: b\n"), "{t}");
        assert!(
            !t.contains("**") && !t.contains('`') && !t.contains("##"),
            "{t}"
        );
    }

    #[test]
    fn html_pages_escape_markup_and_drop_unsafe_links() {
        let page = "# X\n\n<img src=x onerror=alert(1)> [bad](javascript:alert(1)) [ok](https://e.com) `<b>`\n";
        let h = render_html(page, 3);
        assert!(h.contains("<h4>X</h4>"), "{h}");
        assert!(!h.contains("<img") && !h.contains("javascript:"), "{h}");
        assert!(h.contains("&lt;img"), "{h}");
        assert!(h.contains("<a href=\"https://e.com\">ok</a>"), "{h}");
        assert!(h.contains("<code>&lt;b&gt;</code>"), "{h}");
    }

    #[test]
    fn every_rule_page_renders_balanced() {
        for meta in crate::rules::catalogue() {
            let html = render_html(&meta.render_page(), 3);
            for tag in ["ul", "ol", "pre", "p", "li", "code"] {
                let open = html.matches(&format!("<{tag}>")).count()
                    + html.matches(&format!("<{tag} ")).count();
                let close = html.matches(&format!("</{tag}>")).count();
                assert_eq!(open, close, "{} <{tag}>", meta.code);
            }
            let t = render_terminal(&meta.render_page(), &RenderOptions::default());
            assert!(!t.contains("**") && !t.contains("## "), "{}", meta.code);
        }
    }
}
