//! The CVO's texts read back into typed facts, wherever they appear: condition messages
//! (Progressing, Failing, ReleaseAccepted, Upgradeable), Kubernetes event messages, and the
//! bodies of log lines (cvo-reference §3.3, §3.5, §3.6, §6.2, §8). Every pattern over CVO
//! wording lives here, once; the log classifier, the timeline, the rules and the replay call
//! these functions and never match CVO text themselves.

use regex::Regex;
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

/// `Precondition "X" failed`, with `because of "R"` (status and events) and `: message`
/// (status and the 4.x log line `Precondition "X" failed: message`) when present.
static RE_PRECONDITION: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"Precondition "([^"]+)" failed(?: because of "([^"]*)")?(?:: ((?s:.*)))?"#)
});
static RE_PRECONDITION_ERROR: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?s)^Precondition error \(force (true|false), block (true|false)\): (.*)$")
});
static RE_PAYLOAD_LOADED_LOG: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^Payload loaded from (\S+?) with hash ([^,\s]+)(?:, architecture (\S+))?\s*$")
});
static RE_LOAD_MESSAGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?s)^(Preconditions failed for payload loaded|Retrieving payload failed|Loading payload failed|Verifying payload failed|Payload loaded) version="((?:[^"\\]|\\.)*)" image="((?:[^"\\]|\\.)*)"(?: architecture="((?:[^"\\]|\\.)*)")?(?:(?:: | failure=)(.*))?$"#,
    )
});
static RE_N_OF_M: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^Working towards (.+?): (\d+) of (\d+) done \((\d+)% complete\)(?:, (.*))?")
});
static RE_PERCENT: LazyLock<Regex> =
    LazyLock::new(|| re(r"^Working towards (.+?): (\d+)% complete"));
static RE_CO_NAME: LazyLock<Regex> =
    LazyLock::new(|| re(r"[Cc]luster operators? ([a-z0-9][a-z0-9.-]*(?:, [a-z0-9][a-z0-9.-]*)*)"));
static RE_CO_SINGLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^Cluster operator (\S+) (is still updating|is not available|is degraded|is updating versions|does not declare expected versions|is reporting a failure: .*|has not yet reported success)$",
    )
});
static RE_CO_PLURAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^Cluster operators (.+?) (are not available|are degraded|are updating versions|do not declare expected versions)$",
    )
});
static RE_SOME_UPDATING: LazyLock<Regex> =
    LazyLock::new(|| re(r"^Some cluster operators are still updating: (.+)$"));
static RE_COULD_NOT_UPDATE: LazyLock<Regex> =
    LazyLock::new(|| re(r#"^Could not update \S+ "[^"]*" \(\d+ of \d+\)(?:: (.*))?$"#));

/// One failed precondition check, however it was read (a condition's or an event's text, a
/// log line).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PreconditionCheck {
    /// `ClusterVersionUpgradeable`, `EtcdRecentBackup`, …
    pub name: String,
    /// The check's reason (`AdminAckRequired`), when the text gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The check's message, when the text gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl PreconditionCheck {
    /// A check a `Precondition "X" failed…` log line named: its message is always read (what
    /// follows the line's first `: `, maybe empty).
    pub fn logged(name: &str, reason: Option<&str>, message: String) -> Self {
        PreconditionCheck {
            name: name.to_string(),
            reason: reason.map(str::to_string),
            message: Some(message),
        }
    }

    /// The message, empty when the text gave none.
    pub fn message(&self) -> &str {
        self.message.as_deref().unwrap_or("")
    }
}

/// Every `Precondition "X" failed …` in a text: one check, a `Multiple precondition checks
/// failed:` list (one per `* ` line), `Forced through blocking failures: …`, an event's
/// summary or the 4.x log line. Empty when the text names none.
pub fn preconditions(text: &str) -> Vec<PreconditionCheck> {
    let text = text.trim();
    let text = text
        .strip_prefix("Forced through blocking failures: ")
        .unwrap_or(text);
    let items: Vec<&str> = match text.split_once("Multiple precondition checks failed:") {
        Some((_, rest)) => rest
            .split("\n* ")
            .map(str::trim)
            .map(|s| s.strip_prefix("* ").unwrap_or(s))
            .filter(|s| !s.is_empty())
            .collect(),
        // One check, or several named one after another (an event's summary).
        None => {
            let starts: Vec<usize> = text
                .match_indices("Precondition \"")
                .map(|(i, _)| i)
                .collect();
            starts
                .iter()
                .enumerate()
                .map(|(k, &s)| &text[s..starts.get(k + 1).copied().unwrap_or(text.len())])
                .collect()
        }
    };
    let mut out = Vec::new();
    for item in items {
        if let Some(c) = RE_PRECONDITION.captures(item) {
            out.push(PreconditionCheck {
                name: c[1].to_string(),
                reason: c
                    .get(2)
                    .map(|m| m.as_str().to_string())
                    .filter(|s| !s.is_empty()),
                message: c.get(3).map(|m| m.as_str().trim_end().to_string()),
            });
        }
    }
    out
}

/// The first failed precondition of a text (see [`preconditions`]).
pub fn first_precondition(text: &str) -> Option<PreconditionCheck> {
    preconditions(text).into_iter().next()
}

/// The fixed CVO's `Precondition error (force F, block B): <summary>` log line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreconditionError {
    pub forced: bool,
    pub blocking: bool,
    /// The summary (one check, or a `Multiple precondition checks failed:` list).
    pub summary: String,
}

