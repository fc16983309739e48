//! CVO log lines (cvo-reference §8.3): turns one klog message into a typed fact. Matching is
//! on message text only, never on the `file:line` of the header (it moves between versions).

use super::event::cvo_reason_kinds;
use super::text::{
    PayloadLoadedLine, PreconditionCheck, first_precondition, payload_loaded_line,
    precondition_error, preconditions,
};
use crate::model::{LoadStep, ReleaseName};
use crate::timeline::model::EventKind;
use regex::Regex;
use std::sync::LazyLock;

/// What one CVO log message says.
#[derive(Debug, Clone, PartialEq)]
pub enum Fact {
    /// A timeline event, with a one-line human message.
    Event(EventKind, String),
    /// A per-manifest line: `Running sync for X (i of n)` or `Done syncing for X (i of n)`.
    Manifest {
        done: bool,
        name: String,
        index: u32,
        total: u32,
    },
    /// `Precreated resource clusteroperator "x" (i of n)`: the ClusterOperator pre-creation
    /// graph that runs (with its own `Result of work`) before the manifests of an
    /// Initializing or Updating pass.
    Precreated,
    /// A timeline event that is also a result of the fixed CVO's load pipeline, which the
    /// replay reads (the timeline keeps these in `Timeline::loads`).
    Load(EventKind, String, LoadFact),
    /// `merge into existing history completed=B desired=…`: a status sync merged the
    /// worker's release into `history[0]` (logged on every status sync; the timeline keeps
    /// the changes in `Timeline::history_merges`, no event).
    HistoryMerge(HistoryMerge),
}

/// What one `merge into existing history` line says: at this status sync the worker's
/// release was `history[0]`'s, and whether the worker had completed it (the sync that first
/// says `completed=true` is the one that wrote `history[0]`'s completionTime).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryMerge {
    pub completed: bool,
    pub version: String,
    pub image: String,
}

/// What the fixed CVO's load pipeline logged about a target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadFact {
    /// `Precondition error (force F, block B): …` with the checks that failed.
    PreconditionError {
        forced: bool,
        blocking: bool,
        checks: Vec<PreconditionCheck>,
    },
    /// `Payload loaded from <image> with hash <hash>[, architecture <arch>]`.
    PayloadLoaded(PayloadLoadedLine),
}

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

static RE_BANNER: LazyLock<Regex> = LazyLock::new(|| re(r"^ClusterVersionOperator (\S+)\s*$"));
static RE_PERIOD: LazyLock<Regex> =
    LazyLock::new(|| re(r"^Starting ClusterVersionOperator with minimum reconcile period (\S+)"));
static RE_RUNNING_SYNC: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^Running sync (\S+) \(force=(\w+)\) on generation (-?\d+) in state (\w+) at attempt (\d+)")
});
static RE_APPLY: LazyLock<Regex> =
    LazyLock::new(|| re(r"^apply: (\S+) on generation (-?\d+) in state (\w+) at attempt (\d+)"));
static RE_MANIFEST: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(Running sync|Done syncing) for (.+) \((\d+) of (\d+)\)\s*$"));
static RE_RESULT: LazyLock<Regex> = LazyLock::new(|| re(r"(?s)^Result of work: (?:errs=)?(.*)$"));
static RE_SYNC_PAYLOAD: LazyLock<Regex> =
    LazyLock::new(|| re(r"^syncPayload: (\S+) \(force=(\w+)\)"));
static RE_SYNC_FAILED: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?s)^unable to synchronize image \(waiting ([^)]*)\): (.*)$"));
static RE_WORK_CHANGED: LazyLock<Regex> =
    LazyLock::new(|| re(r"^Work changed, transitioning from (\w+) to Updating"));
