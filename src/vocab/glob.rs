//! Shell-style name globs (`etcd-*`, `openshift-?ns`, `[ab]*`), as known-issue rules name
//! namespaces, pods, containers and objects: `*` any run of characters, `?` one character,
//! `[…]` / `[!…]` a class. Compiled once into an anchored regex.

use regex::Regex;

/// A compiled glob.
#[derive(Debug, Clone)]
pub struct Glob {
    text: String,
    re: Regex,
}

/// Why a glob is malformed, with the byte offset of the problem inside the pattern.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct GlobError {
    pub message: String,
    pub offset: usize,
}

impl Glob {
    /// Compiles `pattern`.
    pub fn new(pattern: &str) -> Result<Glob, GlobError> {
        if pattern.is_empty() {
            return Err(GlobError {
                message: "an empty glob matches nothing; use `*` for any name".into(),
                offset: 0,
            });
        }
        let mut re = String::from("^");
        let mut chars = pattern.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '*' => re.push_str(".*"),
                '?' => re.push('.'),
                '[' => {
                    let mut class = String::from("[");
                    if let Some((_, '!')) = chars.peek() {
                        chars.next();
                        class.push('^');
                    }
                    let mut closed = false;
                    let mut first = true;
                    for (_, c) in chars.by_ref() {
                        if c == ']' && !first {
                            closed = true;
                            break;
                        }
                        first = false;
                        if matches!(c, '\\' | '[' | '&' | '~' | '^') {
                            class.push('\\');
                        }
                        class.push(c);
                    }
                    if !closed {
                        return Err(GlobError {
                            message: "`[` opens a character class that is never closed with `]`"
                                .into(),
                            offset: i,
                        });
                    }
                    class.push(']');
                    re.push_str(&class);
                }
                c => re.push_str(&regex::escape(&c.to_string())),
            }
        }
        re.push('$');
        let re = Regex::new(&re).map_err(|e| GlobError {
            message: e.to_string(),
            offset: 0,
        })?;
        Ok(Glob {
            text: pattern.to_string(),
            re,
        })
    }

    /// Whether `name` matches the whole glob.
    pub fn matches(&self, name: &str) -> bool {
        self.re.is_match(name)
    }

    /// The glob as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the glob has no wildcard (it names exactly one value).
    pub fn is_literal(&self) -> bool {
        !self.text.contains(['*', '?', '['])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_questions_and_classes() {
        let g = Glob::new("etcd-*").unwrap();
        assert!(g.matches("etcd-master-0") && g.matches("etcd-") && !g.matches("xetcd-a"));
        let g = Glob::new("ip-10-0-?-1").unwrap();
        assert!(g.matches("ip-10-0-5-1") && !g.matches("ip-10-0-55-1"));
        let g = Glob::new("[!a]*.log").unwrap();
        assert!(g.matches("b.log") && !g.matches("a.log"));
        assert!(
            Glob::new("a.b").unwrap().matches("a.b") && !Glob::new("a.b").unwrap().matches("axb")
        );
        let e = Glob::new("pods-[ab").unwrap_err();
        assert_eq!(e.offset, 5);
        assert!(Glob::new("").is_err());
        assert!(Glob::new("openshift-etcd").unwrap().is_literal());
    }
}
