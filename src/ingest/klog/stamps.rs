//! One line's stamps, read from their digits: the klog header `Lmmdd hh:mm:ss.uuuuuu tid
//! file:line] msg` ([`parse_header`]) and the RFC3339 prefix of `--timestamps` / CRI lines
//! ([`split_time_prefix`]), with what the lines before left to reuse ([`Recent`]).

use super::KlogHeader;
use crate::model::{PartialTime, TimeCode, parse_rfc3339};

/// The two ASCII digits at `b[i..i + 2]` as a number, `None` when either is not one (stamps
/// are read on every line: fixed widths, no loop).
pub(super) fn two_digits(b: &[u8], i: usize) -> Option<u32> {
    let (hi, lo) = (*b.get(i)?, *b.get(i + 1)?);
    (hi.is_ascii_digit() && lo.is_ascii_digit())
        .then(|| u32::from(hi - b'0') * 10 + u32::from(lo - b'0'))
}

/// What a fraction of a second of so many digits is multiplied by to make nanoseconds.
pub(super) const SCALE: [u32; 10] = [
    1_000_000_000,
    100_000_000,
    10_000_000,
    1_000_000,
    100_000,
    10_000,
    1_000,
    100,
    10,
    1,
];

/// A byte in each of a word's eight bytes.
pub(super) const ONES: u64 = 0x0101_0101_0101_0101;

/// Eight bytes read little-endian (the first byte lowest) with each digit's byte made its
/// value 0-9, and how many digits lead.
pub(super) fn digit_word(word: u64) -> (u64, usize) {
    // Any byte that is not a digit becomes 10 or more.
    let t = word ^ (ONES * u64::from(b'0'));
    // The high bit of each byte that is not a digit. A carry out of a byte only reaches
    // bytes after it, and the bytes before the first one that is not a digit carry nothing:
    // so that first one is marked right, and it is the only one counted.
    let marks = (t.wrapping_add(ONES * 0x76) | t) & (ONES * 0x80);
    (t, (marks.trailing_zeros() / 8) as usize)
}

/// How many ASCII digits `b` starts with.
pub(super) fn digits(b: &[u8]) -> usize {
    let mut n = 0;
    while let Some(word) = b[n..].first_chunk::<8>() {
        let (_, d) = digit_word(u64::from_le_bytes(*word));
        n += d;
        if d < 8 {
            return n;
        }
    }
    n + b[n..].iter().take_while(|c| c.is_ascii_digit()).count()
}