pub fn precondition_error(msg: &str) -> Option<PreconditionError> {
    let c = RE_PRECONDITION_ERROR.captures(msg)?;
    Some(PreconditionError {
        forced: &c[1] == "true",
        blocking: &c[2] == "true",
        summary: c[3].to_string(),
    })
}

/// `Payload loaded from <image> with hash <hash>[, architecture <arch>]` (log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadLoadedLine {
    pub image: String,
    pub hash: String,
    pub architecture: String,
}

pub fn payload_loaded_line(msg: &str) -> Option<PayloadLoadedLine> {
    let c = RE_PAYLOAD_LOADED_LOG.captures(msg)?;
    Some(PayloadLoadedLine {
        image: c[1].to_string(),
        hash: c[2].to_string(),
        architecture: c.get(3).map_or(String::new(), |m| m.as_str().to_string()),
    })
}

/// Which step of the load pipeline a ReleaseAccepted (or legacy Failing) message names:
/// `PayloadLoaded` when accepted (never `VerifyPayload`, which no condition names).
pub use crate::model::LoadStep;

/// A ReleaseAccepted message: `<step text> version="V" image="I"[ architecture="A"][: rest]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadMessage {
    pub step: LoadStep,
    pub version: String,
    pub image: String,
    pub architecture: String,
    /// What follows the release (the failure, or a precondition summary).
    pub rest: String,
}

pub fn load_message(message: &str) -> Option<LoadMessage> {
    let c = RE_LOAD_MESSAGE.captures(message.trim())?;
    let step = match &c[1] {
        "Payload loaded" => LoadStep::PayloadLoaded,
        "Preconditions failed for payload loaded" => LoadStep::PreconditionChecks,
        "Retrieving payload failed" => LoadStep::RetrievePayload,
        "Loading payload failed" => LoadStep::LoadPayload,
        _ => LoadStep::VerifyPayloadVersion,
    };
    Some(LoadMessage {
        step,
        version: unquote(&c[2]),
        image: unquote(&c[3]),
        architecture: c.get(4).map_or(String::new(), |m| unquote(m.as_str())),
        rest: c.get(5).map_or(String::new(), |m| m.as_str().to_string()),
    })
}

/// Undoes Go's `%q` for the strings the CVO quotes.
fn unquote(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// A Progressing `Working towards V: …` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    pub version: String,
    /// Manifests done (from 4.7), or the percentage before.
    pub done: u32,
    /// Manifests in the payload, or 100 before 4.7.
    pub total: u32,
    /// The percentage the message prints.
    pub percent: u32,
    /// Whether the message counted manifests (`N of M done`) rather than a percentage.
    pub counted: bool,
    /// What the CVO says it waits on after the count (`, waiting on …`), from 4.7.
    pub wait: Option<Waiting>,
}

