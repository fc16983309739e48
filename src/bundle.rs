//! The index of everything ingested from the inputs of one run: typed objects and records,
//! each with provenance, plus the files that could not be read and why.

use crate::model::*;
use crate::vocab::FileTable;
use serde::Serialize;
use std::collections::BTreeMap;

/// What kind of input a user named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputKind {
    /// A must-gather (or `oc adm inspect`) directory.
    MustGather,
    /// A Prow CI job artifacts directory.
    CiJob,
    /// An archive (tar, zip, tar.gz, tar.xz, tar.zst, gzip, xz or zstd data), a file or a
    /// stream.
    Archive,
    /// A single file.
    File,
    /// A directory with none of the known layouts, read file by file.
    Directory,
}

/// One input as named by the user, and what was found in it.
#[derive(Debug, Clone, Serialize)]
pub struct InputInfo {
    pub name: String,
    pub kind: InputKind,
    /// Must-gather roots found inside (paths relative to the input).
    pub must_gather_roots: Vec<String>,
    /// Whether a CI job layout was found inside.
    pub ci_job: bool,
    /// The roots of the Prow jobs and Insights archives found inside (paths relative to the
    /// input, empty for the input itself): where a job's `prowjob.json` is, the folder
    /// holding its `artifacts/<step>/` (a `gather-extra` or an `e2e-*` step), or the folder
    /// holding an Insights archive's `config/version.json`.
    #[serde(skip)]
    pub ci_roots: Vec<String>,
    /// The roots of the Insights operator archives found inside (paths relative to the
    /// input, empty for the input itself): the folders holding a `config/version.json`.
    /// Left out of the JSON when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub insights_roots: Vec<String>,
    /// Files looked at, and files read and parsed.
    pub files_seen: u64,
    pub files_read: u64,
    /// Files outside any known layout whose content is nothing mglint reads.
    pub files_skipped: u64,
    /// Archives found inside the input and opened (their files are counted one by one).
    pub archives_opened: u64,
    /// Every file looked at and not read, by reason: with `files_read` and
    /// `archives_opened` they add up to `files_seen`.
    pub not_read: NotRead,
    pub bytes_read: u64,
    /// Modification time of the input itself: the last resort for the year of year-less
    /// log lines when nothing inside the input has an absolute time.
    #[serde(skip)]
    pub modified: Option<Time>,
}

impl InputInfo {
    /// What the input is, in words for an inputs list (human, Markdown, HTML, the
    /// summary): its kind, or "Insights archive" for an input whose only known layout is an
    /// Insights operator archive's (Insights roots, no CI job, and no must-gather root but
    /// an Insights archive's own `cluster-scoped-resources/`), which the kind alone calls an
    /// archive or a directory.
    pub fn kind_label(&self) -> String {
        let insights = matches!(self.kind, InputKind::Archive | InputKind::Directory)
            && !self.ci_job
            && !self.insights_roots.is_empty()
            && self
                .must_gather_roots
                .iter()
                .all(|r| self.insights_roots.contains(r));
        if insights {
            return "Insights archive".to_string();
        }
        serde_json::to_value(self.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// Which cluster a document speaks of, carried by every JSON document: the ClusterVersion's
/// `spec.clusterID`, and the update it shows (`from`: the release before the newest history
/// entry, `to`: the desired release). Each is `null` when the input does not say.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ClusterIdentity {
    pub id: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

impl ClusterIdentity {
    /// The identity a ClusterVersion states.
    pub fn of(cv: &ClusterVersion) -> ClusterIdentity {
        let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
        let status = &cv.status;
        let to = some(&status.desired.version)
            .or_else(|| status.history.first().and_then(|h| some(&h.version)))
            .or_else(|| some(&cv.spec.desired_update.as_ref()?.version));
        ClusterIdentity {
            id: some(&cv.spec.cluster_id),
            from: status.history.get(1).and_then(|h| some(&h.version)),
            to,
        }
    }
}

/// How many files of one reason were not read, and the first few of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub count: u64,
    /// The first [`Tally::NAMED`] paths (relative to the input), in the order met.
    pub first: Vec<String>,
}

impl Tally {
    /// How many paths a tally names.
    pub const NAMED: usize = 5;

    pub fn add(&mut self, path: &str) {
        self.count += 1;
        if self.first.len() < Self::NAMED {
            self.first.push(path.to_string());
        }
    }
}

/// Why a file the walk looked at was not read: the one type the walk counts with, the
/// summary prints ([`NotReadReason::describe`]) and [`NotRead`] tallies (its JSON keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NotReadReason {
    /// In a known layout (a must-gather, a CI job), holding nothing any rule reads (most
    /// pod logs, most namespaces' objects).
    NotNeeded,
    /// Outside every known layout, with content mglint does not recognise.
    UnknownFormat,
    /// Larger than `--max-file-bytes`.
    OverSizeCap,
    /// Links (never followed), FIFOs, sockets, devices.
    NotRegular,
    /// Could not be opened or read (permissions, I/O errors, a broken archive entry).
    Unreadable,
    /// An earlier copy of an archive entry that a later one of the same name replaced.
    Duplicate,
}

impl NotReadReason {
    /// Every reason, in the order the summary lists them.
    pub const ALL: [NotReadReason; 6] = [
        NotReadReason::NotNeeded,
        NotReadReason::UnknownFormat,
        NotReadReason::OverSizeCap,
        NotReadReason::NotRegular,
        NotReadReason::Unreadable,
        NotReadReason::Duplicate,
    ];

