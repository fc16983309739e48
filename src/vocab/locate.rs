//! The one place that points evidence at a line of a file: the line of a field
//! (`status.history[1].completionTime`) inside the object a provenance names, found by walking
//! indentation; the occurrence of a value nearest some context (a timestamp next to
//! `type: Available`); and the byte span of each item of a List, computed once at parse time
//! so that every later lookup stays inside one object. Works on YAML as Kubernetes writes it
//! (lists at or below their key's indent) and on pretty-printed JSON; single-line JSON falls
//! back to a plain search. Line numbers come from the file table's line index.

use super::field_path::{self, Seg};
use super::files::{FileTable, Provenance};
use super::text::{ceil_char_boundary, floor_char_boundary};

/// Where a field was found: its 1-based line and the byte range of the line's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located {
    pub line: u32,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    no: u32,
    /// Byte offset of `content` in the text.
    start: usize,
    /// Spaces before the content (before the dash for list items).
    indent: usize,
    /// Indent of the content (after `- `).
    eff: usize,
    /// A list item start (`- …`, or `{` alone in JSON).
    dash: bool,
    content: &'a str,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    Lines::new(text).collect()
}

/// The lines of a text one at a time, as [`lines`] gives them all at once: a List of tens of
/// thousands of Events is hundreds of thousands of lines, tens of megabytes as a vector.
struct Lines<'a> {
    raw: std::iter::Enumerate<std::str::SplitInclusive<'a, char>>,
    offset: usize,
    /// The next line, read ahead: a JSON `{` alone takes its keys' indent from it.
    next: Option<Line<'a>>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut l = Lines {
            raw: text.split_inclusive('\n').enumerate(),
            offset: 0,
            next: None,
        };
        l.next = l.read();
        l
    }

    /// The next line with content, as read (before the `{` adjustment).
    fn read(&mut self) -> Option<Line<'a>> {
        for (i, raw) in self.raw.by_ref() {
            let line_start = self.offset;
            self.offset += raw.len();
            let body = raw.trim_end_matches(['\n', '\r']);
            let indent = body.len() - body.trim_start_matches(' ').len();
            let rest = &body[indent..];
            let trimmed = rest.trim_end();
            if trimmed.is_empty()
                || trimmed.starts_with('#')
                || matches!(trimmed, "}" | "}," | "]" | "]," | "---")
            {
                continue;
            }
            let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let (dash, eff, content) = if trimmed == "-" || trimmed == "{" || trimmed == "[" {
                (true, indent + 2, "")
            } else if let Some(after) = rest.strip_prefix("- ") {
                let pad = after.len() - after.trim_start_matches(' ').len();
                (true, indent + 2 + pad, after.trim_start_matches(' '))
            } else {
                (false, indent, rest)
            };
            let start = line_start + (body.len() - content.len().min(body.len()));
            let start = if content.is_empty() {
                line_start + indent
            } else {
                start
            };
            return Some(Line {
                no,
                start,
                indent,
                eff,
                dash,
                content: content.trim_end(),
            });
        }
        None
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let mut l = self.next.take()?;
        self.next = self.read();
        // A JSON `{` alone opens an item whose keys sit at the next line's indent (2 or 4
        // spaces).
        if let Some(n) = &self.next
            && l.dash
            && l.content.is_empty()
            && n.indent > l.indent
        {
            l.eff = n.indent;
        }
        Some(l)
    }
}

/// The key of a `key: value` or `"key": value` line.
fn key_of(content: &str) -> Option<&str> {
    if let Some(r) = content
        .strip_prefix('"')
        .or_else(|| content.strip_prefix('\''))
    {
        let q = if content.starts_with('"') { '"' } else { '\'' };
        let end = r.find(q)?;
        return r[end + 1..]
            .trim_start()
            .starts_with(':')
            .then(|| &r[..end]);
    }
    let i = content.find(':')?;
    let after = &content[i + 1..];
    (after.is_empty() || after.starts_with(' ')).then(|| &content[..i])
}

