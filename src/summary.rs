//! `mglint summary`: a support engineer's first look at what was found — collection time,
//! cluster, versions, history, CVO pods and log coverage, unhealthy operators, sources by
//! kind and every file that could not be read — as text or versioned JSON.

use crate::bundle::{Bundle, InputInfo};
use crate::model::*;
use crate::vocab::text::JsonLayout;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One history row.
#[derive(Debug, Serialize)]
pub struct HistoryRow {
    pub state: String,
    pub version: String,
    pub image: String,
    pub started: Option<Time>,
    pub completed: Option<Time>,
    pub verified: bool,
}

/// One CVO log file's coverage.
#[derive(Debug, Serialize)]
pub struct LogCoverage {
    /// The input the log belongs to, and its path inside it.
    pub input: String,
    pub path: String,
    pub pod: String,
    pub previous: bool,
    pub first: Option<Time>,
    pub last: Option<Time>,
    pub lines: u64,
    pub records: usize,
    pub banners: usize,
}

/// A CVO pod.
#[derive(Debug, Serialize)]
pub struct CvoPod {
    pub name: String,
    pub image: String,
    pub restarts: i64,
    pub started: Option<Time>,
}

/// A ClusterOperator that needs a look.
#[derive(Debug, Serialize)]
pub struct OperatorProblem {
    pub name: String,
    pub problems: Vec<String>,
    pub version: Option<String>,
}

/// A file that could not be read, or only in part.
#[derive(Debug, Serialize)]
pub struct Unread {
    pub level: Severity,
    /// The input the file belongs to, and its path inside it.
    pub input: String,
    pub path: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub reason: String,
}

/// Everything `summary` reports.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub schema: &'static str,
    pub kind: &'static str,
    /// The cluster the summary speaks of.
    pub cluster: crate::bundle::ClusterIdentity,
    pub inputs: Vec<InputInfo>,
    pub input_errors: Vec<String>,
    pub collection_times: Vec<Time>,
    pub gather_versions: Vec<String>,
    pub cluster_id: Option<String>,
    pub channel: Option<String>,
    pub current_version: Option<String>,
    pub desired: Option<String>,
    /// The release `spec.desiredUpdate` asks for (`None` when it names none, e.g. holds only
    /// `acceptRisks`).
    pub desired_update: Option<String>,
    /// `spec.desiredUpdate.acceptRisks` (4.22+): the risks the administrator accepted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accepted_risks: Vec<String>,
    pub history: Vec<HistoryRow>,
    pub conditions: Vec<ConditionRow>,
    pub cvo_pods: Vec<CvoPod>,
    pub cvo_logs: Vec<LogCoverage>,
    pub operators_total: usize,
    pub operator_problems: Vec<OperatorProblem>,
    /// What the cluster itself reported through the UpdateStatus API, when the dump has it.
    pub update_insights: Vec<crate::model::UpdateInsight>,
    pub nodes: usize,
    pub machine_config_pools: usize,
    /// Without a ClusterVersion (a component must-gather), what the dump has, as `oc get`
    /// lists it (text view only): nodes, pools and operators.
    #[serde(skip)]
    pub tables: Option<ObjectTables>,
    pub events: usize,
    pub intervals: usize,
    pub test_log_lines: usize,
    pub junit_cases: usize,
    pub prow_job: Option<ProwJob>,
    pub sources: BTreeMap<String, u64>,
    pub unread: Vec<Unread>,
}

/// A ClusterVersion condition, with the keys every mglint document uses (snake_case) and
/// its time as every mglint time is written.
#[derive(Debug, Serialize)]
pub struct ConditionRow {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub reason: String,
    pub message: String,
    pub last_transition: Option<Time>,
}

/// Rows of a table, the first the header, written as `oc get` writes them (columns three
/// spaces apart).
pub type Table = Vec<Vec<String>>;

/// The objects of a dump without a ClusterVersion, as `oc get nodes`, `oc get mcp` and
/// `oc get co` list them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObjectTables {
    pub nodes: Table,
    pub pools: Table,
    pub operators: Table,
}

/// What a dump without a ClusterVersion holds (a component must-gather: CNV, ODF,
/// node-tuning), as the summary's text and the HTML report show it; `None` when the dump has
/// a ClusterVersion or none of these objects.
pub fn objects_without_cluster_version(b: &Bundle) -> Option<ObjectTables> {
    if b.cluster_version().is_some() {
        return None;
    }
    let t = object_tables(b);
    (t.nodes.len() > 1 || t.pools.len() > 1 || t.operators.len() > 1).then_some(t)
}

