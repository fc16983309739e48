//! Byte sizes on the command line: `64GiB`, `64 GiB`, `512M`, `1048576`; shown as `64 GiB`
//! in `--help` defaults rather than `68719476736`.

use std::fmt;
use std::str::FromStr;

/// A number of bytes, parsed from a human-readable size and displayed as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteSize(pub u64);

const UNITS: [(&str, u64); 9] = [
    ("b", 1),
    ("k", 1 << 10),
    ("ki", 1 << 10),
    ("m", 1 << 20),
    ("mi", 1 << 20),
    ("g", 1 << 30),
    ("gi", 1 << 30),
    ("t", 1 << 40),
    ("ti", 1 << 40),
];

impl FromStr for ByteSize {
    type Err = String;

    /// Binary units (`K`/`KiB` = 1024, `M`/`MiB`, `G`/`GiB`, `T`/`TiB`), any case, with or
    /// without a space and a trailing `B`; a bare number is bytes.
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (num, unit) = t.split_at(digits);
        let n: u64 = num
            .parse()
            .map_err(|_| format!("`{s}` is not a size (e.g. 512MiB, 2 GiB, 1048576)"))?;
        let unit = unit.trim().to_ascii_lowercase();
        let unit = unit
            .strip_suffix('b')
            .filter(|u| !u.is_empty())
            .unwrap_or(&unit);
        let mult = if unit.is_empty() {
            1
        } else {
            UNITS
                .iter()
                .find(|(u, _)| *u == unit)
                .map(|(_, m)| *m)
                .ok_or_else(|| format!("`{s}`: unknown unit (use B, KiB, MiB, GiB or TiB)"))?
        };
        n.checked_mul(mult)
            .map(ByteSize)
            .ok_or_else(|| format!("`{s}` is too large"))
    }
}

impl fmt::Display for ByteSize {
    /// The largest binary unit that divides the size exactly (`64 GiB`, `1536 MiB`, `7 B`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, m) in [
            ("TiB", 1u64 << 40),
            ("GiB", 1 << 30),
            ("MiB", 1 << 20),
            ("KiB", 1 << 10),
        ] {
            if self.0 >= m && self.0.is_multiple_of(m) {
                return write!(f, "{} {name}", self.0 / m);
            }
        }
        write!(f, "{} B", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::ByteSize;

    #[test]
    fn parses_units_and_shows_them_back() {
        for (s, n) in [
            ("64GiB", 64u64 << 30),
            ("64 GiB", 64 << 30),
            ("2g", 2 << 30),
            ("512M", 512 << 20),
            ("1048576", 1 << 20),
            ("7 b", 7),
        ] {
            assert_eq!(s.parse::<ByteSize>(), Ok(ByteSize(n)), "{s}");
        }
        assert_eq!(ByteSize(64 << 30).to_string(), "64 GiB");
        assert_eq!(ByteSize(1536 << 20).to_string(), "1536 MiB");
        assert_eq!(ByteSize(1000).to_string(), "1000 B");
        for bad in ["", "GiB", "12 parsecs", "99999999999 TiB"] {
            assert!(bad.parse::<ByteSize>().is_err(), "{bad}");
        }
    }
}
