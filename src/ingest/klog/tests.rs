//! Tests of the klog parser: headers, time prefixes, continuation lines, blocks against the
//! line-by-line reference.

use super::blocks::{MAX_BLOCKS_IN_FLIGHT, parse_block};
use super::lines::Chunk;
use super::stamps::{Recent, digits, fast_utc_in, fraction, header, spaces, split_time_prefix_in};
use super::*;
use crate::model::{PartialTime, TimeCode, parse_rfc3339};
use crate::vocab::testing::xorshift;

fn prov() -> Provenance {
    Provenance::detached("in", "current.log")
}

#[test]
fn header_parses_with_padding_and_file_line() {
    let h = parse_header("I0409 18:26:05.631324       1 sync_worker.go:634] Done syncing for clusteroperator \"service-ca\" (388 of 498)").unwrap();
    assert_eq!(h.level, 'I');
    assert_eq!(h.source_file(), "sync_worker.go");
    assert_eq!(
        h.message,
        "Done syncing for clusteroperator \"service-ca\" (388 of 498)"
    );
    assert_eq!(
        h.stamp,
        PartialTime::new(4, 9, 18, 26, 5, 631_324_000).unwrap()
    );
    assert!(parse_header("Trace[1234]: ---\"Objects listed\" 1000ms").is_none());
    assert!(parse_header("I1399 18:26:05.631324       1 x.go:1] bad month").is_none());
}

#[test]
fn lines_with_an_impossible_timestamp_are_counted_not_glued_on() {
    let log = "I0409 18:26:05.631324       1 sync_worker.go:634] first\n\
I1309 18:26:05.631324       1 sync_worker.go:634] month 13\n\
2021-08-03T09:31:44.000000000Z E0409 25:61:61.000000       1 task.go:81] 25:61:61\n\
  a continuation\n\
I0409 18:26:06.000000       1 sync_worker.go:634] last\n";
    let (l, note) = parse_cvo_log(log.as_bytes(), prov(), "cvo".into(), LogFile::Current);
    assert_eq!(l.records.len(), 2);
    // The continuation belongs to the skipped record, not to the one before it.
    assert_eq!(l.records.iter().next().unwrap().message, "first");
    assert_eq!(
        note.as_deref(),
        Some("2 lines with an invalid timestamp (first at line 2); skipped")
    );
    assert!(has_invalid_stamp(
        "W0232 10:00:00.000000       1 x.go:1] day 32"
    ));
    assert!(!has_invalid_stamp("Trace[1234]: ---"));
}

#[test]
fn cri_prefix_continuations_and_crlf() {
    let log = "2021-08-03T09:31:43.209596123Z I0803 09:31:43.209596       1 sync_worker.go:541] Running sync 4.8.0 (force=false) on generation 1 in state Initializing at attempt 0\r\n\
2021-08-03T09:31:44.000000000Z E0803 09:31:44.000000       1 task.go:81] Multiple errors are preventing progress:\n\
2021-08-03T09:31:44.000000001Z * Cluster operator etcd is degraded\n";
    let (l, note) = parse_cvo_log(log.as_bytes(), prov(), "cvo".into(), LogFile::Current);
    assert!(note.is_none());
    assert_eq!(l.records.len(), 2);
    assert_eq!(
        l.records.iter().next().unwrap().message,
        "Running sync 4.8.0 (force=false) on generation 1 in state Initializing at attempt 0"
    );
    assert!(l.records.iter().next().unwrap().time.is_some());
    assert_eq!(
        l.records.iter().nth(1).unwrap().message,
        "Multiple errors are preventing progress:\n* Cluster operator etcd is degraded"
    );
    assert_eq!(l.records.iter().nth(1).unwrap().line, 2);
    assert_eq!(l.lines, 3);
}

#[test]
fn invalid_utf8_is_replaced_and_reported() {
    let mut data = b"I0409 18:26:05.631324       1 a.go:1] ok\n".to_vec();
    data.extend_from_slice(b"I0409 18:26:06.000000       1 a.go:1] bad \xff\xfe bytes\n");
    let (l, note) = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current);
    assert_eq!(l.records.len(), 2);
    assert!(
        l.records
            .iter()
            .nth(1)
            .unwrap()
            .message
            .contains('\u{fffd}')
    );
    assert_eq!(
        note.as_deref(),
        Some("invalid UTF-8 from line 2 on (replaced with U+FFFD)")
    );
}