static RE_SYNC_SUCCEEDED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^Sync succeeded, (?:transitioning from (\w+) to Reconciling|reconciling)")
});
static RE_HISTORY_PUSH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?s)^(?:must add a new history entry|initialize new history) completed=(\w+) desired=(.*)$",
    )
});
static RE_HISTORY_MERGE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?s)^merge into existing history completed=(\w+) desired=(.*)$"));
static RE_DESIRED_SPEC: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?s)^Desired version from spec is (.*)$"));
static RE_EVENT: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?s)^Event\(.*?\): type: '(\w+)' reason: '(\w+)' (.*)$"));
static RE_GO_VERSION: LazyLock<Regex> = LazyLock::new(|| re(r#"Version:"([^"]*)""#));
static RE_GO_IMAGE: LazyLock<Regex> = LazyLock::new(|| re(r#"Image:"([^"]*)""#));
static RE_GO_FORCE: LazyLock<Regex> = LazyLock::new(|| re(r"Force:(true|false)"));
/// Where one error of a `Result of work: [...]` list starts.
static RE_ERR_START: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:^| )(Cluster operator |Could not |update context |Multiple errors |error |unable to |timed out )",
    )
});

/// `(version, image, force)` from a Go `%#v` dump of a `v1.Update` or `v1.Release` (what
/// follows it, ` != last=…` or ` last=…`, is not read).
pub fn go_update(dump: &str) -> (String, String, bool) {
    let head = dump.split(" != last=").next().unwrap_or(dump);
    let head = head.split(" last=&").next().unwrap_or(head);
    let v = RE_GO_VERSION
        .captures(head)
        .map(|c| c[1].to_string())
        .unwrap_or_default();
    let i = RE_GO_IMAGE
        .captures(head)
        .map(|c| c[1].to_string())
        .unwrap_or_default();
    let f = RE_GO_FORCE.captures(head).is_some_and(|c| &c[1] == "true");
    (v, i, f)
}

/// The errors of a `Result of work` list (`[]` → none).
pub fn split_errors(list: &str) -> Vec<String> {
    let inner = list.trim();
    let inner = inner.strip_prefix('[').unwrap_or(inner);
    let inner = inner.strip_suffix(']').unwrap_or(inner).trim();
    if inner.is_empty() {
        return Vec::new();
    }
    let starts: Vec<usize> = RE_ERR_START
        .captures_iter(inner)
        .filter_map(|c| c.get(1).map(|m| m.start()))
        .collect();
    if starts.is_empty() {
        return vec![inner.replace('\n', " ")];
    }
    // An error of a wording not listed above ahead of listed ones is an error of its own,
    // not the head of the whole list (Go's `%v` of `[]error` joins them with spaces).
    let mut out = Vec::new();
    if let Some(head) = inner.get(..starts[0]).map(str::trim)
        && !head.is_empty()
    {
        out.push(head.replace('\n', " "));
    }
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(inner.len());
        if let Some(part) = inner.get(s..e) {
            let part = part.trim();
            if !part.is_empty() {
                out.push(part.replace('\n', " "));
            }
        }
    }
    out
}

