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
    /// Why, typed (the object kind the file or item could not be read as, when known).
    pub cause: Cause,
}

fn err(line: Option<u32>, column: Option<u32>, reason: String) -> ItemError {
    ItemError {
        level: Severity::Error,
        line,
        column,
        reason,
        cause: Cause::default(),
    }
}

/// An alerts response that oc (or mglint) cannot read.
fn alerts_err(e: impl std::fmt::Display) -> ItemError {
    ItemError {
        cause: Cause::alerts(e.to_string()),
        ..err(None, None, format!("not a valid alerts response: {e}"))
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
    parse_resources_at(text, path, Objects::kind_of_path(path), prov, wants)
}

/// [`parse_resources_keeping`] for a file the walker classified: `path_kind` is the kind
/// its path names (`vocab::kind::ResourceAt::object`), for items that name none.
pub fn parse_resources_at(
    text: &str,
    path: &str,
    path_kind: Option<&'static str>,
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
        && let Some(r) = go_alerts(trimmed, path)
    {
        match r {
            Ok(a) => objs.alerts.push(Sourced {
                value: a,
                prov: prov.clone(),
            }),
            Err(e) => errors.push(alerts_err(e)),
        }
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
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        match serde_json::from_str::<Value>(trimmed) {
            Ok(v) => add_docs(text, path_kind, prov, wants, vec![v], objs, errors),
            Err(e) => {
                errors.push(err(
                    Some(e.line() as u32),
                    Some(e.column() as u32),
                    format!("invalid JSON: {}", strip_loc(&e.to_string())),
                ));
                (objs, errors)
            }
        }
    } else {
        if crate::yaml::check_text(text).is_ok()
            && let Some(parsed) = parse_list_items(text, path_kind, prov, wants)
        {
            return parsed;
        }
        parse_whole_yaml(text, path_kind, prov, wants)
    }
}

/// Whether a file's name is the one oc's mock mode reads alerts from (`NAME-alerts.json`), or
/// what `oc adm inspect-alerts > alerts.json` writes.
fn named_alerts(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.len() >= 11
        && name.is_char_boundary(name.len() - 11)
        && name[name.len() - 11..].eq_ignore_ascii_case("alerts.json")
}

/// An `/api/v1/alerts` response read as oc reads it, with Go's `encoding/json`
/// ([`crate::model::alerts_go`]): `Err` with Go's reason when oc's decode fails. `None` for
/// what is not one, read by the other paths: Kubernetes objects, the `/api/v1/rules` shape
/// of the must-gather's `monitoring/` files (mglint's own reading, which flattens the rule
/// groups' alerts: oc never reads that shape), other JSON. A document without an alerts
/// array is an alerts response with none firing when it is a response (`status` and
/// `data`, as an error response with `"data": null`) or sits where oc reads alerts.
pub fn go_alerts(text: &str, path: &str) -> Option<Result<Alerts, String>> {
    use crate::model::alerts_go::{GoJsonError, decode_full};
    let named = named_alerts(path);
    let head = text.as_bytes()[..text.len().min(64 << 10)].to_ascii_lowercase();
    if !named && memchr::memmem::find(&head, b"\"data\"").is_none() {
        return None;
    }
    let (doc, e) = decode_full(text);
    if doc.object || (!named && matches!(e, Some(GoJsonError::Syntax(_)))) {
        return None;
    }
    if !(named || doc.alerts_key || doc.response) || (!doc.alerts_key && doc.groups) {
        return None;
    }
    Some(match e {
        Some(e) => Err(e.to_string()),
        None => Ok(Alerts {
            status: doc.status,
            alerts: doc.alerts.unwrap_or_default(),
        }),
    })
}

/// A YAML resource file read as a whole (every document at once).
fn parse_whole_yaml(
    text: &str,
    path_kind: Option<&'static str>,
    prov: &Provenance,
    wants: &Wants,
) -> (Objects, Vec<ItemError>) {
    let objs = Objects::default();
    let mut errors = Vec::new();
    let docs = {
        match crate::yaml::values_multi(text) {
            Ok((v, dups)) => {
                if dups.count > 0 {
                    errors.push(ItemError {
                        level: Severity::Warning,
                        line: None,
                        column: None,
                        reason: dup_message(&dups),
                        cause: Cause::default(),
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
    add_docs(text, path_kind, prov, wants, docs, objs, errors)
}

/// The objects of a file's documents, added to `objs` (problems to `errors`).
fn add_docs(
    text: &str,
    path_kind: Option<&'static str>,
    prov: &Provenance,
    wants: &Wants,
    docs: Vec<Value>,
    mut objs: Objects,
    mut errors: Vec<ItemError>,
) -> (Objects, Vec<ItemError>) {
    let mut flat: Vec<(Value, Option<String>)> = Vec::new();
    for doc in docs {
        if Alerts::looks_like(&doc) {
            match Alerts::from_value(doc) {
                Ok(a) => objs.alerts.push(Sourced {
                    value: a,
                    prov: prov.clone(),
                }),
                Err(e) => errors.push(alerts_err(e)),
            }
            continue;
        }
        let (items, list_kind): (Vec<Value>, Option<String>) = match doc {
            Value::Object(mut m) if m.get("items").is_some_and(Value::is_array) => {
                let lk = list_kind_of(&m);
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
    let mut cx = ItemCx {
        objs: &mut objs,
        errors: &mut errors,
        path_kind,
        prov,
        wants,
        many,
    };
    for (i, (item, list_kind)) in flat.into_iter().enumerate() {
        let span = spans.as_ref().and_then(|s| s.get(i)).copied();
        cx.add(i, item, list_kind.as_deref(), span);
    }
    (objs, errors)
}

/// The kind a List's items have by default (`kind: EventList` → `Event`).
fn list_kind_of(m: &serde_json::Map<String, Value>) -> Option<String> {
    m.get("kind")
        .and_then(Value::as_str)
        .and_then(|k| k.strip_suffix("List"))
        .filter(|k| !k.is_empty())
        .map(str::to_string)
}

/// Where the items of one file go, and what each needs to know about the file.
struct ItemCx<'a> {
    objs: &'a mut Objects,
    errors: &'a mut Vec<ItemError>,
    path_kind: Option<&'static str>,
    prov: &'a Provenance,
    wants: &'a Wants,
    /// Whether the file holds more than one item (errors then name the item).
    many: bool,
}

impl ItemCx<'_> {
    /// Adds item `i` (of a List of `list_kind` when it is one; at bytes `span` of the file).
    fn add(
        &mut self,
        i: usize,
        item: Value,
        list_kind: Option<&str>,
        span: Option<(usize, usize)>,
    ) {
        let kind = item
            .get("kind")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| list_kind.map(str::to_string))
            .or_else(|| self.path_kind.map(str::to_string))
            .or_else(|| Objects::kind_of_shape(&item).map(str::to_string));
        let p = match span {
            Some((a, b)) => Provenance {
                span: Some((a as u64, b as u64)),
                ..self.prov.clone()
            },
            None => self.prov.clone(),
        };
        let where_ = if self.many {
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
            && self.wants.keeps(kind)
        {
            let mut whole = item.clone();
            if let Value::Object(m) = &mut whole {
                m.entry("kind")
                    .or_insert_with(|| Value::String(kind.to_string()));
            }
            self.objs.raw.push(Sourced {
                value: whole,
                prov: p.clone(),
            });
        }
        if let Some(kind) = kind.as_deref()
            && let Err(e) = self.objs.push(kind, item, p)
        {
            self.errors.push(ItemError {
                cause: Cause::object(e.kind),
                ..err(None, None, format!("{where_}{e}"))
            });
        }
    }
}

/// A YAML List file (one document, `items:` holding several objects, as `oc get -o yaml`
/// and must-gather write them) read one item at a time: the YAML library holds one item's
/// events and values at once, not the whole file's (a 3.7 MB `events.yaml` took 25 MB of
/// events and 12 MB of values). Gives exactly what reading the whole file gives, or `None`
/// when it cannot be sure to (anything but blank lines and comments between items, an item
/// that does not read as one sequence entry on its own, an alias across items, a duplicate
/// key, the alias expansion bound, which the envelope and the items share as the whole
/// file's documents do): the whole file is then read as before, with its own messages.
/// `text` is one that `yaml::check_text` passed.
fn parse_list_items(
    text: &str,
    path_kind: Option<&'static str>,
    prov: &Provenance,
    wants: &Wants,
) -> Option<(Objects, Vec<ItemError>)> {
    let spans = crate::vocab::locate::list_item_spans(text).filter(|s| s.len() > 1)?;
    let gap_is_blank = |between: &str| {
        between
            .lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    };
    let first = spans.first()?.0;
    let last = spans.last()?.1;
    if !spans
        .windows(2)
        .all(|w| text.get(w[0].1..w[1].0).is_some_and(gap_is_blank))
    {
        return None;
    }
    // One budget for the envelope and all the items: together they expand no further than
    // the whole file may.
    let budget = crate::yaml::value::Budget::new(crate::yaml::expansion_bound(text.len()));
    // The List around the items, read on its own: `items:` is then empty.
    let envelope = format!("{}{}", text.get(..first)?, text.get(last..)?);
    let (docs, dups) = crate::yaml::values_multi_within(&envelope, &budget).ok()?;
    let [Value::Object(m)] = docs.as_slice() else {
        return None;
    };
    if dups.count > 0 || !m.get("items").is_some_and(Value::is_null) || Alerts::looks_like(&docs[0])
    {
        return None;
    }
    let list_kind = list_kind_of(m);
    let mut objs = Objects::default();
    let mut errors = Vec::new();
    let mut cx = ItemCx {
        objs: &mut objs,
        errors: &mut errors,
        path_kind,
        prov,
        wants,
        many: true,
    };
    for (i, &(a, b)) in spans.iter().enumerate() {
        let (mut docs, dups) = crate::yaml::values_multi_within(text.get(a..b)?, &budget).ok()?;
        let item = match docs.pop() {
            Some(Value::Array(mut one)) if docs.is_empty() && one.len() == 1 && dups.count == 0 => {
                one.pop()?
            }
            _ => return None,
        };
        cx.add(i, item, list_kind.as_deref(), Some((a, b)));
    }
    Some((objs, errors))
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

    /// Lists in the shapes `oc get -o yaml` and must-gather write them, and harder ones:
    /// what reading them an item at a time gives must be what reading them whole gives.
    const LISTS: &[&str] = &[
        // A must-gather aggregate: `---` first, items at the left edge, `kind` after them.
        "---\napiVersion: v1\nitems:\n- apiVersion: v1\n  count: 2\n  involvedObject:\n    kind: ClusterVersion\n    name: version\n  kind: Event\n  message: 'a: b'\n  metadata:\n    name: e1\n    namespace: openshift-cluster-version\n  reason: PreconditionsFailed\n- apiVersion: v1\n  kind: Event\n  message: |\n    line one\n      indented\n    line three\n  metadata:\n    name: e2\n    namespace: openshift-cluster-version\n  reason: RetrievePayload\nkind: EventList\nmetadata:\n  resourceVersion: \"\"\n",
        // Items indented under `items:`, comments and blank lines between them, no list kind
        // (the items' kinds come from the path), an item that does not fit its type.
        "apiVersion: v1\nitems:\n  # the first\n  - metadata:\n      name: n1\n    status:\n      nodeInfo:\n        kubeletVersion: v1.25.4\n\n  - metadata:\n      name: n2\n    status:\n      conditions: oops\n  - metadata: {name: n3}\nkind: List\n",
        // Anchors and aliases inside one item; quoted keys and multi-line flow scalars.
        "items:\n- kind: ClusterOperator\n  metadata: &m\n    name: etcd\n  spec: *m\n  status:\n    versions:\n    - {name: operator, version: 4.13.0}\n- kind: ClusterOperator\n  \"metadata\":\n    name: \"kube-\n      apiserver\"\n  status:\n    conditions:\n    - type: Degraded\n      status: \"False\"\nkind: ClusterOperatorList\n",
    ];

    /// Wants that keep every kind of these lists whole too.
    fn keep_all() -> Wants {
        Wants {
            kinds: ["Node", "ClusterOperator", "Event"]
                .map(String::from)
                .into(),
            ..Wants::default()
        }
    }

    fn render(r: &(Objects, Vec<ItemError>)) -> String {
        format!("{:?}\n{:?}", r.0, r.1)
    }

    #[test]
    fn lists_read_an_item_at_a_time_as_read_whole() {
        let wants = keep_all();
        for (i, text) in LISTS.iter().enumerate() {
            for path in [
                "namespaces/x/core/events.yaml",
                "cluster-scoped-resources/core/nodes.yaml",
            ] {
                let split = parse_list_items(text, Objects::kind_of_path(path), &prov(), &wants)
                    .unwrap_or_else(|| panic!("list {i} was not read item by item"));
                let whole = parse_whole_yaml(text, Objects::kind_of_path(path), &prov(), &wants);
                assert_eq!(render(&split), render(&whole), "list {i}, {path}");
                assert_eq!(
                    render(&parse_resources_keeping(text, path, &prov(), &wants)),
                    render(&whole)
                );
            }
        }
        // They hold what they should (so that the comparison above compares something).
        let (o, e) = parse_whole_yaml(
            LISTS[1],
            Objects::kind_of_path("cluster-scoped-resources/core/nodes.yaml"),
            &prov(),
            &wants,
        );
        assert_eq!(o.nodes.len(), 2, "{e:?}");
        assert!(
            e.iter()
                .any(|e| e.reason.starts_with("item 1: not a valid Node")),
            "{e:?}"
        );
        let (o, _) = parse_whole_yaml(LISTS[2], Objects::kind_of_path("x.yaml"), &prov(), &wants);
        // A double-quoted scalar's line break folds to a space.
        assert_eq!(o.cluster_operators[1].metadata.name, "kube- apiserver");
        assert_eq!(o.raw.len(), 2);
    }

    #[test]
    fn lists_it_cannot_be_sure_of_are_read_whole() {
        let wants = keep_all();
        let cases = [
            // An alias to an anchor in another item.
            "items:\n- metadata: &m\n    name: a\n  kind: Node\n- metadata: *m\n  kind: Node\nkind: List\n",
            // A duplicate key (the warning counts the whole file's).
            "items:\n- kind: Node\n  metadata:\n    name: a\n    name: b\n- kind: Node\n  metadata:\n    name: c\nkind: List\n",
            // Something other than blank lines and comments between items.
            "items:\n- kind: Node\n  metadata:\n    name: a\nfoo: 1\n- kind: Node\n  metadata:\n    name: c\n",
            // Two documents.
            "items:\n- kind: Node\n  metadata: {name: a}\n- kind: Node\n  metadata: {name: b}\n---\nkind: Node\nmetadata: {name: c}\n",
            // One item.
            "items:\n- kind: Node\n  metadata: {name: a}\nkind: List\n",
        ];
        for (i, text) in cases.iter().enumerate() {
            assert!(
                parse_list_items(text, Objects::kind_of_path("nodes.yaml"), &prov(), &wants)
                    .is_none(),
                "case {i} was read item by item"
            );
        }
        // Read whole, the alias resolves and the duplicate is reported.
        let (o, _) = parse_resources_keeping(cases[0], "nodes.yaml", &prov(), &wants);
        assert_eq!(
            o.nodes
                .iter()
                .map(|n| n.metadata.name.as_str())
                .collect::<Vec<_>>(),
            ["a", "a"]
        );
        let (_, e) = parse_resources_keeping(cases[1], "nodes.yaml", &prov(), &wants);
        assert!(
            e.iter().any(|e| e.reason.contains("duplicate key `name`")),
            "{e:?}"
        );
    }

    /// Every YAML file under `fixtures/` (or under `$MGLINT_LIST_DIR`, such as an extracted
    /// real must-gather) that is read item by item gives what reading it whole gives.
    #[test]
    fn list_files_on_disk_read_the_same_item_by_item() {
        let root = std::env::var("MGLINT_LIST_DIR")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures").to_string());
        let wants = keep_all();
        let mut dirs = vec![std::path::PathBuf::from(&root)];
        let (mut lists, mut files) = (0, 0);
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                let ft = e.file_type().unwrap();
                if ft.is_dir() {
                    dirs.push(p);
                    continue;
                }
                let name = p.to_string_lossy().to_string();
                if !ft.is_file() || !(name.ends_with(".yaml") || name.ends_with(".yml")) {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&p) else {
                    continue;
                };
                files += 1;
                let rel = name
                    .strip_prefix(&root)
                    .unwrap_or(&name)
                    .trim_start_matches('/');
                if crate::yaml::check_text(&text).is_err() {
                    continue;
                }
                if let Some(split) =
                    parse_list_items(&text, Objects::kind_of_path(rel), &prov(), &wants)
                {
                    lists += 1;
                    let whole =
                        parse_whole_yaml(&text, Objects::kind_of_path(rel), &prov(), &wants);
                    assert_eq!(render(&split), render(&whole), "{name}");
                }
            }
        }
        eprintln!("{lists} of {files} YAML files under {root} read item by item");
        assert!(lists > 0, "no List file under {root}");
    }

    /// Items each within the alias expansion bound alone, but not together: read one at a
    /// time they must not build more than the whole file may, so the file is read whole and
    /// refused at the bound.
    #[test]
    fn list_items_share_the_alias_expansion_bound() {
        let item = |n: usize| {
            format!(
                "- kind: Node\n  metadata:\n    name: n{n}\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n  d: [{}]\n",
                vec!["*c"; 20].join(", ")
            )
        };
        let text = format!(
            "items:\n{}kind: List\n",
            (0..4).map(item).collect::<String>()
        );
        // Each item alone is within the bound of the item's own text.
        for n in 0..4 {
            assert!(
                crate::yaml::values_multi(&item(n)).is_ok(),
                "item {n} alone"
            );
        }
        let wants = keep_all();
        assert!(
            parse_list_items(&text, Objects::kind_of_path("nodes.yaml"), &prov(), &wants).is_none()
        );
        let read = parse_resources_keeping(&text, "nodes.yaml", &prov(), &wants);
        assert_eq!(
            render(&read),
            render(&parse_whole_yaml(
                &text,
                Objects::kind_of_path("nodes.yaml"),
                &prov(),
                &wants
            ))
        );
        assert!(
            read.0.nodes.is_empty() && !read.1.is_empty(),
            "{:?}",
            read.1
        );
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
