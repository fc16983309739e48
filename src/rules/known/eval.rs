//! Evaluating a compiled matcher over what a rule reads ([`Context`]): objects (kept whole
//! for rules), container logs (the CVO's records, and the pod logs rules asked for) inside a
//! window of the timeline's episodes, events, intervals and the typed CVO facts (failed
//! preconditions, sync passes). Each match is a [`Hit`]: the object, a time, evidence (file,
//! line) and the captures the message template reads.

use super::compile::*;
use super::format::Window;
use crate::model::{Provenance, Sourced, Time};
use crate::rules::engine::{Context, field_evidence, prov_evidence};
use crate::rules::model::{EvidenceItem, ObjectRef};
use crate::timeline::{EpisodeTag, EventKind};
use crate::vocab::field_path::{self, Seg};
use regex::Regex;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// One match.
#[derive(Debug, Clone, Default)]
pub struct Hit {
    pub object: ObjectRef,
    pub at: Option<Time>,
    pub evidence: Vec<EvidenceItem>,
    pub caps: BTreeMap<String, String>,
}

/// The version the cluster runs: the newest Completed history entry, else the desired one.
pub fn cluster_version(cx: &Context<'_>) -> Option<String> {
    let cv = cx.bundle.cluster_version()?;
    let st = &cv.status;
    st.history
        .iter()
        .find(|h| h.state == "Completed" && !h.version.is_empty())
        .map(|h| h.version.clone())
        .or_else(|| (!st.desired.version.is_empty()).then(|| st.desired.version.clone()))
}

/// Puts a regex match's groups into `caps` (`match.0`, `match.1`, named groups).
fn captures(re: &Regex, text: &str, caps: &mut BTreeMap<String, String>) -> bool {
    let Some(c) = re.captures(text) else {
        return false;
    };
    for (i, name) in re.capture_names().enumerate() {
        if let Some(m) = c.get(i) {
            caps.entry(format!("match.{i}"))
                .or_insert_with(|| m.as_str().to_string());
            if let Some(n) = name {
                caps.entry(n.to_string())
                    .or_insert_with(|| m.as_str().to_string());
            }
        }
    }
    true
}