/// Unwraps 4.18+ structured klog messages (`"Unhandled Error" err="…"`, `"Successfully
/// acquired lease" lock="…"`) into their plain text.
fn unstructure(msg: &str) -> std::borrow::Cow<'_, str> {
    if let Some(rest) = msg.strip_prefix("\"Unhandled Error\" err=\"") {
        let body = rest
            .rsplit_once("\" logger=")
            .map_or(rest.trim_end_matches('"'), |(b, _)| b);
        return std::borrow::Cow::Owned(body.replace("\\\"", "\"").replace("\\n", "\n"));
    }
    if let Some(rest) = msg.strip_prefix('"')
        && let Some((head, _)) = rest.split_once('"')
    {
        return std::borrow::Cow::Owned(head.to_string());
    }
    std::borrow::Cow::Borrowed(msg)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Classifies one CVO log message; `None` for lines that are not in the catalogue (or are
/// logged on every sync and say nothing new, like `Desired version from operator …`).
pub fn classify(message: &str) -> Option<Fact> {
    let msg = unstructure(message);
    let msg = msg.as_ref();
    let ev = |k: EventKind, m: String| Some(Fact::Event(k, m));
    let first = msg.as_bytes().first().copied()?;
    if msg
        .get(..27)
        .is_some_and(|p| p.eq_ignore_ascii_case("successfully acquired lease"))
    {
        return ev(
            EventKind::LeaderAcquired,
            "acquired the leader lease".to_string(),
        );
    }
    match first {
        b'C' => {
            if let Some(c) = RE_BANNER.captures(msg) {
                return ev(
                    EventKind::PodStart {
                        build: c[1].to_string(),
                    },
                    format!("CVO started ({})", &c[1]),
                );
            }
        }
        b'S' => {
            if let Some(c) = RE_PERIOD.captures(msg) {
                return ev(
                    EventKind::ReconcilePeriod {
                        period: c[1].to_string(),
                    },
                    format!(
                        "CVO operator loop starting, minimum reconcile period {}",
                        &c[1]
                    ),
                );
            }
            if let Some(c) = RE_SYNC_SUCCEEDED.captures(msg) {
                let from = c.get(1).map_or("", |m| m.as_str()).to_string();
                let m = if from.is_empty() {
                    "sync succeeded, reconciling".to_string()
                } else {
                    format!("sync succeeded, {from} → Reconciling")
                };
                return ev(EventKind::SyncSucceeded { from_state: from }, m);
            }
            if msg.starts_with("Shutting down ClusterVersionOperator")
                || msg.starts_with("Shutting down due to")
                || msg.starts_with("Stepping down as leader")
                || msg.starts_with("Stopped leading")
            {
                return ev(
                    EventKind::Shutdown,
                    format!("CVO shutting down: {}", first_line(msg)),
                );
            }
        }
        b'G' if msg.starts_with("Graceful shutdown complete") => {
            return ev(EventKind::Shutdown, "CVO shut down".to_string());
        }
        b'R' => {
            if let Some(f) = manifest_fast(msg) {
                return Some(f);
            }
            if let Some(c) = RE_MANIFEST.captures(msg) {
                return manifest(&c);
            }
            let pass = match running_sync_ascii(msg) {
                Some(fields) => fields,
                None => RE_RUNNING_SYNC
                    .captures(msg)
                    .map(|c| [1, 2, 3, 4, 5].map(|i| c.get(i).map_or("", |m| m.as_str()))),
            };
            if let Some([target, force, gen_, state, attempt]) = pass {
                return ev(
                    EventKind::PassStart {
                        target: target.to_string(),
                        generation: gen_.parse().ok(),
                        state: state.to_string(),
                        attempt: attempt.parse().unwrap_or(0),
                        force: Some(force == "true"),
                    },
                    format!(
                        "sync pass for {target} in state {state}, attempt {attempt} (generation {gen_})"
                    ),
                );
            }
            if let Some(c) = RE_RESULT.captures(msg) {
                let errors = split_errors(&c[1]);
                let m = if errors.is_empty() {
                    "pass result: no errors".to_string()
                } else {
                    format!(
                        "pass result: {} error(s): {}",
                        errors.len(),
                        errors.join("; ")
                    )
                };
                return ev(
                    EventKind::PassResult {
                        target: String::new(),
                        ok: errors.is_empty(),
                        errors,
                    },
                    m,
                );
            }
        }
        b'D' => {
            if let Some(f) = manifest_fast(msg) {
                return Some(f);
            }
            if let Some(c) = RE_MANIFEST.captures(msg) {
                return manifest(&c);
            }
            if let Some(c) = RE_DESIRED_SPEC.captures(msg) {
                let (version, image, force) = go_update(&c[1]);
                let label = ReleaseName::new(&version, &image).label().to_string();
                return ev(
                    EventKind::DesiredUpdateSeen {
                        version,
                        image,
                        force,
                    },
                    format!("desired update from spec: {label}"),
                );
            }
        }
        b'a' => {
            if let Some(c) = RE_APPLY.captures(msg) {
                let (target, gen_, state, attempt) = (&c[1], &c[2], &c[3], &c[4]);
                return ev(
                    EventKind::PassStart {
                        target: target.to_string(),
                        generation: gen_.parse().ok(),
                        state: state.to_string(),
                        attempt: attempt.parse().unwrap_or(0),
                        force: None,
                    },
                    format!(
                        "apply pass for {target} in state {state}, attempt {attempt} (generation {gen_})"
                    ),
                );
            }
        }
        b'L' if msg.trim_end() == "Loading payload" => {
            return ev(
                EventKind::PayloadLoading {
                    target: String::new(),
                },
                "loading payload".to_string(),
            );
        }
        b'P' => {
            if msg.starts_with("Precreated resource ") {
                return Some(Fact::Precreated);
            }
            if let Some(p) = payload_loaded_line(msg) {
                let m = format!("payload loaded from {} (hash {})", p.image, p.hash);
                return Some(Fact::Load(
                    EventKind::PayloadLoaded {
                        version: String::new(),
                        image: p.image.clone(),
                    },
                    m,
                    LoadFact::PayloadLoaded(p),
                ));
            }
            if let Some(e) = precondition_error(msg) {
                let blocking = e.blocking && !e.forced;
                let checks = preconditions(&e.summary);
                let (name, reason) = checks
                    .first()
                    .map(|c| (c.name.clone(), c.reason.clone()))
                    .unwrap_or_default();
                let kind = if blocking {
                    EventKind::PreconditionFailed { name, reason }
                } else {
                    EventKind::PreconditionWarning { name }
                };
                let m = format!(
                    "precondition error (force {}, block {}): {}",
                    e.forced,
                    e.blocking,
                    first_line(&e.summary)
                );
                return Some(Fact::Load(
                    kind,
                    m,
                    LoadFact::PreconditionError {
                        forced: e.forced,
                        blocking: e.blocking,
                        checks,
                    },
                ));
            }
            if msg.starts_with("Precondition \"")
                && let Some(c) = first_precondition(msg)
            {
                let m = format!(
                    "precondition `{}` failed: {}",
                    c.name,
                    first_line(c.message.as_deref().unwrap_or(""))
                );
                return ev(
                    EventKind::PreconditionFailed {
                        name: c.name,
                        reason: c.reason,
                    },
                    m,
                );
            }
        }
        b'F' if msg.starts_with("Forcing past precondition failures: ") => {
            let name = first_precondition(msg).map(|c| c.name).unwrap_or_default();
            return ev(
                EventKind::PreconditionWarning { name },
                format!("forced past precondition failures: {}", first_line(msg)),
            );
        }
        b'l' if msg.starts_with("loadUpdatedPayload syncPayload err=") => {
            let err = &msg["loadUpdatedPayload syncPayload err=".len()..];
            let lower = err.to_ascii_lowercase();
            let step = if lower.contains("precondition") {
                LoadStep::PreconditionChecks
            } else if lower.contains("verif") && !lower.contains("version") {
                LoadStep::VerifyPayload
            } else if lower.contains("retriev") || lower.contains("download") {
                LoadStep::RetrievePayload
            } else if lower.contains("version") {
                LoadStep::VerifyPayloadVersion
            } else {
                LoadStep::LoadPayload
            };
            return ev(
                EventKind::PayloadRejected { step },
                format!("target rejected: {}", first_line(err)),
            );
        }
        b's' => {
            if let Some(c) = RE_SYNC_PAYLOAD.captures(msg) {
                return ev(
                    EventKind::SyncPayload {
                        target: c[1].to_string(),
                        force: &c[2] == "true",
                    },
                    format!("loading target {} (force={})", &c[1], &c[2]),
                );
            }
        }
        b'u' => {
            if let Some(c) = RE_SYNC_FAILED.captures(msg) {
                return ev(
                    EventKind::SyncFailed {
                        wait: c[1].to_string(),
                    },
                    format!("sync failed (retry in {}): {}", &c[1], first_line(&c[2])),
                );
            }
        }
        b'W' => {
            if let Some(c) = RE_WORK_CHANGED.captures(msg) {
                return ev(
                    EventKind::WorkChanged {
                        from_state: c[1].to_string(),
                    },
                    format!("work changed, {} → Updating", &c[1]),
                );
            }
        }
        b'm' | b'i' => {
            if let Some(c) = RE_HISTORY_MERGE.captures(msg) {
                let (version, image, _) = go_update(&c[2]);
                return Some(Fact::HistoryMerge(HistoryMerge {
                    completed: &c[1] == "true",
                    version,
                    image,
                }));
            }
            if let Some(c) = RE_HISTORY_PUSH.captures(msg) {
                let (version, image, _) = go_update(&c[2]);
                let label = ReleaseName::new(&version, &image).label().to_string();
                return ev(
                    EventKind::HistoryPush { version, image },
                    format!("new history entry for {label}"),
                );
            }
        }
        b'E' => {
            if let Some(c) = RE_EVENT.captures(msg) {
                let (ty, reason, text) = (&c[1], &c[2], &c[3]);
                if reason == "LeaderElection" {
                    return ev(
                        EventKind::LeaderAcquired,
                        format!("event LeaderElection: {}", first_line(text)),
                    );
                }
                if let Some(k) = cvo_reason_kinds(reason, ty, text).into_iter().next() {
                    return ev(k, format!("event {ty} {reason}: {}", first_line(text)));
                }
            }
        }
        _ => {}
    }
    None
}

/// Fast path for the most common lines, `Running sync for X (i of n)` and `Done syncing for
/// X (i of n)`, without a regex (same result as `RE_MANIFEST`).
fn manifest_fast(msg: &str) -> Option<Fact> {
    manifest_line(msg).map(|(done, name, index, total)| Fact::Manifest {
        done,
        name: name.to_string(),
        index,
        total,
    })
}

/// A manifest line's fields, borrowed from the message: done (or started), name, index and
/// total.
pub type ManifestLine<'a> = (bool, &'a str, u32, u32);

