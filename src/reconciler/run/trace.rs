//! The per-event trace of a scenario run: which release the worker works on, its state and
//! attempt, whose manifests were applied, every ClusterVersion field and condition that
//! changed, and the CVO's own remarks; plus its text rendering.

use crate::model::{ClusterVersion, Condition, HistoryEntry, Release, Time, fmt_k8s};
use crate::reconciler::model::input::version_string;
use crate::reconciler::scenario::{Event, TimedEvent};
use crate::reconciler::worker::state::WorkerState;
use serde::Serialize;

/// One changed field: `field` is a path such as `status.history[1].completionTime` or
/// `status.conditions[Progressing]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub field: String,
    pub before: String,
    pub after: String,
}

/// What one event did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceStep {
    pub index: usize,
    pub at: Time,
    /// A short description of the event.
    pub event: String,
    /// The release the worker's work targets (what it applies or reconciles).
    pub worker_release: Option<String>,
    pub state: Option<WorkerState>,
    /// The attempt counter (for a pass: the attempt that pass ran as).
    pub attempt: Option<u32>,
    /// A target still being loaded or rejected by its checks.
    pub loading: Option<String>,
    /// The release whose manifests were applied in this step (`None`: none were).
    pub applied: Option<String>,
    pub changes: Vec<Change>,
    pub notes: Vec<String>,
}

fn short_release(r: &Release) -> String {
    match (r.version.is_empty(), r.image.is_empty()) {
        (false, true) => r.version.clone(),
        (true, _) => version_string(r),
        (false, false) => format!("{} ({})", r.version, r.image),
    }
}

