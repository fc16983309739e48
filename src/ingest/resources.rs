//! Kubernetes objects in every shape they arrive in: a single object, a `List`, a
//! must-gather aggregate file starting with `---` (list `kind` after `items`), gather-extra
//! `oc get -o json` Lists, and Insights JSON without `kind`. YAML goes through `crate::yaml`.

use crate::model::*;
use crate::vocab::wants::Wants;
use serde_json::Value;

/// A problem with one item or the whole file.
#[derive(Debug, Clone)]
pub struct ItemError {
    pub level: Severity,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub reason: String,
}

fn err(line: Option<u32>, column: Option<u32>, reason: String) -> ItemError {
    ItemError {
        level: Severity::Error,
        line,
        column,
        reason,
    }
}

/// Parses a resource file. Items that do not fit their type are reported one by one; the
/// others are kept.
pub fn parse_resources(text: &str, path: &str, prov: &Provenance) -> (Objects, Vec<ItemError>) {
    parse_resources_keeping(text, path, prov, &Wants::default())
}

/// [`parse_resources`], also keeping whole (as JSON, in `Objects::raw`) every object of a
/// kind some known-issue rule reads.
pub fn parse_resources_keeping(
    text: &str,
    path: &str,
    prov: &Provenance,
    wants: &Wants,
) -> (Objects, Vec<ItemError>) {
    let mut objs = Objects::default();
    let mut errors = Vec::new();
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.is_empty() {
        errors.push(err(None, None, "empty file".to_string()));
        return (objs, errors);
    }
    if trimmed.starts_with('{')
        && let Some(a) = Alerts::from_json_text(trimmed)
    {
        objs.alerts.push(Sourced {
            value: a,
            prov: prov.clone(),
        });
        return (objs, errors);
    }
    let docs: Vec<Value> = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        match serde_json::from_str::<Value>(trimmed) {
            Ok(v) => vec![v],
            Err(e) => {
                errors.push(err(
                    Some(e.line() as u32),
                    Some(e.column() as u32),
                    format!("invalid JSON: {}", strip_loc(&e.to_string())),
                ));
                return (objs, errors);
            }
        }
    } else {
        match crate::yaml::values_multi(text) {
            Ok((v, dups)) => {
                if dups.count > 0 {
                    errors.push(ItemError {
                        level: Severity::Warning,
                        line: None,
                        column: None,
                        reason: dup_message(&dups),
                    });
                }
                v
            }
            Err(e) if e.bound => {
                errors.push(err(e.line, e.column, format!("skipped: {}", e.message)));
                return (objs, errors);
            }
            Err(e) => {
                errors.push(err(
                    e.line,
                    e.column,
                    format!("invalid YAML: {}", e.message),
                ));
                return (objs, errors);
            }
        }
    };
    let path_kind = Objects::kind_of_path(path);
    let mut flat: Vec<(Value, Option<String>)> = Vec::new();
    for doc in docs {
        if Alerts::looks_like(&doc) {
            match Alerts::from_value(doc) {
                Ok(a) => objs.alerts.push(Sourced {
                    value: a,
                    prov: prov.clone(),
                }),
                Err(e) => errors.push(err(None, None, format!("not a valid alerts response: {e}"))),
            }
            continue;
        }
        let (items, list_kind): (Vec<Value>, Option<String>) = match doc {
            Value::Object(mut m) if m.get("items").is_some_and(Value::is_array) => {
                let lk = m
                    .get("kind")
                    .and_then(Value::as_str)
                    .and_then(|k| k.strip_suffix("List"))
                    .filter(|k| !k.is_empty())
                    .map(str::to_string);
                let items = match m.remove("items") {
                    Some(Value::Array(a)) => a,
                    _ => Vec::new(),
                };
                (items, lk)
            }
            Value::Array(a) => (a, None),
            Value::Null => continue,
            other => (vec![other], None),
        };
        flat.extend(items.into_iter().map(|i| (i, list_kind.clone())));
    }
    // Each item's byte span, so that evidence lookups stay inside one object. Only when the
    // text's shape gives exactly one span per item (it does for YAML and pretty JSON).
    let spans = if flat.len() > 1 {
        Some(crate::vocab::locate::object_spans(text)).filter(|s| s.len() == flat.len())
    } else {
        None
    };
    let many = flat.len() > 1;
    {
        for (i, (item, list_kind)) in flat.into_iter().enumerate() {
            let kind = item
                .get("kind")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| list_kind.clone())
                .or_else(|| path_kind.map(str::to_string))
                .or_else(|| Objects::kind_of_shape(&item).map(str::to_string));
            let p = match spans.as_ref().and_then(|s| s.get(i)) {
                Some(&(a, b)) => Provenance {
                    span: Some((a as u64, b as u64)),
                    ..prov.clone()
                },
                None => prov.clone(),
            };
            let where_ = if many {
                format!("item {i}: ")
            } else {
                String::new()
            };
            // The standalone insight objects are read with the UpdateStatus singleton.
            let kind = kind.map(|k| {
                if crate::model::update_status::INSIGHT_KINDS.contains(&k.as_str()) {
                    "UpdateStatus".to_string()
                } else {
                    k
                }
            });
            if let Some(kind) = kind.as_deref()
                && wants.keeps(kind)
            {
                let mut whole = item.clone();
                if let Value::Object(m) = &mut whole {
                    m.entry("kind")
                        .or_insert_with(|| Value::String(kind.to_string()));
                }
                objs.raw.push(Sourced {
                    value: whole,
                    prov: p.clone(),
                });
            }
            if let Some(kind) = kind.as_deref()
                && let Err(e) = objs.push(kind, item, p)
            {
                errors.push(err(None, None, format!("{where_}{e}")));
            }
        }
    }
    (objs, errors)
}