/// The fields of `Running sync for X (i of n)` or `Done syncing for X (i of n)`, read in
/// place: for such a message, [`classify`] gives exactly `Fact::Manifest` with these fields
/// (neither prefix is one [`unstructure`] rewrites or the lease check takes).
pub fn manifest_line(msg: &str) -> Option<ManifestLine<'_>> {
    let (done, rest) = if let Some(r) = msg.strip_prefix("Running sync for ") {
        (false, r)
    } else {
        (true, msg.strip_prefix("Done syncing for ")?)
    };
    let body = rest.trim_end().strip_suffix(')')?.as_bytes();
    // Read from the end (this runs on every record): ` (i of n` with both numbers all
    // digits. The ` (` before them is then the body's last: nothing after it holds one.
    let (n, before) = digits_back(body)?;
    let (i, before) = digits_back(before.strip_suffix(b" of ")?)?;
    let open = before.strip_suffix(b" (")?.len();
    let name = &rest[..open];
    if name.is_empty() || memchr::memchr(b'\n', name.as_bytes()).is_some() {
        return None;
    }
    Some((done, name, i, n))
}

/// The number that `s` ends with (at least one ASCII digit, at most `u32::MAX`, as
/// `u32::parse` reads it) and what is before it.
fn digits_back(s: &[u8]) -> Option<(u32, &[u8])> {
    let start = s
        .iter()
        .rposition(|b| !b.is_ascii_digit())
        .map_or(0, |p| p + 1);
    let digits = &s[start..];
    if digits.is_empty() {
        return None;
    }
    let mut v: u32 = 0;
    for &d in digits {
        v = v.checked_mul(10)?.checked_add(u32::from(d - b'0'))?;
    }
    Some((v, &s[..start]))
}

