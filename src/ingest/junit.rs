//! JUnit XML (openshift-tests, ci-operator, our own output): test cases with their suite,
//! duration and outcome. ANSI escape sequences (raw ESC bytes, invalid in XML) are stripped
//! before parsing; UTF-16 files (with a byte order mark, or starting `<` and a NUL) are
//! decoded. Attributes are read in one pass per element (duplicates counted, the first kept),
//! so an element with many attributes costs linear time. A file that ends while elements are
//! still open (a cut upload) keeps the test cases completed before the cut, with a note.

use super::ParseError;
use crate::model::{JunitCase, JunitStatus, Provenance};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use std::borrow::Cow;

/// What a JUnit file gave: its test cases, and notes on what was wrong with it (warnings).
#[derive(Debug, Default)]
pub struct Junit {
    pub cases: Vec<JunitCase>,
    pub notes: Vec<String>,
}

/// Removes ANSI escape sequences (`ESC [ ... letter`) and other stray ESC bytes.
pub fn strip_ansi(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while i < data.len() {
        if data[i] == 0x1b {
            i += 1;
            if data.get(i) == Some(&b'[') {
                i += 1;
                while i < data.len() && !(0x40..=0x7e).contains(&data[i]) {
                    i += 1;
                }
                i += 1; // the final byte
            }
            continue;
        }
        out.push(data[i]);
        i += 1;
    }
    out
}

/// The byte order of a UTF-16 document: from its byte order mark, else from a first `<`
/// next to a NUL. `None` for anything else (read as UTF-8).
fn utf16_order(data: &[u8]) -> Option<(bool, usize)> {
    match data {
        [0xff, 0xfe, ..] => Some((true, 2)),
        [0xfe, 0xff, ..] => Some((false, 2)),
        [b'<', 0, ..] => Some((true, 0)),
        [0, b'<', ..] => Some((false, 0)),
        _ => None,
    }
}

/// Decodes UTF-16 (`little` endian or big) to UTF-8; unpaired surrogates and an odd last
/// byte become U+FFFD.
fn decode_utf16(data: &[u8], little: bool) -> String {
    let units = data.chunks(2).map(|c| match (c, little) {
        ([a, b], true) => u16::from_le_bytes([*a, *b]),
        ([a, b], false) => u16::from_be_bytes([*a, *b]),
        _ => 0xfffd,
    });
    char::decode_utf16(units)
        .map(|r| r.unwrap_or('\u{fffd}'))
        .collect()
}

/// The attributes of one element that mglint reads, in one pass over them; the first of
/// duplicate names is kept, and the duplicates are counted.
struct Attrs {
    values: [Option<String>; 4],
    duplicates: usize,
}

const ATTRS: [&[u8]; 4] = [b"name", b"classname", b"time", b"message"];

fn attrs(e: &BytesStart) -> Attrs {
    let mut out = Attrs {
        values: Default::default(),
        duplicates: 0,
    };
    // The reader's own duplicate check compares each attribute with every earlier one
    // (quadratic); names are compared here after sorting instead.
    let mut names: Vec<&[u8]> = Vec::new();
    for a in e.attributes().with_checks(false).filter_map(Result::ok) {
        let key: &[u8] = a.key.into_inner();
        if let Some(i) = ATTRS.iter().position(|k| *k == key)
            && out.values[i].is_none()
        {
            out.values[i] = Some(
                a.unescape_value()
                    .map(|v| v.to_string())
                    .unwrap_or_default(),
            );
        }
        names.push(key);
    }
    if names.len() > 1 {
        names.sort_unstable();
        out.duplicates = names.windows(2).filter(|w| w[0] == w[1]).count();
    }
    out
}

