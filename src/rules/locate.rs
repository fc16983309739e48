//! Finds the line of a field inside the text of the resource file an object was parsed from,
//! by walking indentation: `status.history[1].completionTime` of the ClusterVersion named
//! `version`, or `status.conditions[0].message` of the third item of an `oc get -o yaml` List.
//! Works on YAML as Kubernetes writes it (lists at or below their key's indent) and on
//! pretty-printed JSON; single-line JSON falls back to a plain search.

/// One step of a field path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// Parses `status.history[1].completionTime` into segments; keys containing dots are
/// written `metadata.annotations["machineconfiguration.openshift.io/state"]`. Bad input
/// gives what parsed.
pub fn parse_path(path: &str) -> Vec<Seg<'_>> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[\"") {
            let Some(end) = r.find("\"]") else { break };
            out.push(Seg::Key(&r[..end]));
            rest = &r[end + 2..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let Some(end) = r.find(']') else { break };
            if let Ok(n) = r[..end].parse() {
                out.push(Seg::Index(n));
            }
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix('.') {
            rest = r;
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            out.push(Seg::Key(&rest[..end]));
            rest = &rest[end..];
        }
    }
    out
}

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
    let mut out = Vec::new();
    let mut offset = 0usize;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let line_start = offset;
        offset += raw.len();
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
        out.push(Line {
            no,
            start,
            indent,
            eff,
            dash,
            content: content.trim_end(),
        });
    }
    // A JSON `{` alone opens an item whose keys sit at the next line's indent (2 or 4 spaces).
    for i in 0..out.len().saturating_sub(1) {
        if out[i].dash && out[i].content.is_empty() && out[i + 1].indent > out[i].indent {
            out[i].eff = out[i + 1].indent;
        }
    }
    out
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

/// The `n`-th list item of a block that is a list: (its first line index, its lines).
fn item<'b, 'a>(block: &'b [Line<'a>], n: usize) -> Option<&'b [Line<'a>]> {
    let first = block.first()?;
    if !first.dash {
        return None;
    }
    let at = first.indent;
    let starts: Vec<usize> = block
        .iter()
        .enumerate()
        .filter(|(_, l)| l.dash && l.indent == at)
        .map(|(i, _)| i)
        .collect();
    let s = *starts.get(n)?;
    let e = starts.get(n + 1).copied().unwrap_or(block.len());
    Some(&block[s..e])
}

/// Walks `segs` from `block`; returns the line number and content offset of the last segment.
fn walk(block: &[Line<'_>], segs: &[Seg<'_>]) -> Option<(u32, usize)> {
    let mut cur = block;
    let mut hit: Option<&Line<'_>> = None;
    for seg in segs {
        match *seg {
            Seg::Key(k) => {
                let i = find_key(cur, k)?;
                hit = Some(&cur[i]);
                cur = children(cur, i);
            }
            Seg::Index(n) => {
                let it = item(cur, n)?;
                hit = Some(&it[0]);
                cur = it;
            }
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
            let mut n = 0;
            while let Some(it) = item(list, n) {
                if name.is_none_or(|nm| name_matches(it, nm)) {
                    return Some(it);
                }
                n += 1;
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

/// Finds `path` (e.g. `status.history[1].completionTime`) in the object named `name` inside
/// `text`. `None` when the text is not indented YAML/JSON or the path is absent.
pub fn locate_path(text: &str, name: Option<&str>, path: &str) -> Option<Located> {
    let docs = documents(text);
    let obj = object_block(&docs, name)?;
    let segs = parse_path(path);
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

#[cfg(test)]
mod tests {
    use super::*;

    const CV: &str = "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nstatus:\n  conditions:\n  - lastTransitionTime: \"2020-04-09T18:00:34Z\"\n    message: Done applying 4.3.10\n    status: \"True\"\n    type: Available\n  history:\n  - completionTime: null\n    startedTime: \"2020-04-09T18:27:49Z\"\n    state: Partial\n    version: 4.3.11\n  - completionTime: \"2020-04-09T18:00:34Z\"\n    startedTime: \"2020-04-09T17:35:48Z\"\n    state: Completed\n    version: 4.3.10\n";

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

    #[test]
    fn parses_paths() {
        assert_eq!(
            parse_path("status.history[1].completionTime"),
            vec![
                Seg::Key("status"),
                Seg::Key("history"),
                Seg::Index(1),
                Seg::Key("completionTime")
            ]
        );
        assert_eq!(
            parse_path("items[2][3]"),
            vec![Seg::Key("items"), Seg::Index(2), Seg::Index(3)]
        );
        assert_eq!(
            parse_path("metadata.annotations[\"a.b/c\"]"),
            vec![
                Seg::Key("metadata"),
                Seg::Key("annotations"),
                Seg::Key("a.b/c")
            ]
        );
    }
}
