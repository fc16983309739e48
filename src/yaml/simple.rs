//! A reader for the block YAML that Kubernetes clients write (`oc get -o yaml`, must-gather's
//! aggregates and single objects): block mappings and sequences (compact `- key: v` entries,
//! sequences at their key's indent), plain scalars and their continuation lines, single- and
//! double-quoted scalars folded over lines, literal block scalars (`|`, `|-`, `|+`, with an
//! indent indicator or without) and empty flow collections (`{}`, `[]`), with blank and
//! comment lines between nodes.
//!
//! It builds what the YAML library and [`super::value`] build for such a text (the same
//! values, the same scalar resolution, the same budget charged), four to six times faster
//! (the values it builds are most of what is left), and gives up (`None`) on anything else:
//! anchors, tags, flow collections with content, folded block scalars, several documents,
//! a duplicate key, a number the library would refuse, a tab or a character YAML does not
//! allow, indentation it is not sure of. The library then reads the text, with its own
//! messages. It is a pure shortcut: whatever it reads, it reads as the library does, and the
//! tests hold it to that on real dumps and mutated texts.

use super::value::{Budget, Dups};
use serde_json::{Map, Number, Value};

/// The documents of `text` (one) and no duplicate keys, charged to `budget` only when
/// everything was read and the budget can pay; `None` when the library must read it.
pub fn values(text: &str, budget: &Budget) -> Option<(Vec<Value>, Dups)> {
    if !plain_chars(text) {
        return None;
    }
    let mut r = Reader {
        lines: text.split('\n').collect(),
        pos: 0,
        rebased: None,
        cost: 0,
        depth: 0,
    };
    match r.lines.first() {
        Some(&"---") => r.pos = 1,
        Some(l) if l.starts_with("---") || l.starts_with('%') => return None,
        _ => {}
    }
    let (indent, _) = r.peek()?;
    let root = r.block(indent)?;
    // Anything after the root (another document, a line it does not take) is the library's.
    if r.peek().is_some() {
        return None;
    }
    budget.spend(r.cost).then(|| (vec![root], Dups::default()))
}