/// The ClusterOperators a `Working towards …, waiting …` message names and how long the CVO
/// lets them take (cvo-reference §3.4): the text `convertErrorToProgressing` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub names: Vec<String>,
    pub kind: WaitKind,
}

/// Which `convertErrorToProgressing` branch wrote a `waiting …` text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitKind {
    /// `waiting on A, B`: operators still updating (effect None); from 4.16 none of them
    /// for 30 minutes yet (90 for machine-config).
    Updating,
    /// `waiting up to 40 minutes on A`: degraded operators (effect FailAfterInterval) this CVO
    /// first saw less than 40 minutes before.
    UpTo40Minutes,
    /// `waiting on A over 30 minutes [and machine-config over 90 minutes] which is longer
    /// than expected` (4.16+).
    Slow,
}

/// Reads the `waiting …` tail of a `Working towards …` message.
fn waiting(tail: &str) -> Option<Waiting> {
    let names = |list: &str| -> Vec<String> {
        list.split(", ")
            .flat_map(|n| n.split(" and "))
            .map(|n| n.split(" over ").next().unwrap_or(n).trim().to_string())
            .filter(|n| !n.is_empty())
            .collect()
    };
    if let Some(list) = tail.strip_prefix("waiting up to 40 minutes on ") {
        return Some(Waiting {
            names: names(list),
            kind: WaitKind::UpTo40Minutes,
        });
    }
    let list = tail.strip_prefix("waiting on ")?;
    match list.strip_suffix(" which is longer than expected") {
        Some(slow) => Some(Waiting {
            names: names(slow),
            kind: WaitKind::Slow,
        }),
        None => Some(Waiting {
            names: names(list),
            kind: WaitKind::Updating,
        }),
    }
}

pub fn progress(message: &str) -> Option<Progress> {
    if let Some(c) = RE_N_OF_M.captures(message) {
        return Some(Progress {
            version: c[1].to_string(),
            done: c[2].parse().ok()?,
            total: c[3].parse().ok()?,
            percent: c[4].parse().ok()?,
            counted: true,
            wait: c.get(5).and_then(|m| waiting(m.as_str())),
        });
    }
    let c = RE_PERCENT.captures(message)?;
    let p = c[2].parse().ok()?;
    Some(Progress {
        version: c[1].to_string(),
        done: p,
        total: 100,
        percent: p,
        counted: false,
        wait: None,
    })
}

/// The release an Available=True message `Done applying <release>` names (what follows the
/// prefix, as written).
pub fn done_applying(message: &str) -> Option<&str> {
    message.strip_prefix("Done applying ")
}

/// The forms of the CVO's Progressing message (status.go), each by its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressingForm {
    /// `Cluster version is X` (False).
    ClusterVersionIs,
    /// `Error while reconciling X: …` (False).
    ErrorWhileReconciling,
    /// `Stopped at X: …` (False).
    StoppedAt,
    /// `Working towards X: …` (True).
    WorkingTowards,
    /// `Unable to apply X: …` (True).
    UnableToApply,
    /// `Reconciling …` (True).
    Reconciling,
    /// `Error ensuring the cluster version is up to date: …` (True).
    ErrorEnsuring,
}

/// The forms a False Progressing message takes, then a True one, with their prefixes.
const PROGRESSING_FALSE: &[(&str, ProgressingForm)] = &[
    ("Cluster version is ", ProgressingForm::ClusterVersionIs),
    (
        "Error while reconciling ",
        ProgressingForm::ErrorWhileReconciling,
    ),
    ("Stopped at ", ProgressingForm::StoppedAt),
];
const PROGRESSING_TRUE: &[(&str, ProgressingForm)] = &[
    ("Working towards ", ProgressingForm::WorkingTowards),
    ("Unable to apply ", ProgressingForm::UnableToApply),
    ("Reconciling ", ProgressingForm::Reconciling),
    (
        "Error ensuring the cluster version is up to date: ",
        ProgressingForm::ErrorEnsuring,
    ),
];