    /// The reason for a person (the summary's wording).
    pub fn describe(self) -> &'static str {
        match self {
            NotReadReason::NotNeeded => "not needed by any rule",
            NotReadReason::UnknownFormat => "unknown format",
            NotReadReason::OverSizeCap => "over the size cap",
            NotReadReason::NotRegular => "not a regular file",
            NotReadReason::Unreadable => "unreadable",
            NotReadReason::Duplicate => "replaced by a later copy",
        }
    }
}

/// The files of an input that were looked at and not read, one [`Tally`] per
/// [`NotReadReason`] (a field each, the reason's JSON key).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NotRead {
    pub not_needed: Tally,
    pub unknown_format: Tally,
    pub over_size_cap: Tally,
    pub not_regular: Tally,
    pub unreadable: Tally,
    pub duplicate: Tally,
}

impl NotRead {
    /// The tally of one reason.
    pub fn tally(&self, why: NotReadReason) -> &Tally {
        match why {
            NotReadReason::NotNeeded => &self.not_needed,
            NotReadReason::UnknownFormat => &self.unknown_format,
            NotReadReason::OverSizeCap => &self.over_size_cap,
            NotReadReason::NotRegular => &self.not_regular,
            NotReadReason::Unreadable => &self.unreadable,
            NotReadReason::Duplicate => &self.duplicate,
        }
    }

    /// Counts the file at `path` as not read for `why`.
    pub fn add(&mut self, why: NotReadReason, path: &str) {
        let t = match why {
            NotReadReason::NotNeeded => &mut self.not_needed,
            NotReadReason::UnknownFormat => &mut self.unknown_format,
            NotReadReason::OverSizeCap => &mut self.over_size_cap,
            NotReadReason::NotRegular => &mut self.not_regular,
            NotReadReason::Unreadable => &mut self.unreadable,
            NotReadReason::Duplicate => &mut self.duplicate,
        };
        t.add(path);
    }

    /// Every reason with its tally, in [`NotReadReason::ALL`]'s order.
    pub fn reasons(&self) -> [(NotReadReason, &Tally); 6] {
        NotReadReason::ALL.map(|r| (r, self.tally(r)))
    }

    pub fn total(&self) -> u64 {
        self.reasons().iter().map(|(_, t)| t.count).sum()
    }
}

/// The parsed content of one or more inputs.
#[derive(Debug, Clone, Default)]
pub struct Bundle {
    pub inputs: Vec<InputInfo>,
    /// Every file read, with its text while evidence may point into it.
    pub files: FileTable,
    /// Collection times from `timestamp` files (start and end of each gather).
    pub collection_times: Vec<Sourced<Time>>,
    /// Must-gather image `version` files (`openshift/must-gather` + version).
    pub gather_versions: Vec<Sourced<String>>,
    /// Kubernetes and OpenShift objects, by kind (one per key, the freshest copy).
    pub objects: Objects,
    pub cvo_logs: Vec<CvoLog>,
    /// The ClusterVersion's and ClusterOperators' snapshots from a resourcewatch repository's
    /// history, oldest first (empty for any other input).
    pub snapshots: Vec<crate::model::Snapshot>,
    /// Other container logs, only those a known-issue rule asks for.
    pub pod_logs: Vec<PodLog>,
    pub intervals: Vec<Interval>,
    pub text_lines: Vec<TextLine>,
    pub junit: Vec<JunitCase>,
    pub prow: Option<ProwJob>,
    /// Files that could not be read, or only in part.
    pub diagnostics: Vec<Diagnostic>,
    /// Inputs that could not be opened at all (missing path, unreadable).
    pub input_errors: Vec<String>,
    /// Files parsed, by kind (e.g. `cvo-log` → 2).
    pub sources_by_kind: BTreeMap<String, u64>,
}