/// Whether `text` holds only characters this reader takes as they are: no control
/// characters but the line feed (no tabs, no carriage returns), and beyond ASCII only what
/// YAML allows that is not a line break or byte order mark to it.
fn plain_chars(text: &str) -> bool {
    // 64 bytes at a time without stopping early, which the compiler vectorises.
    let control = |b: u8| (b < 0x20 && b != b'\n') || b == 0x7f;
    if text
        .as_bytes()
        .chunks(64)
        .any(|c| c.iter().fold(false, |any, &b| any | control(b)))
    {
        return false;
    }
    text.is_ascii()
        || text.chars().all(|c| {
            c.is_ascii()
                || matches!(c, '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
                    && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
        })
}

/// How deep nodes may nest (the library's limit; [`super::check_text`] holds texts to it).
const MAX_DEPTH: usize = super::depth::MAX_DEPTH;

/// The library reads a key of at most this many bytes on one line.
const MAX_KEY: usize = 1024;

struct Reader<'a> {
    lines: Vec<&'a str>,
    pos: usize,
    /// The current line as a compact entry leaves it (`- key: v` read on as `key: v` at the
    /// key's column).
    rebased: Option<(usize, &'a str)>,
    /// What the library would charge the budget for the values built so far.
    cost: usize,
    depth: usize,
}

/// The indent of a line and the rest of it.
fn split_indent(line: &str) -> (usize, &str) {
    let t = line.trim_start_matches(' ');
    (line.len() - t.len(), t)
}

/// Whether a line's content is a sequence entry.
fn is_entry(t: &str) -> bool {
    t == "-" || t.starts_with("- ")
}

/// What a line's content starts with.
enum Head<'a> {
    /// A mapping key, and the rest of the line after its colon (spaces skipped).
    Key(String, &'a str),
    /// Not a key: a scalar.
    Scalar,
}

impl<'a> Reader<'a> {
    /// The current line's indent and content, past blank and comment lines.
    fn peek(&mut self) -> Option<(usize, &'a str)> {
        if let Some(r) = self.rebased {
            return Some(r);
        }
        while let Some(&l) = self.lines.get(self.pos) {
            let (i, t) = split_indent(l);
            if t.is_empty() || t.starts_with('#') {
                self.pos += 1;
                continue;
            }
            return Some((i, t));
        }
        None
    }

    fn advance(&mut self) {
        self.rebased = None;
        self.pos += 1;
    }

    /// A block mapping or sequence whose first line is the current one, at `indent`.
    fn block(&mut self, indent: usize) -> Option<Value> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let (_, t) = self.peek()?;
        let v = if is_entry(t) {
            self.sequence(indent)
        } else {
            self.mapping(indent)
        };
        self.depth -= 1;
        v
    }

    fn mapping(&mut self, indent: usize) -> Option<Value> {
        let mut m = Map::new();
        self.cost += 1;
        while let Some((i, t)) = self.peek() {
            if i < indent {
                break;
            }
            if i > indent || is_entry(t) {
                return None;
            }
            let Head::Key(key, rest) = head(t)? else {
                return None;
            };
            self.cost += key.len();
            let v = if rest.is_empty() {
                self.advance();
                self.below(indent, true)?
            } else {
                self.inline(rest, indent)?
            };
            if m.contains_key(&key) {
                return None;
            }
            m.insert(key, v);
        }
        Some(Value::Object(m))
    }

    fn sequence(&mut self, indent: usize) -> Option<Value> {
        let mut items = Vec::new();
        self.cost += 1;
        while let Some((i, t)) = self.peek() {
            if i < indent {
                break;
            }
            if i > indent {
                return None;
            }
            if !is_entry(t) {
                // The mapping this sequence is the value of goes on (a sequence at its key's
                // indent), or the caller finds the line out of place.
                break;
            }
            let rest = t[1..].trim_start_matches(' ');
            let column = indent + (t.len() - rest.len());
            if rest.is_empty() {
                self.advance();
                items.push(self.below(indent, false)?);
            } else if is_entry(rest) || rest.starts_with('?') {
                return None;
            } else if let Head::Key(..) = head(rest)? {
                self.rebased = Some((column, rest));
                items.push(self.block(column)?);
            } else {
                items.push(self.inline(rest, indent)?);
            }
        }
        Some(Value::Array(items))
    }

    /// The value of a key or entry whose line ends after it, the node in `indent`: a block
    /// node indented more, a sequence at the same indent when the parent is a mapping
    /// (`in_mapping`), else null.
    fn below(&mut self, indent: usize, in_mapping: bool) -> Option<Value> {
        match self.peek() {
            Some((i, _)) if i > indent => self.block(i),
            Some((i, t)) if i == indent && in_mapping && is_entry(t) => self.block(i),
            _ => {
                self.cost += 1;
                Some(Value::Null)
            }
        }
    }

    /// A scalar (or empty flow collection) that starts at `s` on the current line, in a node
    /// at `indent` (its continuation lines are indented more); moves past its lines.
    fn inline(&mut self, s: &'a str, indent: usize) -> Option<Value> {
        let v = match s.as_bytes().first()? {
            b'\'' => Value::String(self.single(s, indent)?),
            b'"' => Value::String(self.double(s, indent)?),
            b'|' => Value::String(self.literal(s, indent)?),
            b'{' | b'[' => {
                let v = match s.trim_end_matches(' ') {
                    "{}" => Value::Object(Map::new()),
                    "[]" => Value::Array(Vec::new()),
                    _ => return None,
                };
                self.advance();
                self.cost += 1;
                return Some(v);
            }
            b'-' if is_entry(s) => return None,
            // A `:` starts a plain scalar when text follows it (`:5000`).
            b':' if s.len() > 1 && !s[1..].starts_with(' ') => return self.plain(s, indent),
            c if b"?:,]}#&*!>%@`".contains(c) => return None,
            _ => return self.plain(s, indent),
        };
        if let Value::String(text) = &v {
            self.cost += 1 + text.len();
        }
        Some(v)
    }

    /// A plain scalar and its continuation lines (each folded to one space), resolved.
    fn plain(&mut self, s: &'a str, indent: usize) -> Option<Value> {
        let first = plain_piece(s)?;
        self.advance();
        let mut text: Option<String> = None;
        while let Some(&l) = self.lines.get(self.pos) {
            let (i, t) = split_indent(l);
            if t.is_empty() {
                // A blank line ends the scalar unless a line that would continue it follows
                // (the blank would then fold to a line break): that is the library's.
                let next = self.lines[self.pos..]
                    .iter()
                    .map(|l| split_indent(l))
                    .find(|(_, t)| !t.is_empty());
                if next.is_some_and(|(i, _)| i > indent) {
                    return None;
                }
                break;
            }
            if i <= indent {
                break;
            }
            // Indicators are text past a plain scalar's first character, but a `#` after the
            // indent starts a comment and a `:` may be a value indicator.
            if t.starts_with(['#', ':']) {
                return None;
            }
            let piece = plain_piece(t)?;
            let text = text.get_or_insert_with(|| first.to_string());
            text.push(' ');
            text.push_str(piece);
            self.advance();
        }
        let text = text.as_deref().unwrap_or(first);
        let v = resolve(text)?;
        self.cost += match &v {
            Value::String(s) => 1 + s.len(),
            _ => 1,
        };
        Some(v)
    }

    /// The next line of a quoted scalar that runs on: its content, folded; `None` at the
    /// end of the text, on a blank line (a line break to keep) or a line not indented past
    /// the node.
    fn next_quoted_line(&mut self, indent: usize) -> Option<&'a str> {
        self.advance();
        let (i, t) = split_indent(self.lines.get(self.pos)?);
        (!t.is_empty() && i > indent).then_some(t)
    }

    /// A single-quoted scalar (`''` is a quote) from `s`, over as many lines as it takes.
    fn single(&mut self, s: &'a str, indent: usize) -> Option<String> {
        let mut out = String::new();
        let mut rest = &s[1..];
        loop {
            match rest.find('\'') {
                Some(q) if rest[q + 1..].starts_with('\'') => {
                    out.push_str(&rest[..=q]);
                    rest = &rest[q + 2..];
                }
                Some(q) => {
                    out.push_str(&rest[..q]);
                    if !rest[q + 1..].trim_end_matches(' ').is_empty() {
                        return None;
                    }
                    self.advance();
                    return Some(out);
                }
                None => {
                    out.push_str(rest.trim_end_matches(' '));
                    rest = self.next_quoted_line(indent)?;
                    out.push(' ');
                }
            }
        }
    }

    /// A double-quoted scalar from `s`, its escapes read, over as many lines as it takes.
    fn double(&mut self, s: &'a str, indent: usize) -> Option<String> {
        let mut out = String::new();
        let mut rest = &s[1..];
        loop {
            match rest.find(['"', '\\']) {
                Some(q) if rest.as_bytes()[q] == b'"' => {
                    out.push_str(&rest[..q]);
                    if !rest[q + 1..].trim_end_matches(' ').is_empty() {
                        return None;
                    }
                    self.advance();
                    return Some(out);
                }
                Some(q) => {
                    out.push_str(&rest[..q]);
                    let after = &rest[q + 1..];
                    if after.is_empty() {
                        // An escaped line break: nothing between the lines.
                        rest = self.next_quoted_line(indent)?;
                        continue;
                    }
                    let (c, used) = escape(after)?;
                    out.push(c);
                    rest = &after[used..];
                }
                None => {
                    out.push_str(rest.trim_end_matches(' '));
                    rest = self.next_quoted_line(indent)?;
                    out.push(' ');
                }
            }
        }
    }

    /// A literal block scalar (`|` keeps one final line break, `|-` none) whose lines follow
    /// the current one, indented past the node.
    fn literal(&mut self, s: &'a str, indent: usize) -> Option<String> {
        // How many of the line breaks after the last content line it keeps: one (`|`), none
        // (`|-`) or all (`|+`); and the content's indent past the node's, when given (`|2`,
        // which writers use when the first line starts with spaces).
        let (mut chomp, mut given) = (Some(1), None);
        for c in s.trim_end_matches(' ')[1..].bytes() {
            match c {
                b'-' if chomp == Some(1) => chomp = Some(0),
                b'+' if chomp == Some(1) => chomp = None,
                b'1'..=b'9' if given.is_none() => given = Some(usize::from(c - b'0')),
                _ => return None,
            }
        }
        self.advance();
        let width = match given {
            // Blank lines may come first (why writers give the indent).
            Some(g) => indent + g,
            None => {
                let (first, t) = split_indent(self.lines.get(self.pos)?);
                if t.is_empty() || first <= indent {
                    return None;
                }
                first
            }
        };
        let mut out = String::new();
        let mut blanks = 0usize;
        let mut any = false;
        let mut last = self.pos;
        while let Some(&l) = self.lines.get(self.pos) {
            let (i, t) = split_indent(l);
            if t.is_empty() {
                // Spaces past the block's indent would be content of a blank-looking line.
                if l.len() > width {
                    return None;
                }
                blanks += 1;
                self.pos += 1;
                continue;
            }
            if i < width {
                break;
            }
            if any {
                out.push('\n');
            }
            for _ in 0..blanks {
                out.push('\n');
            }
            blanks = 0;
            out.push_str(&l[width..]);
            any = true;
            last = self.pos;
            self.pos += 1;
        }
        if !any {
            return None;
        }
        // The breaks after the last content line: its own and each blank line's, but for a
        // text's last line, which has none.
        let breaks = (last..self.pos)
            .filter(|&k| k + 1 < self.lines.len())
            .count();
        for _ in 0..chomp.map_or(breaks, |c| breaks.min(c)) {
            out.push('\n');
        }
        Some(out)
    }
}