#[test]
fn year_boundary_resolution() {
    let data = b"I1231 23:59:59.500000       1 a.go:1] last of year\nI0101 00:00:00.250000       1 a.go:1] first of year\n";
    let (mut l, _) = parse_cvo_log(data, prov(), "cvo".into(), LogFile::Current);
    let yi = crate::model::YearInference::new(crate::model::parse_rfc3339("2021-01-01T01:00:00Z"));
    resolve_times(&mut l, &yi);
    let t0 = l.records.iter().next().unwrap().time.unwrap();
    let t1 = l.records.iter().nth(1).unwrap().time.unwrap();
    assert_eq!(crate::model::fmt_k8s(&t0), "2020-12-31T23:59:59Z");
    assert_eq!(crate::model::fmt_k8s(&t1), "2021-01-01T00:00:00Z");
    assert!(t0 < t1);
}

#[test]
fn fast_utc_agrees_with_rfc3339() {
    let cases = [
        "2021-08-03T09:31:43.209596123Z",
        "2021-08-03T09:31:43Z",
        "2020-04-09T18:26:05.6Z",
        "2021-08-03T09:31:43+02:00",
        "2021-02-30T00:00:00Z",
        "2021-08-03T09:31:43.Z",
        "2021-08-03T23:59:59.999999999Z",
        "2021-08-04T00:00:00.000000001Z",
        "2021-08-04T00:00:00.1234567891Z",
        "2021-08-0xT00:00:00Z",
        "2021-08-04T24:00:00Z",
        "2016-12-31T23:59:60Z",
        "2021-08-04T23:60:00Z",
        "1969-12-31T23:59:59.5Z",
        "0001-01-01T00:00:00.000000001Z",
        "2020-02-29T12:00:00Z",
        "2021-02-29T12:00:00Z",
        "2400-02-29T12:00:00.25Z",
    ];
    for s in cases {
        assert_eq!(
            fast_utc_in(s, &mut Recent::default()),
            parse_rfc3339(s).map(TimeCode::absolute),
            "{s}"
        );
    }
    // One day cache across lines, as a log is read: the same answers in any order.
    let mut recent = Recent::default();
    for s in cases.iter().chain(cases.iter().rev()).chain(&cases) {
        assert_eq!(
            fast_utc_in(s, &mut recent),
            parse_rfc3339(s).map(TimeCode::absolute),
            "{s}"
        );
    }
}

#[test]
fn over_long_line_is_cut_and_reported() {
    let mut data = b"I0409 18:26:05.631324       1 a.go:1] ".to_vec();
    data.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    data.extend_from_slice(b"\nI0409 18:26:06.000000       1 a.go:1] next\n");
    let (l, note) = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current);
    assert_eq!(l.records.len(), 2);
    assert!(l.records.iter().next().unwrap().message.len() < MAX_LINE_BYTES);
    assert_eq!(l.records.iter().nth(1).unwrap().message, "next");
    assert!(note.unwrap().contains("line 1 is longer than"));
}

/// Everything a chunk holds, to compare two parses.
fn chunk_facts(c: Chunk) -> String {
    let recs: Vec<String> = c
        .records
        .finish()
        .iter()
        .map(|r| {
            format!(
                "{:?}",
                (r.line, r.offset, r.len, r.message, r.time, r.level)
            )
        })
        .collect();
    format!(
        "{recs:?} {:?}",
        (
            &c.leading,
            c.leading_more,
            c.unparsed,
            c.lines,
            c.end_offset,
            c.invalid_utf8_line,
            c.long_line,
            c.bad_stamps,
            c.first_bad_stamp
        )
    )
}

