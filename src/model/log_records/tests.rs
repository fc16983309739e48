//! Tests of the log-record store: records read back as written, joins, coding edge cases.

use super::code::{get, put, put_u64};
use super::messages::{BATCH, MessageTable, SHARED_MAX};
use super::*;

fn abs(s: &str) -> RecordTime {
    RecordTime::Absolute(crate::vocab::time::parse_rfc3339(s).unwrap())
}

#[test]
fn records_read_back_as_written() {
    let mut b = RecordsBuilder::default();
    b.push(
        abs("2021-08-03T09:31:43.209596123Z"),
        'I',
        "Running sync",
        1,
        0,
        40,
    );
    b.push(
        abs("2021-08-03T09:31:43.1Z"),
        'E',
        "Multiple errors",
        2,
        40,
        30,
    );
    b.continue_message("* etcd is degraded", 1 << 20);
    b.extend_open_to(120);
    let p = PartialTime::new(12, 31, 23, 59, 59, 500_000_000).unwrap();
    b.push(RecordTime::Partial(p), 'W', "Running sync", 9, 500, 12);
    b.push(
        abs("1969-12-31T23:59:59.5Z"),
        'F',
        "before the epoch",
        10,
        512,
        7,
    );
    let r = b.finish();
    assert_eq!(r.len(), 4);
    assert!(r.has_partial());
    let v: Vec<LogRecord<'_>> = r.iter().collect();
    assert_eq!(v[0].message, "Running sync");
    assert_eq!(v[0].message_id, v[2].message_id);
    assert_eq!(
        v[0].time.map(|t| crate::model::fmt_ms(&t)),
        Some(crate::model::fmt_ms(
            &crate::vocab::time::parse_rfc3339("2021-08-03T09:31:43.209596123Z").unwrap()
        ))
    );
    assert_eq!(
        (v[1].level, v[1].message, v[1].line, v[1].offset, v[1].len),
        ('E', "Multiple errors\n* etcd is degraded", 2, 40, 80)
    );
    assert_eq!(
        (v[2].time, v[2].level, v[2].line, v[2].offset),
        (None, 'W', 9, 500)
    );
    assert_eq!(
        v[3].time,
        crate::vocab::time::parse_rfc3339("1969-12-31T23:59:59.5Z")
    );
    let mut r = r;
    let yi =
        crate::model::YearInference::new(crate::vocab::time::parse_rfc3339("2022-01-01T01:00:00Z"));
    r.resolve(|p| yi.resolve(p));
    assert!(!r.has_partial());
    let t = r.iter().nth(2).and_then(|x| x.time).unwrap();
    assert_eq!(crate::model::fmt_k8s(&t), "2021-12-31T23:59:59Z");
}

/// The earliest and latest time, as a reading of every record finds them.
fn span_by_reading(r: &LogRecords) -> Option<(Time, Time)> {
    let times: Vec<Time> = r.iter().filter_map(|x| x.time).collect();
    Some((*times.iter().min()?, *times.iter().max()?))
}

#[test]
fn the_span_kept_while_coding_is_the_one_reading_finds() {
    // Out of order, a partial stamp that resolves outside the absolute times, and a time
    // before the epoch, over two appended parts.
    let part = |stamps: &[&str], partial: Option<PartialTime>| {
        let mut b = RecordsBuilder::default();
        for (i, s) in stamps.iter().enumerate() {
            b.push(abs(s), 'I', s, i as u32 + 1, i as u64 * 10, 10);
        }
        if let Some(p) = partial {
            b.push(RecordTime::Partial(p), 'W', "partial", 99, 990, 10);
        }
        b.finish()
    };
    let first = part(&["2021-08-03T09:31:43.5Z", "2021-08-03T09:31:40Z"], None);
    assert_eq!(first.span(), span_by_reading(&first));
    let only_partial = part(&[], PartialTime::new(1, 2, 3, 4, 5, 6));
    assert_eq!(
        (only_partial.span(), span_by_reading(&only_partial)),
        (None, None)
    );
    let mut all = Appender::default();
    all.push(first, 0);
    all.push(
        part(
            &["1969-12-31T23:59:59.5Z", "2021-08-03T09:31:41.000000001Z"],
            PartialTime::new(12, 31, 23, 59, 59, 0),
        ),
        0,
    );
    let mut r = all.finish();
    assert_eq!(r.span(), span_by_reading(&r));
    assert_eq!(
        r.span().map(|(lo, _)| crate::model::fmt_k8s(&lo)),
        Some("1969-12-31T23:59:59Z".to_string())
    );
    let yi =
        crate::model::YearInference::new(crate::vocab::time::parse_rfc3339("2022-01-01T01:00:00Z"));
    r.resolve(|p| yi.resolve(p));
    assert_eq!(r.span(), span_by_reading(&r));
    assert_eq!(
        r.span().map(|(_, hi)| crate::model::fmt_k8s(&hi)),
        Some("2021-12-31T23:59:59Z".to_string())
    );
}