/// A plain scalar's text on one line, trailing spaces dropped; `None` where the line holds
/// what would end it (a `: `, a final `:`, a comment).
fn plain_piece(t: &str) -> Option<&str> {
    let p = t.trim_end_matches(' ');
    let b = p.as_bytes();
    let ends = memchr::memchr2_iter(b':', b'#', b).any(|i| match b[i] {
        b':' => b.get(i + 1).is_none_or(|&n| n == b' '),
        _ => i > 0 && b[i - 1] == b' ',
    });
    (!ends).then_some(p)
}

/// Where the first `: ` (or a final `:`) of `p` is.
fn value_colon(p: &str) -> Option<usize> {
    let b = p.as_bytes();
    memchr::memchr_iter(b':', b).find(|&i| b.get(i + 1).is_none_or(|&n| n == b' '))
}

/// What a line's content starts with: a key (plain or quoted, on this line) and its colon,
/// or a scalar; `None` for a key this reader leaves to the library.
fn head(t: &str) -> Option<Head<'_>> {
    let (key, after) = match t.as_bytes()[0] {
        q @ (b'\'' | b'"') => {
            // A quoted key closes on its line, with no escape or doubled quote in it;
            // anything else quoted is a scalar (read as one, or left to the library).
            let Some(end) = t[1..].find(q as char).map(|e| e + 1) else {
                return Some(Head::Scalar);
            };
            let key = &t[1..end];
            if key.contains('\\') || t[end + 1..].starts_with(q as char) {
                return Some(Head::Scalar);
            }
            (key.to_string(), &t[end + 1..])
        }
        _ => {
            let p = t.trim_end_matches(' ');
            let Some(colon) = value_colon(p) else {
                return Some(Head::Scalar);
            };
            let key = &t[..colon];
            if key.is_empty()
                || key.ends_with(' ')
                || key.contains(" #")
                || b"-?:,[]{}#&*!|>'\"%@`".contains(&key.as_bytes()[0])
            {
                return None;
            }
            match resolve(key)? {
                Value::String(k) => (k, &t[colon..]),
                _ => return None,
            }
        }
    };
    if key.len() > MAX_KEY {
        return None;
    }
    match after.strip_prefix(':') {
        Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
            Some(Head::Key(key, rest.trim_start_matches(' ')))
        }
        _ if after.trim_end_matches(' ').is_empty() => Some(Head::Scalar),
        _ => None,
    }
}