/// A Progressing message read by its form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgressingMessage<'a> {
    pub form: ProgressingForm,
    /// What follows the prefix.
    pub rest: &'a str,
}

impl<'a> ProgressingMessage<'a> {
    /// The release the form names (`Cluster version is X`, `Error while reconciling X`,
    /// `Working towards X`, `Unable to apply X`): up to `: ` (versions and digests have none).
    pub fn release(&self) -> Option<&'a str> {
        use ProgressingForm::*;
        matches!(
            self.form,
            ClusterVersionIs | ErrorWhileReconciling | WorkingTowards | UnableToApply
        )
        .then(|| self.rest.split(": ").next().unwrap_or(self.rest).trim())
    }
}

/// The form of a Progressing message with status True (`progressing`) or False, `None` when it
/// starts with none of the CVO's prefixes for that status.
pub fn progressing_message(message: &str, progressing: bool) -> Option<ProgressingMessage<'_>> {
    let forms = if progressing {
        PROGRESSING_TRUE
    } else {
        PROGRESSING_FALSE
    };
    forms.iter().find_map(|(prefix, form)| {
        message
            .strip_prefix(prefix)
            .map(|rest| ProgressingMessage { form: *form, rest })
    })
}

/// ClusterOperator names mentioned as `Cluster operator X …` / `Cluster operators X, Y …`,
/// sorted and without repeats.
pub fn operators_in(msg: &str) -> Vec<String> {
    let mut out: Vec<String> = RE_CO_NAME
        .captures_iter(msg)
        .flat_map(|c| c[1].split(", ").map(str::to_string).collect::<Vec<_>>())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// What a task error text of a sync pass says (one error of `Result of work`, a Failing
/// message, or one `* ` line of `Multiple errors are preventing progress:`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskText {
    /// A context deadline or cancellation: not an error of its own.
    Context,
    /// `Cluster operator X …` / `Cluster operators X, Y …` / `Some cluster operators are
    /// still updating: …`, with the UpdateError reason the CVO gives it.
    Operators {
        names: Vec<String>,
        reason: &'static str,
        /// Only for texts that carry a message of their own (`is reporting a failure: …`,
        /// `has not yet reported success`).
        keeps_message: bool,
    },
    /// `Could not update …[: cause]` or anything else: a payload error.
    Payload { reason: &'static str },
}

/// The texts of a `Multiple errors are preventing progress:` list, or the text itself.
pub fn task_texts(text: &str) -> Vec<&str> {
    match text
        .trim()
        .strip_prefix("Multiple errors are preventing progress:")
    {
        Some(rest) => rest
            .split("\n* ")
            .map(|s| s.trim().trim_start_matches("* "))
            .filter(|s| !s.is_empty())
            .collect(),
        None => vec![text.trim()],
    }
}

/// Reads one task error text (see [`TaskText`]).
pub fn task_text(text: &str) -> TaskText {
    let text = text.trim();
    if text.is_empty()
        || text.starts_with("update context deadline exceeded")
        || text.starts_with("update context canceled")
        || text == "context canceled"
    {
        return TaskText::Context;
    }
    if let Some(c) = RE_CO_SINGLE.captures(text) {
        let reason = match &c[2] {
            "is still updating" | "is not available" | "has not yet reported success" => {
                "ClusterOperatorNotAvailable"
            }
            "is updating versions" => "ClusterOperatorUpdating",
            "does not declare expected versions" => "ClusterOperatorNoVersions",
            _ => "ClusterOperatorDegraded",
        };
        return TaskText::Operators {
            names: vec![c[1].to_string()],
            reason,
            keeps_message: c[2].starts_with("is reporting a failure")
                || c[2].starts_with("has not yet"),
        };
    }
    let list = |names: &str| -> Vec<String> {
        names
            .split(", ")
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect()
    };
    if let Some(c) = RE_CO_PLURAL.captures(text) {
        let reason = match &c[2] {
            "are not available" => "ClusterOperatorNotAvailable",
            "are degraded" => "ClusterOperatorDegraded",
            "are updating versions" => "ClusterOperatorUpdating",
            _ => "ClusterOperatorNoVersions",
        };
        return TaskText::Operators {
            names: list(&c[1]),
            reason,
            keeps_message: false,
        };
    }
    if let Some(c) = RE_SOME_UPDATING.captures(text) {
        return TaskText::Operators {
            names: list(&c[1]),
            reason: "ClusterOperatorNotAvailable",
            keeps_message: false,
        };
    }
    let reason = match RE_COULD_NOT_UPDATE.captures(text) {
        Some(c) => cause_reason(c.get(1).map_or("", |m| m.as_str())),
        None => "UpdatePayloadFailed",
    };
    TaskText::Payload { reason }
}

/// The UpdateError reason for a `Could not update …: {cause}` (cvo-reference §3.6).
fn cause_reason(cause: &str) -> &'static str {
    match cause {
        "resource may have been deleted" => "UpdatePayloadResourceNotFound",
        "someone else is updating this resource" => "UpdatePayloadResourceConflict",
        "the server is down or not responding" => "UpdatePayloadClusterDown",
        "the server is reporting an internal error" => "UpdatePayloadClusterError",
        "the object is invalid, possibly due to local cluster configuration" => {
            "UpdatePayloadResourceInvalid"
        }
        "could not authenticate to the server" => "UpdatePayloadClusterUnauthorized",
        "the server has forbidden updates to this resource" => "UpdatePayloadResourceForbidden",
        "the server is overloaded and is not accepting updates" => "UpdatePayloadClusterOverloaded",
        "the server does not recognize this resource, check extension API servers" => {
            "UpdatePayloadResourceTypeMissing"
        }
        _ => "UpdatePayloadFailed",
    }
}