#[test]
fn a_block_read_in_place_parses_as_line_by_line() {
    let head = "2021-08-03T09:31:00.5Z I0803 09:31:00.000000       1 a.go:1] ";
    let mut valid = String::new();
    valid.push_str("  a continuation before the first header\n\n");
    valid.push_str(&format!("{head}crlf line\r\n"));
    valid.push_str("I1399 09:31:00.000000       1 a.go:1] impossible stamp\n");
    valid.push_str("  its continuation\n");
    valid.push_str(&format!("{head}multi-byte é ü\n  continued é\r\n"));
    // A line longer than kept, cut inside a two-byte character.
    valid.push_str(head);
    let pad = MAX_LINE_BYTES - head.len() - 1;
    valid.push_str(&"x".repeat(pad));
    valid.push_str("éé tail\n");
    valid.push_str(&format!("{head}last line without a newline"));
    let mut invalid = valid.clone().into_bytes();
    invalid.splice(10..10, [0xff, 0xfe]);
    for (name, data) in [
        ("valid", valid.as_bytes()),
        ("invalid", &invalid[..]),
        (
            "ends in a newline",
            &valid.as_bytes()[..valid.rfind('\n').unwrap() + 1],
        ),
        ("empty", &[][..]),
    ] {
        for leading in [false, true] {
            let by_line = parse_chunk(&mut std::io::Cursor::new(data), 1000, leading);
            let in_place = parse_block(data, 1000, leading, None);
            assert_eq!(chunk_facts(in_place), chunk_facts(by_line), "{name}");
        }
    }
}

/// A log of reconcile passes: most lines repeat a line of the pass before after their
/// stamps, among lines that break a repeat in one place or another (a head or message
/// one byte off, a stamp in a new second or with more digits, no time prefix, a stream
/// tag, CRLF, continuation lines, an impossible stamp, invalid UTF-8, an empty message).
fn passes_log(seed: u64) -> Vec<u8> {
    let mut r = xorshift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut messages: Vec<String> = (0..40)
        .map(|i| format!("Running sync for configmap \"ns/cm-{i}\" ({i} of 40)"))
        .collect();
    messages.extend(["", "a ] b] c", "é ü multi-byte", "]"].map(String::from));
    let heads = [
        "       1 sync_worker.go:752] ",
        "       1 sync_worker.go:764] ",
        "      12 task.go:81] ",
        " 1 a.go:1] ",
        "       1 a.go:1]",
        "       1 a.go ",
    ];
    let mut out = Vec::new();
    let mut nanos: u64 = 0;
    for _pass in 0..40 {
        for (i, m) in messages.iter().enumerate() {
            nanos += r(100_000_000);
            let (sec, frac) = (nanos / 1_000_000_000, nanos % 1_000_000_000);
            let (mm, ss) = (sec / 60 % 60, sec % 60);
            let prefix = match r(40) {
                0 => String::new(),
                1 => format!("2021-08-03T09:{mm:02}:{ss:02}.{:03}Z ", frac / 1_000_000),
                2 => format!("2021-08-03T09:{mm:02}:{ss:02}.{frac:09}7Z "),
                3 => format!("2021-08-03T09:{mm:02}:{ss:02}.{frac:09}Z stdout F "),
                _ => format!("2021-08-03T09:{mm:02}:{ss:02}.{frac:09}Z "),
            };
            let level = match r(40) {
                0 => "W",
                1 => "E",
                _ => "I",
            };
            let kfrac = match r(50) {
                0 => String::new(),
                1 => format!("{:09}", frac),
                _ => format!("{:06}", frac / 1000),
            };
            let head = match r(30) {
                0 => heads[r(heads.len() as u64) as usize],
                _ => heads[i % 2],
            };
            let message = match r(40) {
                0 => format!("{m}x"),
                1 => m.chars().skip(1).collect(),
                _ => m.clone(),
            };
            out.extend_from_slice(
                format!("{prefix}{level}0803 09:{mm:02}:{ss:02}.{kfrac}{head}{message}").as_bytes(),
            );
            out.extend_from_slice(match r(60) {
                0 => b"\r\n",
                _ => b"\n",
            });
            match r(120) {
                0 => out.extend_from_slice(b"  continued\n"),
                1 => out.extend_from_slice(b"I1399 09:31:00.000000       1 a.go:1] impossible\n"),
                2 => out.extend_from_slice(b"  \xff not UTF-8\n"),
                3 => out.extend_from_slice(b"\n"),
                _ => {}
            }
        }
    }
    if r(2) == 0 {
        out.pop();
    }
    out
}