/// A double-quoted scalar's escape (the text after the backslash): the character and how
/// many bytes it took. `None` for those left to the library.
fn escape(after: &str) -> Option<(char, usize)> {
    let hex = |n: usize| {
        let digits = after.get(1..=n)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let code = u32::from_str_radix(digits, 16).ok()?;
        let c = char::from_u32(code)?;
        // Only printable characters the text itself could hold.
        (!c.is_control() && plain_chars(c.encode_utf8(&mut [0; 4]))).then_some((c, 1 + n))
    };
    let c = match after.as_bytes()[0] {
        b'\\' => '\\',
        b'"' => '"',
        b'/' => '/',
        b' ' => ' ',
        b'n' => '\n',
        b't' => '\t',
        b'r' => '\r',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'x' => return hex(2),
        b'u' => return hex(4),
        b'U' => return hex(8),
        _ => return None,
    };
    Some((c, 1))
}

/// A plain scalar's value as the YAML library resolves it: null, a boolean, an integer, a
/// finite float, else the string. `None` where the library would refuse it (an integer past
/// 64 bits, an infinite or NaN float).
fn resolve(s: &str) -> Option<Value> {
    let first = *s.as_bytes().first()?;
    if first.is_ascii_alphabetic() && !matches!(first, b'n' | b'N' | b't' | b'T' | b'f' | b'F') {
        return Some(Value::String(s.to_string()));
    }
    match s {
        "null" | "Null" | "NULL" | "~" => return Some(Value::Null),
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        _ => {}
    }
    if let Some(u) = unsigned(s, u64::from_str_radix) {
        return Some(Value::Number(u.into()));
    }
    if let Some(i) = negative(s, i64::from_str_radix) {
        return Some(Value::Number(i.into()));
    }
    if unsigned(s, u128::from_str_radix).is_some() || negative(s, i128::from_str_radix).is_some() {
        return None;
    }
    if !leading_zero(s)
        && let Some(f) = float(s)
    {
        return Number::from_f64(f).map(Value::Number);
    }
    Some(Value::String(s.to_string()))
}

