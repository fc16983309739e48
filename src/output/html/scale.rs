//! The chart's time axis: a piecewise-linear map from UTC time to x that folds long idle gaps
//! (weeks between an install and today's update) into narrow breaks, so a 5-minute CI upgrade
//! and a 3-day customer history both fill the width; and tick marks with a spacing chosen per
//! linear piece and zoom level (1 s up to 7 days).

use crate::model::Time;
use chrono::{DateTime, Utc};

/// The zoom levels the page offers (the page without JavaScript shows level 1).
pub const ZOOMS: [u32; 6] = [1, 2, 4, 8, 16, 32];
/// Zoom levels with their own tick set; a zoom level uses the set of the largest of these
/// not above it (ticks then stand 1 to 2 times further apart than at their own level).
pub const TICK_ZOOMS: [u32; 3] = [1, 4, 16];
/// Width of a folded gap, in pixels.
const BREAK_PX: f64 = 26.0;
/// Empty room at each end of the axis, in pixels.
const EDGE_PX: f64 = 10.0;
/// Gaps shorter than this are never folded.
const MIN_GAP_SECS: f64 = 3600.0;
/// A gap is folded when it is longer than this share of the rest of the (unfolded) time.
const GAP_SHARE: f64 = 0.25;
/// At most this many gaps are folded (the longest ones).
const MAX_BREAKS: usize = 6;
/// Minimum distance between two tick labels, in pixels.
const MIN_TICK_PX: f64 = 120.0;
/// Tick steps, in seconds.
const STEPS: [f64; 26] = [
    1.0,
    2.0,
    5.0,
    10.0,
    15.0,
    30.0,
    60.0,
    120.0,
    300.0,
    600.0,
    900.0,
    1800.0,
    3600.0,
    7200.0,
    10800.0,
    21600.0,
    43200.0,
    86400.0,
    172800.0,
    345600.0,
    604800.0,
    1209600.0,
    2592000.0,
    7776000.0,
    31536000.0,
    315360000.0,
];

/// One piece of the axis: linear, or a folded gap.
#[derive(Debug, Clone, PartialEq)]
pub struct Seg {
    /// Seconds since the epoch.
    pub t0: f64,
    pub t1: f64,
    pub x0: f64,
    pub x1: f64,
    pub folded: bool,
}

/// One tick: its x at zoom 1 and its label.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    pub x: f64,
    pub label: String,
}

/// The time axis of one chart.
#[derive(Debug, Clone)]
pub struct Scale {
    pub segs: Vec<Seg>,
    pub width: f64,
}

/// Seconds since the epoch, with the fraction.
pub fn secs(t: &Time) -> f64 {
    t.timestamp() as f64 + f64::from(t.timestamp_subsec_nanos()) / 1e9
}

fn time_of(s: f64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(s.floor() as i64, ((s - s.floor()) * 1e9) as u32)
}

