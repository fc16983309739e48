//! Prometheus alerts as `oc adm inspect-alerts` (the `/api/v1/alerts` response) and the
//! must-gather's `monitoring/` files (also the `/api/v1/rules` response, alerts nested in
//! rule groups) write them. Both shapes are read into one flat list.

use crate::vocab::time::{Time, de_opt_time};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::vocab::de_null_default;

/// One alert (firing or pending).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Alert {
    #[serde(deserialize_with = "de_null_default")]
    pub labels: BTreeMap<String, String>,
    #[serde(deserialize_with = "de_null_default")]
    pub annotations: BTreeMap<String, String>,
    /// `firing` or `pending` (`inactive` only appears on rules).
    #[serde(deserialize_with = "de_null_default")]
    pub state: String,
    #[serde(deserialize_with = "de_null_default")]
    pub value: String,
    #[serde(deserialize_with = "de_opt_time")]
    pub active_at: Option<Time>,
}

impl Alert {
    /// A label, or `""` when absent.
    pub fn label(&self, key: &str) -> &str {
        self.labels.get(key).map_or("", String::as_str)
    }
    /// An annotation, or `""` when absent.
    pub fn annotation(&self, key: &str) -> &str {
        self.annotations.get(key).map_or("", String::as_str)
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct Rule {
    #[serde(deserialize_with = "de_null_default")]
    alerts: Vec<Alert>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct RuleGroup {
    #[serde(deserialize_with = "de_null_default")]
    rules: Vec<Rule>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct Data {
    alerts: Option<Vec<Alert>>,
    #[serde(deserialize_with = "de_null_default")]
    groups: Vec<RuleGroup>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct Response {
    #[serde(deserialize_with = "de_null_default")]
    status: String,
    data: Option<Data>,
}

/// The alerts of one alerts document.
/// Deserializes through [`Alerts::from_value`] (either API response shape).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Alerts {
    /// The response `status` (`success` when Prometheus answered).
    pub status: String,
    pub alerts: Vec<Alert>,
}

impl Alerts {
    /// Whether a JSON value has the shape of an alerts or rules API response.
    pub fn looks_like(v: &serde_json::Value) -> bool {
        v.get("kind").is_none()
            && v.get("data").is_some_and(|d| {
                d.get("alerts").is_some_and(|a| a.is_array())
                    || d.get("groups").is_some_and(|g| g.is_array())
            })
    }

    /// Reads an alerts (`data.alerts`) or rules (`data.groups[].rules[].alerts`) response.
    pub fn from_value(v: serde_json::Value) -> Result<Alerts, serde_json::Error> {
        let r: Response = serde_json::from_value(v)?;
        let data = r.data.unwrap_or_default();
        let alerts = match data.alerts {
            Some(a) => a,
            None => data
                .groups
                .into_iter()
                .flat_map(|g| g.rules)
                .flat_map(|r| r.alerts)
                .collect(),
        };
        Ok(Alerts {
            status: r.status,
            alerts,
        })
    }
}

/// An alerts or rules response read straight from its text, without a JSON value tree
/// (100,000 alerts took 615 MB through one): the fields kept, the rest skipped unread.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Direct {
    kind: Option<serde::de::IgnoredAny>,
    #[serde(deserialize_with = "de_null_default")]
    status: String,
    data: Option<DirectData>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct DirectData {
    alerts: Option<Vec<Alert>>,
    groups: Option<Vec<RuleGroup>>,
}

impl Alerts {
    /// Reads a JSON text that is an alerts or rules response ([`Alerts::looks_like`]) without
    /// building its value tree. `None` when the text is something else, or does not read
    /// as one (the caller then takes the general path, which gives the same answer and the
    /// error's place).
    pub fn from_json_text(text: &str) -> Option<Alerts> {
        let head = &text.as_bytes()[..text.len().min(64 << 10)];
        let has = |w: &[u8]| memchr::memmem::find(head, w).is_some();
        if !has(b"\"data\"") || !(has(b"\"alerts\"") || has(b"\"groups\"")) {
            return None;
        }
        let d: Direct = serde_json::from_str(text).ok()?;
        if d.kind.is_some() {
            return None;
        }
        let data = d.data?;
        let alerts = match (data.alerts, data.groups) {
            (Some(a), _) => a,
            (None, Some(groups)) => groups
                .into_iter()
                .flat_map(|g| g.rules)
                .flat_map(|r| r.alerts)
                .collect(),
            (None, None) => return None,
        };
        Some(Alerts {
            status: d.status,
            alerts,
        })
    }
}

impl<'de> Deserialize<'de> for Alerts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        Alerts::from_value(v).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_read() {
        let a = serde_json::json!({"status":"success","data":{"alerts":[{"labels":{"alertname":"A"},"state":"firing","activeAt":"2023-11-24T15:43:23.156620559Z"}]}});
        assert!(Alerts::looks_like(&a));
        let a = Alerts::from_value(a).unwrap();
        assert_eq!(a.alerts[0].label("alertname"), "A");
        assert!(a.alerts[0].active_at.is_some());
        let r = serde_json::json!({"status":"success","data":{"groups":[{"rules":[{"alerts":[{"labels":{"alertname":"B"}}]},{"alerts":null}]}]}});
        assert!(Alerts::looks_like(&r));
        assert_eq!(
            Alerts::from_value(r).unwrap().alerts[0].label("alertname"),
            "B"
        );
        assert!(!Alerts::looks_like(
            &serde_json::json!({"kind":"List","items":[]})
        ));
        // Read from the text alike, without a value tree; other documents are left alone.
        for text in [
            r#"{"status":"success","data":{"alerts":[{"labels":{"alertname":"A"},"state":"firing","activeAt":"2023-11-24T15:43:23.156620559Z"}]}}"#,
            r#"{"status":"success","data":{"groups":[{"rules":[{"alerts":[{"labels":{"alertname":"B"}}]},{"alerts":null}]}]}}"#,
            r#"{"status":null,"data":{"alerts":[],"groups":[]},"extra":[1,2]}"#,
        ] {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            assert!(Alerts::looks_like(&v));
            assert_eq!(
                Alerts::from_json_text(text),
                Some(Alerts::from_value(v).unwrap())
            );
        }
        for text in [
            r#"{"kind":"ConfigMap","data":{"alerts":"x"}}"#,
            r#"{"data":{"groups":"x","alerts":null}}"#,
            r#"{"data":{"other":[]},"alerts":[]}"#,
        ] {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            assert!(!Alerts::looks_like(&v), "{text}");
            assert_eq!(Alerts::from_json_text(text), None, "{text}");
        }
    }
}
