//! Timestamps: UTC everywhere, lenient parsing of the formats Kubernetes and OpenShift write,
//! and the one place where years missing from klog, journal and monitor lines are inferred.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Deserializer};

/// A UTC instant.
pub type Time = DateTime<Utc>;

/// Parses an RFC3339 timestamp (any offset, any fraction) into UTC.
pub fn parse_rfc3339(s: &str) -> Option<Time> {
    let s = s.trim();
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| t.with_timezone(&Utc))
        .or_else(|| {
            // Kubernetes MicroTime and a few writers use a space instead of `T`.
            let alt = s.replacen(' ', "T", 1);
            DateTime::parse_from_rfc3339(&alt)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        })
}

/// Parses a Go `time.String()` line as written to a must-gather `timestamp` file, e.g.
/// `2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555`.
pub fn parse_go_time(line: &str) -> Option<Time> {
    let mut parts = line.split_whitespace();
    let date = parts.next()?;
    let time = parts.next()?;
    let offset = parts.next()?;
    let joined = format!("{date} {time} {offset}");
    DateTime::parse_from_str(&joined, "%Y-%m-%d %H:%M:%S%.f %z")
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Serde helper: an optional RFC3339 time; `null`, missing and empty strings are `None`.
pub fn de_opt_time<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Time>, D::Error> {
    let v: Option<String> = Option::deserialize(d)?;
    match v {
        None => Ok(None),
        Some(s) if s.trim().is_empty() => Ok(None),
        Some(s) => parse_rfc3339(&s)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("invalid timestamp `{s}`"))),
    }
}

/// Formats a time as RFC3339 with second precision (as the API server does).
pub fn fmt_time(t: &Time) -> String {
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Formats a time with millisecond precision, for log-derived events.
pub fn fmt_time_ms(t: &Time) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// A timestamp without a year (klog `I0409 18:26:05.631324`, journal and monitor lines
/// `Sep 27 21:45:59.753`). Resolved into a [`Time`] by [`YearInference`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartialTime {
    pub month: u8,
    pub day: u8,
    /// Nanoseconds since midnight.
    pub nanos: u64,
}

impl PartialTime {
    /// Builds a partial time from its parts, rejecting impossible values.
    pub fn new(month: u32, day: u32, h: u32, m: u32, s: u32, nanos: u32) -> Option<Self> {
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
            return None;
        }
        Some(PartialTime {
            month: month as u8,
            day: day as u8,
            nanos: ((h as u64 * 60 + m as u64) * 60 + s as u64) * 1_000_000_000 + nanos as u64,
        })
    }

    fn with_year(&self, year: i32) -> Option<Time> {
        let date = NaiveDate::from_ymd_opt(year, self.month as u32, self.day as u32)?;
        let secs = (self.nanos / 1_000_000_000) as u32;
        let nanos = (self.nanos % 1_000_000_000) as u32;
        let time = chrono::NaiveTime::from_num_seconds_from_midnight_opt(secs.min(86_399), nanos)?;
        Some(Utc.from_utc_datetime(&NaiveDateTime::new(date, time)))
    }
}

/// Infers the missing year of [`PartialTime`]s from a reference instant (the collection time,
/// or the latest absolute time seen nearby). A partial time takes the latest year that does
/// not put it more than two days after the reference, so `Dec 31` followed by `Jan 1` with a
/// January reference resolves to two consecutive years.
#[derive(Debug, Clone, Copy)]
pub struct YearInference {
    reference: Option<Time>,
}

impl YearInference {
    /// Inference anchored at `reference`.
    pub fn new(reference: Option<Time>) -> Self {
        YearInference { reference }
    }

    /// The reference instant, if any.
    pub fn reference(&self) -> Option<Time> {
        self.reference
    }

    /// Resolves a partial time; `None` only for impossible dates (e.g. 30 Feb).
    pub fn resolve(&self, p: PartialTime) -> Option<Time> {
        let Some(r) = self.reference else {
            // No anchor at all: a fixed year keeps ordering within a file deterministic.
            return p.with_year(1970).or_else(|| p.with_year(1972));
        };
        let limit = r + chrono::Duration::days(2);
        for year in [r.year() + 1, r.year(), r.year() - 1, r.year() - 2] {
            if let Some(t) = p.with_year(year) {
                if t <= limit {
                    return Some(t);
                }
            }
        }
        // 29 Feb in a non-leap year near the reference: try the previous leap years.
        (3..8).find_map(|back| p.with_year(r.year() - back))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn year_inference_crosses_new_year() {
        let r = parse_rfc3339("2021-01-01T00:10:00Z");
        let yi = YearInference::new(r);
        let dec = yi
            .resolve(PartialTime::new(12, 31, 23, 59, 58, 0).unwrap())
            .unwrap();
        let jan = yi
            .resolve(PartialTime::new(1, 1, 0, 0, 1, 0).unwrap())
            .unwrap();
        assert_eq!(fmt_time(&dec), "2020-12-31T23:59:58Z");
        assert_eq!(fmt_time(&jan), "2021-01-01T00:00:01Z");
        assert!(dec < jan);
    }

    #[test]
    fn year_inference_uses_reference_year() {
        let yi = YearInference::new(parse_rfc3339("2020-04-09T19:00:00Z"));
        let t = yi
            .resolve(PartialTime::new(4, 9, 18, 27, 47, 543_958_000).unwrap())
            .unwrap();
        assert_eq!(fmt_time_ms(&t), "2020-04-09T18:27:47.543Z");
    }

    #[test]
    fn go_time_string_parses_with_zone_and_monotonic_suffix() {
        let t = parse_go_time("2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555").unwrap();
        assert_eq!(fmt_time(&t), "2021-08-03T10:12:00Z");
        let t = parse_go_time("2026-02-16 18:02:44.1234 +0100 CET m=+0.01").unwrap();
        assert_eq!(fmt_time(&t), "2026-02-16T17:02:44Z");
    }

    #[test]
    fn rfc3339_with_offset_is_converted_to_utc() {
        let t = parse_rfc3339("2021-07-07T12:00:00+02:00").unwrap();
        assert_eq!(fmt_time(&t), "2021-07-07T10:00:00Z");
        assert!(parse_rfc3339("not a time").is_none());
    }
}