/// One warning for all the duplicate keys of a file.
fn dup_message(d: &crate::yaml::value::Dups) -> String {
    let names: Vec<String> = d.first.iter().map(|k| format!("`{k}`")).collect();
    if d.count == 1 {
        return format!("duplicate key {} (the later value is used)", names.join(""));
    }
    let more = if d.count > names.len() { ", …" } else { "" };
    format!(
        "{} duplicate keys: {}{more} (the later values are used)",
        d.count,
        names.join(", ")
    )
}

fn strip_loc(s: &str) -> String {
    match s.find(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prov() -> Provenance {
        Provenance::detached("in", "f.yaml")
    }

    #[test]
    fn aggregate_file_with_leading_separator_and_list_kind_after_items() {
        let text = "---\napiVersion: config.openshift.io/v1\nitems:\n- apiVersion: config.openshift.io/v1\n  kind: ClusterOperator\n  metadata:\n    name: etcd\n  status:\n    versions:\n    - name: operator\n      version: 4.8.0\nkind: ClusterOperatorList\n";
        let (o, e) = parse_resources(
            text,
            "cluster-scoped-resources/config.openshift.io/clusteroperators.yaml",
            &prov(),
        );
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(o.cluster_operators.len(), 1);
        assert_eq!(o.cluster_operators[0].operator_version(), Some("4.8.0"));
    }

    #[test]
    fn insights_json_without_kind() {
        let text = r#"{"metadata":{"name":"version"},"spec":{"clusterID":"x"},"status":{"history":[{"state":"Completed","version":"4.7.16","image":"i","startedTime":"2021-07-07T10:00:00Z","completionTime":"2021-07-07T10:30:00Z","verified":false}],"availableUpdates":null}}"#;
        let (o, e) = parse_resources(text, "config/version.json", &prov());
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(o.cluster_versions.len(), 1);
        assert_eq!(o.cluster_versions[0].status.history[0].version, "4.7.16");
    }

    #[test]
    fn bad_item_is_reported_others_kept() {
        let text = r#"{"kind":"List","items":[{"kind":"Node","metadata":{"name":"a"}},{"kind":"Node","metadata":{"name":"b"},"status":{"conditions":"oops"}}]}"#;
        let (o, e) = parse_resources(text, "nodes.json", &prov());
        assert_eq!(o.nodes.len(), 1);
        assert_eq!(e.len(), 1);
        assert!(
            e[0].reason.starts_with("item 1: not a valid Node"),
            "{}",
            e[0].reason
        );
    }

    #[test]
    fn invalid_yaml_has_location() {
        let (_, e) = parse_resources(
            "kind: ClusterVersion\nstatus: [unclosed\n",
            "version.yaml",
            &prov(),
        );
        assert_eq!(e.len(), 1);
        assert!(e[0].reason.starts_with("invalid YAML"), "{}", e[0].reason);
        assert!(e[0].line.is_some());
    }

    #[test]
    fn machine_configs_deployments_and_alerts() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: machineconfiguration.openshift.io/v1\n  kind: MachineConfig\n  metadata:\n    name: rendered-worker-1\n    annotations:\n      machineconfiguration.openshift.io/release-image-version: 4.14.1\n";
        let (o, e) = parse_resources(text, "x-mc.yaml", &prov());
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(o.machine_configs[0].release_image_version(), Some("4.14.1"));
        let text = "items:\n- metadata:\n    name: machine-config-operator\n  spec:\n    template:\n      spec:\n        containers:\n        - name: machine-config-operator\n          image: quay.io/x@sha256:1\nkind: DeploymentList\n";
        let (o, e) = parse_resources(text, "ns/apps/deployments.yaml", &prov());
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(
            o.mco_deployments[0].container_image("machine-config-operator"),
            Some("quay.io/x@sha256:1")
        );
        let text = r#"{"status":"success","data":{"alerts":[{"labels":{"alertname":"A"}}]}}"#;
        let (o, e) = parse_resources(text, "x-alerts.json", &prov());
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(o.alerts[0].alerts.len(), 1);
    }

    #[test]
    fn empty_file_is_reported() {
        let (_, e) = parse_resources("  \n", "version.yaml", &prov());
        assert_eq!(e[0].reason, "empty file");
    }
}