/// `(version, image)` from an event's `version/<v> image/<i>` or `version="<v>"
/// image="<i>"`.
pub fn version_image(msg: &str) -> (String, String) {
    let v = field_value(msg, "version").unwrap_or_default().to_string();
    let i = field_value(msg, "image").unwrap_or_default().to_string();
    (v, i)
}

/// The value after the first `<name>/` or `<name>=` (a `"` after it skipped) that has one:
/// the characters up to a `"` or a space. What `<name>[/=]"?([^"\s]+)` captures, read with
/// a substring search (every event's message is read for it).
fn field_value<'m>(msg: &'m str, name: &str) -> Option<&'m str> {
    memchr::memmem::find_iter(msg.as_bytes(), name.as_bytes()).find_map(|at| {
        let rest = &msg[at + name.len()..];
        let rest = rest.strip_prefix(['/', '='])?;
        let rest = rest.strip_prefix('"').unwrap_or(rest);
        let end = rest
            .find(|c: char| c == '"' || c.is_whitespace())
            .unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progressing_and_available_messages_are_read_by_form() {
        let m = progressing_message("Cluster version is 4.14.1", false).unwrap();
        assert_eq!(
            (m.form, m.release()),
            (ProgressingForm::ClusterVersionIs, Some("4.14.1"))
        );
        let m = progressing_message(
            "Unable to apply 4.15.0: an unknown error has occurred: MultipleErrors",
            true,
        )
        .unwrap();
        assert_eq!(
            (m.form, m.release()),
            (ProgressingForm::UnableToApply, Some("4.15.0"))
        );
        let m = progressing_message("Reconciling 4.14.1: 5 of 800 done", true).unwrap();
        assert_eq!((m.form, m.release()), (ProgressingForm::Reconciling, None));
        // A True form under status False is no form of it.
        assert!(progressing_message("Working towards 4.15.0: 1 of 2 done", false).is_none());
        assert!(progressing_message("all is well", true).is_none());
        assert_eq!(done_applying("Done applying 4.14.1"), Some("4.14.1"));
        assert_eq!(done_applying("Applying 4.14.1"), None);
    }

    /// The substring search reads what the regexes it replaced read, on generated messages
    /// made of the pieces that matter (the names, `/`, `=`, quotes, spaces of both kinds, a
    /// name twice, one without a value).
    #[test]
    fn version_and_image_are_read_as_the_regexes_read_them() {
        let version = re(r#"version[/=]"?([^"\s]+)"?"#);
        let image = re(r#"image[/=]"?([^"\s]+)"?"#);
        let pieces = [
            "version",
            "image",
            "/",
            "=",
            "\"",
            " ",
            "\u{2003}",
            "\t",
            "4.6.42",
            "quay.io/x@sha256:ab",
            "Version",
            "images",
            "é",
            "",
        ];
        let mut rnd = crate::vocab::testing::xorshift(0x51ED_2701_F00D_CAFE);
        let mut found = 0;
        for _ in 0..30_000 {
            let msg: String = (0..rnd(12))
                .map(|_| pieces[rnd(pieces.len() as u64) as usize])
                .collect();
            for (name, regex) in [("version", &version), ("image", &image)] {
                let want = regex
                    .captures(&msg)
                    .map(|c| c.get(1).map_or("", |m| m.as_str()));
                found += usize::from(want.is_some());
                assert_eq!(field_value(&msg, name), want, "{name} in {msg:?}");
            }
        }
        assert!(found > 1_000, "{found} values");
        assert_eq!(
            version_image("Retrieving payload version=\"4.14.1\" image=\"quay.io/r@sha256:1\""),
            ("4.14.1".to_string(), "quay.io/r@sha256:1".to_string())
        );
    }

    const SCC: &str = "Cluster operator kube-apiserver cannot be upgraded: DefaultSecurityContextConstraintsUpgradeable: Default SecurityContextConstraints object(s) have mutated [privileged]";

    #[test]
    fn preconditions_in_every_form() {
        let one = format!(
            "Precondition \"ClusterVersionUpgradeable\" failed because of \"DefaultSecurityContextConstraints_Mutated\": {SCC}"
        );
        let p = preconditions(&one);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].name, "ClusterVersionUpgradeable");
        assert_eq!(
            p[0].reason.as_deref(),
            Some("DefaultSecurityContextConstraints_Mutated")
        );
        assert_eq!(p[0].message.as_deref(), Some(SCC));
        let many = "Multiple precondition checks failed:\n* Precondition \"ClusterVersionUpgradeable\" failed because of \"AdminAckRequired\": ack it\n* Precondition \"EtcdRecentBackup\" failed because of \"ControllerStarted\": RecentBackup: Backup pod phase: \"Running\"";
        let p = preconditions(many);
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].name, "EtcdRecentBackup");
        assert_eq!(
            p[1].message.as_deref(),
            Some("RecentBackup: Backup pod phase: \"Running\"")
        );
        // An event summary names the check and reason only; the 4.x log line has no reason.
        let ev =
            preconditions("Precondition \"ClusterVersionUpgradeable\" failed because of \"X\"");
        assert_eq!(
            (ev[0].reason.as_deref(), ev[0].message.as_deref()),
            (Some("X"), None)
        );
        let log = preconditions("Precondition \"ClusterVersionUpgradeable\" failed: boom");
        assert_eq!(
            (log[0].reason.as_deref(), log[0].message.as_deref()),
            (None, Some("boom"))
        );
        assert!(preconditions("Could not update deployment").is_empty());
        assert_eq!(operators_in(&one), vec!["kube-apiserver"]);
    }

    #[test]
    fn load_messages() {
        let m = format!(
            "Preconditions failed for payload loaded version=\"4.15.0\" image=\"quay.io/x@sha256:c2\": Precondition \"ClusterVersionUpgradeable\" failed because of \"AdminAckRequired\": {SCC}"
        );
        let l = load_message(&m).unwrap();
        assert_eq!(l.step, LoadStep::PreconditionChecks);
        assert_eq!(
            (l.version.as_str(), l.image.as_str()),
            ("4.15.0", "quay.io/x@sha256:c2")
        );
        assert!(
            l.rest
                .starts_with("Precondition \"ClusterVersionUpgradeable\"")
        );
        let r = "Retrieving payload failed version=\"\" image=\"quay.io/y@sha256:1\" failure=The update cannot be verified: no signature";
        let l = load_message(r).unwrap();
        assert_eq!(
            (l.step, l.rest.as_str()),
            (
                LoadStep::RetrievePayload,
                "The update cannot be verified: no signature"
            )
        );
        let ok =
            load_message("Payload loaded version=\"4.14.8\" image=\"x\" architecture=\"amd64\"")
                .unwrap();
        assert_eq!(
            (ok.step, ok.architecture.as_str()),
            (LoadStep::PayloadLoaded, "amd64")
        );
    }

    #[test]
    fn progress_and_log_lines() {
        let p = progress("Working towards 4.14.1: 712 of 909 done (78% complete), waiting on etcd")
            .unwrap();
        assert_eq!(
            (p.done, p.total, p.percent, p.counted),
            (712, 909, 78, true)
        );
        let p =
            progress("Working towards 4.3.0-0.nightly-2019-10-15-225018: 27% complete").unwrap();
        assert_eq!((p.done, p.total, p.counted), (27, 100, false));
        assert!(progress("Cluster version is 4.3.10").is_none());
        let wait = |m: &str| progress(m).and_then(|p| p.wait);
        let w = wait("Working towards 4.15.0-ec.2: 106 of 863 done (12% complete), waiting on etcd, kube-apiserver").unwrap();
        assert_eq!(
            (w.names, w.kind),
            (
                vec!["etcd".to_string(), "kube-apiserver".to_string()],
                WaitKind::Updating
            )
        );
        let w = wait("Working towards 4.15.0-ec.2: 357 of 1021 done (34% complete), waiting up to 40 minutes on cluster-api").unwrap();
        assert_eq!(
            (w.names, w.kind),
            (vec!["cluster-api".to_string()], WaitKind::UpTo40Minutes)
        );
        let w = wait("Working towards 4.16.2: 700 of 900 done (77% complete), waiting on etcd over 30 minutes and machine-config over 90 minutes which is longer than expected").unwrap();
        assert_eq!(
            (w.names, w.kind),
            (
                vec!["etcd".to_string(), "machine-config".to_string()],
                WaitKind::Slow
            )
        );
        assert_eq!(
            wait("Working towards 4.14.1: 712 of 909 done (78% complete)"),
            None
        );
        let e = precondition_error("Precondition error (force false, block true): Precondition \"X\" failed because of \"Y\": z").unwrap();
        assert!(e.blocking && !e.forced);
        let l = payload_loaded_line(
            "Payload loaded from quay.io/a@sha256:1 with hash h-1, architecture amd64",
        )
        .unwrap();
        assert_eq!(
            (l.image.as_str(), l.hash.as_str(), l.architecture.as_str()),
            ("quay.io/a@sha256:1", "h-1", "amd64")
        );
    }

    #[test]
    fn task_texts_read_back() {
        assert_eq!(
            task_text("Cluster operator authentication is degraded"),
            TaskText::Operators {
                names: vec!["authentication".into()],
                reason: "ClusterOperatorDegraded",
                keeps_message: false
            }
        );
        assert!(matches!(
            task_text("Cluster operators etcd, kube-apiserver are updating versions"),
            TaskText::Operators { ref names, reason: "ClusterOperatorUpdating", .. } if names.len() == 2
        ));
        assert_eq!(
            task_text(
                "Could not update deployment \"openshift-monitoring/cluster-monitoring-operator\" (260 of 433): the server is down or not responding"
            ),
            TaskText::Payload {
                reason: "UpdatePayloadClusterDown"
            }
        );
        assert_eq!(
            task_text("update context deadline exceeded at 3 of 5"),
            TaskText::Context
        );
        let m = "Multiple errors are preventing progress:\n* Could not update deployment \"a/b\" (1 of 2)\n* Cluster operator x is degraded";
        assert_eq!(task_texts(m).len(), 2);
    }
}
