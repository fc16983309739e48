//! Alerts JSON read as oc reads it: `json.Unmarshal` of Go's `encoding/json` into oc's
//! `status.AlertData` (`pkg/cli/admin/upgrade/status/alerts.go`), which both `oc adm upgrade
//! status` and `oc adm upgrade recommend` decode the `/api/v1/alerts` response into.
//!
//! Go's rules, each reproduced here (and each pinned by a test below):
//! - keys match struct fields exactly, else case-insensitively (`"Severity"` is the
//!   severity), and a later key for the same field overwrites an earlier one;
//! - unknown keys are skipped whatever their value (an unknown label may be a number);
//! - `null` leaves a field as it was; a value of the wrong JSON type for a field oc has
//!   (a numeric `value`, a numeric `severity`) fails the whole decode, with Go's message
//!   (`json: cannot unmarshal number into Go struct field Alert.data.alerts.value of type
//!   string`), after the rest was read;
//! - an `activeAt` that is not an RFC 3339 string stops the decode (time.Time's own
//!   `UnmarshalJSON`);
//! - a lone UTF-16 surrogate escape (`"\ud800"`) is U+FFFD, not an error;
//! - a document without `data.alerts` (`{}`, an error response with `"data": null`) decodes
//!   to no alerts;
//! - a byte order mark is refused (`invalid character 'ï' looking for beginning of value`):
//!   that one is [`bom_error`], since the mark is gone by the time the text is here.
//!
//! The decode streams (no value tree): an alerts file of 100,000 alerts costs its alerts.

use super::Alert;
use crate::vocab::encoding::Encoding;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The labels oc's `AlertLabels` has (the only ones Go type-checks); others are kept when
/// they are strings and skipped otherwise.
const LABELS: &[&str] = &[
    "alertname",
    "name",
    "namespace",
    "openShiftUpdatePrecheck",
    "poddisruptionbudget",
    "reason",
    "severity",
];

/// The annotations oc's `AlertAnnotations` has.
const ANNOTATIONS: &[&str] = &["description", "message", "runbook_url", "summary"];

/// What a decode found.
#[derive(Debug, Default)]
pub struct GoAlerts {
    /// `status`.
    pub status: String,
    /// `data.alerts`; `None` when the document had none (or `null`).
    pub alerts: Option<Vec<Alert>>,
    /// A top-level `kind` or `apiVersion`: a Kubernetes object, not an API response.
    pub object: bool,
    /// `data.groups`: the `/api/v1/rules` shape, which mglint reads its own way.
    pub groups: bool,
    /// A `data.alerts` key (whatever its value).
    pub alerts_key: bool,
    /// Both `status` and `data` keys: an API response (an error response has `data: null`).
    pub response: bool,
}

/// Why Go's `encoding/json` refuses the document (the text is Go's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoJsonError {
    /// Not JSON at all (the text is serde_json's, but for a cut file, which is Go's).
    Syntax(String),
    /// A value of the wrong JSON type for a field (`UnmarshalTypeError`).
    Type {
        value: &'static str,
        strukt: &'static str,
        field: String,
        ty: &'static str,
    },
    /// A field's own decoder refused its value (`time.Time`).
    Field(String),
}

impl fmt::Display for GoJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoJsonError::Syntax(s) | GoJsonError::Field(s) => f.write_str(s),
            GoJsonError::Type {
                value,
                strukt: "",
                ty,
                ..
            } => {
                write!(
                    f,
                    "json: cannot unmarshal {value} into Go value of type {ty}"
                )
            }
            GoJsonError::Type {
                value,
                strukt,
                field,
                ty,
            } => write!(
                f,
                "json: cannot unmarshal {value} into Go struct field {strukt}.{field} of type {ty}"
            ),
        }
    }
}

impl std::error::Error for GoJsonError {}

/// What Go's `encoding/json` says of a file that starts with a byte order mark: it reads
/// the mark's first byte as a character that cannot begin a value.
pub fn bom_error(enc: Encoding) -> Option<GoJsonError> {
    enc.go_json_first_char().map(|c| {
        GoJsonError::Syntax(format!(
            "invalid character '{c}' looking for beginning of value"
        ))
    })
}