/// How many spaces `b` starts with (a klog header pads its thread id with them).
pub(super) fn spaces(b: &[u8]) -> usize {
    let mut n = 0;
    while let Some(word) = b[n..].first_chunk::<8>() {
        let t = u64::from_le_bytes(*word) ^ (ONES * u64::from(b' '));
        if t != 0 {
            return n + (t.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + b[n..].iter().take_while(|&&c| c == b' ').count()
}

/// The number the leading ASCII digits of eight bytes (read little-endian, the first byte
/// lowest) make, and how many there are.
pub(super) fn leading_digits(word: u64) -> (u32, usize) {
    let (t, digits) = digit_word(word);
    if digits == 0 {
        return (0, 0);
    }
    // The digits moved to the top bytes (zeros, leading, below them), then combined in pairs,
    // fours and eights.
    let mut x = t << (8 * (8 - digits));
    x = (x.wrapping_mul(10) + (x >> 8)) & 0x00ff_00ff_00ff_00ff;
    x = (x.wrapping_mul(100) + (x >> 16)) & 0x0000_ffff_0000_ffff;
    x = (x.wrapping_mul(10_000) + (x >> 32)) & 0xffff_ffff;
    (x as u32, digits)
}

/// The nanoseconds the leading ASCII digits of `b` make as a fraction of a second, at most 9
/// of them, and how many digits there are.
///
/// Eight bytes are read as one word when there are eight: every digit of a stamp's fraction
/// is read on every line.
pub(super) fn fraction(b: &[u8]) -> (u32, usize) {
    let (n, digits) = match b.first_chunk::<8>() {
        Some(word) => match leading_digits(u64::from_le_bytes(*word)) {
            (n, 8) => match b.get(8) {
                Some(&d) if d.is_ascii_digit() => (n * 10 + u32::from(d - b'0'), 9),
                _ => (n, 8),
            },
            short => short,
        },
        None => {
            let (mut n, mut i) = (0u32, 0);
            while i < 9
                && let Some(&d) = b.get(i)
                && d.is_ascii_digit()
            {
                n = n * 10 + u32::from(d - b'0');
                i += 1;
            }
            (n, i)
        }
    };
    (n * SCALE[digits], digits)
}

/// Parses a klog header at the start of `s` (after any prefix was removed).
pub fn parse_header(s: &str) -> Option<KlogHeader<'_>> {
    header(s, &mut None)?.ok()
}

/// Whether `s` starts with a klog header whose timestamp is impossible (month 13, 25:61:61).
pub fn has_invalid_stamp(s: &str) -> bool {
    matches!(header(s, &mut None), Some(Err(())))
}

/// A klog header's `Lmmdd hh:mm:ss.` and its month, day, hour, minute and second.
pub(super) type KlogSecond = ([u8; 15], [u32; 5]);

/// A klog header at the start of `s`: `None` when there is none, `Err` when it has the
/// header's shape but an impossible timestamp. `recent` is the last possible `Lmmdd
/// hh:mm:ss.` read in full: the same one is not read again.
pub(super) fn header<'s>(
    s: &'s str,
    recent: &mut Option<KlogSecond>,
) -> Option<Result<KlogHeader<'s>, ()>> {
    let b = s.as_bytes();
    if b.len() < 22 || !matches!(b[0], b'I' | b'W' | b'E' | b'F') {
        return None;
    }
    let head: &[u8; 15] = b[..15].try_into().ok()?;
    let [month, day, h, m, sec] = match recent {
        Some((k, v)) if k == head => *v,
        _ => {
            let month = two_digits(b, 1)?;
            let day = two_digits(b, 3)?;
            if b[5] != b' ' || b[8] != b':' || b[11] != b':' || b[14] != b'.' {
                return None;
            }
            let v = [
                month,
                day,
                two_digits(b, 6)?,
                two_digits(b, 9)?,
                two_digits(b, 12)?,
            ];
            // Whether a stamp is possible does not depend on its fraction.
            if PartialTime::new(v[0], v[1], v[2], v[3], v[4], 0).is_some() {
                *recent = Some((*head, v));
            }
            v
        }
    };
    // The fraction: its first 9 digits make the nanoseconds, any more are passed over.
    let (nanos, frac_digits) = fraction(&b[15..]);
    if frac_digits == 0 {
        return None;
    }
    let mut i = 15 + frac_digits;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    // Thread id: spaces then digits, then one space.
    let pad = spaces(&b[i..]);
    if pad == 0 {
        return None;
    }
    let tid = i + pad;
    let tid_digits = digits(&b[tid..]);
    if tid_digits == 0 || tid + tid_digits == b.len() || b[tid + tid_digits] != b' ' {
        return None;
    }
    let after = &s[tid + tid_digits + 1..];
    // The first `] `, else a `]` that ends the line.
    let a = after.as_bytes();
    let close = memchr::memchr_iter(b']', a)
        .find(|&i| a.get(i + 1) == Some(&b' '))
        .or_else(|| after.ends_with(']').then(|| after.len() - 1))?;
    let location = &after[..close];
    let message = after.get(close + 2..).unwrap_or("");
    let Some(stamp) = PartialTime::new(month, day, h, m, sec, nanos) else {
        return Some(Err(()));
    };
    Some(Ok(KlogHeader {
        level: b[0] as char,
        stamp,
        location,
        message,
    }))
}

/// What the lines before left to reuse: a log writes hundreds of lines a second, whose stamps
/// differ in their fraction alone.
#[derive(Default)]
pub(super) struct Recent {
    /// The last `YYYY-MM-DD` read and its day number since the Unix epoch.
    pub(super) day: Option<([u8; 10], i64)>,
    /// The last `YYYY-MM-DDTHH:MM:SS.` read in full at the start of a time prefix, and its
    /// seconds since the Unix epoch.
    pub(super) second: Option<([u8; 20], i64)>,
    /// The last possible klog `Lmmdd hh:mm:ss.` read in full.
    pub(super) klog: Option<KlogSecond>,
}

