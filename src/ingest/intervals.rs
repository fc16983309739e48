//! Origin monitor interval files in all four schema generations: v1 string `locator` and
//! `message`; v2 with `tempStructuredLocator`/`tempStructuredMessage`; v3 with `locator` and
//! `message` each present twice (string, then object); v4 structured only. Normalised into
//! [`Interval`]s. Duplicate keys are accepted (the later value wins, as in a JSON object read
//! whole: in v3 that is the structured form), not rejected.
//!
//! The file is streamed: serde visitors read each `items` element straight into a `Raw`
//! record (the fields mglint uses, everything else skipped unread), which is normalised at
//! once. No generic JSON tree is built, so memory is the intervals themselves, not a multiple
//! of the file (a 223 MB `e2e-events` file used to peak at 3.1 GB).

use super::{ParseError, stanza};
use crate::model::{Interval, Provenance, Time, parse_rfc3339};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

/// Parses an interval file (`{"items":[...]}` or a bare list) held in memory.
pub fn parse_intervals(data: &[u8], prov: &Provenance) -> Result<Vec<Interval>, ParseError> {
    let mut de = serde_json::Deserializer::from_slice(data);
    finish(read_file(&mut de, prov), de.end())
}

/// Parses an interval file from a stream (read through once; nothing but the intervals is
/// kept). An I/O error (a read cap, a decoder error) is [`ParseError::Read`].
pub fn read_intervals(
    r: impl std::io::Read,
    prov: &Provenance,
) -> Result<Vec<Interval>, ParseError> {
    let mut de = serde_json::Deserializer::from_reader(r);
    finish(read_file(&mut de, prov), de.end())
}

fn finish(
    read: Result<Top, serde_json::Error>,
    end: Result<(), serde_json::Error>,
) -> Result<Vec<Interval>, ParseError> {
    let top = read.and_then(|t| end.map(|()| t)).map_err(|e| {
        if e.is_io() {
            ParseError::Read(e.to_string())
        } else {
            ParseError::json(&e)
        }
    })?;
    match top {
        Top::Items(v) => Ok(v),
        Top::NotAList => Err(ParseError::Shape("`items` is not a list")),
        Top::Other => Err(ParseError::Shape(
            "expected an object with `items` or a list",
        )),
    }
}

fn read_file<'de, D: Deserializer<'de>>(de: D, prov: &Provenance) -> Result<Top, D::Error> {
    de.deserialize_any(TopVisitor { prov })
}

/// What the document's top level turned out to be (the whole document is read either way,
/// so a syntax error anywhere is reported before a shape error).
enum Top {
    Items(Vec<Interval>),
    /// An object whose `items` is neither a list nor null.
    NotAList,
    /// Neither an object nor a list.
    Other,
}

/// Scalars give `$v` (nothing of what mglint reads).
macro_rules! scalars_give {
    ($v:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($v)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($v)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($v)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($v)
        }
    };
}

/// `null` gives nothing either.
macro_rules! nulls_give {
    ($v:expr) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($v)
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($v)
        }
    };
}