/// The scalar after `key:` with quotes and a trailing comma removed.
fn value_of(content: &str) -> &str {
    let v = match content.find(':') {
        Some(i) if content.starts_with('"') || content.starts_with('\'') => {
            // Skip the quoted key first.
            let q = &content[..1];
            let after_key = content[1..].find(q).map_or(i, |e| e + 2);
            content[after_key..].trim_start().trim_start_matches(':')
        }
        Some(i) => &content[i + 1..],
        None => "",
    };
    v.trim()
        .trim_end_matches(',')
        .trim_matches('"')
        .trim_matches('\'')
}

fn find_key(block: &[Line<'_>], key: &str) -> Option<usize> {
    let base = block.first()?.eff;
    block
        .iter()
        .position(|l| l.eff == base && key_of(l.content) == Some(key))
}

/// The lines nested under the key at `i`.
fn children<'b, 'a>(block: &'b [Line<'a>], i: usize) -> &'b [Line<'a>] {
    let e = block[i].eff;
    let rest = &block[i + 1..];
    let n = rest
        .iter()
        .take_while(|l| l.eff > e || (l.dash && l.indent >= e))
        .count();
    &rest[..n]
}

/// The `n`-th list item of a block that is a list: its lines.
fn item<'b, 'a>(block: &'b [Line<'a>], n: usize) -> Option<&'b [Line<'a>]> {
    items(block).nth(n)
}

/// The list items of a block that is a list, in order, in one pass over the block.
fn items<'b, 'a>(block: &'b [Line<'a>]) -> impl Iterator<Item = &'b [Line<'a>]> {
    let at = block.first().filter(|l| l.dash).map(|l| l.indent);
    let mut rest = if at.is_some() { block } else { &[] };
    std::iter::from_fn(move || {
        let at = at?;
        if rest.is_empty() {
            return None;
        }
        let n = 1 + rest[1..]
            .iter()
            .take_while(|l| !(l.dash && l.indent == at))
            .count();
        let (it, tail) = rest.split_at(n);
        rest = tail;
        Some(it)
    })
}

/// Walks `segs` from `block`; returns the line number and content offset of the last segment.
fn walk(block: &[Line<'_>], segs: &[Seg]) -> Option<(u32, usize)> {
    let mut cur = block;
    let mut hit: Option<&Line<'_>> = None;
    for seg in segs {
        match seg {
            Seg::Key(k) => {
                let i = find_key(cur, k)?;
                hit = Some(&cur[i]);
                cur = children(cur, i);
            }
            Seg::Index(n) => {
                let it = item(cur, *n)?;
                hit = Some(&it[0]);
                cur = it;
            }
            // Evidence names concrete elements; a wildcard has no one line.
            Seg::Any => return None,
        }
    }
    hit.map(|l| (l.no, l.start))
}

fn name_matches(obj: &[Line<'_>], name: &str) -> bool {
    let Some(i) = find_key(obj, "metadata") else {
        return false;
    };
    let meta = children(obj, i);
    find_key(meta, "name").is_some_and(|j| value_of(meta[j].content) == name)
}

/// The lines of the object named `name` (or the first object when `name` is `None`).
fn object_block<'b, 'a>(docs: &'b [Vec<Line<'a>>], name: Option<&str>) -> Option<&'b [Line<'a>]> {
    for doc in docs {
        let root: &[Line<'_>] = doc;
        if root.is_empty() {
            continue;
        }
        if let Some(i) = find_key(root, "items") {
            let list = children(root, i);
            if let Some(it) = items(list).find(|it| name.is_none_or(|nm| name_matches(it, nm))) {
                return Some(it);
            }
            continue;
        }
        if name.is_none_or(|nm| name_matches(root, nm)) {
            return Some(root);
        }
    }
    None
}

/// Splits YAML documents at `---` lines (pretty JSON is one document).
fn documents(text: &str) -> Vec<Vec<Line<'_>>> {
    let all = lines(text);
    let mut docs = vec![Vec::new()];
    let sep_lines = text
        .split_inclusive('\n')
        .enumerate()
        .filter(|(_, raw)| raw.trim_end() == "---")
        .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX));
    let mut seps = sep_lines.peekable();
    for l in all {
        while seps.peek().is_some_and(|&s| s < l.no) {
            seps.next();
            docs.push(Vec::new());
        }
        if let Some(d) = docs.last_mut() {
            d.push(l);
        }
    }
    docs
}