/// Decodes an alerts document as oc's `json.Unmarshal(bytes, &status.AlertData{})` does.
pub fn decode(text: &str) -> Result<GoAlerts, GoJsonError> {
    match decode_full(text) {
        (d, None) => Ok(d),
        (_, Some(e)) => Err(e),
    }
}

/// [`decode`], with what was seen of the document's shape even when Go refuses it.
pub fn decode_full(text: &str) -> (GoAlerts, Option<GoJsonError>) {
    let (out, r) = decode_inner(text);
    (out, r.err())
}

fn decode_inner(text: &str) -> (GoAlerts, Result<(), GoJsonError>) {
    let text = lone_surrogates_replaced(text);
    let mut cx = Cx::default();
    let mut out = GoAlerts::default();
    let mut de = serde_json::Deserializer::from_str(&text);
    let r = DataSeed {
        cx: &mut cx,
        out: &mut out,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end());
    let r = if let Some(e) = cx.fatal {
        Err(e)
    } else if let Err(e) = r {
        Err(GoJsonError::Syntax(syntax_text(&e)))
    } else {
        cx.saved.map_or(Ok(()), Err)
    };
    (out, r)
}

/// serde_json's syntax error as Go words the one case both share (the input ended early).
fn syntax_text(e: &serde_json::Error) -> String {
    if e.is_eof() {
        return "unexpected end of JSON input".into();
    }
    let t = e.to_string();
    match t.find(" at line ") {
        Some(i) => t[..i].to_string(),
        None => t,
    }
}

/// The text with every unpaired `\uD800`–`\uDFFF` escape written `\uFFFD` (same length), as
/// Go decodes it; serde_json would refuse the document.
fn lone_surrogates_replaced(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    if memchr::memmem::find(b, b"\\u").is_none() {
        return std::borrow::Cow::Borrowed(text);
    }
    let hex = |i: usize| -> Option<u16> {
        let s = text.get(i..i + 4)?;
        u16::from_str_radix(s, 16).ok()
    };
    let mut fix: Vec<usize> = Vec::new();
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        match b[i] {
            b'"' => in_str = !in_str,
            b'\\' if in_str => {
                if b.get(i + 1) == Some(&b'u')
                    && let Some(u) = hex(i + 2)
                {
                    if (0xD800..0xDC00).contains(&u) {
                        let low = (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u'))
                            .then(|| hex(i + 8))
                            .flatten();
                        if low.is_some_and(|l| (0xDC00..0xE000).contains(&l)) {
                            i += 12;
                            continue;
                        }
                        fix.push(i + 2);
                    } else if (0xDC00..0xE000).contains(&u) {
                        fix.push(i + 2);
                    }
                    i += 6;
                    continue;
                }
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if fix.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut s = text.as_bytes().to_vec();
    for at in fix {
        s[at..at + 4].copy_from_slice(b"FFFD");
    }
    // Only ASCII hex digits were replaced by ASCII: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8_lossy(&s).into_owned())
}

/// The decode's state: the first type error (Go keeps going and reports it at the end) and
/// a fatal one (Go stops there), and the field names down to the value being read.
#[derive(Default)]
struct Cx {
    saved: Option<GoJsonError>,
    fatal: Option<GoJsonError>,
    path: Vec<&'static str>,
}

impl Cx {
    fn mismatch(&mut self, value: &'static str, strukt: &'static str, ty: &'static str) {
        if self.saved.is_none() {
            self.saved = Some(GoJsonError::Type {
                value,
                strukt,
                field: self.path.join("."),
                ty,
            });
        }
    }
}

/// Go's `foldName`: keys compare case-insensitively under Unicode simple folding (`ſ` is
/// `s`, the Kelvin sign is `k`).
fn fold_eq(key: &str, name: &str) -> bool {
    // The names are ASCII: an ASCII key folds to one only through ASCII case.
    if key.is_ascii() {
        return key.eq_ignore_ascii_case(name);
    }
    let fold = |c: char| c.to_uppercase().flat_map(char::to_lowercase);
    key.chars().flat_map(fold).eq(name.chars().flat_map(fold))
}

/// The field a key sets among `names`: the exact name first, else one equal under folding.
fn field<'n>(key: &str, names: &[&'n str]) -> Option<&'n str> {
    names
        .iter()
        .find(|n| **n == key)
        .or_else(|| names.iter().find(|n| fold_eq(key, n)))
        .copied()
}