fn drain_map<'de, A: MapAccess<'de>>(mut m: A) -> Result<(), A::Error> {
    while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

fn drain_seq<'de, A: SeqAccess<'de>>(mut s: A) -> Result<(), A::Error> {
    while s.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

struct TopVisitor<'p> {
    prov: &'p Provenance,
}

impl<'de> Visitor<'de> for TopVisitor<'_> {
    type Value = Top;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object with `items` or a list")
    }
    scalars_give!(Top::Other);
    nulls_give!(Top::Other);
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Top, E> {
        Ok(Top::Other)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<Top, A::Error> {
        ItemsVisitor { prov: self.prov }.visit_seq(s)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Top, A::Error> {
        // The last `items` wins, as in a map read whole.
        let mut top = Top::Items(Vec::new());
        while let Some(key) = m.next_key::<Key>()? {
            if key.0 == Some("items") {
                top = m.next_value_seed(ItemsVisitor { prov: self.prov })?;
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(top)
    }
}

/// The `items` value: a list of intervals (null counts as an empty list).
struct ItemsVisitor<'p> {
    prov: &'p Provenance,
}

impl<'de> DeserializeSeed<'de> for ItemsVisitor<'_> {
    type Value = Top;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemsVisitor<'_> {
    type Value = Top;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of intervals")
    }
    scalars_give!(Top::NotAList);
    fn visit_unit<E: de::Error>(self) -> Result<Top, E> {
        Ok(Top::Items(Vec::new()))
    }
    fn visit_none<E: de::Error>(self) -> Result<Top, E> {
        Ok(Top::Items(Vec::new()))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Top, E> {
        Ok(Top::NotAList)
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Top, A::Error> {
        drain_map(m)?;
        Ok(Top::NotAList)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Top, A::Error> {
        let mut out = Vec::with_capacity(s.size_hint().unwrap_or(0).min(1 << 16));
        // Elements that are not objects are skipped.
        while let Some(item) = s.next_element::<Item>()? {
            if let Some(raw) = item.0 {
                out.push(normalise(raw, self.prov));
            }
        }
        out.shrink_to_fit();
        Ok(Top::Items(out))
    }
}

/// An object key, kept only when it is one mglint reads (others are not copied).
struct Key(Option<&'static str>);

const KEYS: &[&str] = &[
    "items",
    "level",
    "source",
    "tempSource",
    "locator",
    "tempStructuredLocator",
    "message",
    "tempStructuredMessage",
    "from",
    "to",
    "type",
    "keys",
    "reason",
    "cause",
    "humanMessage",
    "annotations",
];

impl<'de> de::Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
                Ok(Key(KEYS.iter().find(|k| **k == s).copied()))
            }
        }
        d.deserialize_str(V)
    }
}

/// A value read as a string when it is one; anything else is skipped and gives `None`.
struct Str(Option<String>);