impl Bundle {
    /// The newest ClusterVersion snapshot (by collection order: the last one read).
    pub fn cluster_version(&self) -> Option<&Sourced<ClusterVersion>> {
        self.objects.cluster_versions.last()
    }

    /// The `cluster` FeatureGate, when the input holds it.
    pub fn feature_gate(&self) -> Option<&FeatureGate> {
        self.objects.feature_gates.last().map(|o| &o.value)
    }

    /// The `cluster` Infrastructure, when the input holds it.
    pub fn infrastructure(&self) -> Option<&Infrastructure> {
        self.objects.infrastructures.last().map(|o| &o.value)
    }

    /// Whether the CVO evaluates update risks itself and honours `acceptRisks` (the CVO's
    /// `shouldReconcileAcceptRisks`, oc's `alertsEvaluatedByCVO`): the
    /// `ClusterUpdateAcceptRisks` gate enabled for the desired version and a control plane
    /// that is not hosted. `None` when the input holds no FeatureGate or no ClusterVersion.
    pub fn cvo_evaluates_risks(&self) -> Option<bool> {
        let cv = self.cluster_version()?;
        let fg = self.feature_gate()?;
        Some(
            fg.enabled_for(&cv.value.status.desired.version, ACCEPT_RISKS_GATE)
                && !self.infrastructure().is_some_and(Infrastructure::is_hosted),
        )
    }

    /// The namespace the CVO's pod runs in: `openshift-cluster-version`, or for a HyperShift
    /// hosted cluster its control plane namespace (where its CVO log was found).
    pub fn cvo_namespace(&self) -> String {
        self.cvo_logs
            .iter()
            .find_map(|l| match &self.files.entry(&l.prov.file)?.at {
                crate::vocab::kind::Location::CvoLog(c) => c.namespace.clone(),
                _ => None,
            })
            .unwrap_or_else(|| "openshift-cluster-version".to_string())
    }

    /// The cluster this bundle speaks of (see [`ClusterIdentity`]).
    pub fn identity(&self) -> ClusterIdentity {
        self.cluster_version()
            .map(|cv| ClusterIdentity::of(cv))
            .unwrap_or_default()
    }

    /// The alerts of every alerts document, `None` when the bundle has none: the first
    /// document whole, and from the later ones the alerts it does not already hold (a
    /// must-gather's and an `inspect-alerts` file of the same moment repeat each other).
    pub fn merged_alerts(&self) -> Option<Vec<crate::model::Alert>> {
        if self.objects.alerts.is_empty() {
            return None;
        }
        let mut all: Vec<crate::model::Alert> = Vec::new();
        for doc in &self.objects.alerts {
            let before = all.len();
            for a in &doc.alerts {
                if !all[..before].contains(a) {
                    all.push(a.clone());
                }
            }
        }
        Some(all)
    }

    /// ClusterOperators, deduplicated by name.
    pub fn cluster_operators(&self) -> &[Sourced<ClusterOperator>] {
        &self.objects.cluster_operators
    }

    /// CVO log records across all CVO log files, by time.
    pub fn cvo_log(&self) -> &[CvoLog] {
        &self.cvo_logs
    }

    /// The collection time: the latest `timestamp` line, else the latest time seen in logs.
    pub fn collection_time(&self) -> Option<Time> {
        self.collection_times.iter().map(|t| t.value).max()
    }