/// Parses the common `YYYY-MM-DDTHH:MM:SS[.fraction]Z` form quickly, as nanoseconds since the
/// Unix epoch, from its digits (no calendar type per line); anything else (offsets, odd
/// widths) goes through the general RFC3339 parser. `recent` holds the day and second of the
/// lines before.
pub(super) fn fast_utc_in(s: &str, recent: &mut Recent) -> Option<TimeCode> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[b.len() - 1] != b'Z'
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return parse_rfc3339(s).map(TimeCode::absolute);
    }
    let (h, mi, se) = (two_digits(b, 11)?, two_digits(b, 14)?, two_digits(b, 17)?);
    let mut nanos = 0u32;
    if b[19] == b'.' {
        let frac = &b[20..b.len() - 1];
        let (n, digits) = fraction(frac);
        if digits == 0 || digits != frac.len() {
            return parse_rfc3339(s).map(TimeCode::absolute);
        }
        nanos = n;
    } else if b.len() != 20 {
        return parse_rfc3339(s).map(TimeCode::absolute);
    }
    if h > 23 || mi > 59 || se > 60 {
        return None;
    }
    if se == 60 {
        // A leap second: the general parser's reading of it.
        return parse_rfc3339(s).map(TimeCode::absolute);
    }
    let ymd = &b[..10];
    let day = match recent.day {
        Some((d, day)) if d == ymd => day,
        _ => {
            let y = two_digits(b, 0)? * 100 + two_digits(b, 2)?;
            let date =
                chrono::NaiveDate::from_ymd_opt(y as i32, two_digits(b, 5)?, two_digits(b, 8)?)?;
            // 719 163 days from 1 January of year 1 to 1 January 1970.
            let day = i64::from(chrono::Datelike::num_days_from_ce(&date)) - 719_163;
            recent.day = Some((ymd.try_into().ok()?, day));
            day
        }
    };
    let secs = day * 86_400 + i64::from(h * 3600 + mi * 60 + se);
    if b[19] == b'.' {
        recent.second = Some((b[..20].try_into().ok()?, secs));
    }
    Some(TimeCode::unix_nanos(
        i128::from(secs) * 1_000_000_000 + i128::from(nanos),
    ))
}

/// Splits an RFC3339 prefix (`oc logs --timestamps` / CRI) off a line, with an optional
/// CRI `stdout F ` stream tag after it.
pub fn split_time_prefix(line: &str) -> (Option<crate::model::Time>, &str) {
    let (t, rest) = split_time_prefix_in(line, &mut Recent::default());
    (t.and_then(TimeCode::time), rest)
}

/// [`split_time_prefix`] for one line of many, with the day of the lines before.
/// As a record's time code.
pub(super) fn split_time_prefix_in<'l>(
    line: &'l str,
    recent: &mut Recent,
) -> (Option<TimeCode>, &'l str) {
    let b = line.as_bytes();
    let (t, sp) = match same_second(b, recent) {
        Some(hit) => hit,
        None => {
            if !(b.len() > 20 && b[0].is_ascii_digit() && b[4] == b'-' && b[10] == b'T') {
                return (None, line);
            }
            let Some(sp) = memchr::memchr(b' ', b) else {
                return (None, line);
            };
            let Some(t) = fast_utc_in(&line[..sp], recent) else {
                return (None, line);
            };
            (t, sp)
        }
    };
    let mut rest = &line[sp + 1..];
    if rest.starts_with("std") {
        for tag in ["stdout F ", "stderr F ", "stdout P ", "stderr P "] {
            if let Some(r) = rest.strip_prefix(tag) {
                rest = r;
                break;
            }
        }
    }
    (Some(t), rest)
}

/// A time prefix in the second of the last one read in full: that `YYYY-MM-DDTHH:MM:SS.`, 1
/// to 9 digits, `Z` and a space. Its time and where the space is, as reading it in full gives
/// them (no space comes earlier: the rest are digits and separators).
#[inline]
pub(super) fn same_second(b: &[u8], recent: &Recent) -> Option<(TimeCode, usize)> {
    let (key, secs) = recent.second.as_ref()?;
    let head: &[u8; 20] = b.get(..20)?.try_into().ok()?;
    if head != key {
        return None;
    }
    let (n, digits) = fraction(&b[20..]);
    if digits == 0 || b.get(20 + digits) != Some(&b'Z') || b.get(21 + digits) != Some(&b' ') {
        return None;
    }
    let nanos = i128::from(*secs) * 1_000_000_000 + i128::from(n);
    Some((TimeCode::unix_nanos(nanos), 21 + digits))
}
