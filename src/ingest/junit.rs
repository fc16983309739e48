//! JUnit XML (openshift-tests, ci-operator, our own output): test cases with their suite,
//! duration and outcome. ANSI escape sequences (raw ESC bytes, invalid in XML) are stripped
//! before parsing.

use super::ParseError;
use crate::model::{JunitCase, JunitStatus, Provenance};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

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

fn attr(e: &BytesStart, name: &[u8]) -> Option<String> {
    e.attributes()
        .filter_map(Result::ok)
        .find(|a| a.key.as_ref() == name)
        .and_then(|a| a.unescape_value().ok().map(|v| v.to_string()))
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
pub fn parse_junit(data: &[u8], prov: &Provenance) -> Result<Vec<JunitCase>, ParseError> {
    let clean = strip_ansi(data);
    let text = String::from_utf8_lossy(&clean);
    let mut reader = Reader::from_str(&text);
    let mut cases = Vec::new();
    let mut suites: Vec<String> = Vec::new();
    let mut current: Option<JunitCase> = None;
    // While inside <failure>/<error>/<skipped>: collect body text when no message attribute.
    let mut in_outcome = false;
    let mut body = String::new();
    let mut saw_root = false;
    loop {
        let pos = reader.buffer_position();
        let ev = reader.read_event().map_err(|e| ParseError::Xml {
            pos,
            message: e.to_string(),
        })?;
        match ev {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(ev, Event::Empty(_));
                let name = e.local_name();
                match name.as_ref() {
                    b"testsuites" => saw_root = true,
                    b"testsuite" => {
                        saw_root = true;
                        if !empty {
                            suites.push(attr(e, b"name").unwrap_or_default());
                        }
                    }
                    b"testcase" => {
                        let case = JunitCase {
                            suite: suites.last().cloned().unwrap_or_default(),
                            classname: attr(e, b"classname").unwrap_or_default(),
                            name: attr(e, b"name").unwrap_or_default(),
                            time_secs: attr(e, b"time").and_then(|t| t.parse().ok()),
                            status: JunitStatus::Passed,
                            message: String::new(),
                            prov: prov.clone(),
                        };
                        if empty {
                            cases.push(case);
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
                            c.message = attr(e, b"message").unwrap_or_default();
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
            Event::End(ref e) => match e.local_name().as_ref() {
                b"testsuite" => {
                    suites.pop();
                }
                b"testcase" => {
                    if let Some(c) = current.take() {
                        cases.push(c);
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
            },
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_root {
        return Err(ParseError::Shape("no <testsuite> or <testsuites> element"));
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prov() -> Provenance {
        Provenance::detached("in", "junit.xml")
    }

    #[test]
    fn cases_with_outcomes_and_ansi() {
        let xml = b"<?xml version=\"1.0\"?>\n<testsuite name=\"Cluster upgrade\" tests=\"3\">\n<testcase classname=\"upgrade\" name=\"[sig-cluster-lifecycle] Cluster completes upgrade\" time=\"2564.5\"/>\n<testcase name=\"Operator upgrade etcd\" time=\"1\"><failure message=\"\x1b[1mboom\x1b[0m &amp; more\">details</failure></testcase>\n<testcase name=\"skipped one\"><skipped message=\"\"/></testcase>\n<testcase name=\"err\"><error type=\"Panic\"><![CDATA[panic: x < y]]></error></testcase>\n</testsuite>";
        let c = parse_junit(xml, &prov()).unwrap();
        assert_eq!(c.len(), 4);
        assert_eq!(c[0].status, JunitStatus::Passed);
        assert_eq!(c[0].time_secs, Some(2564.5));
        assert_eq!(c[0].suite, "Cluster upgrade");
        assert_eq!(c[1].status, JunitStatus::Failed);
        assert_eq!(c[1].message, "boom & more");
        assert_eq!(c[2].status, JunitStatus::Skipped);
        assert_eq!(c[3].status, JunitStatus::Error);
        assert_eq!(c[3].message, "panic: x < y");
    }

    #[test]
    fn not_junit_is_an_error() {
        let err = parse_junit(b"<html></html>", &prov()).unwrap_err();
        assert_eq!(err.to_string(), "no <testsuite> or <testsuites> element");
    }
}
