//! Message templates: `{name}`, `{namespace}`, `{reason}`, `{match.1}`, `{node}` (a named
//! regex capture)… filled from a match's captures; `{{` and `}}` are literal braces. Checked
//! when the rule is loaded: a placeholder no matcher of the rule can fill is an error.

use std::collections::BTreeMap;

/// Placeholders every match can fill (each matcher fills those it knows).
pub const BUILTIN: &[&str] = &[
    "code",
    "name",
    "namespace",
    "kind",
    "type",
    "status",
    "reason",
    "message",
    "count",
    "version",
    "first",
    "last",
    "file",
    "line",
    "window",
    "precondition",
    "state",
    "error",
    "source",
    "locator",
    "path",
    "value",
];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Hole(String),
}

/// A parsed template.
#[derive(Debug, Clone)]
pub struct Template(Vec<Piece>);

/// Why a template is malformed, with the byte offset inside it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct TemplateError {
    pub message: String,
    pub offset: usize,
}

impl Template {
    /// Parses `text`; `known` says whether a placeholder name can be filled.
    pub fn parse(text: &str, known: impl Fn(&str) -> bool) -> Result<Template, TemplateError> {
        let mut out = Vec::new();
        let mut lit = String::new();
        let mut it = text.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            match c {
                '{' if it.peek().map(|p| p.1) == Some('{') => {
                    it.next();
                    lit.push('{');
                }
                '}' if it.peek().map(|p| p.1) == Some('}') => {
                    it.next();
                    lit.push('}');
                }
                '{' => {
                    let rest = &text[i + 1..];
                    let Some(end) = rest.find('}') else {
                        return Err(TemplateError {
                            message: "`{` opens a placeholder that is never closed (write `{{` for a brace)".into(),
                            offset: i,
                        });
                    };
                    let name = rest[..end].trim();
                    let numbered = name
                        .strip_prefix("match.")
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                    if !numbered && !known(name) {
                        return Err(TemplateError {
                            message: format!(
                                "unknown placeholder `{{{name}}}`: use one of {}, `match.N` or a named capture of the rule's regexes",
                                BUILTIN.join(", ")
                            ),
                            offset: i,
                        });
                    }
                    if !lit.is_empty() {
                        out.push(Piece::Text(std::mem::take(&mut lit)));
                    }
                    out.push(Piece::Hole(name.to_string()));
                    for _ in 0..=end {
                        it.next();
                    }
                }
                '}' => {
                    return Err(TemplateError {
                        message: "a lone `}` (write `}}` for a brace)".into(),
                        offset: i,
                    });
                }
                c => lit.push(c),
            }
        }
        if !lit.is_empty() {
            out.push(Piece::Text(lit));
        }
        Ok(Template(out))
    }

    /// The text with each placeholder filled (`?` when this match has no such value).
    pub fn render(&self, caps: &BTreeMap<String, String>) -> String {
        let mut s = String::new();
        for p in &self.0 {
            match p {
                Piece::Text(t) => s.push_str(t),
                Piece::Hole(h) => s.push_str(caps.get(h).map_or("?", String::as_str)),
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_and_rejects() {
        let t = Template::parse("{name} took {took} ({match.1}) {{x}}", |n| {
            BUILTIN.contains(&n) || n == "took"
        })
        .unwrap();
        let caps = BTreeMap::from([
            ("name".to_string(), "etcd-0".to_string()),
            ("took".to_string(), "1.2s".to_string()),
        ]);
        assert_eq!(t.render(&caps), "etcd-0 took 1.2s (?) {x}");
        let e = Template::parse("a {nod} b", |n| BUILTIN.contains(&n)).unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(e.message.contains("`{nod}`"), "{e}");
        assert!(Template::parse("a {name", |_| true).is_err());
        assert!(Template::parse("a } b", |_| true).is_err());
    }
}
#[cfg(test)]
mod non_ascii {
    use super::*;

    #[test]
    fn placeholders_after_and_inside_non_ascii_text() {
        let caps: BTreeMap<String, String> = [("name".to_string(), "etcd".to_string())].into();
        let t = Template::parse("Knoten ä → {name} ist kaputt… {{ok}}", |n| n == "name").unwrap();
        assert_eq!(t.render(&caps), "Knoten ä → etcd ist kaputt… {ok}");
        let t = Template::parse("{ name }é{name}", |n| n == "name").unwrap();
        assert_eq!(t.render(&caps), "etcdéetcd");
    }
}