fn object_tables(b: &Bundle) -> ObjectTables {
    let cond = |c: Option<&Condition>| c.map_or(String::new(), |c| c.status.clone());
    let count = |n: Option<i64>| n.map_or(String::new(), |n| n.to_string());
    let mut t = ObjectTables::default();
    if !b.objects.nodes.is_empty() {
        t.nodes
            .push(vec!["NAME".into(), "STATUS".into(), "ROLES".into()]);
    }
    for n in &b.objects.nodes {
        let mut status = match n.condition("Ready").map(|c| c.status.as_str()) {
            Some("True") => "Ready".to_string(),
            Some("False") => "NotReady".to_string(),
            _ => "Unknown".to_string(),
        };
        if n.spec.unschedulable {
            status.push_str(",SchedulingDisabled");
        }
        let roles: Vec<&str> = n
            .metadata
            .labels
            .keys()
            .filter_map(|k| k.strip_prefix("node-role.kubernetes.io/"))
            .filter(|r| !r.is_empty())
            .collect();
        let roles = if roles.is_empty() {
            "<none>".to_string()
        } else {
            roles.join(",")
        };
        t.nodes.push(vec![n.metadata.name.clone(), status, roles]);
    }
    if !b.objects.pools.is_empty() {
        t.pools.push(
            [
                "NAME",
                "CONFIG",
                "UPDATED",
                "UPDATING",
                "DEGRADED",
                "MACHINECOUNT",
                "READYMACHINECOUNT",
                "UPDATEDMACHINECOUNT",
                "DEGRADEDMACHINECOUNT",
            ]
            .map(String::from)
            .to_vec(),
        );
    }
    for p in &b.objects.pools {
        t.pools.push(vec![
            p.metadata.name.clone(),
            p.spec.configuration.name.clone(),
            cond(p.condition("Updated")),
            cond(p.condition("Updating")),
            cond(p.condition("Degraded")),
            count(p.status.machine_count),
            count(p.status.ready_machine_count),
            count(p.status.updated_machine_count),
            count(p.status.degraded_machine_count),
        ]);
    }
    if !b.objects.cluster_operators.is_empty() {
        t.operators.push(
            ["NAME", "VERSION", "AVAILABLE", "PROGRESSING", "DEGRADED"]
                .map(String::from)
                .to_vec(),
        );
    }
    for co in &b.objects.cluster_operators {
        t.operators.push(vec![
            co.metadata.name.clone(),
            co.operator_version().unwrap_or("").to_string(),
            cond(co.condition("Available")),
            cond(co.condition("Progressing")),
            cond(co.condition("Degraded")),
        ]);
    }
    t
}

/// A table as `oc get` writes it: columns padded to their widest cell, three spaces apart.
fn write_table(o: &mut String, rows: &Table) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in rows {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            if i + 1 == r.len() {
                line.push_str(c);
            } else {
                let pad = widths[i].saturating_sub(c.chars().count()) + 3;
                line.push_str(c);
                line.push_str(&" ".repeat(pad));
            }
        }
        let _ = writeln!(o, "  {}", line.trim_end());
    }
}

/// A time for the text view: to the second, as Kubernetes writes it.
fn show(t: Option<&Time>) -> Option<String> {
    t.map(fmt_k8s)
}