    /// The moment the data describes: collection time, else the latest time in any source.
    pub fn reference_time(&self) -> Option<Time> {
        if let Some(t) = self.collection_time() {
            return Some(t);
        }
        let mut best: Option<Time> = None;
        let mut see = |t: Option<Time>| {
            if let Some(t) = t {
                best = Some(best.map_or(t, |b| b.max(t)));
            }
        };
        for cv in &self.objects.cluster_versions {
            for c in &cv.status.conditions {
                see(c.last_transition_time);
            }
            for h in &cv.status.history {
                see(h.started_time);
                see(h.completion_time);
            }
        }
        for co in &self.objects.cluster_operators {
            for c in &co.status.conditions {
                see(c.last_transition_time);
            }
        }
        for log in &self.cvo_logs {
            see(log.span().map(|s| s.1));
        }
        for i in &self.intervals {
            see(i.to.or(i.from));
        }
        for l in &self.text_lines {
            see(l.time);
        }
        if let Some(p) = &self.prow {
            see(p.completion);
        }
        best
    }

    /// True when no recognisable object or record was found.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
            && self.cvo_logs.is_empty()
            && self.intervals.is_empty()
            && self.text_lines.is_empty()
            && self.junit.is_empty()
            && self.prow.is_none()
            && self.collection_times.is_empty()
    }
}

/// A file the input holds that could not be read, with the kind of object it holds (the kind
/// it failed to read as, else the file's `kind:` lines, else its name); `None` when it
/// cannot be told.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unread {
    /// The input the file belongs to (as the user named it).
    pub input: String,
    /// The path inside the input (empty when the input is the file).
    pub path: String,
    pub reason: String,
    pub kind: Option<String>,
    /// The reader's own words (the diagnostic's `Cause::detail`), when it gave them apart.
    #[serde(skip)]
    pub detail: Option<String>,
}

/// The kind an unread container log is reported as (read only for known-issue rules).
const POD_LOG: &str = "container log";

/// The object kinds the assessment of an update reads (`status`, the `UH` rules).
const STATUS_KINDS: &[&str] = &[
    "ClusterVersion",
    "ClusterOperator",
    "MachineConfigPool",
    "Node",
    "MachineConfig",
    "Alerts",
    "Deployment",
];

impl Unread {
    /// Whether the file may hold something the assessment needs (an unknown kind may).
    pub fn matters(&self) -> bool {
        self.kind
            .as_deref()
            .is_none_or(|k| STATUS_KINDS.contains(&k))
    }

    /// Whether the file may decide if the cluster is updating (oc's verdict also counts
    /// outdated worker pools).
    pub fn decides_updating(&self) -> bool {
        matches!(
            self.kind.as_deref(),
            None | Some("ClusterVersion" | "MachineConfigPool" | "Node" | "MachineConfig")
        )
    }

    /// `input/path`, for a person.
    pub fn display_path(&self) -> String {
        crate::vocab::files::join_path(&self.input, &self.path)
    }

    /// "`path` (Kind): reason; this leaves … unknown", for a person.
    pub fn describe(&self) -> String {
        let kind = self.kind.as_deref().unwrap_or("objects of an unknown kind");
        format!(
            "`{}` ({kind}): {}; this leaves {} unknown",
            self.display_path(),
            self.reason,
            self.leaves_unknown()
        )
    }

    /// What the missing file leaves unknown, for a person.
    pub fn leaves_unknown(&self) -> &'static str {
        match self.kind.as_deref() {
            Some("ClusterVersion") => "the whole assessment",
            Some("ClusterOperator") => "the control plane and operator health",
            Some("MachineConfigPool") | Some("Node") | Some("MachineConfig") => {
                "the nodes and worker pools (and so whether the cluster is updating)"
            }
            Some("Alerts") => "the alerts in Update Health",
            Some("Deployment") => "whether machine-config is updated",
            Some(POD_LOG) => "what the known-issue rules reading it would find",
            _ => "any part of the assessment",
        }
    }
}