fn resolve_ref(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        n => {
            let n = n.strip_prefix('#')?;
            let code = match n.strip_prefix('x').or_else(|| n.strip_prefix('X')) {
                Some(h) => u32::from_str_radix(h, 16).ok()?,
                None => n.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

/// Parses a JUnit document into test cases.
pub fn parse_junit(data: &[u8], prov: &Provenance) -> Result<Junit, ParseError> {
    let text: Cow<'_, str> = match utf16_order(data) {
        Some((little, skip)) => Cow::Owned(decode_utf16(&data[skip..], little)),
        None => match std::str::from_utf8(data) {
            Ok(t) => Cow::Borrowed(t),
            Err(_) => Cow::Owned(String::from_utf8_lossy(data).into_owned()),
        },
    };
    let clean = if text.contains('\u{1b}') {
        Cow::Owned(String::from_utf8_lossy(&strip_ansi(text.as_bytes())).into_owned())
    } else {
        text
    };
    let mut reader = Reader::from_str(&clean);
    let mut out = Junit::default();
    let mut suites: Vec<String> = Vec::new();
    let mut current: Option<JunitCase> = None;
    // While inside <failure>/<error>/<skipped>: collect body text when no message attribute.
    let mut in_outcome = false;
    let mut body = String::new();
    let mut saw_root = false;
    let mut duplicates = 0usize;
    // Elements open at this point, innermost last (their local names).
    let mut open: Vec<String> = Vec::new();
    // Set when the file ends in the middle of markup (what the reader said).
    let mut cut_in_markup: Option<String> = None;
    loop {
        let pos = reader.buffer_position();
        let ev = match reader.read_event() {
            Ok(ev) => ev,
            // Every syntax error is "the input ended before the markup closed": a file cut
            // in the middle of a tag, comment or CDATA. Once inside the document, that is a
            // truncation like any other, and the cases before it are kept.
            Err(quick_xml::Error::Syntax(e)) if saw_root => {
                cut_in_markup = Some(e.to_string());
                break;
            }
            Err(e) => {
                return Err(ParseError::Xml {
                    pos,
                    message: e.to_string(),
                });
            }
        };
        match ev {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(ev, Event::Empty(_));
                let name = e.local_name();
                if !empty {
                    open.push(String::from_utf8_lossy(name.as_ref()).into_owned());
                }
                match name.as_ref() {
                    b"testsuites" => saw_root = true,
                    b"testsuite" => {
                        saw_root = true;
                        if !empty {
                            let mut a = attrs(e);
                            duplicates += a.duplicates;
                            suites.push(a.values[0].take().unwrap_or_default());
                        }
                    }
                    b"testcase" => {
                        let a = attrs(e);
                        duplicates += a.duplicates;
                        let [name, classname, time, _] = a.values;
                        let case = JunitCase {
                            suite: suites.last().cloned().unwrap_or_default(),
                            classname: classname.unwrap_or_default(),
                            name: name.unwrap_or_default(),
                            time_secs: time.and_then(|t| t.parse().ok()),
                            status: JunitStatus::Passed,
                            message: String::new(),
                            prov: prov.clone(),
                        };
                        if empty {
                            out.cases.push(case);
                        } else {
                            current = Some(case);
                        }
                    }
                    tag @ (b"failure" | b"error" | b"skipped") => {
                        if let Some(c) = current.as_mut() {
                            c.status = match tag {
                                b"failure" => JunitStatus::Failed,
                                b"error" => JunitStatus::Error,
                                _ => JunitStatus::Skipped,
                            };
                            let a = attrs(e);
                            duplicates += a.duplicates;
                            let [_, _, _, message] = a.values;
                            c.message = message.unwrap_or_default();
                            if !empty {
                                in_outcome = true;
                                body.clear();
                            }
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_outcome => body.push_str(&t.decode().unwrap_or_default()),
            Event::CData(t) if in_outcome => body.push_str(&t.decode().unwrap_or_default()),
            Event::GeneralRef(r) if in_outcome => {
                if let Some(c) = r.decode().ok().as_deref().and_then(resolve_ref) {
                    body.push(c);
                }
            }
            Event::End(ref e) => {
                open.pop();
                match e.local_name().as_ref() {
                    b"testsuite" => {
                        suites.pop();
                    }
                    b"testcase" => {
                        if let Some(c) = current.take() {
                            out.cases.push(c);
                        }
                    }
                    b"failure" | b"error" | b"skipped" if in_outcome => {
                        if let Some(c) = current.as_mut()
                            && c.message.is_empty()
                        {
                            c.message = body.trim().to_string();
                        }
                        in_outcome = false;
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_root {
        return Err(ParseError::Shape("no <testsuite> or <testsuites> element"));
    }
    if let Some(why) = cut_in_markup {
        out.notes.push(format!(
            "truncated: the file ends in the middle of markup ({why}){}; the {} complete test case{} before the end are kept",
            open.last().map(|o| format!(" inside <{o}>")).unwrap_or_default(),
            out.cases.len(),
            if out.cases.len() == 1 { "" } else { "s" },
        ));
    } else if let Some(inner) = open.last() {
        out.notes.push(format!(
            "truncated: the file ends inside <{inner}> ({} element{} left open); the {} complete test case{} before the end are kept",
            open.len(),
            if open.len() == 1 { "" } else { "s" },
            out.cases.len(),
            if out.cases.len() == 1 { "" } else { "s" },
        ));
    }
    if duplicates > 0 {
        out.notes.push(format!(
            "{duplicates} duplicate attribute{} (the first of each name is used)",
            if duplicates == 1 { "" } else { "s" }
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prov() -> Provenance {
        Provenance::detached("in", "junit.xml")
    }

    const SUITE: &str = "<?xml version=\"1.0\"?>\n<testsuite name=\"Cluster upgrade\" tests=\"3\">\n<testcase classname=\"upgrade\" name=\"[sig-cluster-lifecycle] Cluster completes upgrade\" time=\"2564.5\"/>\n<testcase name=\"Operator upgrade etcd\" time=\"1\"><failure message=\"\x1b[1mboom\x1b[0m &amp; more\">details</failure></testcase>\n<testcase name=\"skipped one\"><skipped message=\"\"/></testcase>\n<testcase name=\"err\"><error type=\"Panic\"><![CDATA[panic: x < y]]></error></testcase>\n</testsuite>";

    fn check_suite(j: &Junit) {
        let c = &j.cases;
        assert_eq!(c.len(), 4);
        assert_eq!(c[0].status, JunitStatus::Passed);
        assert_eq!(c[0].time_secs, Some(2564.5));
        assert_eq!(c[0].suite, "Cluster upgrade");
        assert_eq!(c[0].classname, "upgrade");
        assert_eq!(c[1].status, JunitStatus::Failed);
        assert_eq!(c[1].message, "boom & more");
        assert_eq!(c[2].status, JunitStatus::Skipped);
        assert_eq!(c[3].status, JunitStatus::Error);
        assert_eq!(c[3].message, "panic: x < y");
    }

    #[test]
    fn cases_with_outcomes_and_ansi() {
        let j = parse_junit(SUITE.as_bytes(), &prov()).unwrap();
        check_suite(&j);
        assert!(j.notes.is_empty(), "{:?}", j.notes);
    }

    #[test]
    fn not_junit_is_an_error() {
        let err = parse_junit(b"<html></html>", &prov()).unwrap_err();
        assert_eq!(err.to_string(), "no <testsuite> or <testsuites> element");
    }

    #[test]
    fn utf16_is_decoded_in_either_byte_order_with_or_without_a_bom() {
        let text = SUITE.replace("version=\"1.0\"", "version=\"1.0\" encoding=\"UTF-16\"");
        let units: Vec<u16> = text.encode_utf16().collect();
        let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
        for (what, data) in [
            ("LE with BOM", [&[0xff, 0xfe][..], &le].concat()),
            ("BE with BOM", [&[0xfe, 0xff][..], &be].concat()),
            ("LE", le.clone()),
            ("BE", be.clone()),
        ] {
            let j = parse_junit(&data, &prov()).unwrap_or_else(|e| panic!("{what}: {e}"));
            check_suite(&j);
        }
    }

    #[test]
    fn a_truncated_file_keeps_its_complete_cases_and_says_so() {
        let cut = &SUITE[..SUITE.find("<testcase name=\"skipped one\">").unwrap() + 29];
        let j = parse_junit(cut.as_bytes(), &prov()).unwrap();
        assert_eq!(j.cases.len(), 2);
        assert_eq!(j.cases[1].status, JunitStatus::Failed);
        assert_eq!(
            j.notes,
            [
                "truncated: the file ends inside <testcase> (2 elements left open); the 2 complete test cases before the end are kept"
            ]
        );
    }

    #[test]
    fn a_file_cut_at_any_byte_inside_the_document_keeps_the_cases_before_the_cut() {
        let root_end = SUITE.find("tests=\"3\">").unwrap() + 11;
        // Where each case ends: its `/>` or its `</testcase>`.
        let mut ends = vec![SUITE.find("/>").unwrap() + 2];
        ends.extend(SUITE.match_indices("</testcase>").map(|(i, m)| i + m.len()));
        for cut in root_end..SUITE.len() {
            let j = parse_junit(&SUITE.as_bytes()[..cut], &prov())
                .unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
            let complete = ends.iter().filter(|e| **e <= cut).count();
            assert_eq!(j.cases.len(), complete, "cut at {cut}");
            assert!(
                j.notes.len() == 1 && j.notes[0].starts_with("truncated: the file ends "),
                "cut at {cut}: {:?}",
                j.notes
            );
        }
        let mid_tag = &SUITE[..SUITE.find("<testcase name=\"err\"").unwrap() + 12];
        assert_eq!(
            parse_junit(mid_tag.as_bytes(), &prov()).unwrap().notes,
            [
                "truncated: the file ends in the middle of markup (tag not closed: `>` not found before end of input) inside <testsuite>; the 3 complete test cases before the end are kept"
            ]
        );
    }

    #[test]
    fn duplicate_attributes_keep_the_first_and_are_counted() {
        let xml = br#"<testsuite name="s"><testcase name="a" time="2" name="b" x="1" x="2" x="3"/></testsuite>"#;
        let j = parse_junit(xml, &prov()).unwrap();
        assert_eq!(j.cases[0].name, "a");
        assert_eq!(j.cases[0].time_secs, Some(2.0));
        assert_eq!(
            j.notes,
            ["3 duplicate attributes (the first of each name is used)"]
        );
    }
}