#[test]
fn lines_read_as_repeats_parse_as_when_read_in_full() {
    for seed in 1..=16 {
        let data = passes_log(seed);
        for leading in [false, true] {
            let by_line = parse_chunk(&mut std::io::Cursor::new(&data), 1000, leading);
            let in_place = parse_block(&data, 1000, leading, None);
            // Most lines are read as repeats (the test reads what it means to), though
            // about one in five breaks one.
            assert!(
                in_place.repeats * 2 > in_place.lines,
                "seed {seed}: {} of {} lines read as repeats",
                in_place.repeats,
                in_place.lines
            );
            assert_eq!(chunk_facts(in_place), chunk_facts(by_line), "seed {seed}");
        }
    }
    // In blocks on two threads, joined: the ids a block gave its repeats are its own.
    let data = passes_log(99);
    let (seq, _) = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current);
    let stitch = blocks_on_two_threads(&data, 8 << 10);
    assert!(stitch.chunks > 10, "{} chunks", stitch.chunks);
    let (par, _) = finish(stitch, prov(), "cvo".into(), LogFile::Current);
    same_records(&seq, &par, "8 KiB blocks");
}

#[test]
fn runs_of_digits_and_spaces_are_counted_in_any_bytes() {
    let mut rand = xorshift(0x0bad_5eed_cafe_f00du64);
    for len in 0..=20 {
        for run in 0..=len {
            for stop in 0..=255u8 {
                for (byte, count) in [(None, digits as fn(&[u8]) -> usize), (Some(b' '), spaces)] {
                    let mut b: Vec<u8> = (0..run)
                        .map(|_| byte.unwrap_or(b'0' + rand(10) as u8))
                        .collect();
                    if b.len() < len {
                        b.push(stop);
                    }
                    while b.len() < len {
                        b.push(rand(256) as u8);
                    }
                    let want = match byte {
                        None => b.iter().take_while(|c| c.is_ascii_digit()).count(),
                        Some(s) => b.iter().take_while(|&&c| c == s).count(),
                    };
                    assert_eq!(count(&b), want, "{b:?}");
                }
            }
        }
    }
}

#[test]
fn fraction_reads_the_nanoseconds_of_the_leading_digits_of_any_bytes() {
    let naive = |b: &[u8]| {
        let digits = b.iter().take(9).take_while(|d| d.is_ascii_digit()).count();
        let n = b[..digits]
            .iter()
            .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        (n * 10u32.pow(9 - digits as u32), digits)
    };
    let mut rand = xorshift(0x9e37_79b9_7f4a_7c15u64);
    // Every count of leading digits, followed by every byte, then anything.
    for len in 0..=12 {
        for digits in 0..=len.min(10) {
            for stop in 0..=255u8 {
                let mut b: Vec<u8> = (0..digits).map(|_| b'0' + rand(10) as u8).collect();
                if b.len() < len {
                    b.push(stop);
                }
                while b.len() < len {
                    b.push(rand(256) as u8);
                }
                assert_eq!(fraction(&b), naive(&b), "{b:?}");
            }
        }
    }
}

