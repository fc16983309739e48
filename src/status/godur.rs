//! Durations as Go's `time.Duration` computes and prints them: signed nanoseconds, `Round`
//! (halves away from zero), `Truncate` (toward zero), `String` (`1h2m3.5s`, `1.5ms`), and
//! the shortened form `oc adm upgrade status` prints (`1h2m`, `5m`, `now`).

use crate::model::Time;

pub const NANOSECOND: i64 = 1;
pub const MICROSECOND: i64 = 1_000 * NANOSECOND;
pub const MILLISECOND: i64 = 1_000 * MICROSECOND;
pub const SECOND: i64 = 1_000 * MILLISECOND;
pub const MINUTE: i64 = 60 * SECOND;
pub const HOUR: i64 = 60 * MINUTE;

/// A duration in nanoseconds, with Go's arithmetic and formatting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dur(pub i64);

impl Dur {
    pub const ZERO: Dur = Dur(0);

    pub fn minutes(n: i64) -> Dur {
        Dur(n.saturating_mul(MINUTE))
    }

    /// `to - from`, saturating like Go's `Time.Sub`.
    pub fn between(from: Time, to: Time) -> Dur {
        let d = *to - *from;
        Dur(d
            .num_nanoseconds()
            .unwrap_or(if d > chrono::TimeDelta::zero() {
                i64::MAX
            } else {
                i64::MIN
            }))
    }

    pub fn nanos(self) -> i64 {
        self.0
    }

    /// Seconds as a float, computed as Go does (whole seconds plus the fraction).
    pub fn seconds_f64(self) -> f64 {
        let sec = self.0 / SECOND;
        let nsec = self.0 % SECOND;
        sec as f64 + nsec as f64 / 1e9
    }

    /// Whole seconds, toward zero.
    pub fn whole_seconds(self) -> i64 {
        self.0 / SECOND
    }

    /// Rounds to a multiple of `m`; halves round away from zero (Go's `Duration.Round`).
    pub fn round(self, m: i64) -> Dur {
        if m <= 0 {
            return self;
        }
        let d = self.0;
        let r = d % m;
        let less_than_half = |x: i64| (x as u64).wrapping_add(x as u64) < m as u64;
        if d < 0 {
            let r = -r;
            if less_than_half(r) {
                return Dur(d + r);
            }
            return Dur(d.checked_sub(m - r).unwrap_or(i64::MIN));
        }
        if less_than_half(r) {
            return Dur(d - r);
        }
        Dur(d.checked_add(m - r).unwrap_or(i64::MAX))
    }

    /// Rounds toward zero to a multiple of `m` (Go's `Duration.Truncate`).
    pub fn truncate(self, m: i64) -> Dur {
        if m <= 0 {
            return self;
        }
        Dur(self.0 - self.0 % m)
    }

    /// Go's `Duration.String()`: `72h3m0.5s`, `1m30s`, `1.5ms`, `0s`.
    pub fn go_string(self) -> String {
        let neg = self.0 < 0;
        let mut u = self.0.unsigned_abs();
        let mut out = String::new();
        if u < SECOND as u64 {
            let (prec, unit) = match u {
                0 => return "0s".to_string(),
                x if x < MICROSECOND as u64 => (0, "ns"),
                x if x < MILLISECOND as u64 => (3, "µs"),
                _ => (6, "ms"),
            };
            let (frac, int) = frac_digits(u, prec);
            out.push_str(&int.to_string());
            out.push_str(&frac);
            out.push_str(unit);
        } else {
            let (frac, secs) = frac_digits(u, 9);
            u = secs;
            let s = format!("{}{frac}s", u % 60);
            u /= 60;
            if u > 0 {
                let m = u % 60;
                u /= 60;
                if u > 0 {
                    out.push_str(&format!("{u}h"));
                }
                out.push_str(&format!("{m}m"));
            }
            out.push_str(&s);
        }
        if neg {
            out.insert(0, '-');
        }
        out
    }