/// The JSON kind of a value, as Go names it in `UnmarshalTypeError`.
struct Kind;

impl<'de> Visitor<'de> for Kind {
    type Value = &'static str;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok("bool")
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok("number")
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok("number")
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok("number")
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok("string")
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok("null")
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok("null")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        while a.next_element::<IgnoredAny>()?.is_some() {}
        Ok("array")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok("object")
    }
}

/// A string value, or the JSON kind it was instead.
enum Str {
    Set(String),
    Other(&'static str),
}

struct StrV;

impl<'de> Visitor<'de> for StrV {
    type Value = Str;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E>(self, s: &str) -> Result<Str, E> {
        Ok(Str::Set(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Str, E> {
        Ok(Str::Set(s))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Str, E> {
        Ok(Str::Other("bool"))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Str, E> {
        Ok(Str::Other("number"))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Str, E> {
        Ok(Str::Other("number"))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Str, E> {
        Ok(Str::Other("number"))
    }
    fn visit_unit<E>(self) -> Result<Str, E> {
        Ok(Str::Other("null"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<Str, A::Error> {
        Kind.visit_seq(a).map(Str::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Str, A::Error> {
        Kind.visit_map(a).map(Str::Other)
    }
}

impl<'de> serde::Deserialize<'de> for Str {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
        d.deserialize_any(StrV)
    }
}

/// Reads a string field into `slot` (Go: `null` leaves it, another kind is a type error).
fn string_field<'de, A: MapAccess<'de>>(
    a: &mut A,
    cx: &mut Cx,
    strukt: &'static str,
    name: &'static str,
    slot: &mut String,
) -> Result<(), A::Error> {
    cx.path.push(name);
    match a.next_value::<Str>()? {
        Str::Set(s) => *slot = s,
        Str::Other("null") => {}
        Str::Other(kind) => cx.mismatch(kind, strukt, "string"),
    }
    cx.path.pop();
    Ok(())
}

/// The visits of the JSON kinds a seed's Go field does not take (a string, a bool, a number,
/// and with `seq` an array): each is recorded as Go's `UnmarshalTypeError`
/// ([`Refuse::refuse`]) and decoding goes on, as Go's does.
macro_rules! refuse_other_kinds {
    (seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<(), A::Error> {
            let k = Kind.visit_seq(a)?;
            self.refuse(k);
            Ok(())
        }
        refuse_other_kinds!();
    };
    () => {
        refuse_other_kinds!(@one visit_str, &str, "string");
        refuse_other_kinds!(@one visit_bool, bool, "bool");
        refuse_other_kinds!(@one visit_i64, i64, "number");
        refuse_other_kinds!(@one visit_u64, u64, "number");
        refuse_other_kinds!(@one visit_f64, f64, "number");
    };
    (@one $visit:ident, $t:ty, $kind:literal) => {
        fn $visit<E>(self, _: $t) -> Result<(), E> {
            self.refuse($kind);
            Ok(())
        }
    };
}

/// A seed's Go field refusing a value of another JSON kind.
trait Refuse {
    /// Records Go's `UnmarshalTypeError` for a value of JSON kind `kind` (`string`,
    /// `number`…), naming the struct the field is in and the field's Go type.
    fn refuse(self, kind: &'static str);
}

/// `status.AlertData`: `status` and `data`.
struct DataSeed<'a> {
    cx: &'a mut Cx,
    out: &'a mut GoAlerts,
}

impl<'de> DeserializeSeed<'de> for DataSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl Refuse for DataSeed<'_> {
    fn refuse(self, kind: &'static str) {
        self.cx.mismatch(kind, "", "status.AlertData");
    }
}

impl<'de> Visitor<'de> for DataSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an alerts response")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        let (mut status, mut data) = (false, false);
        while let Some(key) = a.next_key::<String>()? {
            if fold_eq(&key, "kind") || fold_eq(&key, "apiVersion") {
                self.out.object = true;
            }
            let f = field(&key, &["status", "data"]);
            status |= f == Some("status");
            data |= f == Some("data");
            self.out.response = status && data;
            match f {
                Some("status") => {
                    string_field(&mut a, self.cx, "AlertData", "status", &mut self.out.status)?
                }
                Some(_) => {
                    self.cx.path.push("data");
                    a.next_value_seed(InnerSeed {
                        cx: self.cx,
                        out: self.out,
                    })?;
                    self.cx.path.pop();
                }
                None => {
                    a.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    refuse_other_kinds!(seq);
}

/// `status.Data`: `alerts` (and, for mglint, whether `groups` was there).
struct InnerSeed<'a> {
    cx: &'a mut Cx,
    out: &'a mut GoAlerts,
}

impl<'de> DeserializeSeed<'de> for InnerSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl Refuse for InnerSeed<'_> {
    fn refuse(self, kind: &'static str) {
        self.cx.mismatch(kind, "AlertData", "status.Data");
    }
}

impl<'de> Visitor<'de> for InnerSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the data of an alerts response")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        while let Some(key) = a.next_key::<String>()? {
            if field(&key, &["alerts"]).is_some() {
                self.out.alerts_key = true;
                self.cx.path.push("alerts");
                a.next_value_seed(AlertsSeed {
                    cx: self.cx,
                    out: &mut self.out.alerts,
                })?;
                self.cx.path.pop();
            } else {
                if key == "groups" {
                    self.out.groups = true;
                }
                a.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    refuse_other_kinds!(seq);
}

/// `[]status.Alert`: Go decodes into the elements already there (a repeated `alerts` key
/// overwrites them field by field) and cuts the slice to the new length; `null` makes it nil.
struct AlertsSeed<'a> {
    cx: &'a mut Cx,
    out: &'a mut Option<Vec<Alert>>,
}

impl<'de> DeserializeSeed<'de> for AlertsSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl Refuse for AlertsSeed<'_> {
    fn refuse(self, kind: &'static str) {
        self.cx.mismatch(kind, "Data", "[]status.Alert");
    }
}

impl<'de> Visitor<'de> for AlertsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of alerts")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        let v = self.out.get_or_insert_with(Vec::new);
        let mut i = 0;
        loop {
            if i == v.len() {
                v.push(Alert::default());
            }
            let more = a.next_element_seed(AlertSeed {
                cx: self.cx,
                out: &mut v[i],
            })?;
            if more.is_none() {
                break;
            }
            i += 1;
        }
        v.truncate(i);
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        *self.out = None;
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        let k = Kind.visit_map(a)?;
        self.refuse(k);
        Ok(())
    }
    refuse_other_kinds!();
}

/// One `status.Alert`.
struct AlertSeed<'a> {
    cx: &'a mut Cx,
    out: &'a mut Alert,
}

impl<'de> DeserializeSeed<'de> for AlertSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

const ALERT_FIELDS: &[&str] = &[
    "labels",
    "annotations",
    "state",
    "value",
    "activeAt",
    "partialResponseStrategy",
];

impl Refuse for AlertSeed<'_> {
    fn refuse(self, kind: &'static str) {
        self.cx.mismatch(kind, "Data", "status.Alert");
    }
}

impl<'de> Visitor<'de> for AlertSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an alert")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        let cx = self.cx;
        let out = self.out;
        let mut unused = String::new();
        while let Some(key) = a.next_key::<String>()? {
            match field(&key, ALERT_FIELDS) {
                Some(f @ ("labels" | "annotations")) => {
                    let (names, strukt, ty, map) = if f == "labels" {
                        (LABELS, "AlertLabels", "status.AlertLabels", &mut out.labels)
                    } else {
                        (
                            ANNOTATIONS,
                            "AlertAnnotations",
                            "status.AlertAnnotations",
                            &mut out.annotations,
                        )
                    };
                    cx.path.push(f);
                    a.next_value_seed(StringsSeed {
                        cx,
                        names,
                        strukt,
                        ty,
                        out: map,
                    })?;
                    cx.path.pop();
                }
                Some("state") => string_field(&mut a, cx, "Alert", "state", &mut out.state)?,
                Some("value") => string_field(&mut a, cx, "Alert", "value", &mut out.value)?,
                Some("partialResponseStrategy") => {
                    string_field(&mut a, cx, "Alert", "partialResponseStrategy", &mut unused)?
                }
                Some(_) => match a.next_value::<Str>()? {
                    // Go's strict RFC 3339: `T` between date and time, nothing around.
                    Str::Set(s) => match (
                        s.as_bytes().get(10),
                        chrono::DateTime::parse_from_rfc3339(&s),
                    ) {
                        (Some(b'T'), Ok(_)) if s.trim() == s => {
                            out.active_at = crate::vocab::time::parse_rfc3339(&s)
                        }
                        _ => {
                            if cx.fatal.is_none() {
                                cx.fatal = Some(GoJsonError::Field(format!(
                                    "parsing time \"{s}\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"{s}\" as RFC 3339"
                                )));
                            }
                            return Err(de::Error::custom("time"));
                        }
                    },
                    Str::Other("null") => {}
                    Str::Other(_) => {
                        if cx.fatal.is_none() {
                            cx.fatal = Some(GoJsonError::Field(
                                "Time.UnmarshalJSON: input is not a JSON string".into(),
                            ));
                        }
                        return Err(de::Error::custom("time"));
                    }
                },
                None => {
                    a.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    refuse_other_kinds!(seq);
}

/// `AlertLabels` or `AlertAnnotations`: oc's fields type-checked and matched as Go matches
/// them (stored under oc's name); other string entries kept as they are, others skipped.
struct StringsSeed<'a> {
    cx: &'a mut Cx,
    names: &'static [&'static str],
    strukt: &'static str,
    ty: &'static str,
    out: &'a mut std::collections::BTreeMap<String, String>,
}

impl<'de> DeserializeSeed<'de> for StringsSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl Refuse for StringsSeed<'_> {
    fn refuse(self, kind: &'static str) {
        self.cx.mismatch(kind, "Alert", self.ty);
    }
}

impl<'de> Visitor<'de> for StringsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("labels or annotations")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        while let Some(key) = a.next_key::<String>()? {
            match field(&key, self.names) {
                Some(name) => {
                    let mut v = self.out.get(name).cloned().unwrap_or_default();
                    string_field(&mut a, self.cx, self.strukt, name, &mut v)?;
                    if !v.is_empty() || self.out.contains_key(name) {
                        self.out.insert(name.to_string(), v);
                    }
                }
                None => {
                    if let Str::Set(s) = a.next_value::<Str>()? {
                        self.out.insert(key, s);
                    }
                }
            }
        }
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    refuse_other_kinds!(seq);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(alert: &str) -> Result<Alert, GoJsonError> {
        let text = format!(r#"{{"status":"success","data":{{"alerts":[{alert}]}}}}"#);
        let mut a = decode(&text)?.alerts.unwrap();
        assert_eq!(a.len(), 1);
        Ok(a.remove(0))
    }

    // Each expectation below is what Go's encoding/json does with oc's status.AlertData
    // (encoding/json's documented rules: "preferring an exact match but also accepting a
    // case-insensitive match"; type errors reported after "the remaining fields" are read;
    // "invalid UTF-16 surrogate pairs are not treated as an error ... replaced by U+FFFD").

    #[test]
    fn keys_match_case_insensitively_and_the_last_one_wins() {
        let a = one(r#"{"labels":{"alertname":"KubeNodeNotReady","severity":"warning","Severity":"critical"},"State":"firing"}"#).unwrap();
        assert_eq!(a.label("severity"), "critical");
        assert_eq!(a.state, "firing");
        // The exact key after the folded one wins too: document order decides.
        let a = one(r#"{"labels":{"SEVERITY":"critical","severity":"info"}}"#).unwrap();
        assert_eq!(a.label("severity"), "info");
        // Unicode simple folding: ſ (U+017F) folds to s.
        let a = one(r#"{"labels":{"ſeverity":"critical"}}"#).unwrap();
        assert_eq!(a.label("severity"), "critical");
        let a = one(r#"{"Labels":{"AlertName":"A"},"ACTIVEAT":"2024-05-01T10:00:00Z"}"#).unwrap();
        assert_eq!(a.label("alertname"), "A");
        assert!(a.active_at.is_some());
    }

    #[test]
    fn a_wrong_type_for_a_field_oc_has_fails_the_whole_decode() {
        assert_eq!(
            one(r#"{"labels":{"alertname":"A"},"value":1.5}"#)
                .unwrap_err()
                .to_string(),
            "json: cannot unmarshal number into Go struct field Alert.data.alerts.value of type string"
        );
        assert_eq!(
            one(r#"{"labels":{"alertname":"A","severity":2}}"#)
                .unwrap_err()
                .to_string(),
            "json: cannot unmarshal number into Go struct field AlertLabels.data.alerts.labels.severity of type string"
        );
        assert_eq!(
            decode("[]").unwrap_err().to_string(),
            "json: cannot unmarshal array into Go value of type status.AlertData"
        );
        // The first type error is the one reported, after the rest was read.
        assert_eq!(
            one(r#"{"state":true,"value":1}"#).unwrap_err().to_string(),
            "json: cannot unmarshal bool into Go struct field Alert.data.alerts.state of type string"
        );
    }

    #[test]
    fn labels_oc_does_not_have_may_be_anything() {
        let a = one(r#"{"labels":{"alertname":"A","port":9100,"up":true,"pod":"p"}}"#).unwrap();
        assert_eq!(a.label("alertname"), "A");
        assert_eq!(a.label("pod"), "p");
        assert_eq!(a.label("port"), "");
    }

    #[test]
    fn null_leaves_a_field_as_it_was() {
        let a = one(r#"{"labels":{"alertname":"A","severity":null},"value":null,"activeAt":null,"annotations":null}"#).unwrap();
        assert_eq!(a.label("alertname"), "A");
        assert!(a.active_at.is_none());
    }

    #[test]
    fn a_lone_surrogate_is_a_replacement_character() {
        let a = one(r#"{"labels":{"alertname":"A\ud800B"},"annotations":{"summary":"ok \ud83d\ude80 \udc00"}}"#).unwrap();
        assert_eq!(a.label("alertname"), "A\u{fffd}B");
        assert_eq!(a.annotation("summary"), "ok 🚀 \u{fffd}");
        // An escaped backslash before `u` is no escape.
        let a = one(r#"{"labels":{"alertname":"\\ud800"}}"#).unwrap();
        assert_eq!(a.label("alertname"), "\\ud800");
    }

    #[test]
    fn no_alerts_array_is_no_alerts() {
        for t in [
            "{}",
            r#"{"status":"error","errorType":"unavailable","error":"x","data":null}"#,
            r#"{"status":"success","data":{"alerts":null}}"#,
            "null",
        ] {
            let d = decode(t).unwrap();
            assert!(d.alerts.is_none_or(|a| a.is_empty()), "{t}");
        }
    }

    #[test]
    fn a_time_that_is_not_rfc3339_stops_the_decode() {
        let e = one(r#"{"activeAt":12}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Time.UnmarshalJSON: input is not a JSON string"
        );
        assert!(
            one(r#"{"activeAt":"yesterday"}"#)
                .unwrap_err()
                .to_string()
                .starts_with("parsing time \"yesterday\"")
        );
    }

    #[test]
    fn a_repeated_alerts_key_decodes_into_the_elements_already_there() {
        let d = decode(r#"{"data":{"alerts":[{"labels":{"alertname":"A","severity":"critical"}},{"labels":{"alertname":"B"}}],"alerts":[{"state":"firing"}]}}"#).unwrap();
        let a = d.alerts.unwrap();
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].label("severity"), "critical");
        assert_eq!(a[0].state, "firing");
    }

    #[test]
    fn a_byte_order_mark_is_what_go_refuses() {
        assert_eq!(
            bom_error(Encoding::Utf8Bom).unwrap().to_string(),
            "invalid character 'ï' looking for beginning of value"
        );
        assert_eq!(bom_error(Encoding::Utf8), None);
    }

    #[test]
    fn objects_and_rules_are_told_apart() {
        let (d, e) = decode_full(r#"{"kind":"ConfigMap","data":{"alerts":"x"}}"#);
        assert!(d.object && matches!(e, Some(GoJsonError::Type { .. })));
        let d = decode(r#"{"apiVersion":"v1","kind":"ConfigMap","data":{}}"#).unwrap();
        assert!(d.object);
        let d = decode(r#"{"status":"success","data":{"groups":[]}}"#).unwrap();
        assert!(d.groups && d.alerts.is_none());
    }
}
