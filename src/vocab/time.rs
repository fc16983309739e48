//! Timestamps: the one [`Time`] type (a UTC instant) with the one serialization every JSON
//! document mglint writes uses (RFC 3339, UTC, millisecond precision, `Z`), lenient parsing
//! of the formats Kubernetes and OpenShift write, the few text forms for people and for
//! Kubernetes objects, and the one place where years missing from klog, journal and monitor
//! lines are inferred.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, TimeDelta, TimeZone, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A UTC instant. Serializes as RFC 3339 UTC with milliseconds (`2020-04-09T18:27:47.544Z`);
/// Kubernetes objects that mglint writes (the reconciler's ClusterVersion) use
/// [`k8s`] instead, as the API server does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(DateTime<Utc>);

impl Time {
    /// The earliest representable instant.
    pub const MIN_UTC: Time = Time(DateTime::<Utc>::MIN_UTC);

    /// The latest representable instant.
    pub const MAX_UTC: Time = Time(DateTime::<Utc>::MAX_UTC);

    /// The instant at `secs` seconds and `nanos` nanoseconds after the Unix epoch.
    pub fn from_unix(secs: i64, nanos: u32) -> Option<Time> {
        Utc.timestamp_opt(secs, nanos).single().map(Time)
    }

    /// The current instant (for `now` defaults; never used in analysis of a dump).
    pub fn now() -> Time {
        Time(Utc::now())
    }

    /// The chrono value.
    pub fn inner(&self) -> DateTime<Utc> {
        self.0
    }

    /// `self + d`, or `None` when out of range.
    pub fn checked_add_signed(&self, d: TimeDelta) -> Option<Time> {
        self.0.checked_add_signed(d).map(Time)
    }

    /// `self - d`, or `None` when out of range.
    pub fn checked_sub_signed(&self, d: TimeDelta) -> Option<Time> {
        self.0.checked_sub_signed(d).map(Time)
    }

    /// The JSON form: RFC 3339, UTC, milliseconds, `Z`.
    pub fn to_json(&self) -> String {
        self.0.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
    }
}

impl From<DateTime<Utc>> for Time {
    fn from(t: DateTime<Utc>) -> Self {
        Time(t)
    }
}

impl std::ops::Deref for Time {
    type Target = DateTime<Utc>;
    fn deref(&self) -> &DateTime<Utc> {
        &self.0
    }
}

impl std::ops::Add<TimeDelta> for Time {
    type Output = Time;
    fn add(self, d: TimeDelta) -> Time {
        Time(self.0 + d)
    }
}

impl std::ops::Sub<TimeDelta> for Time {
    type Output = Time;
    fn sub(self, d: TimeDelta) -> Time {
        Time(self.0 - d)
    }
}

impl std::ops::Sub<Time> for Time {
    type Output = TimeDelta;
    fn sub(self, other: Time) -> TimeDelta {
        self.0 - other.0
    }
}

impl std::ops::AddAssign<TimeDelta> for Time {
    fn add_assign(&mut self, d: TimeDelta) {
        self.0 += d;
    }
}

impl std::fmt::Display for Time {
    /// The JSON form (see [`Time::to_json`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_json())
    }
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Time, D::Error> {
        let s = String::deserialize(d)?;
        parse_rfc3339(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("invalid timestamp `{s}`")))
    }
}

/// Parses an RFC3339 timestamp (any offset, any fraction) into UTC.
pub fn parse_rfc3339(s: &str) -> Option<Time> {
    let s = s.trim();
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| Time(t.with_timezone(&Utc)))
        .or_else(|| {
            // Kubernetes MicroTime and a few writers use a space instead of `T`.
            let alt = s.replacen(' ', "T", 1);
            DateTime::parse_from_rfc3339(&alt)
                .ok()
                .map(|t| Time(t.with_timezone(&Utc)))
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
        .map(|t| Time(t.with_timezone(&Utc)))
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

/// Formats a time as the API server writes it in objects: RFC3339 with whole seconds.
pub fn fmt_k8s(t: &Time) -> String {
    t.0.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Milliseconds, always (log-derived times in prose and tables; the same text as JSON).
pub fn fmt_ms(t: &Time) -> String {
    t.to_json()
}

/// A time for prose (messages, tables): whole seconds, or milliseconds when it has a
/// fraction.
pub fn fmt_short(t: &Time) -> String {
    if t.0.timestamp_subsec_nanos() == 0 {
        fmt_k8s(t)
    } else {
        t.to_json()
    }
}

/// Serde helpers for the Kubernetes form of times inside Kubernetes objects mglint writes
/// (`#[serde(with = "k8s")]` on `Option<Time>` fields).
pub mod k8s {
    use super::{Time, fmt_k8s};
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &Option<Time>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_str(&fmt_k8s(t)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Time>, D::Error> {
        super::de_opt_time(d)
    }
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
        Some(Time(Utc.from_utc_datetime(&NaiveDateTime::new(date, time))))
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
        let limit = r + TimeDelta::days(2);
        for year in [r.year() + 1, r.year(), r.year() - 1, r.year() - 2] {
            if let Some(t) = p.with_year(year)
                && t <= limit
            {
                return Some(t);
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
        assert_eq!(fmt_k8s(&dec), "2020-12-31T23:59:58Z");
        assert_eq!(fmt_k8s(&jan), "2021-01-01T00:00:01Z");
        assert!(dec < jan);
    }

    #[test]
    fn year_inference_uses_reference_year() {
        let yi = YearInference::new(parse_rfc3339("2020-04-09T19:00:00Z"));
        let t = yi
            .resolve(PartialTime::new(4, 9, 18, 27, 47, 543_958_000).unwrap())
            .unwrap();
        assert_eq!(t.to_json(), "2020-04-09T18:27:47.543Z");
    }

    #[test]
    fn go_time_string_parses_with_zone_and_monotonic_suffix() {
        let t = parse_go_time("2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555").unwrap();
        assert_eq!(fmt_k8s(&t), "2021-08-03T10:12:00Z");
        let t = parse_go_time("2026-02-16 18:02:44.1234 +0100 CET m=+0.01").unwrap();
        assert_eq!(fmt_k8s(&t), "2026-02-16T17:02:44Z");
    }

    #[test]
    fn rfc3339_with_offset_is_converted_to_utc() {
        let t = parse_rfc3339("2021-07-07T12:00:00+02:00").unwrap();
        assert_eq!(fmt_k8s(&t), "2021-07-07T10:00:00Z");
        assert!(parse_rfc3339("not a time").is_none());
    }
}
