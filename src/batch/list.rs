//! The batch's input list: reading a list file (one input a line, blank lines and `#`
//! comments ignored) and choosing one shard of it (`--shard K/N`) by a stable hash of each
//! input string, so that N workers given the same list split it exactly once between them.

use std::str::FromStr;

/// Parses a list: one path or URL a line; surrounding whitespace, blank lines and lines
/// starting with `#` are ignored.
pub fn parse_list(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// One shard of N: `K/N` with `0 <= K < N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// A `--shard` value that is not `K/N` with `0 <= K < N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("shard `{0}`: expected K/N with 0 <= K < N (e.g. 0/4)")]
pub struct BadShard(String);

impl FromStr for Shard {
    type Err = BadShard;

    fn from_str(s: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(s.to_string());
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether `input` belongs to this shard: FNV-1a (64-bit) of the input's UTF-8 bytes,
    /// modulo N. The same on every platform and release, independent of the list's order and
    /// of other entries, so a list can grow or be reordered without moving inputs between
    /// shards (and repeated entries land in the same shard).
    pub fn contains(&self, input: &str) -> bool {
        fnv1a(input.as_bytes()) % self.count == self.index
    }
}

/// The 64-bit FNV-1a hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The inputs of one shard (all of them without a shard), with their positions in `inputs`.
pub fn select(inputs: &[String], shard: Option<Shard>) -> Vec<(usize, String)> {
    inputs
        .iter()
        .enumerate()
        .filter(|(_, i)| shard.is_none_or(|s| s.contains(i)))
        .map(|(n, i)| (n, i.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_skips_blank_lines_and_comments() {
        let l = parse_list("# jobs\n\n  /a/b  \ngs://x/y\n   # indented comment\n\r\n");
        assert_eq!(l, ["/a/b", "gs://x/y"]);
    }

    #[test]
    fn shard_parses_and_rejects() {
        assert_eq!("1/3".parse::<Shard>(), Ok(Shard { index: 1, count: 3 }));
        for bad in ["3/3", "0/0", "1", "a/2", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fnv1a_matches_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn shards_partition_a_list() {
        let inputs: Vec<String> = (0..500).map(|i| format!("/jobs/{i}")).collect();
        let mut seen = vec![0; inputs.len()];
        for k in 0..4 {
            let part = select(&inputs, Some(Shard { index: k, count: 4 }));
            assert!(part.len() > 80, "shard {k} has {} of 500", part.len());
            for (i, _) in part {
                seen[i] += 1;
            }
        }
        assert!(seen.iter().all(|n| *n == 1));
    }
}
