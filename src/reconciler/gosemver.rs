//! Semantic versions as the CVO's preconditions read them (github.com/blang/semver/v4
//! `Parse`, `Compare`, `String`), with its error texts, which a failed precondition reports
//! verbatim.

use std::cmp::Ordering;
use std::fmt;

/// One dot-separated prerelease identifier: numeric identifiers sort before alphanumeric ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreRelease {
    Num(u64),
    Alpha(String),
}

/// A parsed version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<PreRelease>,
    pub build: Vec<String>,
}

fn only(s: &str, extra: bool) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || (extra && (b.is_ascii_alphabetic() || b == b'-')))
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go's `strconv.ParseUint(s, 10, 64)` on a string of digits, with its error text.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!("strconv.ParseUint: parsing {s:?}: invalid syntax"));
    }
    s.parse::<u64>()
        .map_err(|_| format!("strconv.ParseUint: parsing {s:?}: value out of range"))
}

fn number(s: &str, what: &str, title: &str) -> Result<u64, String> {
    if !only(s, false) {
        return Err(format!(
            "Invalid character(s) found in {what} number {}",
            crate::vocab::text::go_quote(s)
        ));
    }
    if leading_zero(s) {
        return Err(format!(
            "{title} number must not contain leading zeroes {}",
            crate::vocab::text::go_quote(s)
        ));
    }
    parse_uint(s)
}

/// blang/semver `Parse`.
pub fn parse(s: &str) -> Result<Version, String> {
    use crate::vocab::text::go_quote as q;
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts[..] else {
        return Err("No Major.Minor.Patch elements found".into());
    };
    let major = number(major, "major", "Major")?;
    let minor = number(minor, "minor", "Minor")?;
    let (rest, build) = match rest.split_once('+') {
        Some((p, b)) => (p, b.split('.').collect::<Vec<_>>()),
        None => (rest, Vec::new()),
    };
    let (patch, pre) = match rest.split_once('-') {
        Some((p, pr)) => (p, pr.split('.').collect::<Vec<_>>()),
        None => (rest, Vec::new()),
    };
    let patch = number(patch, "patch", "Patch")?;
    let mut v = Version {
        major,
        minor,
        patch,
        pre: Vec::new(),
        build: Vec::new(),
    };
    for p in pre {
        if p.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if only(p, false) {
            if leading_zero(p) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    q(p)
                ));
            }
            v.pre.push(PreRelease::Num(parse_uint(p)?));
        } else if only(p, true) {
            v.pre.push(PreRelease::Alpha(p.to_string()));
        } else {
            return Err(format!("Invalid character(s) found in prerelease {}", q(p)));
        }
    }
    for b in build {
        if b.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !only(b, true) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                q(b)
            ));
        }
        v.build.push(b.to_string());
    }
    Ok(v)
}

impl PartialOrd for PreRelease {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for PreRelease {
    fn cmp(&self, o: &Self) -> Ordering {
        match (self, o) {
            (PreRelease::Num(a), PreRelease::Num(b)) => a.cmp(b),
            (PreRelease::Num(_), PreRelease::Alpha(_)) => Ordering::Less,
            (PreRelease::Alpha(_), PreRelease::Num(_)) => Ordering::Greater,
            (PreRelease::Alpha(a), PreRelease::Alpha(b)) => a.cmp(b),
        }
    }
}

impl Version {
    /// blang/semver `Compare` (build metadata is ignored; a release sorts after its
    /// prereleases).
    pub fn compare(&self, o: &Version) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => self.pre.cmp(&o.pre),
        }
    }
}

impl fmt::Display for Version {
    /// blang/semver `String`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                PreRelease::Num(n) => write!(f, "{n}")?,
                PreRelease::Alpha(s) => f.write_str(s)?,
            }
        }
        for (i, b) in self.build.iter().enumerate() {
            f.write_str(if i == 0 { "+" } else { "." })?;
            f.write_str(b)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_orders_as_blang() {
        let v = |s: &str| parse(s).unwrap();
        assert_eq!(v("4.13.0-rc.1+build.7").to_string(), "4.13.0-rc.1+build.7");
        assert!(v("4.13.0-rc.1").compare(&v("4.13.0")) == Ordering::Less);
        assert!(v("4.13.0-rc.2").compare(&v("4.13.0-rc.10")) == Ordering::Less);
        assert!(v("1.0.0-1").compare(&v("1.0.0-alpha")) == Ordering::Less);
        assert!(v("1.0.0-alpha").compare(&v("1.0.0-alpha.1")) == Ordering::Less);
        assert!(v("4.14.1+a").compare(&v("4.14.1+b")) == Ordering::Equal);
    }

    #[test]
    fn errors_carry_blangs_text() {
        let e = |s: &str| parse(s).unwrap_err();
        assert_eq!(e(""), "Version string empty");
        assert_eq!(e("4.1"), "No Major.Minor.Patch elements found");
        assert_eq!(
            e("v4.1.0"),
            "Invalid character(s) found in major number \"v4\""
        );
        assert_eq!(
            e("4.01.0"),
            "Minor number must not contain leading zeroes \"01\""
        );
        assert_eq!(
            e("4.1.x"),
            "Invalid character(s) found in patch number \"x\""
        );
        assert_eq!(e("4.1.0-"), "Prerelease is empty");
        assert_eq!(
            e("4.1.0-01"),
            "Numeric PreRelease version must not contain leading zeroes \"01\""
        );
        assert_eq!(e("4.1.0+"), "Build meta data is empty");
        assert_eq!(e("4..0"), "strconv.ParseUint: parsing \"\": invalid syntax");
    }
}