#[test]
fn appended_parts_share_one_message_table() {
    let part = |first: u32| {
        let mut b = RecordsBuilder::default();
        for i in 0..3 {
            let m = if i == 1 { "same" } else { "other" };
            let t = abs("2021-08-03T09:31:43Z");
            b.push(t, 'I', m, first + i, u64::from(first + i) * 10, 10);
        }
        b.finish()
    };
    let mut all = Appender::default();
    all.push(part(1), 0);
    all.push(LogRecords::default(), 3);
    // Numbered from its own start, joined after the 3 lines before it.
    all.push(part(1), 3);
    let mut r = all.finish();
    assert_eq!(r.len(), 6);
    assert_eq!(r.iter().len(), 6);
    assert_eq!(r.messages().len(), 2);
    let lines: Vec<u32> = r.iter().map(|x| x.line).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5, 6]);
    let ids: Vec<u32> = r.iter().map(|x| x.message_id).collect();
    assert_eq!(ids[1], ids[4]);
    assert_eq!(r.iter().filter(|x| x.message == "same").count(), 2);
    r.resolve(|_| None);
    assert_eq!(r.iter().map(|x| x.line).collect::<Vec<_>>(), lines);
}

#[test]
fn times_read_back_across_days_and_before_1970() {
    let times = [
        "1969-12-31T23:59:59.999999999Z",
        "1970-01-01T00:00:00Z",
        "1969-12-31T00:00:00.5Z",
        "2021-06-01T23:59:59.75Z",
        "2021-06-02T00:00:00Z",
        "2021-06-01T12:00:00Z",
        "2021-06-01T12:00:01.000000001Z",
        "2262-04-11T23:47:16.854775807Z",
        "2262-04-11T23:47:16.854775808Z",
        "9999-12-31T23:59:59.999999999Z",
    ];
    let mut b = RecordsBuilder::default();
    for (i, t) in times.iter().enumerate() {
        b.push(abs(t), 'I', "m", i as u32 + 1, i as u64 * 10, 10);
    }
    let got: Vec<Option<Time>> = b.finish().iter().map(|r| r.time).collect();
    let want: Vec<Option<Time>> = times
        .iter()
        .map(|t| crate::vocab::time::parse_rfc3339(t))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn past_the_shared_ids_a_text_of_the_full_index_gets_its_id_and_others_get_new_ones() {
    // Past SHARED_MAX the index takes no more texts and lookups go through its bit
    // filter first: a text it holds (some of them repeated often) still gets its id, a
    // new text or a repeat of one met past the limit gets an id of its own, as a plain
    // lookup in the full index gives.
    let mut table = MessageTable::default();
    let mut model: std::collections::HashMap<String, u32> = Default::default();
    let mut next = 0u32;
    let mut check = |table: &mut MessageTable, text: String| {
        let want = match model.get(&text) {
            Some(&id) => id,
            None => {
                if (next as usize) < SHARED_MAX {
                    model.insert(text.clone(), next);
                }
                next += 1;
                next - 1
            }
        };
        assert_eq!(table.intern(&text), want, "{text}");
    };
    for i in 0..SHARED_MAX as u32 + 50_000 {
        check(
            &mut table,
            format!("Running sync for configmap \"ns/cm-{i}\" ({i} of n)"),
        );
        if i % 7 == 0 {
            // A text of the full index, and (past the limit) one met past it.
            check(
                &mut table,
                format!(
                    "Running sync for configmap \"ns/cm-{}\" ({} of n)",
                    i / 3,
                    i / 3
                ),
            );
        }
    }
    assert!(!table.held.is_empty());
    assert_eq!(table.messages.len(), next as usize);
    // The filter names every text of the index.
    assert_eq!(table.index.len(), SHARED_MAX);
    for tag in table.index.tags() {
        let (word, bit) = MessageTable::held_bit(tag);
        assert_ne!(table.held[word] & bit, 0);
    }
}

#[test]
fn parts_joined_at_once_get_the_ids_interning_one_by_one_gives() {
    // Parts of new texts and repeats of earlier parts' (each part's texts distinct, as its
    // own table gives them), joined with and without their hashes, until the index is
    // full and past it: every id is the one interning each text in order gives.
    let mut rng = crate::vocab::testing::xorshift(0x5EED_1234);
    let mut one = MessageTable::default();
    let mut joined = MessageTable::default();
    let mut seen = 0u64;
    let mut parts = 0;
    while one.messages.len() < SHARED_MAX + 30_000 {
        let mut local = MessageTable::default();
        let mut hashes = Vec::new();
        for _ in 0..rng(6_000) + 1 {
            let k = if rng(3) == 0 {
                rng(seen + 1)
            } else {
                seen += 1;
                seen
            };
            let text = format!("Running sync for configmap \"ns/cm-{k}\"");
            let hash = local.hasher.hash(&text);
            if local.intern_hashed(&text, hash).1 {
                hashes.push(hash);
            }
        }
        let want: Vec<u32> = local.messages.iter().map(|t| one.intern(t)).collect();
        let hashes = if parts % 2 == 0 { &hashes[..] } else { &[] };
        assert_eq!(
            joined.intern_part(&local.messages, hashes),
            want,
            "part {parts}"
        );
        parts += 1;
    }
    assert!(!joined.held.is_empty());
    assert!(one.messages.iter().eq(joined.messages.iter()));
}

#[test]
fn batched_look_ups_find_what_single_ones_find_when_tags_collide() {
    // Hashes made to collide: three tags for 300 texts, so that a text's first candidate
    // is mostly another text's.
    let fake = |text: &str| ((text.len() as u64 % 3) << 32) | text.len() as u64;
    let texts: Vec<String> = (0..300).map(|i| format!("message {i}")).collect();
    let mut table = MessageTable::default();
    for t in &texts[..200] {
        table.add_new(t, fake(t));
    }
    let probe: Vec<&str> = texts.iter().rev().map(String::as_str).collect();
    let hashes: Vec<u64> = probe.iter().map(|t| fake(t)).collect();
    let mut got = Vec::new();
    for (h, t) in hashes.chunks(BATCH).zip(probe.chunks(BATCH)) {
        table.find_batch(h, t, &mut got);
    }
    let want: Vec<u32> = (0..300u32)
        .rev()
        .map(|i| if i < 200 { i } else { u32::MAX })
        .collect();
    assert_eq!(got, want);
    let single: Vec<u32> = probe
        .iter()
        .zip(&hashes)
        .map(|(t, &h)| table.find(h, t).unwrap_or(u32::MAX))
        .collect();
    assert_eq!(single, want);
}

#[test]
fn predicted_messages_get_the_ids_a_lookup_gives() {
    // Passes that mostly repeat, but skip, swap and add messages: whether a prediction
    // is right or wrong, a text has one id, the one it got first.
    let t = abs("2021-06-01T00:00:00Z");
    let mut b = RecordsBuilder::default();
    let mut texts = Vec::new();
    for pass in 0..50u32 {
        for m in 0..40u32 {
            let m = match (pass % 3, m) {
                (1, 7) => continue,
                (2, 3) => 4,
                (2, 4) => 3,
                (0, 39) => 100 + pass,
                _ => m,
            };
            texts.push(format!(
                "Running sync for configmap \"ns/cm-{m}\" ({m} of 40)"
            ));
        }
    }
    for (i, text) in texts.iter().enumerate() {
        b.push(t, 'I', text, i as u32 + 1, i as u64 * 100, 100);
    }
    let r = b.finish();
    let mut first: std::collections::HashMap<&str, u32> = Default::default();
    for rec in r.iter() {
        let id = *first.entry(rec.message).or_insert(rec.message_id);
        assert_eq!(rec.message_id, id, "{}", rec.message);
    }
    assert_eq!(r.messages().len(), first.len());
    assert_eq!(r.iter().map(|rec| rec.message).collect::<Vec<_>>(), texts);
}

/// `passes` passes over the same 200 manifests in 10 parts (as 4 MiB blocks are), each
/// record `gap(n)` nanoseconds after the one before: the records and what was pushed.
fn steady(passes: u32, gap: impl Fn(i64) -> i64) -> (LogRecords, Vec<(Time, u32, u64)>) {
    let base = crate::vocab::time::parse_rfc3339("2021-06-01T00:00:00Z").unwrap();
    let mut all = Appender::default();
    let mut pushed = Vec::new();
    let (mut line, mut offset, mut n, mut nanos) = (0u32, 0u64, 0i64, 0i64);
    for _part in 0..10 {
        let mut b = RecordsBuilder::default();
        for _pass in 0..passes / 10 {
            for m in 0..200 {
                let msg = format!("Running sync for configmap \"ns/cm-{m}\" ({m} of 200)");
                let len = 80 + msg.len() as u32;
                nanos += gap(n);
                let t = base
                    .checked_add_signed(chrono::TimeDelta::nanoseconds(nanos))
                    .unwrap();
                line += 1;
                n += 1;
                b.push(RecordTime::Absolute(t), 'I', &msg, line, offset, len);
                pushed.push((t, line, offset));
                offset += u64::from(len);
            }
        }
        all.push(b.finish(), 0);
    }
    (all.finish(), pushed)
}

/// A pass that repeats the one before it (the same messages in the same order, as far apart)
/// costs a byte a record: its message, line, offset, length and time are each the one
/// predicted, and only the flags that say so are stored (a part's first pass, predicted from
/// nothing, costs more). A time a few nanoseconds off is held in the same byte; the records
/// read back as pushed either way.
#[test]
fn steady_passes_cost_a_byte_a_record() {
    // A pass every 3 minutes: the first record of each comes a gap after the pass before.
    let gap = |n: i64| {
        if n % 200 == 0 {
            180_000_000_000
        } else {
            2_000_000
        }
    };
    let (r, pushed) = steady(1000, gap);
    assert_eq!((r.len(), r.messages().len()), (200_000, 200));
    let per_record = r.coded_bytes() as f64 / r.len() as f64;
    assert!(per_record < 1.1, "{per_record} bytes a record");
    // Times a nanosecond or two off what the pass before had (a clock's jitter).
    let jitter = |n: i64| gap(n) + (n * 7919 % 5) - 2;
    let (j, pushed_j) = steady(1000, jitter);
    let per_record = j.coded_bytes() as f64 / j.len() as f64;
    assert!(per_record < 1.1, "{per_record} bytes a record");
    for (r, pushed) in [(&r, &pushed), (&j, &pushed_j)] {
        let got: Vec<(Time, u32, u64)> = r
            .iter()
            .map(|x| (x.time.unwrap(), x.line, x.offset))
            .collect();
        assert_eq!(&got, pushed);
        let last = r.iter().last().unwrap();
        assert_eq!(
            last.message,
            "Running sync for configmap \"ns/cm-199\" (199 of 200)"
        );
    }
}

/// A record that repeats its place in the pass before is one byte while its time is within
/// the 64 ns that byte holds, either side; one further off, at another level or with a
/// year-less stamp after full ones is coded in full. Each reads back as pushed.
#[test]
fn a_repeated_record_is_one_byte_within_its_time_range_and_full_outside_it() {
    let base = crate::vocab::time::parse_rfc3339("2021-06-01T00:00:00Z").unwrap();
    let msgs = ["Running sync for a", "Done syncing for a"];
    // Two passes alike, then a third whose second record is `off` ns from the prediction,
    // at `level`, its time partial or not.
    let third = |off: i64, level: char, partial: bool| {
        let mut b = RecordsBuilder::default();
        let mut want = Vec::new();
        let (mut line, mut offset, mut nanos) = (0u32, 0u64, 0i64);
        for pass in 0..3 {
            for (i, msg) in msgs.iter().enumerate() {
                nanos += 1_000_000 + if pass == 2 && i == 1 { off } else { 0 };
                let t = base
                    .checked_add_signed(chrono::TimeDelta::nanoseconds(nanos))
                    .unwrap();
                let odd = pass == 2 && i == 1;
                let (lv, time) = match (odd, partial) {
                    (true, true) => (
                        'I',
                        RecordTime::Partial(PartialTime {
                            month: 6,
                            day: 1,
                            nanos: nanos as u64,
                        }),
                    ),
                    (true, false) => (level, RecordTime::Absolute(t)),
                    _ => ('I', RecordTime::Absolute(t)),
                };
                line += 1;
                let len = 60 + msg.len() as u32;
                b.push(time, lv, msg, line, offset, len);
                want.push((time, lv, *msg, line, offset, len));
                offset += u64::from(len);
                if odd {
                    // Back in step for the record after it.
                    nanos -= off;
                }
            }
        }
        let r = b.finish();
        let got: Vec<_> = r
            .segments
            .iter()
            .flat_map(|s| {
                let mut rd = super::read::SegReader::new(s, &r.messages);
                std::iter::from_fn(move || rd.next()).collect::<Vec<_>>()
            })
            .zip(r.iter())
            .map(|(raw, rec)| {
                (
                    raw.time.decode(&mut None),
                    rec.level,
                    rec.message,
                    rec.line,
                    rec.offset,
                    rec.len,
                )
            })
            .collect();
        assert_eq!(got, want, "{off} {level} {partial}");
        r.coded_bytes()
    };
    let exact = third(0, 'I', false);
    for off in [1, -1, 63, -64] {
        assert_eq!(
            third(off, 'I', false),
            exact,
            "{off} ns off is still one byte"
        );
    }
    for off in [64, -65, 1_000_000] {
        assert!(
            third(off, 'I', false) > exact + 1,
            "{off} ns off is coded in full"
        );
    }
    assert!(
        third(0, 'W', false) > exact,
        "another level is coded in full"
    );
    assert!(
        third(0, 'I', true) > exact,
        "a year-less stamp is coded in full"
    );
}

/// The varint as one byte at a time in 128-bit arithmetic writes and reads it.
fn put_by_byte(out: &mut Vec<u8>, mut v: u128) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[test]
fn varints_are_the_bytes_of_seven_bits_each_and_read_back() {
    let mut rand = crate::vocab::testing::xorshift_words(0x2545_f491_4f6c_dd1d);
    let mut values: Vec<u128> = Vec::new();
    for bit in 0..128 {
        let p = 1u128 << bit;
        values.extend([p - 1, p, p + 1]);
    }
    values.push(u128::MAX);
    for _ in 0..10_000 {
        let (hi, lo) = (u128::from(rand()), u128::from(rand()));
        values.push(((hi << 64) | lo) >> (rand() % 128));
    }
    let (mut data, mut want) = (Vec::new(), Vec::new());
    for &v in &values {
        put(&mut data, v);
        put_by_byte(&mut want, v);
    }
    assert_eq!(data, want);
    // The stack writer the records use writes the same bytes for what fits 64 bits.
    let mut stacked = Vec::new();
    for &v in &values {
        match u64::try_from(v) {
            Ok(v) => {
                let mut buf = [0u8; 10];
                let n = put_u64(&mut buf, v);
                stacked.extend_from_slice(&buf[..n]);
            }
            Err(_) => put(&mut stacked, v),
        }
    }
    assert_eq!(stacked, want);
    let mut at = 0;
    for &v in &values {
        assert_eq!(get(&data, &mut at), v);
    }
    assert_eq!(at, data.len());
    // A varint cut short reads what it has.
    let mut at = 0;
    assert_eq!(get(&[0xff, 0xff], &mut at), 0x3fff);
    assert_eq!(at, 2);
}

/// Arbitrary records (times back and forth, absolute and partial, gaps, continuation
/// lines, long and non-ASCII messages), written in parts and joined, read back as written.
#[test]
fn arbitrary_records_round_trip_through_parts() {
    let mut words = crate::vocab::testing::xorshift_words(0x9e37_79b9_7f4a_7c15);
    let mut rand = move |n: u64| words() % n.max(1);
    let base = crate::vocab::time::parse_rfc3339("2021-06-01T00:00:00Z").unwrap();
    type Want = (Option<Time>, char, String, u32, u64, u32);
    let mut want: Vec<Want> = Vec::new();
    let mut all = Appender::default();
    let (mut line, mut offset) = (0u32, 0u64);
    for _part in 0..7 {
        // Each part numbers its lines from its own start, as a parsed block does.
        let lines_before = line;
        let mut b = RecordsBuilder::default();
        for _ in 0..rand(400) {
            line += 1 + rand(3) as u32;
            offset += rand(2) * rand(5000);
            let msg = match rand(4) {
                0 => format!("Running sync for x{} (é {} of 9)", rand(20), rand(9)),
                1 => "x".repeat(rand(3000) as usize),
                _ => format!("m{}", rand(50)),
            };
            let (time, want_time) = if rand(5) == 0 {
                let p = PartialTime::new(
                    1 + rand(12) as u32,
                    1 + rand(28) as u32,
                    23,
                    59,
                    60,
                    999_999_999,
                )
                .unwrap();
                (RecordTime::Partial(p), None)
            } else {
                let secs = rand(1 << 40) as i64 - (1 << 39);
                let t = base
                    .checked_add_signed(chrono::TimeDelta::nanoseconds(secs))
                    .unwrap();
                (RecordTime::Absolute(t), Some(t))
            };
            let level = ['I', 'W', 'E', 'F'][rand(4) as usize];
            let len = 30 + msg.len() as u32 + rand(3) as u32;
            b.push(time, level, &msg, line - lines_before, offset, len);
            let mut text = msg;
            let mut len = len;
            for _ in 0..rand(3) {
                let cont = format!("* continuation {}", rand(9));
                b.continue_message(&cont, 1 << 20);
                text.push('\n');
                text.push_str(&cont);
                len += 40;
                b.extend_open_to(offset + u64::from(len));
            }
            want.push((want_time, level, text, line, offset, len));
            offset += u64::from(len);
        }
        all.push(b.finish(), lines_before);
    }
    let r = all.finish();
    let got: Vec<Want> = r
        .iter()
        .map(|x| {
            (
                x.time,
                x.level,
                x.message.to_string(),
                x.line,
                x.offset,
                x.len,
            )
        })
        .collect();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "record {i}");
    }
    for x in r.iter() {
        assert_eq!(r.messages().get(x.message_id as usize), Some(x.message));
    }
    assert_eq!(r.span(), span_by_reading(&r));
    assert!(r.span().is_some());
    for prefix in ["Running sync", "m1", "x"] {
        let by_reading = r.iter().filter(|x| x.message.starts_with(prefix)).count();
        assert!(by_reading > 0);
        assert_eq!(
            r.count_where(|m| m.starts_with(prefix)),
            by_reading,
            "{prefix}"
        );
    }
    assert_eq!(r.count_where(|m| m.starts_with("nothing")), 0);
    // Every third id marked: the marked records, each read back in full.
    let marked: Vec<bool> = (0..r.messages().len()).map(|i| i % 3 == 1).collect();
    let by_reading: Vec<LogRecord<'_>> =
        r.iter().filter(|x| marked[x.message_id as usize]).collect();
    assert!(by_reading.len() > 10);
    assert_eq!(r.matching(&marked).collect::<Vec<_>>(), by_reading);
    assert_eq!(r.matching(&[]).count(), 0);
    // Segment by segment, the same records: each iterator stops at its segment's end
    // and knows how many it holds.
    let segments: Vec<Iter<'_>> = r.segments().collect();
    assert!(segments.len() > 1, "{} segments", segments.len());
    let lens: Vec<usize> = segments.iter().map(ExactSizeIterator::len).collect();
    let parts: Vec<Vec<LogRecord<'_>>> = segments.into_iter().map(Iterator::collect).collect();
    assert_eq!(lens, parts.iter().map(Vec::len).collect::<Vec<_>>());
    assert_eq!(parts.concat(), r.iter().collect::<Vec<_>>());
}

