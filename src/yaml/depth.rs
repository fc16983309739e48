//! The nesting bound, checked while reading the text: one linear pass over a YAML text that
//! tracks how deep flow collections (`[`, `{`) and block indentation go, so that a document
//! nested past the YAML library's recursion limit is rejected before the library loads
//! every event of it (that load is slow, superlinear, on deep flow nesting).
//!
//! The count never exceeds the document's real nesting (quoted scalars, comments, block
//! scalars and plain-scalar continuation lines are skipped; brackets inside block plain
//! scalars are text), so a text this pass rejects is one the library would reject too.

/// The YAML library's recursion limit: deeper documents are invalid anyway.
pub const MAX_DEPTH: usize = 128;

/// The 1-based line on which `text` first nests deeper than `limit` levels, if it does.
pub fn too_deep(text: &str, limit: usize) -> Option<usize> {
    let mut s = Scan::default();
    for (i, line) in text.split('\n').enumerate() {
        if s.line(line.strip_suffix('\r').unwrap_or(line).as_bytes(), limit) {
            return Some(i + 1);
        }
    }
    None
}

#[derive(Default)]
struct Scan {
    /// Depth of open flow collections.
    flow: usize,
    /// Block depth when the open flow collection started.
    flow_base: usize,
    /// Indents of the open block nodes.
    indents: Vec<usize>,
    /// Inside a quoted scalar (`"` or `'`) that goes on past the line end.
    quote: Option<u8>,
    /// Lines more indented than this continue a block scalar (`|`, `>`).
    block_scalar: Option<usize>,
    /// Lines more indented than this continue a plain scalar.
    plain: Option<usize>,
}

impl Scan {
    /// Scans one line; true when the nesting passed `limit`.
    fn line(&mut self, b: &[u8], limit: usize) -> bool {
        let mut pos = 0;
        let mut block = self.flow_base;
        let mut value_start = self.flow > 0;
        if self.quote.is_none() && self.flow == 0 {
            let indent = b.iter().take_while(|&&c| c == b' ').count();
            let rest = &b[indent..];
            if rest.is_empty() || rest[0] == b'#' {
                return false;
            }
            if let Some(bi) = self.block_scalar {
                if indent > bi {
                    return false;
                }
                self.block_scalar = None;
            }
            if let Some(pi) = self.plain {
                if indent > pi {
                    return false;
                }
                self.plain = None;
            }
            if indent == 0 && (rest.starts_with(b"---") || rest.starts_with(b"...")) {
                self.indents.clear();
                pos = 3;
            } else {
                while self.indents.last().is_some_and(|&t| t >= indent) {
                    self.indents.pop();
                }
                self.indents.push(indent);
                pos = indent;
            }
            block = self.indents.len();
            // Compact nesting on one line: `- - - x`, `? - x`.
            while pos < b.len()
                && matches!(b[pos], b'-' | b'?')
                && b.get(pos + 1).is_none_or(|&c| c == b' ')
            {
                block += 1;
                pos += 1;
                while pos < b.len() && b[pos] == b' ' {
                    pos += 1;
                }
            }
            if block > limit {
                return true;
            }
            value_start = true;
        }
        let line_indent = self.indents.last().copied().unwrap_or(0);
        let mut in_plain = false;
        while pos < b.len() {
            let c = b[pos];
            if let Some(q) = self.quote {
                if q == b'"' && c == b'\\' {
                    pos += 2;
                    continue;
                }
                if c == q {
                    if q == b'\'' && b.get(pos + 1) == Some(&b'\'') {
                        pos += 2;
                        continue;
                    }
                    self.quote = None;
                    value_start = false;
                }
                pos += 1;
                continue;
            }
            let after_space = pos == 0 || matches!(b[pos - 1], b' ' | b'\t');
            if c == b'#' && after_space {
                break;
            }
            if c == b' ' || c == b'\t' {
                pos += 1;
                continue;
            }
            if self.flow > 0 {
                match c {
                    b'[' | b'{' => {
                        self.flow += 1;
                        if self.flow_base + self.flow > limit {
                            return true;
                        }
                        value_start = true;
                    }
                    b']' | b'}' => {
                        self.flow -= 1;
                        value_start = false;
                        if self.flow == 0 {
                            // Back in block context: the rest of the line is not structure.
                            self.flow_base = 0;
                            return false;
                        }
                    }
                    b',' | b':' | b'?' => value_start = true,
                    b'"' | b'\'' if value_start => self.quote = Some(c),
                    _ => value_start = false,
                }
                pos += 1;
                continue;
            }
            // Block context.
            if in_plain {
                if c == b':' && b.get(pos + 1).is_none_or(|&n| n == b' ') {
                    in_plain = false;
                    value_start = true;
                }
                pos += 1;
                continue;
            }
            if !value_start {
                pos += 1;
                continue;
            }
            match c {
                b'[' | b'{' => {
                    self.flow = 1;
                    self.flow_base = block;
                    if block + 1 > limit {
                        return true;
                    }
                }
                b'"' | b'\'' => self.quote = Some(c),
                b'|' | b'>' => {
                    self.block_scalar = Some(line_indent);
                    return false;
                }
                b'&' | b'!' => {
                    // An anchor or a tag before the node: skip the token.
                    while pos < b.len() && b[pos] != b' ' {
                        pos += 1;
                    }
                    continue;
                }
                b'*' => value_start = false,
                _ => in_plain = true,
            }
            pos += 1;
        }
        if in_plain && self.flow == 0 {
            self.plain = Some(line_indent);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_flow_and_block_nesting() {
        let flow = format!("a: {}{}\n", "[".repeat(200), "]".repeat(200));
        assert_eq!(too_deep(&flow, MAX_DEPTH), Some(1));
        let ok = format!("a: {}{}\n", "[".repeat(100), "]".repeat(100));
        assert_eq!(too_deep(&ok, MAX_DEPTH), None);
        let block: String = (0..200)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        assert_eq!(too_deep(&block, MAX_DEPTH), Some(129));
        let dashes = format!("{}x\n", "- ".repeat(200));
        assert_eq!(too_deep(&dashes, MAX_DEPTH), Some(1));
        let anchored = format!("a: &x {}\n", "{".repeat(300));
        assert_eq!(too_deep(&anchored, MAX_DEPTH), Some(1));
    }

    #[test]
    fn text_is_not_structure() {
        let many = "[".repeat(300);
        for text in [
            format!("a: \"{many}\"\n"),
            format!("a: '{many}'\n"),
            format!("a: b {many}\n"),
            format!("a: |\n  {many}\nb: 1\n"),
            format!("a: long plain\n  {many} continued\nb: 1\n"),
            format!("a: 1 # {many}\n"),
            format!("a: \"x\n  {many}\"\nb: [1, \"{many}\"]\n"),
        ] {
            assert_eq!(too_deep(&text, MAX_DEPTH), None, "{text}");
        }
    }
}