/// Byte spans of the objects of a resource file, in document order: each item of a List
/// (`items:`), or each document that is not a List. Empty when the text is not indented
/// YAML or pretty JSON (compact JSON): lookups then search the whole file.
pub fn object_spans(text: &str) -> Vec<(usize, usize)> {
    let docs = documents(text);
    let mut out = Vec::new();
    for doc in &docs {
        let root: &[Line<'_>] = doc;
        if root.is_empty() {
            continue;
        }
        let Some(i) = find_key(root, "items") else {
            // A lone object (or a list without items): the whole document.
            out.push(block_span(text, root));
            continue;
        };
        for it in items(children(root, i)) {
            out.push(block_span(text, it));
        }
    }
    out
}

/// The byte spans of the items of a text that is one YAML List document (`items:` holding
/// at least one item), in order; `None` for anything else (several documents, no `items`,
/// compact JSON).
pub fn list_item_spans(text: &str) -> Option<Vec<(usize, usize)>> {
    // One pass over the lines, none kept: the root's `items` key, the lines under it cut
    // into items where a dash sits at the first item's indent (as `find_key`, `children`
    // and `items` read a block), then a check that no `---` starts a second document.
    let mut lines = Lines::new(text);
    let first = lines.next()?;
    let base = first.eff;
    let mut key = first;
    while !(key.eff == base && key_of(key.content) == Some("items")) {
        key = lines.next()?;
    }
    let e = key.eff;
    let mut last_no = key.no;
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut at = None;
    // The open item: where it starts and its last line.
    let mut open: Option<(usize, Line<'_>)> = None;
    for l in lines.by_ref() {
        last_no = l.no;
        if !(l.eff > e || (l.dash && l.indent >= e)) {
            break;
        }
        let at = *at.get_or_insert(l.dash.then_some(l.indent));
        // Children that do not open with a dash are no list: no items.
        let at = at?;
        if l.dash && l.indent == at {
            if let Some((start, end)) = open.take() {
                spans.push((start, block_end(text, &[end])));
            }
            open = Some((line_start(text, l.start), l));
        } else if let Some((_, end)) = &mut open {
            *end = l;
        }
    }
    if let Some((start, end)) = open {
        spans.push((start, block_end(text, &[end])));
    }
    // Lines after the items still belong to the one document: only the last line matters.
    if let Some(l) = lines.last() {
        last_no = l.no;
    }
    let seps = text
        .split_inclusive('\n')
        .enumerate()
        .filter(|(_, raw)| raw.trim_end() == "---")
        .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX));
    let mut seps = seps.skip_while(|&s| s < first.no);
    if seps.next().is_some_and(|s| s < last_no) {
        return None;
    }
    (!spans.is_empty()).then_some(spans)
}