/// The condition types of a list of scripted Upgradeable conditions, comma-separated.
fn types(v: &[crate::reconciler::scenario::UpgradeableCondition]) -> String {
    v.iter()
        .map(|c| c.type_.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A one-line description of an event.
pub fn describe_event(ev: &TimedEvent) -> String {
    match &ev.event {
        Event::PodStart(p) => format!("pod_start {}", short_release(&p.release())),
        Event::SpecChange(c) => {
            let mut parts = Vec::new();
            match &c.desired_update {
                Some(Some(u)) => {
                    let force = if u.force { " force" } else { "" };
                    parts.push(format!(
                        "desired_update={}{force}",
                        short_release(&u.release())
                    ));
                }
                Some(None) => parts.push("desired_update=null".into()),
                None => {}
            }
            if let Some(ch) = &c.channel {
                parts.push(format!("channel={ch}"));
            }
            if let Some(u) = &c.upstream {
                parts.push(format!("upstream={u}"));
            }
            if let Some(id) = &c.cluster_id {
                parts.push(format!("clusterID={id}"));
            }
            if let Some(o) = &c.overrides {
                parts.push(format!("overrides={}", o.len()));
            }
            format!("spec_change {}", parts.join(" "))
        }
        Event::LoadOutcome(o) => {
            let failure = o
                .failure
                .unwrap_or(o.step != crate::reconciler::scenario::LoadStep::PayloadLoaded);
            let what = if failure { "failure" } else { "ok" };
            format!("load_outcome {} {what}", o.step.as_str())
        }
        Event::PassProgress(p) => format!("pass_progress {}/{}", p.done, p.total),
        Event::PassResult(r) if r.timed_out => "pass_result timed out".into(),
        Event::PassResult(r) if r.errors.is_empty() => "pass_result ok".into(),
        Event::PassResult(r) => {
            let errs: Vec<String> = r
                .errors
                .iter()
                .map(|e| {
                    if e.reason.is_empty() {
                        format!("{:?}", e.message)
                    } else if e.name.is_empty() {
                        e.reason.clone()
                    } else {
                        format!("{} {}", e.reason, e.name)
                    }
                })
                .collect();
            format!("pass_result errors: {}", errs.join(", "))
        }
        Event::Tick => "tick".into(),
        Event::SyncFailedRepeatedly(f) => format!("sync_failed_repeatedly {:?}", f.error),
        Event::AvailableUpdates(u) => {
            let v: Vec<String> = u.updates.iter().map(version_string).collect();
            format!("available_updates [{}]", v.join(", "))
        }
        Event::Upgradeable(Some(c)) => format!("upgradeable {} {}", c.status, c.reason),
        Event::Upgradeable(None) => "upgradeable removed".into(),
        Event::UpgradeableConditions(v) => format!("upgradeable conditions [{}]", types(v)),
        Event::UpgradeableChecks(v) => format!("upgradeable checks failing [{}]", types(v)),
        Event::ClusterChange(c) => {
            let mut parts: Vec<String> = c
                .cluster_operators
                .iter()
                .map(|o| format!("clusteroperator/{}", o.name))
                .collect();
            parts.extend(
                c.deleted_operators
                    .iter()
                    .map(|n| format!("-clusteroperator/{n}")),
            );
            if c.admin_gates.is_some() {
                parts.push("admin-gates".into());
            }
            if c.admin_acks.is_some() {
                parts.push("admin-acks".into());
            }
            format!("cluster_change {}", parts.join(" "))
        }
        Event::WorkerStatus(f) => {
            let failure = match &f.failure {
                Some(e) if e.plain => format!(", failure {:?}", e.message),
                Some(e) => format!(", failure {}", e.reason),
                None => String::new(),
            };
            format!(
                "worker_status {} completed {}{failure}",
                version_string(&f.actual),
                f.completed
            )
        }
    }
}

fn text(s: &str) -> String {
    if s.contains('\n') || s.contains('"') {
        format!("{s:?}")
    } else {
        format!("\"{s}\"")
    }
}

fn show_condition(c: &Condition) -> String {
    let mut s = c.status.clone();
    if !c.reason.is_empty() {
        s.push('/');
        s.push_str(&c.reason);
    }
    if !c.message.is_empty() {
        s.push(' ');
        s.push_str(&text(&c.message));
    }
    s
}

fn show_time(t: Option<Time>) -> String {
    t.map(|t| fmt_k8s(&t)).unwrap_or_else(|| "null".into())
}

fn show_entry(e: &HistoryEntry) -> String {
    format!(
        "{} {} started {} completed {}{}",
        e.state,
        e.label(),
        show_time(e.started_time),
        show_time(e.completion_time),
        if e.verified { " verified" } else { "" }
    )
}

fn show_release(r: &Release) -> String {
    match (r.version.is_empty(), r.image.is_empty()) {
        (true, true) => "(none)".into(),
        _ => short_release(r),
    }
}

struct Changes(Vec<Change>);

impl Changes {
    fn add(&mut self, field: impl Into<String>, before: String, after: String) {
        if before != after {
            self.0.push(Change {
                field: field.into(),
                before,
                after,
            });
        }
    }
}

/// Every field of interest that differs between two ClusterVersions.
pub fn diff(before: &ClusterVersion, after: &ClusterVersion) -> Vec<Change> {
    let mut c = Changes(Vec::new());
    let g = |g: Option<i64>| g.map(|g| g.to_string()).unwrap_or_else(|| "null".into());
    c.add(
        "metadata.generation",
        g(before.metadata.generation),
        g(after.metadata.generation),
    );
    let du = |r: &Option<Release>| match r {
        Some(r) => format!("{} force={}", show_release(r), r.force.unwrap_or(false)),
        None => "null".into(),
    };
    c.add(
        "spec.desiredUpdate",
        du(&before.spec.desired_update),
        du(&after.spec.desired_update),
    );
    c.add(
        "spec.channel",
        before.spec.channel.clone(),
        after.spec.channel.clone(),
    );
    c.add(
        "spec.upstream",
        before.spec.upstream.clone(),
        after.spec.upstream.clone(),
    );
    let (b, a) = (&before.status, &after.status);
    c.add(
        "status.observedGeneration",
        g(b.observed_generation),
        g(a.observed_generation),
    );
    c.add(
        "status.versionHash",
        b.version_hash.clone(),
        a.version_hash.clone(),
    );
    c.add(
        "status.desired",
        show_release(&b.desired),
        show_release(&a.desired),
    );
    diff_history(&mut c, &b.history, &a.history);
    for ac in &a.conditions {
        let field = format!("status.conditions[{}]", ac.type_);
        match b.conditions.iter().find(|bc| bc.type_ == ac.type_) {
            Some(bc) => c.add(field, show_condition(bc), show_condition(ac)),
            None => c.add(field, "(absent)".into(), show_condition(ac)),
        }
    }
    for bc in b
        .conditions
        .iter()
        .filter(|bc| !a.conditions.iter().any(|ac| ac.type_ == bc.type_))
    {
        c.add(
            format!("status.conditions[{}]", bc.type_),
            show_condition(bc),
            "(absent)".into(),
        );
    }
    let ups = |u: &[Release]| u.iter().map(version_string).collect::<Vec<_>>().join(", ");
    c.add(
        "status.availableUpdates",
        ups(&b.available_updates),
        ups(&a.available_updates),
    );
    c.0
}

fn diff_history(c: &mut Changes, before: &[HistoryEntry], after: &[HistoryEntry]) {
    // Entries are matched by (startedTime, image) through an index: a long history costs
    // linear time per step, not its square.
    type Key<'a> = (Option<Time>, &'a str);
    let mut old_at: std::collections::HashMap<Key<'_>, &HistoryEntry> =
        std::collections::HashMap::with_capacity(before.len());
    for o in before.iter().rev() {
        old_at.insert((o.started_time, o.image.as_str()), o);
    }
    let new_keys: std::collections::HashSet<Key<'_>> = after
        .iter()
        .map(|e| (e.started_time, e.image.as_str()))
        .collect();
    for (i, e) in after.iter().enumerate() {
        let field = |f: &str| format!("status.history[{i}].{f}");
        let old = old_at.get(&(e.started_time, e.image.as_str())).copied();
        if let Some(old) = old
            && old.state == e.state
            && old.version == e.version
            && old.completion_time == e.completion_time
            && old.verified == e.verified
            && old.accepted_risks == e.accepted_risks
        {
            // Unchanged: nothing to format (a long history is compared, not rendered).
            continue;
        }
        let Some(old) = old else {
            c.add(
                format!("status.history[{i}]"),
                "(new entry)".into(),
                show_entry(e),
            );
            continue;
        };
        c.add(field("state"), old.state.clone(), e.state.clone());
        c.add(field("version"), old.version.clone(), e.version.clone());
        c.add(
            field("completionTime"),
            show_time(old.completion_time),
            show_time(e.completion_time),
        );
        c.add(
            field("verified"),
            old.verified.to_string(),
            e.verified.to_string(),
        );
        c.add(
            field("acceptedRisks"),
            old.accepted_risks.clone(),
            e.accepted_risks.clone(),
        );
    }
    for old in before
        .iter()
        .filter(|o| !new_keys.contains(&(o.started_time, o.image.as_str())))
    {
        c.add("status.history", show_entry(old), "(pruned)".into());
    }
}

/// Renders the trace as text, one block per event.
pub fn render_trace(steps: &[TraceStep]) -> String {
    let mut out = String::new();
    for s in steps {
        out.push_str(&format!("[{}] {}  {}\n", s.index, fmt_k8s(&s.at), s.event));
        let worker = match (&s.worker_release, s.state) {
            (Some(r), Some(st)) => {
                format!("{r}, {}, attempt {}", st.as_str(), s.attempt.unwrap_or(0))
            }
            _ => "not started".into(),
        };
        let applied = s
            .applied
            .as_deref()
            .map(|a| format!("manifests of {a}"))
            .unwrap_or_else(|| "none".into());
        out.push_str(&format!("    worker: {worker}; applied: {applied}\n"));
        if let Some(l) = &s.loading {
            out.push_str(&format!("    loading: {l}\n"));
        }
        for c in &s.changes {
            out.push_str(&format!("    {}: {} -> {}\n", c.field, c.before, c.after));
        }
        for n in &s.notes {
            out.push_str(&format!("    note: {n}\n"));
        }
    }
    out
}