/// A part is a seed for later parts only when its messages repeat as a pass's do, and are
/// few and short enough that a copy for every later part costs little.
#[test]
fn a_part_is_a_seed_only_when_its_few_short_messages_repeat() {
    let base = crate::vocab::time::parse_rfc3339("2021-06-01T00:00:00Z").unwrap();
    let part = |texts: &dyn Fn(u32) -> String, records: u32| {
        let mut b = RecordsBuilder::default();
        for i in 0..records {
            let t = base
                .checked_add_signed(chrono::TimeDelta::milliseconds(i64::from(i)))
                .unwrap();
            let msg = texts(i);
            b.push(
                RecordTime::Absolute(t),
                'I',
                &msg,
                i + 1,
                u64::from(i) * 200,
                200,
            );
        }
        b
    };
    let pass = |i: u32| format!("Running sync for configmap \"ns/cm-{}\"", i % 50);
    assert!(part(&pass, 200).seed().is_some(), "four passes of 50");
    assert!(
        part(&pass, 150).seed().is_none(),
        "three passes: too few repeats"
    );
    let distinct = |i: u32| format!("message {i}");
    assert!(part(&distinct, 1000).seed().is_none(), "no repeats");
    let huge = "x".repeat(600 << 10);
    let with_huge = |i: u32| if i == 0 { huge.clone() } else { pass(i) };
    assert!(part(&with_huge, 1000).seed().is_none(), "600 KB of text");
    // A seeded part numbers the seed's messages as the seed did and predicts from them.
    let seed = part(&pass, 200).seed().unwrap();
    let mut b = RecordsBuilder::seeded(&seed);
    assert_eq!(b.message_count(), 50);
    assert_eq!(b.message(7), Some(pass(7).as_str()));
    b.push(RecordTime::Absolute(base), 'I', &pass(3), 1, 0, 200);
    assert_eq!(b.predicted(), Some(4));
}