impl Scale {
    /// The axis from `start` to `end` over `width` pixels; `activity` are the moments something
    /// happens (gaps between them may be folded).
    pub fn new(start: Time, end: Time, activity: &[Time], width: f64) -> Scale {
        let s = secs(&start);
        let e = secs(&end).max(s + 60.0);
        let mut pts: Vec<f64> = activity
            .iter()
            .map(secs)
            .filter(|t| *t >= s && *t <= e)
            .chain([s, e])
            .collect();
        pts.sort_by(f64::total_cmp);
        pts.dedup();
        let mut gaps: Vec<(f64, f64)> = pts.windows(2).map(|w| (w[0], w[1])).collect();
        gaps.sort_by(|a, b| {
            (b.1 - b.0)
                .total_cmp(&(a.1 - a.0))
                .then(a.0.total_cmp(&b.0))
        });
        let mut remaining = e - s;
        let mut folded = Vec::new();
        for (a, b) in gaps.into_iter().take(MAX_BREAKS) {
            let len = b - a;
            let rest = remaining - len;
            if len < MIN_GAP_SECS || rest <= 0.0 || len < GAP_SHARE * rest {
                break;
            }
            remaining = rest;
            folded.push((a, b));
        }
        folded.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Keep a little linear room on both sides of a fold so the events next to it stay
        // visible.
        let margin = remaining * 0.01;
        let mut pieces: Vec<(f64, f64, bool)> = Vec::new();
        let mut cur = s;
        for (a, b) in folded {
            let m = margin.min((b - a) / 4.0);
            pieces.push((cur, a + m, false));
            pieces.push((a + m, b - m, true));
            cur = b - m;
        }
        pieces.push((cur, e, false));
        let n_breaks = pieces.iter().filter(|p| p.2).count() as f64;
        let break_px = BREAK_PX.min(width / 4.0 / n_breaks.max(1.0));
        // Room on both sides so marks at the edges stay whole.
        let linear_px = width - 2.0 * EDGE_PX - n_breaks * break_px;
        // A linear piece's width blends its share of the time with its share of the activity,
        // so a busy 10-minute stretch after a fold is not squeezed by a quiet hour before it.
        let linear_secs: f64 = pieces.iter().filter(|p| !p.2).map(|p| p.1 - p.0).sum();
        let count = |a: f64, b: f64| pts.iter().filter(|t| **t >= a && **t <= b).count() as f64;
        let linear_pts: f64 = pieces
            .iter()
            .filter(|p| !p.2)
            .map(|p| count(p.0, p.1))
            .sum();
        let share = |a: f64, b: f64| {
            if n_breaks == 0.0 {
                1.0
            } else {
                0.5 * (b - a) / linear_secs.max(1e-9) + 0.5 * count(a, b) / linear_pts.max(1.0)
            }
        };
        let mut x = EDGE_PX;
        let segs = pieces
            .into_iter()
            .map(|(t0, t1, f)| {
                let w = if f {
                    break_px
                } else {
                    linear_px * share(t0, t1)
                };
                let seg = Seg {
                    t0,
                    t1,
                    x0: x,
                    x1: x + w,
                    folded: f,
                };
                x += w;
                seg
            })
            .collect();
        Scale { segs, width }
    }

    /// The x of a time at zoom 1 (clamped to the axis).
    pub fn x(&self, t: &Time) -> f64 {
        self.x_secs(secs(t))
    }

    fn x_secs(&self, t: f64) -> f64 {
        let Some(first) = self.segs.first() else {
            return 0.0;
        };
        if t <= first.t0 {
            return first.x0;
        }
        for s in &self.segs {
            if t <= s.t1 {
                let span = (s.t1 - s.t0).max(1e-9);
                return s.x0 + (t - s.t0) / span * (s.x1 - s.x0);
            }
        }
        self.segs.last().map_or(self.width, |s| s.x1)
    }

    /// The folded gaps.
    pub fn breaks(&self) -> impl Iterator<Item = &Seg> {
        self.segs.iter().filter(|s| s.folded)
    }

    /// Ticks for one zoom level, at their zoom-1 x.
    pub fn ticks(&self, zoom: u32) -> Vec<Tick> {
        let z = f64::from(zoom.max(1));
        let mut out = Vec::new();
        let mut last_day: Option<String> = None;
        let mut last_x = f64::NEG_INFINITY;
        for seg in self.segs.iter().filter(|s| !s.folded) {
            let pps = (seg.x1 - seg.x0) * z / (seg.t1 - seg.t0).max(1e-9);
            let step = STEPS
                .iter()
                .copied()
                .find(|st| st * pps >= MIN_TICK_PX)
                .unwrap_or(STEPS[STEPS.len() - 1]);
            let mut t = (seg.t0 / step).ceil() * step;
            while t <= seg.t1 {
                let x = self.x_secs(t);
                // Leave room after the previous label (also across a fold).
                if (x - last_x) * z >= MIN_TICK_PX * 0.9
                    && let Some(dt) = time_of(t)
                {
                    let day = dt.format("%Y-%m-%d").to_string();
                    let label = if step >= 2592000.0 {
                        dt.format("%Y-%m-%d").to_string()
                    } else if step >= 86400.0 {
                        dt.format("%m-%d").to_string()
                    } else if last_day.as_deref() != Some(&day) {
                        dt.format(if step < 60.0 {
                            "%m-%d %H:%M:%S"
                        } else {
                            "%m-%d %H:%M"
                        })
                        .to_string()
                    } else if step < 60.0 {
                        dt.format("%H:%M:%S").to_string()
                    } else {
                        dt.format("%H:%M").to_string()
                    };
                    last_day = Some(day);
                    out.push(Tick { x, label });
                    last_x = x;
                }
                t += step;
            }
        }
        out
    }