    /// The shortened form oc prints: `now` for zero, trailing zero units dropped, and any
    /// fraction cut off at the decimal point (so `1.5ms` reads `1s`, as in oc).
    pub fn short(self) -> String {
        let orig = self.go_string();
        if orig == "0h0m0s" || orig == "0s" {
            return "now".to_string();
        }
        if let Some(s) = orig.strip_suffix("h0m0s") {
            return format!("{s}h");
        }
        if let Some(s) = orig.strip_suffix("m0s") {
            return format!("{s}m");
        }
        if let Some(s) = orig.strip_suffix("h0m") {
            return format!("{s}h");
        }
        if let Some(i) = orig.find('.') {
            let cut = format!("{}s", &orig[..i]);
            return match parse_hms(&cut) {
                Some(d) => d.short(),
                None => orig,
            };
        }
        orig
    }
}

/// The fraction of `v / 10^prec` as `.ddd` without trailing zeros (empty when zero), and
/// the integer part.
fn frac_digits(v: u64, prec: u32) -> (String, u64) {
    let p = 10u64.pow(prec);
    let frac = v % p;
    if frac == 0 {
        return (String::new(), v / p);
    }
    let digits = format!("{frac:0width$}", width = prec as usize);
    (format!(".{}", digits.trim_end_matches('0')), v / p)
}

/// Parses `[-]XhYmZs` (integer components only, each optional).
fn parse_hms(s: &str) -> Option<Dur> {
    let (neg, mut rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    if rest.is_empty() {
        return None;
    }
    let mut total: i64 = 0;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let n: i64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit = match rest.as_bytes().first()? {
            b'h' => HOUR,
            b'm' => MINUTE,
            b's' => SECOND,
            _ => return None,
        };
        rest = &rest[1..];
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    Some(Dur(if neg { -total } else { total }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_strings() {
        assert_eq!(Dur(0).go_string(), "0s");
        assert_eq!(Dur(5).go_string(), "5ns");
        assert_eq!(Dur(1_500).go_string(), "1.5µs");
        assert_eq!(Dur(1_500_000).go_string(), "1.5ms");
        assert_eq!(Dur(90 * SECOND).go_string(), "1m30s");
        assert_eq!(Dur(HOUR + SECOND / 2).go_string(), "1h0m0.5s");
        assert_eq!(Dur(-(72 * HOUR + 3 * MINUTE)).go_string(), "-72h3m0s");
        assert_eq!(Dur(i64::MAX).go_string(), "2562047h47m16.854775807s");
    }

    #[test]
    fn short_forms() {
        assert_eq!(Dur(0).short(), "now");
        assert_eq!(Dur(HOUR).short(), "1h");
        assert_eq!(Dur(5 * MINUTE).short(), "5m");
        assert_eq!(Dur(HOUR + 59 * MINUTE).short(), "1h59m");
        assert_eq!(
            Dur(HOUR + 4 * MINUTE + 41 * SECOND + 368_975).short(),
            "1h4m41s"
        );
        assert_eq!(Dur(HOUR + SECOND / 2).short(), "1h");
        assert_eq!(Dur(1_500_000).short(), "1s");
        assert_eq!(Dur(500 * MILLISECOND).short(), "500ms");
        assert_eq!(Dur(-90 * SECOND - 1).short(), "-1m30s");
    }

    #[test]
    fn rounding_like_go() {
        assert_eq!(Dur(90 * SECOND).round(MINUTE), Dur(2 * MINUTE));
        assert_eq!(Dur(-90 * SECOND).round(MINUTE), Dur(-2 * MINUTE));
        assert_eq!(Dur(89 * SECOND).round(MINUTE), Dur(MINUTE));
        assert_eq!(Dur(-89 * SECOND).truncate(MINUTE), Dur(-MINUTE));
        assert_eq!(Dur(333 * SECOND + 368_975).round(SECOND), Dur(333 * SECOND));
    }
}
