//! CI test and build logs: origin monitor lines
//! (`Sep 27 21:45:59.753 W clusterversion/version changed Progressing to True: ...`, with an
//! optional `- 2564s` duration) and e2e framework lines (`Sep 27 21:42:28.080: INFO: ...`).
//! Lines without a leading timestamp are ignored.

use crate::model::{PartialTime, Provenance, RecordTime, TextLine, TextLineKind};

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Parses `Mon DD HH:MM:SS[.fff]` at the start of a line; returns the stamp and the rest.
pub fn parse_stamp(line: &str) -> Option<(PartialTime, &str)> {
    let b = line.as_bytes();
    if b.len() < 15 {
        return None;
    }
    let month = MONTHS.iter().position(|m| line.starts_with(m))? as u32 + 1;
    if b[3] != b' ' {
        return None;
    }
    let rest = line[4..].trim_start_matches(' ');
    let (day, rest) = rest.split_once(' ')?;
    let day: u32 = day.parse().ok()?;
    let tb = rest.as_bytes();
    if tb.len() < 8 || tb[2] != b':' || tb[5] != b':' {
        return None;
    }
    // Bytes, not str slices: the line may hold multi-byte characters anywhere.
    let two = |i: usize| -> Option<u32> {
        let (a, b) = (tb[i], tb[i + 1]);
        (a.is_ascii_digit() && b.is_ascii_digit())
            .then(|| u32::from(a - b'0') * 10 + u32::from(b - b'0'))
    };
    let h = two(0)?;
    let m = two(3)?;
    let s = two(6)?;
    let mut i = 8;
    let mut nanos = 0u32;
    if tb.get(8) == Some(&b'.') {
        i = 9;
        let mut k = 0;
        while i < tb.len() && tb[i].is_ascii_digit() {
            if k < 9 {
                nanos += (tb[i] - b'0') as u32 * 10u32.pow(8 - k);
            }
            k += 1;
            i += 1;
        }
    }
    Some((PartialTime::new(month, day, h, m, s, nanos)?, &rest[i..]))
}

/// Whether a line looks like a monitor or e2e framework line.
pub fn looks_like_text_line(line: &str) -> bool {
    parse_line(line).is_some()
}

/// Parses one line into its stamp, kind and message.
pub fn parse_line(line: &str) -> Option<(PartialTime, TextLineKind, String)> {
    let (stamp, rest) = parse_stamp(line)?;
    if let Some(r) = rest.strip_prefix(": ") {
        // e2e framework: `: INFO: text`, `: FAIL: text`, `: STEP: ...`
        let (tag, text) = r.split_once(": ").unwrap_or(("", r));
        if matches!(tag, "INFO" | "FAIL" | "STEP" | "WARNING" | "ERROR") {
            let msg = if tag == "INFO" {
                text.to_string()
            } else {
                format!("{tag}: {text}")
            };
            return Some((stamp, TextLineKind::Info, msg));
        }
        return None;
    }
    let rest = rest.strip_prefix(' ')?;
    let (duration_secs, rest) = match rest.strip_prefix("- ") {
        Some(r) => {
            let (d, r2) = r.split_once(' ')?;
            (Some(d.strip_suffix('s')?.parse::<f64>().ok()?), r2)
        }
        None => (None, rest),
    };
    let mut chars = rest.chars();
    let level = chars.next()?;
    if !matches!(level, 'I' | 'W' | 'E') || chars.next() != Some(' ') {
        return None;
    }
    let body = &rest[2..];
    let loc_end = super::stanza::monitor_locator_len(body);
    let locator = body[..loc_end].trim_end().to_string();
    if locator.is_empty() {
        return None;
    }
    let message = body[loc_end..].to_string();
    Some((
        stamp,
        monitor(level, locator, duration_secs, &message),
        message,
    ))
}

/// A monitor line's kind, its stanzas split ([`super::stanza::monitor_stanzas`]).
pub fn monitor(
    level: char,
    locator: String,
    duration_secs: Option<f64>,
    message: &str,
) -> TextLineKind {
    let (keys, annotations, text_at) = super::stanza::monitor_stanzas(&locator, message);
    TextLineKind::Monitor {
        level,
        locator,
        duration_secs,
        keys,
        annotations,
        text_at,
    }
}