/// The bytes of a block of lines, from the start of its first line.
fn block_span(text: &str, block: &[Line<'_>]) -> (usize, usize) {
    (line_start(text, block[0].start), block_end(text, block))
}

fn line_start(text: &str, pos: usize) -> usize {
    text[..pos.min(text.len())].rfind('\n').map_or(0, |i| i + 1)
}

fn block_end(text: &str, block: &[Line<'_>]) -> usize {
    let last = block.last().map_or(0, |l| l.start);
    text.get(last..)
        .and_then(|r| r.find('\n'))
        .map_or(text.len(), |e| last + e + 1)
}

/// Finds `path` (e.g. `status.history[1].completionTime`) in the object named `name` inside
/// `text`. `None` when the text is not indented YAML/JSON or the path is absent.
pub fn locate_path(text: &str, name: Option<&str>, path: &str) -> Option<Located> {
    let docs = documents(text);
    let obj = object_block(&docs, name)?;
    let segs = field_path::parse(path).ok()?;
    let (line, start) = walk(obj, &segs)?;
    let end = text
        .get(start..)?
        .find('\n')
        .map_or(text.len(), |e| start + e);
    let end = if text[..end].ends_with('\r') {
        end - 1
    } else {
        end
    };
    Some(Located { line, start, end })
}

/// The first occurrence of `needle` after the object's anchor (`name: <name>`), as a line.
pub fn locate_text(text: &str, name: Option<&str>, needle: &str) -> Option<Located> {
    if needle.is_empty() {
        return None;
    }
    let base = name
        .and_then(|n| {
            [
                format!("name: {n}\n"),
                format!("\"name\": \"{n}\""),
                format!("\"name\":\"{n}\""),
            ]
            .iter()
            .filter_map(|a| text.find(a.as_str()))
            .min()
        })
        .unwrap_or(0);
    let pos = base + text.get(base..)?.find(needle)?;
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[pos..].find('\n').map_or(text.len(), |e| pos + e);
    let line = memchr::memchr_iter(b'\n', &text.as_bytes()[..pos]).count() + 1;
    let content_start = line_start
        + (text[line_start..line_end].len() - text[line_start..line_end].trim_start().len());
    Some(Located {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        start: content_start,
        end: line_end,
    })
}

/// A place found in a file: a provenance with its line and the span of the line's content,
/// and that content.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub prov: Provenance,
    pub text: String,
}

/// The text of the object `prov` names (its span, else the whole file) and its offset.
fn object_text<'a>(table: &'a FileTable, prov: &Provenance) -> Option<(&'a str, usize)> {
    let text = table.text(&prov.file)?;
    let text: &str = text;
    match prov.span {
        Some((s, e)) => {
            let (s, e) = (usize::try_from(s).ok()?, usize::try_from(e).ok()?);
            let s = floor_char_boundary(text, s);
            let e = ceil_char_boundary(text, e.max(s));
            Some((text.get(s..e)?, s))
        }
        None => Some((text, 0)),
    }
}

fn found(table: &FileTable, prov: &Provenance, start: usize, end: usize) -> Option<Found> {
    let entry = table.entry(&prov.file)?;
    let text = entry.text()?;
    let line = entry.lines()?.line_of(start);
    Some(Found {
        prov: prov.at(line, start as u64, end as u64),
        text: text.get(start..end)?.to_string(),
    })
}

/// The line of field `path` (`status.history[1].completionTime`) of the object at `prov`
/// (`name` finds the object when the file has several and `prov` has no span).
pub fn field(
    table: &FileTable,
    prov: &Provenance,
    name: Option<&str>,
    path: &str,
) -> Option<Found> {
    let (obj, base) = object_text(table, prov)?;
    let name = if prov.span.is_some() { None } else { name };
    let l = locate_path(obj, name, path)?;
    found(table, prov, base + l.start, base + l.end)
}

/// The line of the first occurrence of `needle` in the object at `prov` (after its
/// `name: <name>` when the file has several objects and `prov` has no span).
pub fn text(
    table: &FileTable,
    prov: &Provenance,
    name: Option<&str>,
    needle: &str,
) -> Option<Found> {
    let (obj, base) = object_text(table, prov)?;
    let name = if prov.span.is_some() { None } else { name };
    let l = locate_text(obj, name, needle)?;
    found(table, prov, base + l.start, base + l.end)
}

