//! OpenShift versions and the ranges rules name them by: `affects: ">=4.12, <4.14.8"`
//! (comparators joined by `,`, alternatives by `||`; `4.14` or `4.14.*` alone is that minor,
//! pre-releases included) and `fixed-in: [4.13.30, 4.14.8]` (the first fixed release of each
//! minor stream). Versions are semver (`semver` crate); a version like `4.16.0-0.nightly-…`
//! orders before `4.16.0`.

use semver::Version;

/// A version as a cluster reports it (`4.14.1`, `v4.8.0-0.nightly-2021-03-01-000000`).
pub fn parse(v: &str) -> Option<Version> {
    let v = v.trim().trim_start_matches('v');
    if let Ok(p) = Version::parse(v) {
        return Some(p);
    }
    let (a, b, c) = crate::rules::util::version_triple(v)?;
    Some(Version::new(a, b, c))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
}

#[derive(Debug, Clone)]
struct Comparator {
    op: Op,
    v: Version,
}

impl Comparator {
    fn holds(&self, v: &Version) -> bool {
        let o = v.cmp_precedence(&self.v);
        match self.op {
            Op::Ge => o.is_ge(),
            Op::Gt => o.is_gt(),
            Op::Le => o.is_le(),
            Op::Lt => o.is_lt(),
            Op::Eq => o.is_eq(),
        }
    }
}

/// A version range.
#[derive(Debug, Clone)]
pub struct Range {
    text: String,
    /// Alternatives, each a conjunction.
    alts: Vec<Vec<Comparator>>,
}

/// Why a range or version is malformed; `offset` is the byte offset of the bad part.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RangeError {
    pub message: String,
    pub offset: usize,
}

/// The lowest version of a minor, pre-releases included (`4.14.0-0`).
fn minor_floor(major: u64, minor: u64) -> Version {
    let mut v = Version::new(major, minor, 0);
    v.pre = semver::Prerelease::new("0").unwrap_or(semver::Prerelease::EMPTY);
    v
}

/// Parses `4`, `4.14`, `4.14.3`, `4.14.0-rc.1`: the version and how many numbers were given.
fn partial(s: &str, offset: usize) -> Result<(Version, usize), RangeError> {
    let bad = |m: String| RangeError { message: m, offset };
    let s = s.trim().trim_start_matches('v');
    if s.is_empty() {
        return Err(bad("a comparator without a version".into()));
    }
    let core_end = s.find(['-', '+']).unwrap_or(s.len());
    let nums: Vec<&str> = s[..core_end].split('.').collect();
    if nums.len() == 3 || core_end < s.len() {
        return Version::parse(s)
            .map(|v| (v, 3))
            .map_err(|e| bad(format!("`{s}` is not a version: {e}")));
    }
    let mut n = Vec::new();
    for p in &nums {
        n.push(
            p.parse::<u64>()
                .map_err(|_| bad(format!("`{s}` is not a version (like 4.14 or 4.14.3)")))?,
        );
    }
    match n.as_slice() {
        [a] => Ok((minor_floor(*a, 0), 1)),
        [a, b] => Ok((minor_floor(*a, *b), 2)),
        _ => Err(bad(format!("`{s}` is not a version"))),
    }
}

