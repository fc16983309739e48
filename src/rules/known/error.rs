//! A rule file's problems, precise: the file, line and column, and a `miette` diagnostic
//! whose span points into the YAML (an unknown key, a bad regex, a bad version range or glob,
//! an unknown placeholder, a code that collides with a built-in one). `mglint rules check`
//! prints [`RuleFileError::render`] (the YAML lines with the span underlined); the `IN003`
//! finding carries the one-line form.

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceSpan};

/// One problem in one rule file.
#[derive(Debug, Clone)]
pub struct RuleFileError {
    /// The file as named (a path, or `bundled:KI001-….yaml`).
    pub path: String,
    pub message: String,
    /// 1-based line and column of the problem, when it has a place.
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub help: Option<String>,
    /// The rule the problem is in (its code), when known.
    pub code: Option<String>,
    /// The YAML line the problem is on, as written.
    pub source_line: Option<String>,
    src: NamedSource<String>,
    span: Option<SourceSpan>,
}

impl std::fmt::Display for RuleFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleFileError {}

impl Diagnostic for RuleFileError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new("mglint::rule-file"))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.span.map(|_| &self.src as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let s = self.span?;
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some("here".to_string()),
            s,
        ))))
    }
}

impl RuleFileError {
    /// A problem at byte `offset` (length `len`) of `text`; `None`: the whole file.
    pub fn at(
        path: &str,
        text: &str,
        at: Option<(usize, usize)>,
        message: impl Into<String>,
    ) -> Self {
        let (line, column, span) = match at {
            Some((off, len)) => {
                let off = off.min(text.len());
                let (l, c) = line_col(text, off);
                let len = len.max(1).min(text.len().saturating_sub(off));
                (Some(l), Some(c), Some(SourceSpan::new(off.into(), len)))
            }
            None => (None, None, None),
        };
        let source_line = line
            .and_then(|l| text.lines().nth(l as usize - 1))
            .map(|l| l.trim_end().to_string());
        RuleFileError {
            path: path.to_string(),
            message: message.into(),
            line,
            column,
            help: None,
            code: None,
            source_line,
            src: NamedSource::new(path, text.to_string()),
            span,
        }
    }

    /// A problem at a 1-based line and column (as the YAML library reports them).
    pub fn at_line(
        path: &str,
        text: &str,
        line: Option<u32>,
        column: Option<u32>,
        message: impl Into<String>,
    ) -> Self {
        let at = line.map(|l| {
            let off = offset_of(text, l, column.unwrap_or(1));
            let end = text[off..].find('\n').map_or(text.len(), |e| off + e);
            (off, (end - off).max(1))
        });
        RuleFileError::at(path, text, at, message)
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn in_rule(mut self, code: &str) -> Self {
        self.code = Some(code.to_string());
        self
    }

    /// `path:line:column: message`.
    pub fn one_line(&self) -> String {
        let place = match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", self.path),
            (Some(l), None) => format!("{}:{l}", self.path),
            _ => self.path.clone(),
        };
        format!("{place}: {}", self.message)
    }

    /// The report for people: the message, the place, the YAML line before and the line of
    /// the span with the span underlined, and the help.
    pub fn render(&self) -> String {
        let mut s = format!("error: {}\n", self.message);
        let (Some(line), Some(col)) = (self.line, self.column) else {
            s.push_str(&format!("  --> {}\n", self.path));
            if let Some(h) = &self.help {
                s.push_str(&format!("  = help: {h}\n"));
            }
            return s;
        };
        let text = self.src.inner();
        let width = line.to_string().len();
        let pad = " ".repeat(width);
        s.push_str(&format!("{pad}--> {}:{line}:{col}\n{pad} |\n", self.path));
        let lines: Vec<&str> = text.lines().collect();
        let idx = line as usize - 1;
        if idx >= 1
            && let Some(prev) = lines.get(idx - 1)
        {
            s.push_str(&format!("{:>width$} | {prev}\n", line - 1));
        }
        if let Some(cur) = lines.get(idx) {
            s.push_str(&format!("{line:>width$} | {cur}\n"));
            let start = col as usize - 1;
            let len = self.span.map_or(1, |sp| sp.len()).max(1);
            let avail = cur.chars().count().saturating_sub(start).max(1);
            s.push_str(&format!(
                "{pad} | {}{} here\n",
                " ".repeat(start),
                "^".repeat(len.min(avail))
            ));
        }
        if let Some(h) = &self.help {
            s.push_str(&format!("{pad} = help: {h}\n"));
        }
        s
    }
}

/// 1-based line and column (in characters) of byte `off`.
pub fn line_col(text: &str, off: usize) -> (u32, u32) {
    let before = &text[..off.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

/// Byte offset of a 1-based line and column.
pub fn offset_of(text: &str, line: u32, column: u32) -> usize {
    let mut off = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line as usize {
            let c = l
                .char_indices()
                .nth(column.saturating_sub(1) as usize)
                .map_or(l.trim_end_matches('\n').len(), |(b, _)| b);
            return off + c;
        }
        off += l.len();
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_renders() {
        let text = "code: X-A\nname: a\nseverity: fatal\n";
        let e =
            RuleFileError::at_line("r.yaml", text, Some(3), Some(11), "unknown variant `fatal`")
                .with_help("one of error, warning, info");
        assert_eq!(e.one_line(), "r.yaml:3:11: unknown variant `fatal`");
        assert_eq!(
            e.render(),
            "error: unknown variant `fatal`\n --> r.yaml:3:11\n  |\n2 | name: a\n3 | severity: fatal\n  |           ^^^^^ here\n  = help: one of error, warning, info\n"
        );
        assert_eq!(line_col(text, offset_of(text, 2, 3)), (2, 3));
    }
}
