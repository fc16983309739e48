//! The field-path syntax, parsed here and nowhere else: `status.history[1].completionTime`,
//! keys holding dots or slashes quoted (`metadata.annotations["machineconfiguration.openshift.io/state"]`),
//! and `[*]` for every element (known-issue rule matchers). Evidence locates its paths with it
//! (the `locate` module), known-issue rules compile theirs with it, and [`join_key`] /
//! [`join_index`] write the concrete paths a match resolves to in the same syntax.

/// One segment of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
    /// `[*]`: every element.
    Any,
}

/// Why a field path does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("an empty field path")]
    Empty,
    #[error("a `[\"` without its `\"]`")]
    UnclosedQuote,
    #[error("a `[` without its `]`")]
    UnclosedBracket,
    #[error("`[{0}]`: an index is a number or `*`")]
    BadIndex(String),
    #[error("an empty key (`..` or a trailing `.`)")]
    EmptyKey,
}

/// Parses a field path: `a.b[0]["x.y/z"][*].c` (surrounding whitespace ignored).
pub fn parse(p: &str) -> Result<Vec<Seg>, PathError> {
    let mut out = Vec::new();
    let mut rest = p.trim();
    if rest.is_empty() {
        return Err(PathError::Empty);
    }
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[\"") {
            let end = r.find("\"]").ok_or(PathError::UnclosedQuote)?;
            out.push(Seg::Key(r[..end].to_string()));
            rest = &r[end + 2..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').ok_or(PathError::UnclosedBracket)?;
            let inner = r[..end].trim();
            if inner == "*" {
                out.push(Seg::Any);
            } else {
                let n = inner
                    .parse()
                    .map_err(|_| PathError::BadIndex(inner.to_string()))?;
                out.push(Seg::Index(n));
            }
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix('.') {
            if r.is_empty() || r.starts_with('.') {
                return Err(PathError::EmptyKey);
            }
            rest = r;
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            out.push(Seg::Key(rest[..end].to_string()));
            rest = &rest[end..];
        }
    }
    Ok(out)
}

/// `at` followed by key `k`: `at.k`, or `at["k"]` when the key is not plain (letters,
/// digits, `_`, `-`); a plain key alone when `at` is empty.
pub fn join_key(at: &str, k: &str) -> String {
    let plain = !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    match (at.is_empty(), plain) {
        (true, true) => k.to_string(),
        (false, true) => format!("{at}.{k}"),
        (_, false) => format!("{at}[\"{k}\"]"),
    }
}

/// `at` followed by index `i`: `at[i]`.
pub fn join_index(at: &str, i: usize) -> String {
    format!("{at}[{i}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Seg {
        Seg::Key(k.to_string())
    }

    #[test]
    fn parses_keys_indexes_quoted_keys_and_wildcards() {
        assert_eq!(
            parse("status.history[1].completionTime").unwrap(),
            vec![
                key("status"),
                key("history"),
                Seg::Index(1),
                key("completionTime")
            ]
        );
        assert_eq!(
            parse("items[2][3]").unwrap(),
            vec![key("items"), Seg::Index(2), Seg::Index(3)]
        );
        assert_eq!(
            parse("metadata.annotations[\"a.b/c\"]").unwrap(),
            vec![key("metadata"), key("annotations"), key("a.b/c")]
        );
        assert_eq!(parse("status.conditions[*].reason").unwrap()[2], Seg::Any);
    }

    #[test]
    fn refuses_what_is_not_a_path() {
        assert_eq!(parse("  "), Err(PathError::Empty));
        assert_eq!(parse("a..b"), Err(PathError::EmptyKey));
        assert_eq!(parse("a."), Err(PathError::EmptyKey));
        assert_eq!(parse("a[x]"), Err(PathError::BadIndex("x".into())));
        assert_eq!(parse("a[1"), Err(PathError::UnclosedBracket));
        assert_eq!(parse("a[\"b"), Err(PathError::UnclosedQuote));
        assert_eq!(
            PathError::BadIndex("x".into()).to_string(),
            "`[x]`: an index is a number or `*`"
        );
    }

    #[test]
    fn joined_paths_parse_back() {
        let p = join_index(&join_key(&join_key("", "metadata"), "a.b/c"), 3);
        assert_eq!(p, "metadata[\"a.b/c\"][3]");
        assert_eq!(
            parse(&p).unwrap(),
            vec![key("metadata"), key("a.b/c"), Seg::Index(3)]
        );
        assert_eq!(join_key("spec", "x_y-z"), "spec.x_y-z");
    }
}