impl Range {
    /// Parses a range.
    pub fn parse(text: &str) -> Result<Range, RangeError> {
        let mut alts = Vec::new();
        let mut base = 0;
        for alt in text.split("||") {
            let mut conj = Vec::new();
            let mut at = base;
            for part in alt.split(',') {
                let lead = part.len() - part.trim_start().len();
                let off = at + lead;
                let p = part.trim();
                if p.is_empty() {
                    return Err(RangeError {
                        message: "an empty comparator (a stray `,` or `||`)".into(),
                        offset: off,
                    });
                }
                let (op, rest) = [
                    (">=", Op::Ge),
                    ("<=", Op::Le),
                    (">", Op::Gt),
                    ("<", Op::Lt),
                    ("=", Op::Eq),
                ]
                .iter()
                .find_map(|(s, op)| p.strip_prefix(s).map(|r| (Some(*op), r)))
                .unwrap_or((None, p));
                let rest = rest.trim();
                let wild = rest.strip_suffix(".*").or_else(|| rest.strip_suffix(".x"));
                let (v, given) = partial(wild.unwrap_or(rest), off)?;
                match (op, given, wild.is_some()) {
                    // `4.14`, `4.14.*`, `=4.14`: the whole minor.
                    (None | Some(Op::Eq), 1 | 2, _) | (None, _, true) => {
                        let upper = if given == 1 {
                            minor_floor(v.major + 1, 0)
                        } else {
                            minor_floor(v.major, v.minor + 1)
                        };
                        conj.push(Comparator { op: Op::Ge, v });
                        conj.push(Comparator {
                            op: Op::Lt,
                            v: upper,
                        });
                    }
                    (None, _, _) => conj.push(Comparator { op: Op::Eq, v }),
                    (Some(_), _, true) => {
                        return Err(RangeError {
                            message: format!(
                                "a wildcard cannot follow `{}`",
                                &p[..p.len() - rest.len()].trim()
                            ),
                            offset: off,
                        });
                    }
                    (Some(op), _, false) => conj.push(Comparator { op, v }),
                }
                at += part.len() + 1;
            }
            alts.push(conj);
            base += alt.len() + 2;
        }
        Ok(Range {
            text: text.to_string(),
            alts,
        })
    }

    /// Whether `v` is in the range.
    pub fn contains(&self, v: &Version) -> bool {
        self.alts.iter().any(|c| c.iter().all(|x| x.holds(v)))
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// Whether `v` has the fix, given the first fixed release of each minor stream: the fixed
/// release of its own minor at or below it, or a newer minor than every stream listed (and
/// not below the newest fix).
pub fn is_fixed(v: &Version, fixed_in: &[Version]) -> bool {
    if let Some(f) = fixed_in
        .iter()
        .find(|f| f.major == v.major && f.minor == v.minor)
    {
        return v.cmp_precedence(f).is_ge();
    }
    fixed_in
        .iter()
        .max_by(|a, b| a.cmp_precedence(b))
        .is_some_and(|newest| (v.major, v.minor) > (newest.major, newest.minor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        parse(s).unwrap()
    }

    #[test]
    fn ranges_contain_what_they_say() {
        let r = Range::parse(">=4.12, <4.14.8").unwrap();
        assert!(r.contains(&v("4.12.0")) && r.contains(&v("4.14.7")));
        assert!(
            r.contains(&v("4.12.0-rc.2")),
            "pre-releases of the floor minor count"
        );
        assert!(!r.contains(&v("4.14.8")) && !r.contains(&v("4.11.59")));
        let r = Range::parse("4.14 || 4.16.*").unwrap();
        assert!(r.contains(&v("4.14.3")) && r.contains(&v("4.16.0-0.nightly-2024-05-01-111111")));
        assert!(!r.contains(&v("4.15.1")) && !r.contains(&v("4.17.0")));
        assert!(Range::parse("=4.15.2").unwrap().contains(&v("4.15.2")));
        assert!(!Range::parse("4.15.2").unwrap().contains(&v("4.15.3")));
        assert!(Range::parse(">4").unwrap().contains(&v("5.0.0")));
    }

    #[test]
    fn bad_ranges_name_the_place() {
        let e = Range::parse(">=4.12, <4.x4").unwrap_err();
        assert_eq!(e.offset, 8, "{e}");
        assert!(
            Range::parse(">=4.12,")
                .unwrap_err()
                .message
                .contains("empty")
        );
        assert!(Range::parse(">=4.14.*").is_err());
        assert!(Range::parse("four").is_err());
    }

    #[test]
    fn fixed_in_per_minor_stream() {
        let fixed = [v("4.13.30"), v("4.14.8")];
        assert!(!is_fixed(&v("4.13.29"), &fixed));
        assert!(is_fixed(&v("4.13.30"), &fixed));
        assert!(is_fixed(&v("4.15.0"), &fixed));
        assert!(
            !is_fixed(&v("4.12.80"), &fixed),
            "an older stream never got the fix"
        );
        assert!(!is_fixed(&v("4.14.0-rc.1"), &fixed));
        assert!(!is_fixed(&v("4.14.1"), &[]));
        assert_eq!(v("v4.8.0-0.nightly-2021-03-01-000000").minor, 8);
    }
}