/// The hits of a matcher.
pub fn eval(cx: &Context<'_>, m: &CMatcher) -> Vec<Hit> {
    match m {
        CMatcher::Objects(o) => objects(cx, o),
        CMatcher::Logs(l) => logs(cx, l),
        CMatcher::Events(e) => events(cx, e),
        CMatcher::Intervals(i) => intervals(cx, i),
        CMatcher::Precondition(p) => preconditions(cx, p),
        CMatcher::Sync(s) => sync(cx, s),
        CMatcher::All(v) => {
            let mut firsts = Vec::new();
            for m in v {
                let h = eval(cx, m);
                if h.is_empty() {
                    return Vec::new();
                }
                firsts.push(h);
            }
            // The findings are the first matcher's; the others add their first evidence
            // and the captures the first does not have.
            let mut it = firsts.into_iter();
            let mut base = it.next().unwrap_or_default();
            let extra: Vec<Hit> = it.filter_map(|h| h.into_iter().next()).collect();
            for b in &mut base {
                for e in &extra {
                    b.evidence.extend(e.evidence.iter().take(2).cloned());
                    for (k, v) in &e.caps {
                        b.caps.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                    if b.at.is_none() {
                        b.at = e.at;
                    }
                }
            }
            base
        }
        CMatcher::Any(v) => v.iter().flat_map(|m| eval(cx, m)).collect(),
        CMatcher::Not(m) => {
            if eval(cx, m).is_empty() {
                vec![Hit::default()]
            } else {
                Vec::new()
            }
        }
    }
}

// ---- objects -------------------------------------------------------------------------

/// The values at a path, each with its concrete path (`[*]` resolved).
fn resolve<'v>(v: &'v Value, path: &[Seg], at: String, out: &mut Vec<(String, &'v Value)>) {
    let Some((first, rest)) = path.split_first() else {
        out.push((at, v));
        return;
    };
    match first {
        Seg::Key(k) => {
            if let Some(x) = v.get(k.as_str()) {
                resolve(x, rest, field_path::join_key(&at, k), out);
            }
        }
        Seg::Index(i) => {
            if let Some(x) = v.get(*i) {
                resolve(x, rest, field_path::join_index(&at, *i), out);
            }
        }
        Seg::Any => {
            if let Some(a) = v.as_array() {
                for (i, x) in a.iter().enumerate() {
                    resolve(x, rest, field_path::join_index(&at, i), out);
                }
            }
        }
    }
}

fn as_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn as_number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn equal(a: &Value, b: &Value) -> bool {
    a == b
        || match (as_number(a), as_number(b)) {
            (Some(x), Some(y)) if matches!(b, Value::Number(_)) => x == y,
            _ => as_text(a).is_some() && as_text(a) == as_text(b),
        }
}

/// Whether a field test holds; the concrete path and value it held on.
fn field(obj: &Value, f: &CField, caps: &mut BTreeMap<String, String>) -> Option<(String, String)> {
    let mut found = Vec::new();
    resolve(obj, &f.path, String::new(), &mut found);
    if f.exists == Some(false) {
        return found.is_empty().then(|| (f.text.clone(), String::new()));
    }
    for (path, v) in found {
        let text = as_text(v);
        let ok = f.equals.as_ref().is_none_or(|e| equal(v, e))
            && f.gt.is_none_or(|g| as_number(v).is_some_and(|n| n > g))
            && f.lt.is_none_or(|l| as_number(v).is_some_and(|n| n < l));
        if !ok {
            continue;
        }
        let value = text.clone().unwrap_or_else(|| v.to_string());
        match &f.regex {
            Some(re) => {
                let mut c = BTreeMap::new();
                if text.as_deref().is_some_and(|t| captures(re, t, &mut c)) {
                    for (k, x) in c {
                        caps.entry(k).or_insert(x);
                    }
                    return Some((path, value));
                }
            }
            None => return Some((path, value)),
        }
    }
    None
}

/// The condition test: the index of the matching condition.
fn condition(obj: &Value, c: &CCondition, caps: &mut BTreeMap<String, String>) -> Option<usize> {
    let conds = obj.pointer("/status/conditions")?.as_array()?;
    for (i, x) in conds.iter().enumerate() {
        let get = |k: &str| x.get(k).and_then(as_text).unwrap_or_default();
        if get("type") != c.type_ || c.status.as_ref().is_some_and(|s| *s != get("status")) {
            continue;
        }
        let mut local = BTreeMap::new();
        if c.reason
            .as_ref()
            .is_some_and(|re| !captures(re, &get("reason"), &mut local))
            || c.message
                .as_ref()
                .is_some_and(|re| !captures(re, &get("message"), &mut local))
        {
            continue;
        }
        for k in ["type", "status", "reason", "message"] {
            caps.entry(k.to_string()).or_insert_with(|| get(k));
        }
        for (k, v) in local {
            caps.entry(k).or_insert(v);
        }
        return Some(i);
    }
    None
}

fn meta_str<'v>(v: &'v Value, k: &str) -> &'v str {
    v.get("metadata")
        .and_then(|m| m.get(k))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn objects(cx: &Context<'_>, o: &CObjects) -> Vec<Hit> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for obj in &cx.bundle.objects.raw {
        let v = &obj.value;
        if v.get("kind").and_then(Value::as_str) != Some(o.kind.as_str()) {
            continue;
        }
        let (name, ns) = (meta_str(v, "name"), meta_str(v, "namespace"));
        if o.name.as_ref().is_some_and(|g| !g.matches(name))
            || o.namespace.as_ref().is_some_and(|g| !g.matches(ns))
            || !seen.insert((ns.to_string(), name.to_string()))
        {
            continue;
        }
        let mut caps = BTreeMap::new();
        let mut first_path: Option<String> = None;
        let mut ok = true;
        let mut at = None;
        for c in &o.conditions {
            match condition(v, c, &mut caps) {
                Some(i) => {
                    first_path.get_or_insert_with(|| format!("status.conditions[{i}].reason"));
                    at = at.or_else(|| {
                        v.pointer(&format!("/status/conditions/{i}/lastTransitionTime"))
                            .and_then(Value::as_str)
                            .and_then(crate::vocab::time::parse_rfc3339)
                    });
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            seen.remove(&(ns.to_string(), name.to_string()));
            continue;
        }
        for f in &o.fields {
            match field(v, f, &mut caps) {
                Some((path, value)) => {
                    caps.entry("path".into()).or_insert_with(|| path.clone());
                    caps.entry("value".into()).or_insert(value);
                    first_path.get_or_insert(path);
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            seen.remove(&(ns.to_string(), name.to_string()));
            continue;
        }
        let path = first_path.unwrap_or_else(|| "metadata.name".into());
        let anchor = (!name.is_empty()).then_some(name);
        let fallback = caps
            .get("value")
            .cloned()
            .unwrap_or_else(|| name.to_string());
        let ev = field_evidence(&cx.bundle.files, obj, anchor, &path, &fallback);
        out.push(Hit {
            object: ObjectRef::new(&o.kind, ns, name),
            at,
            evidence: vec![ev],
            caps,
        });
    }
    out
}

// ---- logs ----------------------------------------------------------------------------

/// The spans of the timeline a window allows (start, end; `None`: open).
fn window_spans(cx: &Context<'_>, w: Window) -> Vec<(Time, Option<Time>)> {
    let eps = |tag| cx.timeline.episodes_of(tag).map(|e| (e.start, e.end));
    match w {
        Window::Update => eps(EpisodeTag::Update).collect(),
        Window::Stall => eps(EpisodeTag::Stall).collect(),
        Window::AfterUpdateStart => eps(EpisodeTag::Update)
            .map(|(s, _)| s)
            .min()
            .map(|s| vec![(s, None)])
            .unwrap_or_default(),
    }
}

fn in_window(spans: &[(Time, Option<Time>)], t: Option<Time>) -> bool {
    t.is_some_and(|t| {
        spans
            .iter()
            .any(|(s, e)| t >= *s && e.is_none_or(|e| t <= e))
    })
}

/// One matching line.
struct Line {
    prov: Provenance,
    time: Option<Time>,
    text: String,
}

/// Matches of one container's logs.
#[derive(Default)]
struct Group {
    count: u64,
    first: Option<Line>,
    last: Option<Line>,
    caps: BTreeMap<String, String>,
}

impl Group {
    fn add(&mut self, re: &Regex, l: Line) {
        if self.count == 0 {
            captures(re, &l.text, &mut self.caps);
            self.first = Some(l);
        } else {
            self.last = Some(l);
        }
        self.count += 1;
    }
}

/// The RFC 3339 stamp `oc logs --timestamps` (and must-gather) puts before each line.
fn line_time(line: &str) -> (Option<Time>, &str) {
    match line.split_once(' ') {
        Some((stamp, rest)) if stamp.len() >= 20 && stamp.as_bytes()[4] == b'-' => {
            match crate::vocab::time::parse_rfc3339(stamp) {
                Some(t) => (Some(t), rest),
                None => (None, line),
            }
        }
        _ => (None, line),
    }
}

fn logs(cx: &Context<'_>, l: &CLogs) -> Vec<Hit> {
    let spans = l.window.map(|w| window_spans(cx, w));
    let allowed = |t: Option<Time>| spans.as_ref().is_none_or(|s| in_window(s, t));
    // (namespace, pod, container) → matches.
    let mut groups: BTreeMap<(String, String, String), Group> = BTreeMap::new();
    const CVO_NS: &str = "openshift-cluster-version";
    const CVO_C: &str = "cluster-version-operator";
    if l.namespace.matches(CVO_NS) && l.container.matches(CVO_C) {
        for log in &cx.bundle.cvo_logs {
            if !log.file.wanted_by(l.files) || !l.pod.matches(&log.pod) {
                continue;
            }
            let key = (CVO_NS.to_string(), log.pod.clone(), CVO_C.to_string());
            // Each distinct message is matched once; a log none of whose messages match
            // is not read record by record.
            let hits: Vec<bool> = log
                .records
                .messages()
                .iter()
                .map(|m| l.regex.is_match(m))
                .collect();
            if !hits.contains(&true) {
                continue;
            }
            for r in log.records.matching(&hits) {
                if !allowed(r.time) {
                    continue;
                }
                let prov = Provenance {
                    line: Some(r.line),
                    span: Some((r.offset, r.offset + u64::from(r.len))),
                    ..log.prov.clone()
                };
                let text = r.message.lines().next().unwrap_or("").to_string();
                groups.entry(key.clone()).or_default().add(
                    &l.regex,
                    Line {
                        prov,
                        time: r.time,
                        text: if l.regex.is_match(&text) {
                            text
                        } else {
                            r.message.to_string()
                        },
                    },
                );
            }
        }
    }
    for log in &cx.bundle.pod_logs {
        if !log.file.wanted_by(l.files)
            || !l.namespace.matches(&log.namespace)
            || !l.pod.matches(&log.pod)
            || !l.container.matches(&log.container)
        {
            continue;
        }
        let key = (
            log.namespace.clone(),
            log.pod.clone(),
            log.container.clone(),
        );
        for ln in log.lines.iter() {
            let line = ln.text;
            let (time, rest) = line_time(line);
            if !l.regex.is_match(rest) || !allowed(time) {
                continue;
            }
            let prov = Provenance {
                line: u32::try_from(ln.number).ok(),
                span: Some((ln.offset, ln.offset + line.len() as u64)),
                ..log.prov.clone()
            };
            groups.entry(key.clone()).or_default().add(
                &l.regex,
                Line {
                    prov,
                    time,
                    text: rest.to_string(),
                },
            );
        }
    }
    let mut out = Vec::new();
    for ((ns, pod, container), g) in groups {
        if g.count < l.min_count {
            continue;
        }
        let Some(first) = g.first else { continue };
        let mut caps = g.caps;
        caps.insert("count".into(), g.count.to_string());
        caps.insert("container".into(), container);
        caps.insert("file".into(), first.prov.display_path());
        if let Some(n) = first.prov.line {
            caps.insert("line".into(), n.to_string());
        }
        if let Some(t) = first.time {
            caps.insert("first".into(), crate::vocab::time::fmt_short(&t));
        }
        if let Some(w) = l.window {
            caps.insert("window".into(), w.name().to_string());
        }
        let mut evidence = vec![
            prov_evidence(&cx.bundle.files, &first.prov, &first.text).with_label("first match"),
        ];
        if let Some(last) = &g.last {
            if let Some(t) = last.time {
                caps.insert("last".into(), crate::vocab::time::fmt_short(&t));
            }
            evidence.push(
                prov_evidence(&cx.bundle.files, &last.prov, &last.text).with_label("last match"),
            );
        }
        out.push(Hit {
            object: ObjectRef::new("Pod", &ns, &pod),
            at: first.time,
            evidence,
            caps,
        });
    }
    out
}

// ---- events, intervals, CVO facts ----------------------------------------------------

fn events(cx: &Context<'_>, e: &CEvents) -> Vec<Hit> {
    // Involved object → (occurrences, the first event, its captures).
    type Group<'e> = (
        u64,
        &'e Sourced<crate::model::Event>,
        BTreeMap<String, String>,
    );
    let mut groups: BTreeMap<ObjectRef, Group<'_>> = BTreeMap::new();
    for ev in &cx.bundle.objects.events {
        let ns = if ev.metadata.namespace.is_empty() {
            &ev.namespace
        } else {
            &ev.metadata.namespace
        };
        if e.namespace.as_ref().is_some_and(|g| !g.matches(ns)) {
            continue;
        }
        let mut caps = BTreeMap::new();
        if e.reason
            .as_ref()
            .is_some_and(|re| !captures(re, &ev.reason, &mut caps))
            || e.message
                .as_ref()
                .is_some_and(|re| !captures(re, &ev.message, &mut caps))
        {
            continue;
        }
        let io = &ev.involved_object;
        let key = ObjectRef::new(&io.kind, &io.namespace, &io.name);
        let n = u64::try_from(ev.count.unwrap_or(1).max(1)).unwrap_or(1);
        groups
            .entry(key)
            .and_modify(|g| g.0 += n)
            .or_insert((n, ev, caps));
    }
    groups
        .into_iter()
        .filter(|(_, (n, _, _))| *n >= e.min_count)
        .map(|(object, (n, ev, mut caps))| {
            caps.insert("count".into(), n.to_string());
            caps.insert("reason".into(), ev.reason.clone());
            caps.insert("message".into(), ev.message.clone());
            let anchor = (!ev.metadata.name.is_empty()).then_some(ev.metadata.name.as_str());
            Hit {
                object,
                at: ev.first_seen(),
                evidence: vec![field_evidence(
                    &cx.bundle.files,
                    ev,
                    anchor,
                    "message",
                    &ev.message,
                )],
                caps,
            }
        })
        .collect()
}

fn intervals(cx: &Context<'_>, m: &CIntervals) -> Vec<Hit> {
    let mut out = Vec::new();
    for i in &cx.bundle.intervals {
        let mut caps = BTreeMap::new();
        let test = |re: &Option<Regex>, t: &str, caps: &mut BTreeMap<String, String>| {
            re.as_ref().is_none_or(|re| captures(re, t, caps))
        };
        if !(test(&m.source, &i.source, &mut caps)
            && test(&m.reason, &i.reason, &mut caps)
            && test(&m.message, &i.message, &mut caps)
            && test(&m.locator, &i.locator, &mut caps))
        {
            continue;
        }
        caps.insert("source".into(), i.source.clone());
        caps.insert("reason".into(), i.reason.clone());
        caps.insert("message".into(), i.message.clone());
        caps.insert("locator".into(), i.locator.clone());
        let (kind, name) = i
            .locator
            .split_once('/')
            .unwrap_or(("Interval", &i.locator));
        out.push(Hit {
            object: ObjectRef::new(kind, "", name),
            at: i.from,
            evidence: vec![prov_evidence(&cx.bundle.files, &i.prov, &i.message)],
            caps,
        });
    }
    out
}

fn cv_object(cx: &Context<'_>) -> ObjectRef {
    cx.bundle.cluster_version().map_or_else(
        || ObjectRef::new("ClusterVersion", "", "version"),
        |cv| crate::rules::util::cv_ref(cv),
    )
}

fn preconditions(cx: &Context<'_>, p: &CPrecondition) -> Vec<Hit> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for ev in &cx.timeline.events {
        let EventKind::PreconditionFailed { name, reason } = &ev.kind else {
            continue;
        };
        let reason = reason.clone().unwrap_or_default();
        let mut caps = BTreeMap::new();
        if p.name
            .as_ref()
            .is_some_and(|re| !captures(re, name, &mut caps))
            || p.reason
                .as_ref()
                .is_some_and(|re| !captures(re, &reason, &mut caps))
            || !seen.insert((name.clone(), reason.clone()))
        {
            continue;
        }
        caps.insert("precondition".into(), name.clone());
        caps.insert("reason".into(), reason);
        caps.insert("message".into(), ev.message.clone());
        out.push(Hit {
            object: cv_object(cx),
            at: Some(ev.time),
            evidence: ev
                .evidence
                .iter()
                .take(2)
                .map(|e| cx.from_timeline(e))
                .collect(),
            caps,
        });
    }
    out
}

fn sync(cx: &Context<'_>, s: &CSync) -> Vec<Hit> {
    let mut matched = Vec::new();
    let mut caps = BTreeMap::new();
    for p in cx.timeline.passes() {
        if s.state.as_ref().is_some_and(|st| *st != p.state)
            || s.failing.is_some_and(|f| f != (p.ok == Some(false)))
        {
            continue;
        }
        if let Some(re) = &s.error {
            let joined = p.errors.join("\n");
            let mut c = BTreeMap::new();
            if !captures(re, &joined, &mut c) {
                continue;
            }
            if matched.is_empty() {
                caps = c;
            }
        }
        matched.push(p);
    }
    if (matched.len() as u64) < s.min_count || matched.is_empty() {
        return Vec::new();
    }
    let (a, b) = (matched[0], matched[matched.len() - 1]);
    caps.insert("count".into(), matched.len().to_string());
    caps.insert("state".into(), a.state.clone());
    caps.insert("first".into(), crate::vocab::time::fmt_short(&a.start));
    caps.insert("last".into(), crate::vocab::time::fmt_short(&b.start));
    if let Some(e) = a.errors.first() {
        caps.insert("error".into(), e.clone());
    }
    let mut evidence: Vec<EvidenceItem> = a
        .evidence
        .iter()
        .take(1)
        .map(|e| cx.from_timeline(e))
        .collect();
    if matched.len() > 1 {
        evidence.extend(b.evidence.iter().take(1).map(|e| cx.from_timeline(e)));
    }
    vec![Hit {
        object: ObjectRef::new("Pod", &cx.bundle.cvo_namespace(), &a.pod),
        at: Some(a.start),
        evidence,
        caps,
    }]
}
