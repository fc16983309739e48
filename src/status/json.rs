//! The versioned JSON document (`"schema": "mglint/status/v2"`, described by
//! `docs/schemas/status.schema.json`): the assessment with typed fields, durations in
//! seconds and times in RFC 3339 UTC with milliseconds. Built from view structs, never by
//! dumping internal types, so the document changes only with its schema.

use super::godur::Dur;
use super::insights::Insight;
use super::nodes::PoolAssessment;
use super::{Assessment, ControlPlane};
use crate::model::{Time, fmt_ms};
use crate::vocab::text::JsonLayout;
use serde::Serialize;

/// The schema id of the document.
pub const SCHEMA: &str = "mglint/status/v2";

#[derive(Serialize)]
struct Doc<'a> {
    schema: &'static str,
    cluster: &'a crate::bundle::ClusterIdentity,
    now: String,
    now_source: super::NowSource,
    now_source_description: &'static str,
    updating: bool,
    started_at: Option<String>,
    updating_for_seconds: i64,
    control_plane: ControlPlaneView<'a>,
    control_plane_nodes: Option<PoolView<'a>>,
    worker_pools: Vec<PoolView<'a>>,
    update_health: HealthView<'a>,
    notes: &'a [String],
    /// Files that could not be read and may hold what the assessment needs.
    partial: bool,
    unread: &'a [super::Unread],
}

#[derive(Serialize)]
struct ControlPlaneView<'a> {
    assessment: &'static str,
    target_version: &'a str,
    previous_version: &'a str,
    target_description: String,
    kind: &'static str,
    desired_version: &'a str,
    completion_percent: Option<f64>,
    completed_at: Option<String>,
    duration_seconds: i64,
    estimated_duration_seconds: i64,
    estimated_remaining_seconds: i64,
    operators: OperatorsView<'a>,
}

#[derive(Serialize)]
struct OperatorsView<'a> {
    total: usize,
    updated: usize,
    updating: usize,
    waiting: usize,
    healthy: i64,
    unavailable: usize,
    degraded: usize,
    updating_operators: Vec<UpdatingView<'a>>,
}

#[derive(Serialize)]
struct UpdatingView<'a> {
    name: &'a str,
    since: Option<String>,
    reason: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct PoolView<'a> {
    name: &'a str,
    assessment: &'static str,
    completion_percent: Option<f64>,
    nodes_total: usize,
    nodes_available: usize,
    nodes_progressing: usize,
    nodes_outdated: usize,
    nodes_draining: usize,
    nodes_excluded: usize,
    nodes_degraded: usize,
    nodes: Vec<NodeView<'a>>,
}

#[derive(Serialize)]
struct NodeView<'a> {
    name: &'a str,
    assessment: &'static str,
    phase: &'static str,
    version: Option<&'a str>,
    estimate: &'a str,
    message: &'a str,
    unavailable: bool,
    degraded: bool,
    updating: bool,
    updated: bool,
}

#[derive(Serialize)]
struct HealthView<'a> {
    proceeding_well: bool,
    insights: Vec<InsightView<'a>>,
}

#[derive(Serialize)]
struct ResourceView<'a> {
    group: &'a str,
    kind: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    namespace: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
struct InsightView<'a> {
    level: &'static str,
    impact: &'static str,
    scope: super::ScopeType,
    started_at: Option<String>,
    since_seconds: Option<i64>,
    summary: &'a str,
    description: &'a str,
    reference: &'a str,
    resources: Vec<ResourceView<'a>>,
}

fn time(t: Option<Time>) -> Option<String> {
    t.map(|t| fmt_ms(&t))
}

fn secs(d: Dur) -> i64 {
    d.whole_seconds()
}

fn finite(f: f64) -> Option<f64> {
    f.is_finite().then_some((f * 100.0).round() / 100.0)
}