/// Builds the summary of a bundle.
pub fn summarize(b: &Bundle) -> Summary {
    let cv = b.cluster_version();
    let desired_version = cv
        .map(|c| c.status.desired.version.clone())
        .filter(|v| !v.is_empty());
    let mut operator_problems = Vec::new();
    for co in &b.objects.cluster_operators {
        let mut problems = Vec::new();
        match co.condition("Available") {
            Some(c) if c.is_true() => {}
            Some(c) => problems.push(
                format!("Available={} {}", c.status, c.reason)
                    .trim_end()
                    .to_string(),
            ),
            None => problems.push("no Available condition".to_string()),
        }
        if let Some(c) = co.condition("Degraded").filter(|c| c.is_true()) {
            problems.push(format!("Degraded=True {}", c.reason).trim_end().to_string());
        }
        if let (Some(want), Some(have)) = (desired_version.as_deref(), co.operator_version())
            && want != have
        {
            problems.push(format!("at {have}, not {want}"));
        }
        if !problems.is_empty() {
            operator_problems.push(OperatorProblem {
                name: co.metadata.name.clone(),
                problems,
                version: co.operator_version().map(str::to_string),
            });
        }
    }
    operator_problems.sort_by(|a, b| a.name.cmp(&b.name));
    let cvo_logs = b
        .cvo_logs
        .iter()
        .map(|l| {
            let span = l.span();
            LogCoverage {
                input: l.prov.file.input().to_string(),
                path: l.prov.file.path().to_string(),
                pod: l.pod.clone(),
                previous: l.is_previous(),
                first: span.map(|s| s.0),
                last: span.map(|s| s.1),
                lines: l.lines,
                records: l.records.len(),
                banners: l
                    .records
                    .count_where(|m| m.starts_with("ClusterVersionOperator ")),
            }
        })
        .collect();
    let cvo_pods = b
        .objects
        .cvo_pods
        .iter()
        .map(|p| CvoPod {
            name: p.metadata.name.clone(),
            image: p
                .spec
                .containers
                .iter()
                .find(|c| c.name == "cluster-version-operator")
                .or(p.spec.containers.first())
                .map(|c| c.image.clone())
                .unwrap_or_default(),
            restarts: p
                .status
                .container_statuses
                .iter()
                .map(|c| c.restart_count)
                .sum(),
            started: p.status.start_time,
        })
        .collect();
    let mut times: Vec<Time> = b.collection_times.iter().map(|s| s.value).collect();
    times.sort();
    times.dedup();
    let mut summary = Summary {
        schema: crate::vocab::schema::SUMMARY,
        kind: "summary",
        cluster: b.identity(),
        inputs: b.inputs.clone(),
        input_errors: b.input_errors.clone(),
        collection_times: times,
        gather_versions: b.gather_versions.iter().map(|v| v.value.clone()).collect(),
        cluster_id: cv
            .map(|c| c.spec.cluster_id.clone())
            .filter(|s| !s.is_empty()),
        channel: cv.map(|c| c.spec.channel.clone()).filter(|s| !s.is_empty()),
        current_version: cv
            .and_then(|c| c.last_completed())
            .map(|(_, h)| h.label().to_string()),
        desired: cv
            .map(|c| c.status.desired.label().to_string())
            .filter(|s| !s.is_empty()),
        desired_update: cv
            .and_then(|c| c.spec.desired_update.as_ref())
            .filter(|u| u.names_release())
            .map(|u| u.label().to_string()),
        accepted_risks: cv
            .and_then(|c| c.spec.desired_update.as_ref())
            .map(|u| u.accept_risks.iter().map(|r| r.name.clone()).collect())
            .unwrap_or_default(),
        history: cv
            .map(|c| {
                c.status
                    .history
                    .iter()
                    .map(|h| HistoryRow {
                        state: h.state.clone(),
                        version: h.version.clone(),
                        image: h.image.clone(),
                        started: h.started_time,
                        completed: h.completion_time,
                        verified: h.verified,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        conditions: cv
            .map(|c| {
                c.status
                    .conditions
                    .iter()
                    .map(|c| ConditionRow {
                        type_: c.type_.clone(),
                        status: c.status.clone(),
                        reason: c.reason.clone(),
                        message: c.message.clone(),
                        last_transition: c.last_transition_time,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        cvo_pods,
        cvo_logs,
        operators_total: b.objects.cluster_operators.len(),
        operator_problems,
        update_insights: b
            .objects
            .update_statuses
            .iter()
            .flat_map(|u| u.value.insights.iter().cloned())
            .collect(),
        nodes: b.objects.nodes.len(),
        machine_config_pools: b.objects.pools.len(),
        tables: cv.is_none().then(|| object_tables(b)),
        events: b.objects.events.len(),
        intervals: b.intervals.len(),
        test_log_lines: b.text_lines.len(),
        junit_cases: b.junit.len(),
        prow_job: b.prow.clone(),
        sources: b.sources_by_kind.clone(),
        unread: b
            .diagnostics
            .iter()
            .map(|d| Unread {
                level: d.level,
                input: d.prov.file.input().to_string(),
                path: d.prov.file.path().to_string(),
                line: d.prov.line,
                column: d.column,
                reason: d.reason.clone(),
            })
            .collect(),
    };
    crate::vocab::secrets::Masked::mask_secrets(&mut summary);
    summary
}

// Secrets masked in the summary as it is built (see `crate::vocab::secrets`): every text it
// took from the dump (conditions, history and pod pull specs, operator problems, the update
// insights, the Prow job, the tables, unread files' reasons, input names and paths), so that
// the text and the JSON get the masked value whatever their escaping.
crate::vocab::secrets::masked_fields!(HistoryRow: state, version, image);
crate::vocab::secrets::masked_fields!(LogCoverage: input, path, pod);
crate::vocab::secrets::masked_fields!(CvoPod: name, image);
crate::vocab::secrets::masked_fields!(OperatorProblem: name, problems, version);
crate::vocab::secrets::masked_fields!(Unread: input, path, reason);
crate::vocab::secrets::masked_fields!(ConditionRow: type_, status, reason, message);
crate::vocab::secrets::masked_fields!(ObjectTables: nodes, pools, operators);
crate::vocab::secrets::masked_fields!(crate::bundle::InputInfo: name);
crate::vocab::secrets::masked_fields!(
    Summary: inputs,
    input_errors,
    gather_versions,
    channel,
    current_version,
    desired,
    desired_update,
    accepted_risks,
    history,
    conditions,
    cvo_pods,
    cvo_logs,
    operator_problems,
    update_insights,
    tables,
    prow_job,
    unread
);

/// Renders the summary as text for a terminal.
pub fn render_text(s: &Summary) -> String {
    // Text from the input reaches a terminal: its control characters are shown escaped.
    crate::vocab::text::show_controls(&render_text_unescaped(s)).into_owned()
}

/// The summary's text, one line per item: a value from the input (a name, a path, a reason)
/// is kept on its line ([`crate::vocab::escape::one_line`]: a newline shown as `\x0a`), so it
/// can never forge a heading or an item of its own.
fn render_text_unescaped(s: &Summary) -> String {
    use crate::vocab::escape::one_line as ol;
    let mut o = String::new();
    let _ = writeln!(o, "Inputs");
    for i in &s.inputs {
        let archives = if i.archives_opened > 0 {
            format!(
                ", {} opened",
                crate::vocab::text::plural(
                    usize::try_from(i.archives_opened).unwrap_or(usize::MAX),
                    "archive",
                    "archives"
                )
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "  {}  ({}; {} files looked at, {} read{archives}, {} not read, {} bytes)",
            ol(&i.name),
            i.kind_label(),
            i.files_seen,
            i.files_read,
            i.not_read.total(),
            i.bytes_read
        );
        // The files not read, by reason, with the first few of each.
        for (why, t) in i.not_read.reasons() {
            if t.count == 0 {
                continue;
            }
            let more = if t.count > t.first.len() as u64 {
                ", …"
            } else {
                ""
            };
            // Inside a must-gather, named relative to its root (printed below).
            let short: Vec<&str> = t
                .first
                .iter()
                .map(|p| {
                    i.must_gather_roots
                        .iter()
                        .filter(|r| !r.is_empty())
                        .find_map(|r| p.strip_prefix(r.as_str())?.strip_prefix('/'))
                        .unwrap_or(p)
                })
                .collect();
            let _ = writeln!(
                o,
                "    not read, {}: {} ({}{more})",
                why.describe(),
                t.count,
                ol(&short.join(", "))
            );
        }
        for r in &i.must_gather_roots {
            let _ = writeln!(
                o,
                "    must-gather root: {}",
                if r.is_empty() { ".".into() } else { ol(r) }
            );
        }
        for r in &i.insights_roots {
            let _ = writeln!(
                o,
                "    Insights archive root: {}",
                if r.is_empty() { ".".into() } else { ol(r) }
            );
        }
    }
    for e in &s.input_errors {
        let _ = writeln!(o, "  error: {}", ol(e));
    }
    if let Some(p) = &s.prow_job {
        let _ = writeln!(
            o,
            "\nCI job\n  {} #{} target {} state {}{}",
            p.job,
            p.build_id,
            p.target,
            p.state,
            p.passed
                .map(|x| if x { ", passed" } else { ", failed" })
                .unwrap_or("")
        );
        let _ = writeln!(
            o,
            "  ran {} → {}",
            show(p.start.as_ref()).unwrap_or("?".into()),
            show(p.completion.as_ref()).unwrap_or("?".into())
        );
    }
    let _ = writeln!(o, "\nCluster");
    // One value per line: a newline inside a value (a hostile cluster ID) is shown as
    // `\x0a`, never allowed to start a line of its own.
    let line = |o: &mut String, k: &str, v: Option<&str>| {
        let v = ol(v.unwrap_or("-"));
        let _ = writeln!(o, "  {k:<16} {v}");
    };
    line(
        &mut o,
        "collected",
        show(s.collection_times.last()).as_deref(),
    );
    line(&mut o, "cluster ID", s.cluster_id.as_deref());
    line(&mut o, "channel", s.channel.as_deref());
    line(&mut o, "current version", s.current_version.as_deref());
    line(&mut o, "status.desired", s.desired.as_deref());
    line(&mut o, "spec target", s.desired_update.as_deref());
    let accepted = s.accepted_risks.join(", ");
    line(
        &mut o,
        "accepted risks",
        (!accepted.is_empty()).then_some(accepted.as_str()),
    );
    if !s.history.is_empty() {
        let _ = writeln!(o, "\nHistory (newest first)");
        for h in &s.history {
            let _ = writeln!(
                o,
                "  {:<9} {:<32} {} → {}{}",
                ol(&h.state),
                ol(if h.version.is_empty() {
                    &h.image
                } else {
                    &h.version
                }),
                show(h.started.as_ref()).as_deref().unwrap_or("?"),
                show(h.completed.as_ref())
                    .as_deref()
                    .unwrap_or("(in progress)"),
                if h.verified { "  verified" } else { "" }
            );
        }
    }
    if !s.conditions.is_empty() {
        let _ = writeln!(o, "\nClusterVersion conditions");
        for c in &s.conditions {
            let msg = c.message.lines().next().unwrap_or("");
            let _ = writeln!(
                o,
                "  {:<30} {:<7} {:<32} {}",
                ol(&c.type_),
                ol(&c.status),
                ol(&c.reason),
                ol(msg)
            );
        }
    }
    let _ = writeln!(o, "\nCVO");
    for p in &s.cvo_pods {
        let _ = writeln!(
            o,
            "  pod {} ({} restarts) image {}",
            ol(&p.name),
            p.restarts,
            ol(&p.image)
        );
    }
    for l in &s.cvo_logs {
        let _ = writeln!(
            o,
            "  log {}{}: {} → {} ({} lines, {} records{})",
            if l.pod.is_empty() {
                "?".into()
            } else {
                ol(&l.pod)
            },
            if l.previous { " (previous)" } else { "" },
            show(l.first.as_ref()).as_deref().unwrap_or("-"),
            show(l.last.as_ref()).as_deref().unwrap_or("-"),
            l.lines,
            l.records,
            if l.banners > 1 {
                format!(", {} starts", l.banners)
            } else {
                String::new()
            }
        );
    }
    if s.cvo_pods.is_empty() && s.cvo_logs.is_empty() {
        let _ = writeln!(o, "  no CVO pod or log found");
    }
    let _ = writeln!(
        o,
        "\nClusterOperators: {} found, {} need a look",
        s.operators_total,
        s.operator_problems.len()
    );
    for p in &s.operator_problems {
        let _ = writeln!(o, "  {:<40} {}", ol(&p.name), ol(&p.problems.join("; ")));
    }
    if !s.update_insights.is_empty() {
        let _ = writeln!(
            o,
            "\nUpdate insights the cluster reported (UpdateStatus API): {}",
            s.update_insights.len()
        );
        for i in &s.update_insights {
            let _ = writeln!(o, "  {}", ol(&i.line()));
        }
    }
    let _ = writeln!(
        o,
        "\nAlso found: {} nodes, {} machine config pools, {} events, {} intervals, {} test-log lines, {} JUnit cases",
        s.nodes, s.machine_config_pools, s.events, s.intervals, s.test_log_lines, s.junit_cases
    );
    if let Some(t) = &s.tables {
        for (what, rows) in [
            ("Nodes", &t.nodes),
            ("MachineConfigPools", &t.pools),
            ("ClusterOperators", &t.operators),
        ] {
            if rows.len() > 1 {
                let _ = writeln!(
                    o,
                    "\n{what} (no ClusterVersion in the input: what it holds)"
                );
                write_table(&mut o, rows);
            }
        }
    }
    let _ = writeln!(o, "\nSources by kind");
    for (k, n) in &s.sources {
        let _ = writeln!(o, "  {k:<16} {n}");
    }
    let _ = writeln!(o, "\nUnread or partly read files: {}", s.unread.len());
    for u in &s.unread {
        let loc = match (u.line, u.column) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            (Some(l), None) => format!(":{l}"),
            _ => String::new(),
        };
        let lvl = match u.level {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        let path = crate::vocab::files::join_path(&u.input, &u.path);
        let _ = writeln!(o, "  {lvl}: {}{loc}: {}", ol(&path), ol(&u.reason));
    }
    o
}

/// The summary as versioned JSON (`mglint/summary/v2`).
pub fn render_json(s: &Summary, layout: JsonLayout) -> String {
    layout.document(s)
}