/// Lines of one second, of seconds, days and years apart, with fractions of every length,
/// impossible times and odd shapes, read one after another: each stamp reads as it does
/// on a line of its own (what the lines before left is only a shortcut).
#[test]
fn stamps_read_after_other_lines_read_as_on_their_own() {
    let mut rand = xorshift(0x1234_5678_9abc_def1u64);
    let pick = |r: u64, of: &[&'static str]| of[r as usize % of.len()];
    let digits = |n: u64, r: &mut dyn FnMut(u64) -> u64| -> String {
        (0..n).map(|_| char::from(b'0' + r(10) as u8)).collect()
    };
    let mut shared = Recent::default();
    let (mut day, mut second) = ("2021-06-01", "00:00:00");
    let mut klog = "I0601 00:00:00.";
    for _ in 0..200_000 {
        if rand(50) == 0 {
            day = pick(
                rand(7),
                &[
                    "2021-06-01",
                    "2021-06-02",
                    "2020-02-29",
                    "1969-12-31",
                    "2021-02-29",
                    "2021-13-01",
                    "2021-0x-01",
                ],
            );
        }
        if rand(20) == 0 {
            second = pick(
                rand(6),
                &[
                    "00:00:00", "00:00:01", "23:59:59", "23:59:60", "24:00:00", "12:60:00",
                ],
            );
        }
        if rand(30) == 0 {
            klog = pick(
                rand(6),
                &[
                    "I0601 00:00:00.",
                    "E0601 00:00:01.",
                    "I1301 00:00:00.",
                    "W0229 23:59:60.",
                    "I0601 24:00:00.",
                    "I0601 00:00:00:",
                ],
            );
        }
        let frac = match rand(10) {
            0 => String::new(),
            1 => ".".into(),
            n => format!(".{}", digits(if n < 4 { rand(12) } else { 9 }, &mut rand)),
        };
        let zone = pick(
            rand(12),
            &["Z", "Z", "Z", "Z", "Z", "Z", "Z", "+00:00", "", "z"],
        );
        let gap = pick(
            rand(10),
            &[" ", " ", " ", " ", " ", " ", " ", "", "  ", "\t"],
        );
        let stream = pick(rand(4), &["", "", "stdout F ", "stderr P "]);
        let kfrac = digits(if rand(5) == 0 { rand(12) } else { 6 }, &mut rand);
        let tail = pick(
            rand(6),
            &[
                "       1 sync_worker.go:752] Running sync",
                "   1 a.go:1] x",
                " 1 a.go:1]",
                "1 a.go:1] no space",
                "       1 a.go:1 no bracket",
                "       12 task.go:81] ] twice] ",
            ],
        );
        let line = format!("{day}T{second}{frac}{zone}{gap}{stream}{klog}{kfrac}{tail}");
        let alone = split_time_prefix_in(&line, &mut Recent::default());
        let after = split_time_prefix_in(&line, &mut shared);
        assert_eq!(after, alone, "{line}");
        let rest = alone.1;
        assert_eq!(
            header(rest, &mut shared.klog),
            header(rest, &mut None),
            "{line}"
        );
    }
}

#[test]
fn parallel_parse_matches_sequential() {
    let mut data = Vec::new();
    for i in 0..20_000u32 {
        data.extend_from_slice(format!("2021-08-03T09:31:{:02}.{:09}Z I0803 09:31:{:02}.000000       1 sync_worker.go:541] Running sync for configmap \"ns/cm-{i}\" ({i} of 20000)\n", i % 60, i, i % 60).as_bytes());
        if i % 7 == 0 {
            data.extend_from_slice(
                format!(
                    "2021-08-03T09:31:{:02}.{:09}Z * continuation {i}\n",
                    i % 60,
                    i
                )
                .as_bytes(),
            );
        }
        // Far into the log (past the first blocks): what the note names by its line.
        if i == 15_000 {
            data.extend_from_slice(b"I1399 09:31:00.000000       1 a.go:1] impossible\n");
        }
        if i == 17_000 {
            data.extend_from_slice(b"  \xff not UTF-8\n");
        }
    }
    let (seq, seq_note) = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current);
    let seq_note = seq_note.unwrap();
    assert!(seq_note.contains("(first at line 17145)"), "{seq_note}");
    assert!(seq_note.contains("from line 19432 on"), "{seq_note}");
    // Blocks far smaller than the log, on two threads: many chunk boundaries, some
    // falling just before a continuation line.
    let stitch = blocks_on_two_threads(&data, 64 << 10);
    assert!(stitch.chunks > 20, "{} chunks", stitch.chunks);
    let (par, par_note) = finish(stitch, prov(), "cvo".into(), LogFile::Current);
    assert_eq!(par_note.as_deref(), Some(seq_note.as_str()));
    assert_eq!(
        (seq.lines, seq.bytes, seq.unparsed_lines),
        (par.lines, par.bytes, par.unparsed_lines)
    );
    same_records(&seq, &par, "64 KiB blocks");
}

