//! Strict SemVer 2.0 as oc's recommend and the CVO's preconditions parse and order release
//! versions (the `blang/semver` v3/v4 rules, the same for these): no `v` prefix, no short
//! forms, no whitespace; its error texts word for word, because oc prints them and a failed
//! precondition reports them; precedence ignores build metadata.

use crate::vocab::text::go_quote;
use std::cmp::Ordering;
use std::fmt;

/// One pre-release identifier: numeric ones sort below alphanumeric ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pre {
    Num(u64),
    Alpha(String),
}

/// A parsed version. `Display` gives back the text it was parsed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<Pre>,
    pub build: Vec<String>,
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                Pre::Num(n) => write!(f, "{n}")?,
                Pre::Alpha(s) => f.write_str(s)?,
            }
        }
        for (i, b) in self.build.iter().enumerate() {
            f.write_str(if i == 0 { "+" } else { "." })?;
            f.write_str(b)?;
        }
        Ok(())
    }
}

/// Go's `strconv.ParseUint(s, 10, 64)` with its error text.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(s)
        ));
    }
    s.parse::<u64>().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            go_quote(s)
        )
    })
}

/// A major, minor or patch number: digits only, no leading zero.
fn number(s: &str, what: &str, cap: &str) -> Result<u64, String> {
    if !s.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!(
            "Invalid character(s) found in {what} number {}",
            go_quote(s)
        ));
    }
    if s.len() > 1 && s.starts_with('0') {
        return Err(format!(
            "{cap} number must not contain leading zeroes {}",
            go_quote(s)
        ));
    }
    parse_uint(s)
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

fn pre_release(s: &str) -> Result<Pre, String> {
    if s.is_empty() {
        return Err("Prerelease is empty".into());
    }
    if s.chars().all(|c| c.is_ascii_digit()) {
        if s.len() > 1 && s.starts_with('0') {
            return Err(format!(
                "Numeric PreRelease version must not contain leading zeroes {}",
                go_quote(s)
            ));
        }
        return parse_uint(s).map(Pre::Num);
    }
    if s.chars().all(is_ident_char) {
        return Ok(Pre::Alpha(s.to_string()));
    }
    Err(format!(
        "Invalid character(s) found in prerelease {}",
        go_quote(s)
    ))
}

/// Parses `s` strictly; the error is the text oc prints after "cannot parse SemVer …: ".
pub fn parse(s: &str) -> Result<Version, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    if parts.len() != 3 {
        return Err("No Major.Minor.Patch elements found".into());
    }
    let major = number(parts[0], "major", "Major")?;
    let minor = number(parts[1], "minor", "Minor")?;
    let mut rest = parts[2];
    let mut build = Vec::new();
    if let Some((head, b)) = rest.split_once('+') {
        build = b.split('.').map(str::to_string).collect();
        rest = head;
    }
    let mut pre_text = None;
    if let Some((head, p)) = rest.split_once('-') {
        pre_text = Some(p);
        rest = head;
    }
    let patch = number(rest, "patch", "Patch")?;
    let mut pre = Vec::new();
    if let Some(p) = pre_text {
        for id in p.split('.') {
            pre.push(pre_release(id)?);
        }
    }
    for b in &build {
        if b.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !b.chars().all(is_ident_char) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                go_quote(b)
            ));
        }
    }
    Ok(Version {
        major,
        minor,
        patch,
        pre,
        build,
    })
}

impl Version {
    /// SemVer precedence (build metadata ignored).
    pub fn precedence(&self, o: &Version) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        for (a, b) in self.pre.iter().zip(&o.pre) {
            let c = match (a, b) {
                (Pre::Num(x), Pre::Num(y)) => x.cmp(y),
                (Pre::Num(_), Pre::Alpha(_)) => Ordering::Less,
                (Pre::Alpha(_), Pre::Num(_)) => Ordering::Greater,
                (Pre::Alpha(x), Pre::Alpha(y)) => x.as_bytes().cmp(y.as_bytes()),
            };
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_back() {
        for s in [
            "4.16.5",
            "4.17.0-rc.1",
            "4.19.0-okd-scos.17",
            "4.20.0-okd-scos.ec.14",
            "4.15.0-0.okd-2024-03-10-010116",
            "4.17.5+b01.x",
        ] {
            assert_eq!(parse(s).unwrap().to_string(), s);
        }
    }

    #[test]
    fn errors_are_blangs() {
        // The texts oc printed for the generated sets (fixtures/oc/recommend).
        assert_eq!(
            parse("4.16").unwrap_err(),
            "No Major.Minor.Patch elements found"
        );
        assert_eq!(
            parse("v4.16.5").unwrap_err(),
            "Invalid character(s) found in major number \"v4\""
        );
        assert_eq!(parse("").unwrap_err(), "Version string empty");
        assert_eq!(
            parse("4.16.x").unwrap_err(),
            "Invalid character(s) found in patch number \"x\""
        );
        assert_eq!(
            parse("4.016.1").unwrap_err(),
            "Minor number must not contain leading zeroes \"016\""
        );
        assert_eq!(
            parse("4.16.1-rc.01").unwrap_err(),
            "Numeric PreRelease version must not contain leading zeroes \"01\""
        );
        assert_eq!(parse("4.16.1-").unwrap_err(), "Prerelease is empty");
        assert_eq!(parse("4.16.1+").unwrap_err(), "Build meta data is empty");
        assert_eq!(
            parse("4..1").unwrap_err(),
            "strconv.ParseUint: parsing \"\": invalid syntax"
        );
        assert_eq!(
            parse("99999999999999999999.0.0").unwrap_err(),
            "strconv.ParseUint: parsing \"99999999999999999999\": value out of range"
        );
    }

    #[test]
    fn precedence_is_semvers() {
        let v = |s| parse(s).unwrap();
        let order = [
            "4.17.1",
            "4.17.0",
            "4.17.0-rc.10",
            "4.17.0-rc.9",
            "4.17.0-rc.1",
            "4.17.0-ec.4",
            "4.17.0-1",
        ];
        for w in order.windows(2) {
            assert_eq!(v(w[0]).precedence(&v(w[1])), Ordering::Greater, "{w:?}");
        }
        assert_eq!(
            v("4.17.5+b01").precedence(&v("4.17.5+b02")),
            Ordering::Equal
        );
        assert_eq!(v("1.0.0-a.b").precedence(&v("1.0.0-a")), Ordering::Greater);
    }

    #[test]
    fn quotes_as_go() {
        assert_eq!(go_quote("a\"b\\\n\u{1b}é"), "\"a\\\"b\\\\\\n\\x1bé\"");
        assert_eq!(go_quote("\u{200b}"), "\"\\u200b\"");
    }
}