/// Fast path for the pass line, `Running sync X (force=F) on generation G in state S at
/// attempt A`, without a regex: the same fields as `RE_RUNNING_SYNC`. It answers only for
/// ASCII text (`None`: ask the regex, whose `\S`, `\w` and `\d` are Unicode classes);
/// `Some(None)` is "not a pass line".
fn running_sync_ascii(msg: &str) -> Option<Option<[&str; 5]>> {
    if !msg.is_ascii() {
        return None;
    }
    let word = |s: &str| {
        s.bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count()
    };
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let parse = || -> Option<[&str; 5]> {
        let rest = msg.strip_prefix("Running sync ")?;
        let t = rest
            .bytes()
            .take_while(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'))
            .count();
        let (target, rest) = (&rest[..t], rest[t..].strip_prefix(" (force=")?);
        let f = word(rest);
        let (force, rest) = (&rest[..f], rest[f..].strip_prefix(") on generation ")?);
        let sign = usize::from(rest.starts_with('-'));
        let g = sign + digits(&rest[sign..]);
        let (generation, rest) = (&rest[..g], rest[g..].strip_prefix(" in state ")?);
        let st = word(rest);
        let (state, rest) = (&rest[..st], rest[st..].strip_prefix(" at attempt ")?);
        let a = digits(rest);
        let attempt = &rest[..a];
        let all = [
            target,
            force,
            generation.trim_start_matches('-'),
            state,
            attempt,
        ];
        all.iter()
            .all(|f| !f.is_empty())
            .then_some([target, force, generation, state, attempt])
    };
    Some(parse())
}

fn manifest(c: &regex::Captures<'_>) -> Option<Fact> {
    Some(Fact::Manifest {
        done: &c[1] == "Done syncing",
        name: c[2].to_string(),
        index: c[3].parse().ok()?,
        total: c[4].parse().ok()?,
    })
}

/// What a pass's `unable to synchronize image` error says stopped it: the payload's signature
/// or verification, its retrieval, a precondition, or none of these.
pub fn sync_error_cause(err: &str) -> crate::timeline::model::StallCause {
    use crate::timeline::model::StallCause;
    let lower = err.to_ascii_lowercase();
    if lower.contains("verif") || lower.contains("signature") {
        StallCause::PayloadVerification
    } else if lower.contains("retriev")
        || lower.contains("download")
        || lower.contains("payload")
        || lower.contains("image")
    {
        StallCause::PayloadRetrieval
    } else if lower.contains("precondition") {
        StallCause::PreconditionFailed
    } else {
        StallCause::Unknown
    }
}

#[cfg(test)]
mod fast_path_tests {
    use super::*;

    #[test]
    fn a_sync_error_says_what_stopped_the_pass() {
        use crate::timeline::model::StallCause;
        let cases = [
            (
                "The update cannot be verified: unable to locate a valid signature for one or more sources",
                StallCause::PayloadVerification,
            ),
            (
                "Unable to download and prepare the update: deadline exceeded",
                StallCause::PayloadRetrieval,
            ),
            (
                "Precondition \"ClusterVersionUpgradeable\" failed because of \"AdminAckRequired\": Kubernetes 1.22 and therefore OpenShift 4.9 remove several APIs",
                StallCause::PreconditionFailed,
            ),
            ("context canceled", StallCause::Unknown),
        ];
        for (err, cause) in cases {
            assert_eq!(sync_error_cause(err), cause, "{err}");
        }
    }

    #[test]
    fn manifest_fast_path_agrees_with_the_regex() {
        let lines = [
            "Running sync for clusteroperator \"kube-apiserver\" (102 of 853)",
            "Done syncing for deployment \"openshift-cluster-version/cluster-version-operator\" (5 of 573)",
            "Running sync for customresourcedefinition \"a (b)\" (7 of 9)",
            "Done syncing for x (1 of n)",
            "Running sync for  (1 of 2)",
            "Running sync 4.3.11 (force=false) on generation 3 in state Updating at attempt 0",
            "Running sync for a (1 of 2) (3 of 4)",
            "Running sync for a (1 of 2 (3 of 4)",
            "Running sync for x ( of 5)",
            "Running sync for x (1 of )",
            "Running sync for x (1  of 2)",
            "Running sync for x(1 of 2)",
            "Running sync for x ((1 of 2)",
            "Running sync for x (1 of 2)  ",
            "Running sync for x (1 of 2)\n",
            "Running sync for a\nb (1 of 2)",
            "Done syncing for é \"ü\" (1 of 2)",
            "Done syncing for (x) (12 of 34)",
            "Done syncing for x (1 of 2)x",
            "Done syncing for x (12a of 34)",
            "Done syncing for x (12 of 3 of 4)",
            "Done syncing for x (1 of 2",
            "Done syncing for ",
            "Done syncing for  (",
            "Done syncing for x (4294967295 of 4294967295)",
            "Done syncing for x (4294967296 of 5)",
            "Done syncing for x (1 of 99999999999)",
            "Done syncing for x (007 of 0009)",
            "Done syncing for x (1 2 of 3)",
            "Done syncing for x (+1 of 2)",
            "Done syncing for x (1 of +2)",
            "Done syncing for x (1 of 2\u{0663})",
            "Done syncing for x (\u{0661} of 2)",
            "Done syncing for x (1 of 2)\u{2003}",
            "Running sync for x\u{1} (3 of 4) \t",
            "Running sync for ( (1 of 2)",
            "Running sync for  (1 of 2) (3 of 4)",
            "Running sync for x (1 of 2)) (3 of 4)",
        ];
        for l in lines {
            let slow = RE_MANIFEST.captures(l).and_then(|c| manifest(&c));
            assert_eq!(manifest_fast(l), slow, "{l}");
        }
    }

    /// Generated lines made of the pieces a manifest line is read from (digits, ` of `,
    /// brackets, spaces, a newline, a non-ASCII digit and space): the fast path reads each
    /// as the regex does, and enough of them are manifest lines for that to mean something.
    #[test]
    fn manifest_fast_path_agrees_with_the_regex_on_generated_lines() {
        let mut rnd = crate::vocab::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let pieces = [
            "0",
            "7",
            "42",
            "4294967295",
            "4294967296",
            " of ",
            " (",
            "(",
            ")",
            " ",
            "x",
            "\"a\"",
            "\n",
            "\u{0663}",
            "\u{2003}",
            "of",
            "\t",
        ];
        let mut matched = 0;
        for _ in 0..20_000 {
            let mut l = String::from(
                ["Running sync for ", "Done syncing for ", "Running sync "][rnd(3) as usize],
            );
            if rnd(2) == 0 {
                l.push_str("deployment \"ns/name\"");
            }
            for _ in 0..rnd(9) {
                l.push_str(pieces[rnd(pieces.len() as u64) as usize]);
            }
            if rnd(2) == 0 {
                l.push_str(&format!(" ({} of {})", rnd(1000), rnd(1000)));
            }
            for _ in 0..rnd(3) {
                l.push_str(pieces[rnd(pieces.len() as u64) as usize]);
            }
            let slow = RE_MANIFEST.captures(&l).and_then(|c| manifest(&c));
            matched += usize::from(slow.is_some());
            assert_eq!(manifest_fast(&l), slow, "{l:?}");
        }
        assert!(matched > 2_000, "{matched} manifest lines");
    }

    #[test]
    fn pass_line_fast_path_agrees_with_the_regex() {
        let lines = [
            "Running sync 4.3.11 (force=false) on generation 3 in state Updating at attempt 0",
            "Running sync quay.io/openshift-release-dev/ocp-release@sha256:abc (force=true) on generation -1 in state Initializing at attempt 12 and more",
            "Running sync 4.3.11 (force=false) on generation 3 in state Updating at attempt ",
            "Running sync 4.3.11 (force=false) on generation - in state Updating at attempt 0",
            "Running sync 4.3.11 (force=false) on generation --3 in state Updating at attempt 0",
            "Running sync 4.3.11 (force=) on generation 3 in state Updating at attempt 0",
            "Running sync  (force=false) on generation 3 in state Updating at attempt 0",
            "Running sync a\tb (force=false) on generation 3 in state Updating at attempt 0",
            "Running sync 4.3.11 (force=false) on generation 3 in state Up-dating at attempt 0",
            "Running sync 4.3.11 (force=false) on generation 3x in state Updating at attempt 0",
            "Running sync 4.3.11 (force=false_1) on generation 007 in state S_1 at attempt 99x",
            "Running sync for clusteroperator \"x\" (1 of 2)",
            "Running sync",
        ];
        for l in lines {
            let slow = RE_RUNNING_SYNC
                .captures(l)
                .map(|c| [1, 2, 3, 4, 5].map(|i| c[i].to_string()));
            let fast = running_sync_ascii(l)
                .expect("ASCII")
                .map(|f| f.map(str::to_string));
            assert_eq!(fast, slow, "{l}");
        }
        assert_eq!(
            running_sync_ascii(
                "Running sync 4.3 (force=fälse) on generation 3 in state U at attempt 0"
            ),
            None
        );
    }
}