/// The kind of object a file that could not be read holds: the kind it failed to read as
/// (the diagnostic's typed cause), else the kind its `kind:` lines name, else its name's.
fn unread_kind(object: Option<&'static str>, text: Option<&str>, path: &str) -> Option<String> {
    if let Some(k) = object {
        return Some(k.to_string());
    }
    let canonical = |k: &str| -> Option<String> {
        let k = k.strip_suffix("List").unwrap_or(k);
        STATUS_KINDS
            .iter()
            .chain(&["Event", "Pod", "Namespace"])
            .find(|c| c.eq_ignore_ascii_case(k))
            .map(|c| c.to_string())
            .or_else(|| (!k.is_empty()).then(|| k.to_string()))
    };
    if let Some(t) = text {
        let head = &t[..t.len().min(64 * 1024)];
        for line in head.lines() {
            let l = line.trim_start_matches([' ', '-', '"']);
            if let Some(v) = l
                .strip_prefix("kind:")
                .or_else(|| l.strip_prefix("kind\":"))
            {
                let v = v.trim().trim_matches(|c| c == '"' || c == ',' || c == '\'');
                if !v.is_empty() && v != "List" {
                    return canonical(v);
                }
            }
        }
    }
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let by_name: &[(&str, &str)] = &[
        ("-cv.", "ClusterVersion"),
        ("clusterversion", "ClusterVersion"),
        ("-co.", "ClusterOperator"),
        ("clusteroperator", "ClusterOperator"),
        ("-mcp.", "MachineConfigPool"),
        ("machineconfigpool", "MachineConfigPool"),
        ("-mc.", "MachineConfig"),
        ("machineconfig", "MachineConfig"),
        ("node", "Node"),
        ("alert", "Alerts"),
        ("deployment", "Deployment"),
    ];
    by_name
        .iter()
        .find(|(needle, _)| name.contains(needle))
        .map(|(_, k)| k.to_string())
}

/// The files of the bundle that could not be read (error diagnostics), with their kinds,
/// one per file.
pub fn unread_files(b: &Bundle) -> Vec<Unread> {
    let mut out: Vec<Unread> = Vec::new();
    for d in &b.diagnostics {
        if d.level != crate::model::Severity::Error {
            continue;
        }
        let (input, path) = (d.prov.file.input(), d.prov.file.path());
        if out.iter().any(|u| u.input == input && u.path == path) {
            continue;
        }
        let text = b.files.text(&d.prov.file).map(|t| &**t);
        // A container log read only for known-issue rules holds no object the assessment
        // reads: its loss touches those rules alone.
        let kind = if d.cause.file == Some(crate::vocab::FileKind::PodLog) {
            Some(POD_LOG.to_string())
        } else {
            unread_kind(d.cause.object, text, &d.prov.display_path())
        };
        out.push(Unread {
            input: input.to_string(),
            path: path.to_string(),
            // Masked here, where every view that names unread files takes the reason.
            reason: crate::vocab::secrets::mask(&d.reason).into_owned(),
            kind,
            detail: d.cause.detail.clone(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::FileKind;

    fn error(path: &str, reason: &str, cause: Cause) -> Diagnostic {
        Diagnostic {
            level: Severity::Error,
            prov: Provenance::detached("dump", path),
            column: None,
            reason: reason.to_string(),
            cause,
        }
    }

    /// An unread file's kind is the diagnostic's typed cause, never words found in its
    /// reason: a reason quoting another kind (an item's own text, a decoder's message) does
    /// not change it, and a container log read for known-issue rules is one whatever it says.
    #[test]
    fn an_unread_files_kind_is_its_typed_cause() {
        let b = Bundle {
            diagnostics: vec![
                error(
                    "co.yaml",
                    "item 0: not a valid ClusterOperator: unknown field, expected not a valid Node",
                    Cause::object("ClusterOperator"),
                ),
                error(
                    "mystery.yaml",
                    "invalid YAML: not a valid Node at line 3",
                    Cause::default(),
                ),
                error(
                    "ns/pods/p/c/c/logs/current.log",
                    "not a valid MachineConfigPool",
                    Cause {
                        file: Some(FileKind::PodLog),
                        ..Cause::default()
                    },
                ),
                error(
                    "alerts.json",
                    "not a valid alerts response: unexpected end of JSON input",
                    Cause::alerts("unexpected end of JSON input".into()),
                ),
            ],
            ..Bundle::default()
        };
        let got: Vec<(String, Option<String>, Option<String>)> = unread_files(&b)
            .into_iter()
            .map(|u| (u.path, u.kind, u.detail))
            .collect();
        let s = |v: &str| Some(v.to_string());
        assert_eq!(
            got,
            [
                ("co.yaml".into(), s("ClusterOperator"), None),
                // No cause, no text, nothing in the name: unknown, not `Node`.
                ("mystery.yaml".into(), None, None),
                ("ns/pods/p/c/c/logs/current.log".into(), s(POD_LOG), None),
                (
                    "alerts.json".into(),
                    s("Alerts"),
                    s("unexpected end of JSON input")
                ),
            ]
        );
    }
}