impl<'de> de::Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            scalars_give!(Str(None));
            nulls_give!(Str(None));
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Str, E> {
                Ok(Str(Some(s.to_string())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Str, E> {
                Ok(Str(Some(s)))
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Str, A::Error> {
                drain_map(m).map(|()| Str(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<Str, A::Error> {
                drain_seq(s).map(|()| Str(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A map of strings (`keys`, `annotations`): a string value as is, any other value as its
/// compact JSON text; anything but an object gives an empty map.
#[derive(Debug, Default, PartialEq)]
struct StrMap(BTreeMap<String, String>);

impl<'de> de::Deserialize<'de> for StrMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<StrMap, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StrMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            scalars_give!(StrMap::default());
            nulls_give!(StrMap::default());
            fn visit_str<E: de::Error>(self, _: &str) -> Result<StrMap, E> {
                Ok(StrMap::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<StrMap, A::Error> {
                drain_seq(s).map(|()| StrMap::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<StrMap, A::Error> {
                let mut out = BTreeMap::new();
                while let Some(k) = m.next_key::<String>()? {
                    let v = match m.next_value::<serde_json::Value>()? {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    };
                    out.insert(k, v);
                }
                Ok(StrMap(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// A structured locator (`{"type", "keys"}`).
#[derive(Debug, Default, PartialEq)]
struct Locator {
    type_: String,
    keys: BTreeMap<String, String>,
}

/// A structured message (`{"reason", "cause", "humanMessage", "annotations"}`).
#[derive(Debug, Default, PartialEq)]
struct Message {
    reason: String,
    cause: String,
    human: String,
    annotations: BTreeMap<String, String>,
}

/// A structured part: filled from an object's known keys (the last of duplicates wins).
trait Structured: Default {
    fn set<'de, A: MapAccess<'de>>(&mut self, key: &str, m: &mut A) -> Result<(), A::Error>;
}

impl Structured for Locator {
    fn set<'de, A: MapAccess<'de>>(&mut self, key: &str, m: &mut A) -> Result<(), A::Error> {
        match key {
            "type" => self.type_ = m.next_value::<Str>()?.0.unwrap_or_default(),
            "keys" => self.keys = m.next_value::<StrMap>()?.0,
            _ => {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

impl Structured for Message {
    fn set<'de, A: MapAccess<'de>>(&mut self, key: &str, m: &mut A) -> Result<(), A::Error> {
        match key {
            "reason" => self.reason = m.next_value::<Str>()?.0.unwrap_or_default(),
            "cause" => self.cause = m.next_value::<Str>()?.0.unwrap_or_default(),
            "humanMessage" => self.human = m.next_value::<Str>()?.0.unwrap_or_default(),
            "annotations" => self.annotations = m.next_value::<StrMap>()?.0,
            _ => {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// `locator` or `message`: the old string form, the structured form, or something else.
#[derive(Debug, PartialEq)]
enum Field<T> {
    Str(String),
    Obj(T),
    Other,
}

impl<T> Field<T> {
    fn obj(self) -> Option<T> {
        match self {
            Field::Obj(o) => Some(o),
            _ => None,
        }
    }
}

impl<'de, T: Structured> de::Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Field<T>, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Structured> Visitor<'de> for V<T> {
            type Value = Field<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an object")
            }
            scalars_give!(Field::Other);
            nulls_give!(Field::Other);
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Field<T>, E> {
                Ok(Field::Str(s.to_string()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Field<T>, E> {
                Ok(Field::Str(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<Field<T>, A::Error> {
                drain_seq(s).map(|()| Field::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Field<T>, A::Error> {
                let mut out = T::default();
                while let Some(Key(k)) = m.next_key::<Key>()? {
                    match k {
                        Some(k) => out.set(k, &mut m)?,
                        None => {
                            m.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(Field::Obj(out))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// One `items` element as read: each field the last of its duplicates, in the shape it had.
#[derive(Debug, Default, PartialEq)]
struct Raw {
    level: String,
    /// `source` when present (a non-string as empty), else `tempSource`.
    source: Option<String>,
    temp_source: Option<String>,
    locator: Option<Field<Locator>>,
    temp_locator: Option<Locator>,
    message: Option<Field<Message>>,
    temp_message: Option<Message>,
    from: Option<Time>,
    to: Option<Time>,
}

/// An `items` element: an interval when it is an object (anything else is skipped).
struct Item(Option<Raw>);

impl<'de> de::Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Option<Raw>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an interval")
            }
            scalars_give!(None);
            nulls_give!(None);
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Option<Raw>, E> {
                Ok(None)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<Option<Raw>, A::Error> {
                drain_seq(s).map(|()| None)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Option<Raw>, A::Error> {
                let mut r = Raw::default();
                let time = |s: Str| s.0.as_deref().and_then(parse_rfc3339);
                while let Some(Key(k)) = m.next_key::<Key>()? {
                    match k {
                        Some("level") => r.level = m.next_value::<Str>()?.0.unwrap_or_default(),
                        Some("source") => {
                            r.source = Some(m.next_value::<Str>()?.0.unwrap_or_default())
                        }
                        Some("tempSource") => {
                            r.temp_source = Some(m.next_value::<Str>()?.0.unwrap_or_default())
                        }
                        Some("locator") => r.locator = Some(m.next_value()?),
                        Some("tempStructuredLocator") => {
                            r.temp_locator = m.next_value::<Field<Locator>>()?.obj()
                        }
                        Some("message") => r.message = Some(m.next_value()?),
                        Some("tempStructuredMessage") => {
                            r.temp_message = m.next_value::<Field<Message>>()?.obj()
                        }
                        Some("from") => r.from = time(m.next_value()?),
                        Some("to") => r.to = time(m.next_value()?),
                        _ => {
                            m.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(Some(r))
            }
        }
        d.deserialize_any(V).map(Item)
    }
}

fn render_locator(type_: &str, keys: &BTreeMap<String, String>) -> String {
    // Old string form puts the most specific keys in a conventional order.
    const ORDER: &[&str] = &[
        "clusterversion",
        "clusteroperator",
        "ns",
        "namespace",
        "node",
        "pod",
        "uid",
        "container",
        "e2e-test",
    ];
    let mut parts: Vec<String> = Vec::new();
    for k in ORDER {
        if let Some(v) = keys.get(*k) {
            let key = if *k == "namespace" { "ns" } else { k };
            parts.push(format!("{key}/{v}"));
        }
    }
    for (k, v) in keys {
        if !ORDER.contains(&k.as_str()) {
            parts.push(format!("{k}/{v}"));
        }
    }
    if parts.is_empty() && !type_.is_empty() {
        parts.push(type_.to_ascii_lowercase());
    }
    parts.join(" ")
}

fn normalise(r: Raw, prov: &Provenance) -> Interval {
    let source = r.source.or(r.temp_source).unwrap_or_default();
    let (loc_str, loc_obj) = match r.locator {
        Some(Field::Str(s)) => (Some(s), None),
        Some(Field::Obj(o)) => (None, Some(o)),
        _ => (None, None),
    };
    let (mut locator_type, mut keys, mut loc_string) =
        (String::new(), BTreeMap::new(), String::new());
    if let Some(s) = loc_str {
        keys = stanza::locator_keys(&s);
        loc_string = s;
    }
    if let Some(o) = loc_obj.or(r.temp_locator) {
        if !o.keys.is_empty() {
            keys = o.keys;
        }
        locator_type = o.type_;
    }
    if loc_string.is_empty() {
        loc_string = render_locator(&locator_type, &keys);
    }
    let (msg_str, msg_obj) = match r.message {
        Some(Field::Str(s)) => (Some(s), None),
        Some(Field::Obj(o)) => (None, Some(o)),
        _ => (None, None),
    };
    let (mut reason, mut human, mut annotations) = (String::new(), String::new(), BTreeMap::new());
    if let Some(s) = msg_str {
        let (ann, rest) = stanza::leading_annotations(&s);
        reason = ann.get("reason").cloned().unwrap_or_default();
        annotations = ann;
        human = rest.to_string();
    }
    if let Some(o) = msg_obj.or(r.temp_message) {
        if !o.reason.is_empty() {
            reason = o.reason;
        }
        if !o.human.is_empty() {
            human = o.human;
        }
        if !o.annotations.is_empty() {
            annotations = o.annotations;
        }
        if !o.cause.is_empty() {
            annotations.entry("cause".to_string()).or_insert(o.cause);
        }
    }
    Interval {
        level: r.level,
        source,
        locator: loc_string,
        locator_type,
        locator_keys: keys,
        reason,
        message: human,
        annotations,
        from: r.from,
        to: r.to,
        prov: prov.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value};

    fn prov() -> Provenance {
        Provenance::detached("in", "e2e-events_1.json")
    }

    #[test]
    fn v1_string_schema() {
        let d = br#"{"items":[{"level":"Info","locator":"node/ci-op-1-worker-a","message":"constructed/node-lifecycle-constructor reason/NodeUpdate phase/Drain roles/worker drained node","from":"2023-07-18T19:07:38Z","to":"2023-07-18T19:08:10Z"}]}"#;
        let v = parse_intervals(d, &prov()).unwrap();
        assert_eq!(v[0].locator, "node/ci-op-1-worker-a");
        assert_eq!(
            v[0].locator_keys.get("node").map(String::as_str),
            Some("ci-op-1-worker-a")
        );
        assert_eq!(v[0].reason, "NodeUpdate");
        assert_eq!(
            v[0].annotations.get("phase").map(String::as_str),
            Some("Drain")
        );
        assert_eq!(v[0].message, "drained node");
    }

    #[test]
    fn v3_duplicate_keys_keep_structured() {
        let d = br#"{"items":[{"level":"Info","locator":"clusterversion/cluster","message":"reason/UpgradeStarted version/4.14.1","source":"KubeEvent","locator":{"type":"ClusterVersion","keys":{"clusterversion":"cluster"}},"message":{"reason":"UpgradeStarted","cause":"","humanMessage":"started upgrade to 4.14.1","annotations":{"reason":"UpgradeStarted"}},"from":"2023-11-03T14:45:00Z","to":"2023-11-03T14:45:01Z"}]}"#;
        let v = parse_intervals(d, &prov()).unwrap();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].reason, "UpgradeStarted");
        assert_eq!(v[0].locator_type, "ClusterVersion");
        assert_eq!(v[0].locator, "clusterversion/cluster");
        assert_eq!(v[0].message, "started upgrade to 4.14.1");
        assert_eq!(v[0].source, "KubeEvent");
    }

    #[test]
    fn v4_structured_and_bare_list() {
        let d = br#"[{"level":"Error","source":"OperatorState","display":true,"locator":{"type":"ClusterOperator","keys":{"clusteroperator":"etcd"}},"message":{"reason":"X","humanMessage":"degraded","annotations":{"condition":"Degraded","status":"True"}},"from":"2023-11-03T15:00:00Z","to":null}]"#;
        let v = parse_intervals(d, &prov()).unwrap();
        assert_eq!(v[0].locator, "clusteroperator/etcd");
        assert_eq!(
            v[0].annotations.get("condition").map(String::as_str),
            Some("Degraded")
        );
        assert!(v[0].to.is_none());
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse_intervals(b"{\"items\": 3}", &prov()).is_err());
        assert!(
            parse_intervals(b"not json", &prov())
                .unwrap_err()
                .to_string()
                .starts_with("invalid JSON at line 1 column 2: expected ident")
        );
    }

    /// What the file's items were when read whole into a JSON tree (the reading this
    /// module replaced): the oracle the streaming reader must agree with.
    fn raws_from_tree(data: &[u8]) -> Result<Vec<Raw>, String> {
        let v: Value = serde_json::from_slice(data).map_err(|e| e.to_string())?;
        let items = match &v {
            Value::Object(m) => match m.get("items") {
                Some(Value::Array(a)) => a.clone(),
                Some(Value::Null) | None => Vec::new(),
                Some(_) => return Err("`items` is not a list".into()),
            },
            Value::Array(a) => a.clone(),
            _ => return Err("expected an object with `items` or a list".into()),
        };
        let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
        let map = |v: Option<&Value>| -> BTreeMap<String, String> {
            v.and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .map(|(k, x)| {
                            let text = x.as_str().map(str::to_string);
                            (k.clone(), text.unwrap_or_else(|| x.to_string()))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let loc = |o: &Map<String, Value>| Locator {
            type_: s(o.get("type")),
            keys: map(o.get("keys")),
        };
        let msg = |o: &Map<String, Value>| Message {
            reason: s(o.get("reason")),
            cause: s(o.get("cause")),
            human: s(o.get("humanMessage")),
            annotations: map(o.get("annotations")),
        };
        let time = |v: Option<&Value>| v.and_then(Value::as_str).and_then(parse_rfc3339);
        Ok(items
            .iter()
            .filter_map(Value::as_object)
            .map(|m| Raw {
                level: s(m.get("level")),
                source: m.get("source").map(|v| s(Some(v))),
                temp_source: m.get("tempSource").map(|v| s(Some(v))),
                locator: m.get("locator").map(|v| match v {
                    Value::String(x) => Field::Str(x.clone()),
                    Value::Object(o) => Field::Obj(loc(o)),
                    _ => Field::Other,
                }),
                temp_locator: m
                    .get("tempStructuredLocator")
                    .and_then(Value::as_object)
                    .map(loc),
                message: m.get("message").map(|v| match v {
                    Value::String(x) => Field::Str(x.clone()),
                    Value::Object(o) => Field::Obj(msg(o)),
                    _ => Field::Other,
                }),
                temp_message: m
                    .get("tempStructuredMessage")
                    .and_then(Value::as_object)
                    .map(msg),
                from: time(m.get("from")),
                to: time(m.get("to")),
            })
            .collect())
    }

    /// The streamed items, before normalisation.
    fn raws_streamed(data: &[u8]) -> Result<Vec<Raw>, String> {
        struct Raws;
        impl<'de> Visitor<'de> for Raws {
            type Value = Vec<Raw>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Vec<Raw>, A::Error> {
                let mut out = Vec::new();
                while let Some(Item(i)) = s.next_element()? {
                    out.extend(i);
                }
                Ok(out)
            }
        }
        // The shape checks are `parse_intervals`'s; here the items of a well-shaped file.
        let v: Value = serde_json::from_slice(data).map_err(|e| e.to_string())?;
        let items = match &v {
            Value::Object(m) => m.get("items").cloned().unwrap_or(Value::Null),
            other => other.clone(),
        };
        if items.is_null() {
            return Ok(Vec::new());
        }
        let text = items.to_string();
        let mut de = serde_json::Deserializer::from_str(&text);
        de.deserialize_seq(Raws).map_err(|e| e.to_string())
    }

    /// Interval files that stress the reading: duplicate keys in every order, values of the
    /// wrong type, non-object items, unknown keys holding deep values, escapes.
    const ODD: &[&str] = &[
        r#"{"items":[{"locator":{"type":"Pod","keys":{"pod":"a"}},"locator":"ns/x pod/b","message":{"reason":"R"},"message":"reason/S text"}]}"#,
        r#"{"items":[{"level":3,"source":null,"tempSource":"T","locator":7,"tempStructuredLocator":{"type":"Node","keys":{"node":"n1","n":5,"o":{"a":[1,2.5,null]},"b":true}},"message":[1],"tempStructuredMessage":{"reason":"X","cause":"C","humanMessage":"h","annotations":{"z":"1","a":null}},"from":"2023-11-03T15:00:00Z","to":5}]}"#,
        r#"{"items":[1,"x",null,[{"level":"Info"}],{"level":"Warning","level":"Error","from":"bad","from":"2023-11-03T15:00:00.5Z"}]}"#,
        r#"{"other":{"deep":[[[[{"a":1}]]]]},"items":[{"tempSource":"T","locator":"node/a","keys":"x","extra":{"locator":"no"}}],"more":[1,2,3]}"#,
        r#"[{"locator":{"type":"Disruption","keys":"notamap","keys":{"backend-disruption-name":"b","connection":"new"}},"message":{"annotations":{"k":"v"},"annotations":{}},"message":{"humanMessage":"\u00e9\n\t\"q\"","cause":""}}]"#,
        r#"{"items":null}"#,
        r#"{"items":[],"items":[{"level":"Info","locator":"e2e-test/t"}]}"#,
        r#"{"items":[{"locator":{"type":"","keys":null},"message":{"reason":"","humanMessage":"","annotations":null},"tempStructuredLocator":{"type":"Pod","keys":{"pod":"p"}}}]}"#,
    ];

    #[test]
    fn streaming_reads_what_a_tree_read_would() {
        for d in ODD {
            assert_eq!(
                raws_streamed(d.as_bytes()),
                raws_from_tree(d.as_bytes()),
                "{d}"
            );
            assert!(parse_intervals(d.as_bytes(), &prov()).is_ok(), "{d}");
        }
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        let mut seen = 0;
        for e in std::fs::read_dir(&corpus).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if !name.starts_with("intervals_") {
                continue;
            }
            let data = std::fs::read(e.path()).unwrap();
            let tree = raws_from_tree(&data).unwrap();
            assert!(!tree.is_empty(), "{name}");
            assert_eq!(raws_streamed(&data).unwrap(), tree, "{name}");
            // The stream and the in-memory reader agree on the whole result.
            let a = parse_intervals(&data, &prov()).unwrap();
            let b = read_intervals(std::io::Cursor::new(&data), &prov()).unwrap();
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}");
            seen += 1;
        }
        assert!(seen == 0 || seen >= 6, "{seen} corpus interval files");
    }

    #[test]
    fn shapes_and_errors_match_a_tree_read() {
        // A shape error only once the whole document is known to be JSON.
        for (d, want) in [
            (r#"{"items": 3}"#, "`items` is not a list"),
            (r#"{"items": {"a": 1}}"#, "`items` is not a list"),
            (r#"{"items": [], "items": "x"}"#, "`items` is not a list"),
            (r#""text""#, "expected an object with `items` or a list"),
            ("12", "expected an object with `items` or a list"),
            (
                r#"{"items": 3"#,
                "invalid JSON at line 1 column 11: EOF while parsing",
            ),
            (
                r#"{"items": []} x"#,
                "invalid JSON at line 1 column 15: trailing characters",
            ),
            (
                r#"{"items": [{"level": "Info",}]}"#,
                "invalid JSON at line 1 column 29: trailing comma",
            ),
        ] {
            let err = parse_intervals(d.as_bytes(), &prov())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(want), "{d}: {err}");
            let err = read_intervals(d.as_bytes(), &prov())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(want), "{d} (stream): {err}");
        }
        assert!(
            parse_intervals(br#"{"kind": "x"}"#, &prov())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn deep_values_are_bounded() {
        // Nesting under a key mglint does not read is skipped without recursion; under a key
        // it reads, the JSON reader's recursion limit applies: an error, never a stack overflow.
        let n = 1_000_000;
        let deep = format!("{}{}", "[".repeat(n), "]".repeat(n));
        let d = format!("{{\"items\":[{{\"extra\":{deep},\"level\":\"Info\"}}]}}");
        let v = parse_intervals(d.as_bytes(), &prov()).unwrap();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].level, "Info");
        let d = format!("{{\"items\":[{{\"locator\":{{\"keys\":{{\"a\":{deep}}}}}}}]}}");
        let err = parse_intervals(d.as_bytes(), &prov())
            .unwrap_err()
            .to_string();
        assert!(err.contains("recursion limit exceeded"), "{err}");
    }

    #[test]
    fn a_read_error_is_not_a_json_error() {
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other(
                    "file decompresses to more than 10 bytes",
                ))
            }
        }
        let err = read_intervals(Failing, &prov()).unwrap_err();
        assert!(matches!(err, ParseError::Read(_)), "{err:?}");
        assert!(err.to_string().contains("more than 10 bytes"), "{err}");
    }
}
