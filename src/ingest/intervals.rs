//! Origin monitor interval files in all four schema generations: v1 string `locator` and
//! `message`; v2 with `tempStructuredLocator`/`tempStructuredMessage`; v3 with `locator` and
//! `message` each present twice (string, then object); v4 structured only. Normalised into
//! [`Interval`]s. Duplicate keys are accepted (the later, structured value wins), not rejected.

use super::ParseError;
use crate::model::{Interval, Provenance, parse_rfc3339};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Parses an interval file (`{"items":[...]}` or a bare list).
pub fn parse_intervals(data: &[u8], prov: &Provenance) -> Result<Vec<Interval>, ParseError> {
    // serde_json's Value keeps the last of duplicate keys: in v3 that is the structured
    // form, which carries everything the string form did.
    let v: Value = serde_json::from_slice(data).map_err(|e| ParseError::json(&e))?;
    let items = match &v {
        Value::Object(m) => match m.get("items") {
            Some(Value::Array(a)) => a.as_slice(),
            Some(Value::Null) | None => &[],
            Some(_) => return Err(ParseError::Shape("`items` is not a list")),
        },
        Value::Array(a) => a.as_slice(),
        _ => {
            return Err(ParseError::Shape(
                "expected an object with `items` or a list",
            ));
        }
    };
    Ok(items
        .iter()
        .filter_map(Value::as_object)
        .map(|m| normalise(m, prov))
        .collect())
}

fn str_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or("").to_string()
}

fn map_of(v: Option<&Value>) -> BTreeMap<String, String> {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| v.to_string()),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Splits an old-style string locator `ns/x pod/y` into keys.
fn keys_from_string(loc: &str) -> BTreeMap<String, String> {
    loc.split(' ')
        .filter_map(|t| t.split_once('/'))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Splits an old-style string message `reason/X roles/worker free text` into annotations
/// and the human message.
fn split_string_message(msg: &str) -> (BTreeMap<String, String>, String) {
    let mut ann = BTreeMap::new();
    let mut rest = msg;
    loop {
        let tok_end = rest.find(' ').unwrap_or(rest.len());
        let tok = &rest[..tok_end];
        match tok.split_once('/') {
            Some((k, v))
                if !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
            {
                ann.insert(k.to_string(), v.to_string());
                rest = rest[tok_end..].trim_start();
                if rest.is_empty() {
                    break;
                }
            }
            _ => break,
        }
    }
    (ann, rest.to_string())
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

fn normalise(m: &Map<String, Value>, prov: &Provenance) -> Interval {
    let level = str_of(m.get("level"));
    let source = m
        .get("source")
        .or_else(|| m.get("tempSource"))
        .map(|v| str_of(Some(v)))
        .unwrap_or_default();
    let (mut locator_type, mut keys, mut loc_string) =
        (String::new(), BTreeMap::new(), String::new());
    let structured_loc = match m.get("locator") {
        Some(Value::Object(o)) => Some(o),
        _ => m.get("tempStructuredLocator").and_then(Value::as_object),
    };
    if let Some(Value::String(s)) = m.get("locator") {
        loc_string = s.clone();
        keys = keys_from_string(s);
    }
    if let Some(o) = structured_loc {
        let k = map_of(o.get("keys"));
        if !k.is_empty() {
            keys = k;
        }
        locator_type = str_of(o.get("type"));
    }
    if loc_string.is_empty() {
        loc_string = render_locator(&locator_type, &keys);
    }
    let (mut reason, mut human, mut annotations) = (String::new(), String::new(), BTreeMap::new());
    if let Some(Value::String(s)) = m.get("message") {
        let (ann, rest) = split_string_message(s);
        reason = ann.get("reason").cloned().unwrap_or_default();
        annotations = ann;
        human = rest;
    }
    let structured_msg = match m.get("message") {
        Some(Value::Object(o)) => Some(o),
        _ => m.get("tempStructuredMessage").and_then(Value::as_object),
    };
    if let Some(o) = structured_msg {
        let r = str_of(o.get("reason"));
        if !r.is_empty() {
            reason = r;
        }
        let h = str_of(o.get("humanMessage"));
        if !h.is_empty() {
            human = h;
        }
        let a = map_of(o.get("annotations"));
        if !a.is_empty() {
            annotations = a;
        }
        let cause = str_of(o.get("cause"));
        if !cause.is_empty() {
            annotations.entry("cause".to_string()).or_insert(cause);
        }
    }
    Interval {
        level,
        source,
        locator: loc_string,
        locator_type,
        locator_keys: keys,
        reason,
        message: human,
        annotations,
        from: m
            .get("from")
            .and_then(Value::as_str)
            .and_then(parse_rfc3339),
        to: m.get("to").and_then(Value::as_str).and_then(parse_rfc3339),
        prov: prov.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