/// Stretches of lines that are not klog lines, longer than a message can grow (a record
/// followed by 7 MB of them, and a log that starts with them), parsed in blocks of
/// 1.5 MiB: the same records, the open record's message cut where the line-by-line parse
/// cuts it, and the same count of lines of no record. A block of such lines keeps only
/// what can still reach a message.
#[test]
fn long_stretches_without_klog_lines_parse_in_blocks_as_line_by_line() {
    let stretch = |data: &mut Vec<u8>, n: usize| {
        for i in 0..n {
            match i % 7 {
                0 => data.extend_from_slice(b"\n"),
                1 => data.extend_from_slice(b"   \n"),
                _ => data.extend_from_slice(
                    format!("{{\"level\":\"info\",\"msg\":\"line {i}\"}}\n").as_bytes(),
                ),
            }
        }
    };
    let record = |data: &mut Vec<u8>, s: u32| {
        data.extend_from_slice(
            format!("I0601 00:00:{s:02}.000000       1 a.go:1] record {s}\n").as_bytes(),
        )
    };
    // Records first, so that the block the first stretch starts in ends before its
    // record's message is full: the next block's leading lines must fill it.
    let mut after_record = Vec::new();
    for _ in 0..28_000 {
        record(&mut after_record, 0);
    }
    record(&mut after_record, 1);
    stretch(&mut after_record, 300_000);
    record(&mut after_record, 2);
    let mut no_record_first = Vec::new();
    stretch(&mut no_record_first, 300_000);
    record(&mut no_record_first, 3);
    for (what, data) in [
        ("after a record", &after_record),
        ("before any record", &no_record_first),
    ] {
        assert!(data.len() > 6 * MAX_LINE_BYTES, "{what}");
        let (seq, _) = parse_cvo_log(data, prov(), "cvo".into(), LogFile::Current);
        // Blocks larger than a message can grow, as the 4 MiB ones are.
        let stitch = blocks_on_two_threads(data, MAX_LINE_BYTES * 3 / 2);
        assert!(stitch.chunks > 3, "{what}: {} chunks", stitch.chunks);
        let (par, _) = finish(stitch, prov(), "cvo".into(), LogFile::Current);
        assert_eq!(
            (seq.lines, seq.bytes, seq.unparsed_lines),
            (par.lines, par.bytes, par.unparsed_lines),
            "{what}"
        );
        same_records(&seq, &par, what);
    }
    let long = after_record_message(&after_record, 28_000);
    assert!(long.len() >= MAX_LINE_BYTES && long.len() < MAX_LINE_BYTES + 100);
    // One block of such lines, read as a chunk after the first.
    let at = memchr::memmem::find(&after_record, b"] record 1\n").unwrap();
    let block = &after_record[at + 11..];
    assert!(block.len() > 2 * MAX_LINE_BYTES);
    let c = parse_block(block, 0, true, None);
    let kept: usize = c
        .leading
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| l.len() + 1)
        .sum();
    assert!(kept < MAX_LINE_BYTES + 100, "{kept} bytes kept");
    assert!(c.leading_more > 10_000, "{} lines counted", c.leading_more);
}

/// Record `i`'s message of `data` parsed line by line.
fn after_record_message(data: &[u8], i: usize) -> String {
    let (log, _) = parse_cvo_log(data, prov(), "cvo".into(), LogFile::Current);
    log.records.iter().nth(i).unwrap().message.to_string()
}

/// `data` parsed in blocks of `block_bytes` on a pool of two threads.
fn blocks_on_two_threads(data: &[u8], block_bytes: usize) -> Stitch {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| parse_blocks(&mut std::io::Cursor::new(data), block_bytes))
}

/// Asserts a log parsed in blocks has the records of the log parsed line by line.
fn same_records(seq: &CvoLog, par: &CvoLog, what: &str) {
    assert_eq!(par.records.len(), seq.records.len(), "{what}");
    for (a, b) in seq.records.iter().zip(par.records.iter()) {
        assert_eq!(
            (a.line, a.offset, a.len, a.message, a.time),
            (b.line, b.offset, b.len, b.message, b.time),
            "{what}"
        );
    }
}

/// One thread of two busy with a long job while a log is parsed: the reader parses the
/// blocks itself, newest first from its own queue, and the blocks it parsed after the
/// first must wait for it. They are bounded by the blocks not yet joined, not by the
/// blocks not yet parsed (which let them pile up to dozens).
#[test]
fn parsed_blocks_waiting_to_be_joined_stay_bounded_while_the_other_thread_is_busy() {
    let mut data = Vec::new();
    for i in 0..40_000u32 {
        data.extend_from_slice(format!("2021-08-03T09:31:00.{i:09}Z I0803 09:31:00.000000       1 sync_worker.go:541] Running sync for configmap \"ns/cm-{i}\" ({i} of 40000)\n").as_bytes());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let (stitch, slept) = pool.install(|| {
        let slept = std::sync::atomic::AtomicBool::new(false);
        let stitch = rayon::scope(|s| {
            s.spawn(|_| {
                std::thread::sleep(std::time::Duration::from_millis(300));
                slept.store(true, std::sync::atomic::Ordering::Release);
            });
            parse_blocks(&mut std::io::Cursor::new(&data), 16 << 10)
        });
        (stitch, slept.into_inner())
    });
    assert!(slept);
    assert!(stitch.chunks > 100, "{} chunks", stitch.chunks);
    assert!(
        stitch.most_waiting <= MAX_BLOCKS_IN_FLIGHT,
        "{} parsed blocks waited at once",
        stitch.most_waiting
    );
    let par = finish(stitch, prov(), "cvo".into(), LogFile::Current).0;
    let seq = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current).0;
    same_records(&seq, &par, "the other thread busy");
}