fn control_plane(cp: &ControlPlane) -> ControlPlaneView<'_> {
    let ops = &cp.operators;
    let kind = if cp.target.is_install {
        "install"
    } else if cp.target.previous_partial {
        "update-from-incomplete"
    } else if cp.target.multi_arch {
        "multi-arch-migration"
    } else {
        "update"
    };
    ControlPlaneView {
        assessment: cp.state.as_str(),
        target_version: &cp.target.target,
        previous_version: &cp.target.previous,
        target_description: cp.target.to_string(),
        kind,
        desired_version: &cp.desired_version,
        completion_percent: finite(cp.completion),
        completed_at: time(cp.completed_at),
        duration_seconds: secs(cp.duration),
        estimated_duration_seconds: secs(cp.estimated_duration),
        estimated_remaining_seconds: secs(cp.estimated_remaining),
        operators: OperatorsView {
            total: ops.total,
            updated: ops.updated,
            updating: ops.updating.len(),
            waiting: ops.waiting,
            healthy: ops.total as i64 - ops.unavailable as i64 - ops.degraded as i64,
            unavailable: ops.unavailable,
            degraded: ops.degraded,
            updating_operators: ops
                .updating
                .iter()
                .map(|o| UpdatingView {
                    name: &o.name,
                    since: time(o.since),
                    reason: &o.reason,
                    message: &o.message,
                })
                .collect(),
        },
    }
}

fn pool(p: &PoolAssessment) -> PoolView<'_> {
    let o = &p.overview;
    PoolView {
        name: &p.name,
        assessment: if p.nodes.is_empty() {
            "Empty"
        } else {
            p.state.as_str()
        },
        completion_percent: finite(p.completion),
        nodes_total: o.total,
        nodes_available: o.available,
        nodes_progressing: o.progressing,
        nodes_outdated: o.outdated,
        nodes_draining: o.draining,
        nodes_excluded: o.excluded,
        nodes_degraded: o.degraded,
        nodes: p
            .nodes
            .iter()
            .map(|n| NodeView {
                name: &n.name,
                assessment: n.state.as_str(),
                phase: n.phase.as_str(),
                version: (!n.version.is_empty()).then_some(n.version.as_str()),
                estimate: &n.estimate,
                message: &n.message,
                unavailable: n.unavailable,
                degraded: n.degraded,
                updating: n.updating,
                updated: n.updated,
            })
            .collect(),
    }
}

fn insight(i: &Insight, now: Time) -> InsightView<'_> {
    InsightView {
        level: i.level.as_str(),
        impact: i.impact.as_str(),
        scope: i.scope,
        started_at: time(i.started_at),
        since_seconds: i.started_at.map(|s| Dur::between(s, now).whole_seconds()),
        summary: &i.summary,
        description: &i.description,
        reference: &i.reference,
        resources: i
            .resources
            .iter()
            .map(|r| ResourceView {
                group: &r.group,
                kind: &r.kind,
                namespace: &r.namespace,
                name: &r.name,
            })
            .collect(),
    }
}

fn doc(a: &Assessment) -> Doc<'_> {
    Doc {
        schema: SCHEMA,
        cluster: &a.cluster,
        now: fmt_ms(&a.now.time),
        now_source: a.now.source,
        now_source_description: a.now.source.describe(),
        updating: a.updating,
        started_at: time(a.started_at),
        updating_for_seconds: secs(a.updating_for),
        control_plane: control_plane(&a.control_plane),
        control_plane_nodes: a.control_plane_nodes.as_ref().map(pool),
        worker_pools: a.worker_pools.iter().map(pool).collect(),
        update_health: HealthView {
            proceeding_well: !a.health_has_insights,
            insights: a.insights.iter().map(|i| insight(i, a.now.time)).collect(),
        },
        notes: &a.notes,
        partial: !a.unread.is_empty(),
        unread: &a.unread,
    }
}

/// The document as a JSON value.
pub fn to_json_value(a: &Assessment) -> serde_json::Value {
    serde_json::to_value(doc(a)).unwrap_or(serde_json::Value::Null)
}

/// The document in field order (`schema` first): pretty with a final newline, or on one line.
pub fn render_json(a: &Assessment, layout: JsonLayout) -> String {
    layout.document(&doc(a))
}