/// How far after an object's start its fields are looked for, when it has no span.
const OBJECT_WINDOW: usize = 64 << 10;
/// A context this close (same line, in practice) ends the search: later candidates belong to
/// later objects.
const NEAR_ENOUGH: usize = 80;
/// How far around a candidate the context word is looked for.
const CONTEXT_WINDOW: usize = 600;

/// The provenance of `needle` inside the object at `prov`: the occurrence closest to an
/// occurrence of `context` (a timestamp next to `type: Available`). Returns `prov` unchanged
/// when the needle is not found.
pub fn value(
    table: &FileTable,
    prov: &Provenance,
    name: Option<&str>,
    needle: &str,
    context: &str,
) -> Provenance {
    let Some((obj, mut base)) = object_text(table, prov) else {
        return prov.clone();
    };
    if needle.is_empty() {
        return prov.clone();
    }
    let mut hay = obj;
    if prov.span.is_none() {
        if let Some(n) = name.filter(|n| !n.is_empty())
            && let Some(l) = locate_text(obj, Some(n), n)
        {
            base = l.start;
        }
        let stop = ceil_char_boundary(obj, (base + OBJECT_WINDOW).min(obj.len()));
        hay = obj.get(base..stop).unwrap_or("");
    }
    let mut best: Option<(usize, usize)> = None;
    let ctx = memchr::memmem::Finder::new(context.as_bytes());
    for pos in memchr::memmem::find_iter(hay.as_bytes(), needle.as_bytes()).take(256) {
        let dist = if context.is_empty() {
            0
        } else {
            context_distance(hay, pos, &ctx)
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
    let Some(line) = table
        .entry(&prov.file)
        .and_then(|e| e.lines())
        .map(|l| l.line_of(start))
    else {
        return prov.clone();
    };
    prov.at(line, start as u64, (start + needle.len()) as u64)
}

/// The distance from `pos` to the nearest occurrence of `context` within the window
/// (`usize::MAX` when there is none).
fn context_distance(hay: &str, pos: usize, context: &memchr::memmem::Finder<'_>) -> usize {
    let lo = pos.saturating_sub(CONTEXT_WINDOW);
    let hi = (pos + CONTEXT_WINDOW).min(hay.len());
    let Some(window) = hay.as_bytes().get(lo..hi) else {
        return usize::MAX;
    };
    context
        .find_iter(window)
        .map(|p| (lo + p).abs_diff(pos))
        .min()
        .unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use crate::vocab::{FileKind, FileTable};
    use std::sync::Arc;

    fn table(text: &str) -> (FileTable, Provenance) {
        let mut t = FileTable::default();
        let f = t.register(Arc::from("in"), Arc::from("cos.yaml"), FileKind::Resource);
        t.set_read(
            f.id(),
            text.len() as u64,
            Some(crate::vocab::files::FileText::from(text)),
        );
        (t, Provenance::file(&f))
    }

    #[test]
    fn value_picks_the_occurrence_next_to_the_context_inside_the_object() {
        let text = "items:\n- metadata:\n    name: a\n  status:\n    conditions:\n    - lastTransitionTime: \"2020-04-09T18:00:00Z\"\n      type: Available\n- metadata:\n    name: b\n  status:\n    conditions:\n    - lastTransitionTime: \"2020-04-09T18:00:00Z\"\n      type: Degraded\n    - lastTransitionTime: \"2020-04-09T18:00:00Z\"\n      type: Available\n";
        let (t, p) = table(text);
        let ts = "2020-04-09T18:00:00Z";
        assert_eq!(
            value(&t, &p, Some("b"), ts, "type: Available").line,
            Some(14)
        );
        assert_eq!(
            value(&t, &p, Some("b"), ts, "type: Degraded").line,
            Some(12)
        );
        // With the item's span, the name is not needed.
        let spans = object_spans(text);
        let b = Provenance {
            span: Some((spans[1].0 as u64, spans[1].1 as u64)),
            ..p.clone()
        };
        assert_eq!(value(&t, &b, None, ts, "type: Available").line, Some(14));
        assert_eq!(
            field(&t, &b, None, "status.conditions[1].type").map(|f| f.text),
            Some("type: Available".into())
        );
        assert_eq!(value(&t, &p, None, "2099", "").line, None);
    }

    use super::*;

    const CV: &str = "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nstatus:\n  conditions:\n  - lastTransitionTime: \"2020-04-09T18:00:34Z\"\n    message: Done applying 4.3.10\n    status: \"True\"\n    type: Available\n  history:\n  - completionTime: null\n    startedTime: \"2020-04-09T18:27:49Z\"\n    state: Partial\n    version: 4.3.11\n  - completionTime: \"2020-04-09T18:00:34Z\"\n    startedTime: \"2020-04-09T17:35:48Z\"\n    state: Completed\n    version: 4.3.10\n";

    #[test]
    fn object_spans_cover_each_list_item() {
        let text = "---\napiVersion: v1\nitems:\n- metadata:\n    name: a\n- metadata:\n    name: b\n  status: {}\nkind: List\n";
        let spans = object_spans(text);
        assert_eq!(spans.len(), 2);
        assert_eq!(&text[spans[0].0..spans[0].1], "- metadata:\n    name: a\n");
        assert_eq!(
            &text[spans[1].0..spans[1].1],
            "- metadata:\n    name: b\n  status: {}\n"
        );
        assert_eq!(object_spans(CV).len(), 1);
        assert!(object_spans("{\"kind\":\"List\",\"items\":[{},{}]}").len() <= 1);
    }

    /// `list_item_spans` as it was written before it read the lines one at a time: the
    /// lines of every document kept, the blocks cut from them.
    fn list_item_spans_kept(text: &str) -> Option<Vec<(usize, usize)>> {
        let docs = documents(text);
        let mut docs = docs.iter().filter(|d| !d.is_empty());
        let root: &[Line<'_>] = docs.next()?;
        if docs.next().is_some() {
            return None;
        }
        let i = find_key(root, "items")?;
        let spans: Vec<(usize, usize)> = items(children(root, i))
            .map(|it| block_span(text, it))
            .collect();
        (!spans.is_empty()).then_some(spans)
    }

    /// The spans read in one pass are the spans the kept lines gave, on hand-made edge
    /// cases and on every resource file of the fixtures and the corpus.
    #[test]
    fn list_item_spans_read_in_one_pass_match_the_kept_lines() {
        let cases = [
            "apiVersion: v1\nitems:\n- metadata:\n    name: a\n- metadata:\n    name: b\nkind: List\n",
            "---\nitems:\n- a: 1\n- b: 2\n",
            "items:\n- a: 1\n---\nitems:\n- b: 2\n",
            "items:\n- a: 1\n- b: 2\n---\n",
            "items:\n- a: 1\n- b: 2\n---\n# only a comment\n",
            "items:\n  - a: 1\n    c: 3\n  - b: 2\nkind: List\n",
            "items:\n  a: 1\n",
            "items: []\nkind: List\n",
            "kind: List\n",
            "",
            "\n\n# nothing\n",
            "  items:\n  - a\n - b\n- c\n",
            "{\n  \"items\": [\n    {\n      \"a\": 1\n    },\n    {\n      \"b\": 2\n    }\n  ]\n}\n",
            "{\n    \"kind\": \"List\",\n    \"items\": [\n        {\n            \"a\": 1\n        }\n    ]\n}",
            "items:\r\n- a: 1\r\n- b: 2\r\n",
            "items:\n-\n  a: 1\n-   b: 2\n- c\nafter: 1\n",
        ];
        for c in cases {
            assert_eq!(list_item_spans(c), list_item_spans_kept(c), "{c:?}");
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("fixtures"), root.join("../shared/corpus")];
        let (mut files, mut lists) = (0, 0);
        while let Some(d) = dirs.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                    continue;
                }
                let yaml = p
                    .extension()
                    .is_some_and(|x| x == "yaml" || x == "yml" || x == "json");
                let Some(text) = yaml.then(|| std::fs::read_to_string(&p).ok()).flatten() else {
                    continue;
                };
                let kept = list_item_spans_kept(&text);
                lists += usize::from(kept.is_some());
                files += 1;
                assert_eq!(list_item_spans(&text), kept, "{}", p.display());
            }
        }
        assert!(files > 100 && lists > 10, "{files} files, {lists} lists");
    }

    fn line_of(text: &str, name: Option<&str>, path: &str) -> Option<(u32, String)> {
        locate_path(text, name, path).map(|l| (l.line, text[l.start..l.end].to_string()))
    }

    #[test]
    fn walks_history_and_conditions() {
        assert_eq!(
            line_of(CV, None, "status.history[1].completionTime"),
            Some((16, "completionTime: \"2020-04-09T18:00:34Z\"".into()))
        );
        assert_eq!(
            line_of(CV, Some("version"), "status.history[0].completionTime"),
            Some((12, "completionTime: null".into()))
        );
        assert_eq!(
            line_of(CV, None, "status.history[0].version"),
            Some((15, "version: 4.3.11".into()))
        );
        assert_eq!(
            line_of(CV, None, "status.conditions[0].message"),
            Some((8, "message: Done applying 4.3.10".into()))
        );
        assert_eq!(line_of(CV, None, "status.history[2].state"), None);
        assert_eq!(line_of(CV, Some("other"), "status"), None);
    }

    #[test]
    fn finds_the_named_item_of_a_list_with_indented_items() {
        let text = "---\napiVersion: v1\nitems:\n  - metadata:\n      name: a\n    status:\n      conditions:\n        - type: Available\n          status: \"True\"\n  - metadata:\n      name: b\n    status:\n      conditions:\n        - type: Degraded\n          status: \"False\"\n        - type: Available\n          status: \"False\"\nkind: List\n";
        assert_eq!(
            line_of(text, Some("b"), "status.conditions[1].status"),
            Some((17, "status: \"False\"".into()))
        );
        assert_eq!(
            line_of(text, Some("a"), "status.conditions[0]"),
            Some((8, "type: Available".into()))
        );
    }

    #[test]
    fn walks_pretty_json() {
        let text = "{\n  \"metadata\": {\n    \"name\": \"etcd\"\n  },\n  \"status\": {\n    \"conditions\": [\n      {\n        \"type\": \"Degraded\",\n        \"status\": \"False\"\n      },\n      {\n        \"type\": \"Available\",\n        \"status\": \"True\"\n      }\n    ]\n  }\n}\n";
        assert_eq!(
            line_of(text, Some("etcd"), "status.conditions[1].status"),
            Some((13, "\"status\": \"True\"".into()))
        );
    }

    #[test]
    fn walks_json_indented_by_four() {
        let text = "{\n    \"items\": [\n        {\n            \"metadata\": {\n                \"name\": \"version\"\n            },\n            \"status\": {\n                \"history\": [\n                    {\n                        \"completionTime\": \"b\",\n                        \"startedTime\": \"a\"\n                    },\n                    {\n                        \"completionTime\": \"a\"\n                    }\n                ]\n            }\n        }\n    ]\n}\n";
        assert_eq!(
            line_of(text, Some("version"), "status.history[1].completionTime"),
            Some((14, "\"completionTime\": \"a\"".into()))
        );
        assert_eq!(
            line_of(text, Some("version"), "status.history[0].startedTime"),
            Some((11, "\"startedTime\": \"a\"".into()))
        );
    }

    #[test]
    fn compact_json_falls_back_to_text_search() {
        let text = "{\"metadata\":{\"name\":\"version\"},\"status\":{\"history\":[]}}";
        assert_eq!(locate_path(text, Some("version"), "status.history"), None);
        let l = locate_text(text, Some("version"), "history").unwrap();
        assert_eq!(l.line, 1);
    }
}