/// Blocks are joined by whichever thread parsed them (or a later one): with hundreds of
/// small blocks on four threads, every block is joined, in order, in every round.
#[test]
fn blocks_joined_by_the_threads_that_parsed_them_are_all_joined_in_order() {
    let mut data = Vec::new();
    for i in 0..6_000u32 {
        data.extend_from_slice(format!("2021-08-03T09:{:02}:{:02}.{i:09}Z I0803 09:31:00.000000       1 sync_worker.go:541] Done syncing for configmap \"ns/cm-{}\" ({i} of 6000)\n", i / 60 % 60, i % 60, i % 700).as_bytes());
    }
    let seq = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current).0;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    for round in 0..8 {
        let stitch = pool.install(|| parse_blocks(&mut std::io::Cursor::new(&data), 2 << 10));
        assert!(stitch.chunks > 300, "{} chunks", stitch.chunks);
        let par = finish(stitch, prov(), "cvo".into(), LogFile::Current).0;
        same_records(&seq, &par, &format!("round {round}"));
    }
}

#[test]
fn empty_log_has_no_records() {
    let (l, note) = parse_cvo_log(b"", prov(), "cvo".into(), LogFile::Previous);
    assert!(l.records.is_empty() && note.is_none());
    assert_eq!(l.lines, 0);
}

/// A header whose timestamp is impossible skips its line and every line after it until the
/// next good header, and the record before it runs to its own last continuation line: the
/// same records whatever block that header begins or ends, on one thread or three. (Found by
/// the `klog_blocks` fuzz target: a block beginning with such a header made the record
/// before run over it, and a block beginning after it took its skipped lines as the record
/// before's continuation lines.)
#[test]
fn an_impossible_timestamp_skips_the_same_lines_whatever_block_it_falls_in() {
    let mut data = String::new();
    let mut rand = xorshift(0x2545_f491_4f6c_dd1d);
    for i in 0..120u32 {
        let (m, s) = (i / 60 % 60, i % 60);
        match rand(6) {
            // A header whose day is 93.
            0 => data.push_str(&format!("I0893 09:{m:02}:{s:02}.000000       1 cvo.go:1] impossible {i}\n")),
            // Lines after a header: continuations, or skipped after an impossible one.
            1 => data.push_str(&format!("  continued {i}\n\tand again {i}\n")),
            2 => data.push_str(&format!(
                "2021-08-03T09:{m:02}:{s:02}.{i:09}Z E0803 09:{m:02}:{s:02}.000000       1 sync_worker.go:1] failed {i}\n"
            )),
            _ => data.push_str(&format!(
                "I0803 09:{m:02}:{s:02}.{i:06}       1 sync_worker.go:541] Running sync for configmap \"ns/cm-{}\" ({} of 7)\n",
                i % 7,
                i % 7 + 1
            )),
        }
    }
    data.push_str("I0803 09:59:59.000000       1 cvo.go:1] last\n  its continuation");
    let data = data.as_bytes();
    let (seq, _) = parse_cvo_log(data, prov(), "cvo".into(), LogFile::Current);
    assert!(seq.records.len() > 60, "{} records", seq.records.len());
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for block in [64, 100, 128, 200, 256, 333, 512, 1000, 4096] {
            let par = pool.install(|| parse_cvo_log_in_blocks(data, block, prov(), "cvo".into()));
            same_records(
                &seq,
                &par,
                &format!("blocks of {block} on {threads} threads"),
            );
        }
    }
}