    /// `x0 x1 t0 t1` per piece (times in epoch milliseconds), for the page's cursor read-out.
    pub fn encode(&self) -> String {
        self.segs
            .iter()
            .map(|s| {
                format!(
                    "{:.1} {:.1} {} {}",
                    s.x0,
                    s.x1,
                    (s.t0 * 1000.0).round() as i64,
                    (s.t1 * 1000.0).round() as i64
                )
            })
            .collect::<Vec<_>>()
            .join(";")
    }
}

/// A duration in seconds for a fold label: `48d 3h`, `5h 10m`, `12m`.
pub fn gap_label(secs: f64) -> String {
    let s = secs.max(0.0) as i64;
    if s >= 86400 {
        format!("{}d {}h", s / 86400, (s % 86400) / 3600)
    } else if s >= 3600 {
        format!("{}h {}m", s / 3600, (s % 3600) / 60)
    } else {
        format!("{}m", s / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        crate::model::parse_rfc3339(s).unwrap()
    }

    #[test]
    fn five_minute_ci_upgrade_gets_second_ticks() {
        let (a, b) = (t("2023-11-03T14:30:00Z"), t("2023-11-03T14:35:00Z"));
        let sc = Scale::new(a, b, &[a, t("2023-11-03T14:32:10Z"), b], 1100.0);
        assert_eq!(sc.breaks().count(), 0);
        let ticks = sc.ticks(1);
        assert!(ticks.len() >= 5 && ticks.len() <= 10, "{ticks:?}");
        assert_eq!(ticks[0].label, "11-03 14:30");
        assert_eq!(ticks[1].label, "14:31");
        assert!((sc.x(&t("2023-11-03T14:32:30Z")) - 550.0).abs() < 0.01);
        assert!((sc.x(&a) - 10.0).abs() < 0.01 && (sc.x(&b) - 1090.0).abs() < 0.01);
        // Zooming in gives finer ticks.
        assert_eq!(sc.ticks(8)[1].label, "14:30:05");
    }

    #[test]
    fn three_day_history_gets_hour_ticks_and_no_fold() {
        let a = t("2024-03-01T00:00:00Z");
        let b = t("2024-03-04T00:00:00Z");
        let activity: Vec<Time> = (0..72)
            .map(|h| a + chrono::Duration::hours(h) + chrono::Duration::minutes(7))
            .collect();
        let sc = Scale::new(a, b, &activity, 1100.0);
        assert_eq!(sc.breaks().count(), 0);
        let ticks = sc.ticks(1);
        let labels: Vec<&str> = ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels[0], "03-01 00:00");
        assert!(labels.contains(&"03-02 00:00"), "{labels:?}");
        assert!(labels.contains(&"12:00"), "{labels:?}");
        assert!(ticks.len() <= 10);
    }

    #[test]
    fn absurd_spans_stay_cheap_and_labelled() {
        let a = t("1970-01-01T00:00:00Z");
        let b = t("2024-03-05T10:22:40Z");
        let sc = Scale::new(a, b, &[a, b], 1000.0);
        let ticks = sc.ticks(16);
        assert!(!ticks.is_empty() && ticks.len() < 200, "{}", ticks.len());
        assert!(ticks[0].label.len() == 10, "{}", ticks[0].label);
    }

    #[test]
    fn idle_weeks_are_folded() {
        let install = t("2024-01-16T10:21:14Z");
        let done = t("2024-01-16T11:05:41Z");
        let ask = t("2024-03-05T10:15:31Z");
        let end = t("2024-03-05T10:22:40Z");
        let sc = Scale::new(install, end, &[install, done, ask, end], 1000.0);
        let folds: Vec<&Seg> = sc.breaks().collect();
        assert_eq!(folds.len(), 1);
        assert!(gap_label(folds[0].t1 - folds[0].t0).starts_with("48d"));
        // The two active stretches share the width (by time and by activity).
        let w_update = sc.x(&done) - sc.x(&install);
        let w_ask = sc.x(&end) - sc.x(&ask);
        assert!(w_update > 500.0 && w_ask > 250.0, "{w_update} {w_ask}");
        assert!((sc.x(&end) - 990.0).abs() < 0.01);
        // Monotonic across the fold.
        assert!(sc.x(&ask) > sc.x(&done));
    }
}