type Radix<T> = fn(&str, u32) -> Result<T, std::num::ParseIntError>;

/// Digits with a leading zero (after a sign): a string to YAML 1.2, not an octal number.
fn leading_zero(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    s.len() > 1 && s.starts_with('0') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

/// An integer without a minus: decimal, `0x`, `0o` or `0b`, an optional `+` first.
fn unsigned<T>(s: &str, parse: Radix<T>) -> Option<T> {
    let unsigned = s.strip_prefix('+').unwrap_or(s);
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unsigned.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(v) = parse(rest, radix) {
                return Some(v);
            }
        }
    }
    if unsigned.starts_with(['+', '-']) || leading_zero(s) {
        return None;
    }
    parse(unsigned, 10).ok()
}

/// An integer with a minus: decimal, `-0x`, `-0o` or `-0b`.
fn negative<T>(s: &str, parse: Radix<T>) -> Option<T> {
    for (prefix, radix) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = s.strip_prefix(prefix)
            && let Ok(v) = parse(&format!("-{rest}"), radix)
        {
            return Some(v);
        }
    }
    if leading_zero(s) {
        return None;
    }
    parse(s, 10).ok()
}

/// A float: `.inf`, `-.inf`, `.nan` in their spellings (which the values refuse), or what
/// Rust reads as a finite `f64`, an optional `+` first.
fn float(s: &str) -> Option<f64> {
    let unsigned = match s.strip_prefix('+') {
        Some(u) if u.starts_with(['+', '-']) => return None,
        Some(u) => u,
        None => s,
    };
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(s, "-.inf" | "-.Inf" | "-.INF") {
        return Some(f64::INFINITY);
    }
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return Some(f64::NAN);
    }
    unsigned.parse::<f64>().ok().filter(|f| f.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::testing::xorshift;
    use crate::yaml::{YamlError, expansion_bound, library_values_within};

    type Read = (Vec<Value>, Dups);

    fn library(text: &str) -> (Result<Read, YamlError>, usize) {
        let budget = Budget::new(expansion_bound(text.len()));
        (library_values_within(text, &budget), budget.left())
    }

    /// Reads `text` both ways: when this reader takes it, the library must read it the
    /// same, with the same budget left. Whether this reader took it.
    fn agree(text: &str) -> bool {
        let budget = Budget::new(expansion_bound(text.len()));
        let Some(fast) = values(text, &budget) else {
            return false;
        };
        let (lib, left) = library(text);
        match lib {
            Ok(lib) => {
                assert_eq!(fast, lib, "read differently:\n{text}");
                assert_eq!(budget.left(), left, "charged differently:\n{text}");
            }
            Err(e) => panic!("taken, but the library refuses it ({e}):\n{text}"),
        }
        true
    }

    /// Texts in the shapes `oc get -o yaml` and must-gather write (folded quoted messages,
    /// literal certificates, sequences at their key's indent, compact entries, empty flow
    /// collections, nulls, numbers, quoted keys), each of which this reader must take.
    const SHAPES: &[&str] = &[
        "---\napiVersion: v1\nitems:\n- apiVersion: v1\n  count: 1\n  eventTime: null\n  firstTimestamp: \"2021-08-03T09:21:36Z\"\n  involvedObject:\n    kind: Pod\n    name: dns-default-2pf64\n    resourceVersion: \"11747\"\n  kind: Event\n  message: 'MountVolume.SetUp failed for volume \"config-volume\" : failed to sync configmap\n    cache: timed out waiting for the condition'\n  reason: FailedMount\n  reportingComponent: \"\"\n  source: {}\n  type: Warning\n- apiVersion: v1\n  message: it''s a long plain message that the writer folded over\n    two lines of text\n  metadata:\n    annotations: {}\n    labels: []\nkind: EventList\nmetadata:\n  resourceVersion: \"\"\n",
        "apiVersion: v1\ndata:\n  ca.crt: |\n    -----BEGIN CERTIFICATE-----\n    MIIDMDCCAhigAwIBAgIIQ\n\n    # not a comment: text\n    -----END CERTIFICATE-----\n  empty: \"\"\n  script: |-\n    #!/bin/sh\n      indented: yes\n    done\nkind: ConfigMap\nmetadata:\n  name: x\n",
        "spec:\n  containers:\n  - args:\n    - --v=2\n    - -listen\n    command: []\n    image: quay.io/x@sha256:abc\n    ports:\n    - containerPort: 9099\n      name: metrics\n      protocol: TCP\n    resources:\n      requests:\n        cpu: 20m\n        memory: 50Mi\n  tolerations:\n  - effect: NoSchedule\n    operator: Exists\n  -\n  - last\n",
        "status:\n  conditions:\n  - lastTransitionTime: \"2021-08-03T09:45:28Z\"\n    message: \"Done applying 4.8.0\\n\\tline two \\\"quoted\\\" \\u00e9\\x41 \\\n      joined\"\n    status: \"True\"\n    type: Available\n  - status: \"False\"\n    type: Failing\n  desired:\n    version: 4.8.0\n  history:\n  - completionTime: null\n    state: Partial\n    verified: false\n  observedGeneration: 2\n  versionHash: 6ppm7Sm8ZDQ=\n",
        "# a comment\nkey:\n# between\n  a: 1\n  'quoted key': 2\n  \"dq\": -3\n  float: 1.5\n  exp: 1e3\n  hex: 0x1F\n  oct: 0o17\n  zero: 0\n  lead: 007\n  neg: -12\n  plus: +5\n  words: [] \n  tilde: ~\n  t: true\n  F: FALSE\n  ip: 10.0.0.1\n  ver: 4.8.0\n  quantity: 100m\n  date: 2021-08-03\n  url: http://x:80/y\n  path: a/b#c\n  dash: -x\n  uni: café ☕\n  nothing:\nlast: end\n",
        "  - metadata:\n      name: n1\n    status:\n      nodeInfo:\n        kubeletVersion: v1.25.4\n",
        "- a\n- b\n  c\n- 'x'\n- \"y\"\n- |\n  lit\n- {}\n",
        "- description: matchLabels is a map of {key,value}\n    pairs. A single {key,value} in the\n    \"In\", and - the values [x]\n    & more * ! | > ' % @ ` ? , ] } - x\n  keep: |+\n    kept\n\n\n  next: 1\n- keep: |+\n    at the end\n\n",
        "data:\n    blank: |2\n\n      after a blank line\n    ca-bundle.crt: |2\n        # starts with spaces\n      line\n    b: |-2\n        x\n    c: |2+\n        y\n\n    value: :5000\n    record: :node_memory:sum\n",
    ];

    #[test]
    fn shapes_kubernetes_writes_are_read_as_the_library_reads_them() {
        for (i, text) in SHAPES.iter().enumerate() {
            assert!(agree(text), "shape {i} was left to the library:\n{text}");
        }
    }

    /// Plain scalars of every kind the library resolves (and some it refuses), as values.
    #[test]
    fn plain_scalars_resolve_as_the_library_resolves_them() {
        let scalars = [
            "0",
            "00",
            "01",
            "-0",
            "+0",
            "-01",
            "+01",
            "1",
            "+1",
            "-1",
            "++1",
            "+-1",
            "--1",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "340282366920938463463374607431768211456",
            "0x",
            "0x1f",
            "0xFF",
            "0x+1",
            "0x-1",
            "-0x1f",
            "+0x1f",
            "0o17",
            "0o8",
            "-0o17",
            "0b101",
            "-0b1",
            "0b2",
            "1.5",
            "-1.5",
            "+1.5",
            ".5",
            "5.",
            "1e5",
            "1E-5",
            "1_000",
            "1e400",
            ".inf",
            "-.inf",
            "+.inf",
            ".Inf",
            ".NAN",
            ".nan",
            "+.nan",
            "inf",
            "-inf",
            "nan",
            "NaN",
            "infinity",
            "null",
            "Null",
            "NULL",
            "nULL",
            "~",
            "~x",
            "true",
            "True",
            "TRUE",
            "tRUE",
            "false",
            "no",
            "yes",
            "on",
            "off",
            "y",
            "n",
            "1.2.3",
            "10.0.0.1",
            "2021-08-03",
            "12:30",
            "1:2",
            "-",
            "-x",
            "--x",
            ".",
            "..",
            "+",
            "+x",
            "0.0.0.0/0",
            "1e",
            "e1",
            "0x1p3",
            "1__2",
            "٣",
            "1 2",
            "4.8.0-0.nightly",
            "v1",
        ];
        for s in scalars {
            for (i, text) in [format!("k: {s}\n"), format!("- {s}\n"), format!("{s}: v\n")]
                .iter()
                .enumerate()
            {
                let fast = values(text, &Budget::new(1 << 20));
                let (lib, _) = library(text);
                match fast {
                    Some(fast) => assert_eq!(Ok(fast), lib.map_err(|e| e.message), "{text}"),
                    // A value the library reads, this reader reads too: it hands back only
                    // what the library refuses.
                    None if i == 0 => assert!(lib.is_err(), "left to the library: {text}"),
                    None => {}
                }
            }
        }
    }

    #[test]
    fn the_budget_is_charged_only_when_it_can_pay() {
        let text = SHAPES[0];
        let (_, left) = library(text);
        let cost = expansion_bound(text.len()) - left;
        let exact = Budget::new(cost);
        assert!(values(text, &exact).is_some());
        assert_eq!(exact.left(), 0);
        let short = Budget::new(cost - 1);
        assert!(values(text, &short).is_none());
        assert_eq!(short.left(), cost - 1, "nothing charged when it gives up");
        let lib = library_values_within(text, &short);
        assert!(
            lib.is_err() && short.tripped(),
            "the library trips the bound"
        );
    }

    /// The shapes changed at random (a character from what YAML gives meaning to inserted,
    /// deleted or replaced; a line indented or outdented; two lines swapped): whatever this
    /// reader takes, the library reads the same, and reads at all.
    #[test]
    fn mutated_texts_are_read_as_the_library_reads_them_or_left_to_it() {
        let mut rnd = xorshift(0x2545_f491_4f6c_dd1d);
        let alphabet: Vec<char> = " -:#'\"|>{}[],&*!?%@`\\\n0aé.~".chars().collect();
        let (mut taken, mut tried) = (0, 0);
        for round in 0..20_000 {
            let base = SHAPES[round % SHAPES.len()];
            let mut chars: Vec<char> = base.chars().collect();
            for _ in 0..1 + rnd(3) {
                let at = rnd(chars.len() as u64) as usize;
                let c = alphabet[rnd(alphabet.len() as u64) as usize];
                match rnd(5) {
                    0 => chars.insert(at, c),
                    1 => {
                        chars.remove(at);
                    }
                    2 => chars[at] = c,
                    3 => {
                        // A line start one space in or out.
                        let start = chars[..at]
                            .iter()
                            .rposition(|&c| c == '\n')
                            .map_or(0, |i| i + 1);
                        if chars.get(start) == Some(&' ') && rnd(2) == 0 {
                            chars.remove(start);
                        } else {
                            chars.insert(start, ' ');
                        }
                    }
                    _ => {
                        let text: String = chars.iter().collect();
                        let mut lines: Vec<&str> = text.split('\n').collect();
                        let a = rnd(lines.len() as u64) as usize;
                        let b = rnd(lines.len() as u64) as usize;
                        lines.swap(a, b);
                        chars = lines.join("\n").chars().collect();
                    }
                }
                if chars.is_empty() {
                    chars.push('a');
                }
            }
            let text: String = chars.into_iter().collect();
            tried += 1;
            if agree(&text) {
                taken += 1;
            }
        }
        // Most changes still leave a text this reader takes: the check is not idle.
        assert!(taken * 4 > tried, "{taken} of {tried} taken");
    }
}