/// Parses a whole test/build log; only timestamped monitor and e2e lines are kept.
pub fn parse_text_log(data: &[u8], prov: &Provenance) -> Vec<TextLine> {
    parse_text_log_stream(&mut std::io::Cursor::new(data), prov).0
}

/// Parses a test/build log from a stream, line by line, with bounded line length. Returns
/// the lines and a read error, if one ended the file early.
pub fn parse_text_log_stream(
    r: &mut dyn std::io::BufRead,
    prov: &Provenance,
) -> (Vec<TextLine>, u64, Option<String>) {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut n = 0u32;
    let mut bytes = 0u64;
    loop {
        match super::klog::read_line_capped(r, &mut buf, super::klog::MAX_LINE_BYTES) {
            Ok(0) => return (out, bytes, None),
            Ok(k) => bytes += k as u64,
            Err(e) => {
                return (
                    out,
                    bytes,
                    Some(format!(
                        "read stopped after line {n}: {}",
                        crate::source::sniff::describe_io(&e)
                    )),
                );
            }
        }
        n += 1;
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim_end_matches('\r');
        if let Some((stamp, kind, message)) = parse_line(line) {
            out.push(TextLine {
                time: None,
                stamp: RecordTime::Partial(stamp),
                kind,
                message,
                prov: Provenance {
                    line: Some(n),
                    ..prov.clone()
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monitor_line_with_level_and_locator() {
        let (st, kind, msg) = parse_line("Sep 27 21:45:59.753 W clusterversion/version changed Progressing to True: Working towards 4.3.0-0.ci-2019-09-27-182824: 1% complete").unwrap();
        assert_eq!(
            st,
            PartialTime::new(9, 27, 21, 45, 59, 753_000_000).unwrap()
        );
        assert_eq!(
            kind,
            monitor('W', "clusterversion/version".into(), None, &msg)
        );
        let TextLineKind::Monitor { keys, .. } = &kind else {
            panic!("{kind:?}")
        };
        assert_eq!(keys["clusterversion"], "version");
        assert_eq!(
            msg,
            "changed Progressing to True: Working towards 4.3.0-0.ci-2019-09-27-182824: 1% complete"
        );
    }

    #[test]
    fn monitor_line_with_duration() {
        let (_, kind, msg) = parse_line("Sep 27 21:46:11.007 - 2564s W clusterversion/version cluster is updating to 4.3.0-0.ci-2019-09-27-182824").unwrap();
        assert_eq!(
            kind,
            monitor('W', "clusterversion/version".into(), Some(2564.0), &msg)
        );
        assert_eq!(msg, "cluster is updating to 4.3.0-0.ci-2019-09-27-182824");
    }

    #[test]
    fn multi_key_locator() {
        let (_, kind, msg) =
            parse_line("Sep 27 22:09:55.000 I ns/openshift-etcd pod/etcd-0 node/master-1 created")
                .unwrap();
        let TextLineKind::Monitor {
            locator,
            keys,
            annotations,
            text_at,
            ..
        } = kind
        else {
            panic!("{kind:?}")
        };
        assert_eq!(locator, "ns/openshift-etcd pod/etcd-0 node/master-1");
        assert_eq!(keys.len(), 3);
        assert!(annotations.is_empty());
        assert_eq!((msg.as_str(), text_at), ("created", 0));
    }

    #[test]
    fn e2e_info_line() {
        let (st, kind, msg) = parse_line("Sep 27 21:42:28.080: INFO: Waiting up to 30m0s for all (but 100) nodes to be schedulable").unwrap();
        assert_eq!(kind, TextLineKind::Info);
        assert_eq!(st.nanos % 1_000_000_000, 80_000_000);
        assert_eq!(
            msg,
            "Waiting up to 30m0s for all (but 100) nodes to be schedulable"
        );
    }

    #[test]
    fn other_lines_are_ignored() {
        assert!(parse_line("Running Suite: OpenShift e2e").is_none());
        assert!(parse_line("Sep 27 21:42:28.080: something else").is_none());
        assert!(parse_line("").is_none());
    }
}
