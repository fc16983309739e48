//! oc's text, byte for byte: what `oc adm upgrade recommend` writes to standard output and
//! standard error for a [`Plan`], in oc's order, with the table laid out by Go's tabwriter
//! and flushed (or dropped unflushed) where oc flushes it.

use super::{
    Answer, Options, Plan, check_options, indent, requested_target, target_issues, unaccepted,
};
use crate::status::tabwriter::align_min;
use std::fmt::Write as _;

const HEADER: &str = "  VERSION\tISSUES\n";

/// Runs `recommend` with `o` on `p`: oc's text, with the control characters of text from
/// the input shown escaped (`\x1b`, [`crate::vocab::escape::show_controls`]); ordinary text
/// is oc's byte for byte.
/// The targets the text form shows, in its order: `--version`'s alone, else the first two of
/// each minor (every one with `--show-outdated-releases`). `--published-risks` judges these.
pub fn shown_versions(p: &Plan, o: &Options) -> Vec<String> {
    if let Some(v) = &o.version {
        return vec![v.clone()];
    }
    p.minors
        .iter()
        .flat_map(|m| {
            let n = if o.show_outdated { m.sorted.len() } else { 2 };
            m.sorted.iter().take(n).map(|t| t.release.version.clone())
        })
        .collect()
}

pub fn render_text(p: &Plan, o: &Options) -> Answer {
    let a = render_text_unescaped(p, o);
    let shown = |s: &str| crate::vocab::escape::show_controls(s).into_owned();
    Answer {
        out: shown(&a.out),
        err: shown(&a.err),
        error: a.error.as_deref().map(shown),
    }
}

/// oc's text as oc writes it, control characters and all.
fn render_text_unescaped(p: &Plan, o: &Options) -> Answer {
    if let Err(e) = check_options(o) {
        return Answer {
            error: Some(e),
            ..Answer::default()
        };
    }
    if let Some(e) = super::accept_refused(p, o) {
        return Answer {
            error: Some(e),
            ..Answer::default()
        };
    }
    let accepted = super::accepted(p, o);
    let accept = |n: &str| accepted.iter().any(|a| a == n);
    let acc = |n: &str| if accept(n) { "accepted " } else { "" };
    let mut out = String::new();
    let mut err = String::new();

    match &p.failing {
        Some(f) if f.status != "False" => {
            let _ = write!(
                out,
                "{}Failing={}:\n\n  Reason: {}\n  Message: {}\n\n",
                acc("Failing"),
                f.status,
                f.reason,
                indent(&f.message)
            );
        }
        Some(_) => {}
        None => {
            let _ = writeln!(
                err,
                "{}warning: No current Failing info, see `oc describe clusterversion` for more details.",
                acc("Failing")
            );
        }
    }
    if let Some(c) = p
        .progressing
        .as_ref()
        .filter(|c| c.status == "True" && !c.message.is_empty())
    {
        let _ = write!(
            out,
            "{}info: An update is in progress.  You may wish to let this update complete before requesting a new update.\n  {}\n\n",
            acc("Progressing"),
            indent(&c.message)
        );
    }
    precheck_text(p, &accept, &mut out);
    if let Some(c) = p.retrieved_updates.as_ref().filter(|c| c.status != "True") {
        let _ = write!(
            err,
            "warning: Cannot refresh available updates:\n  Reason: {}\n  Message: {}\n\n",
            c.reason,
            indent(&c.message)
        );
    }
    if !p.channel.is_empty() {
        if p.upstream.is_empty() {
            out.push_str(
                "Upstream update service is unset, so the cluster will use an appropriate default.\n",
            );
        } else {
            let _ = writeln!(out, "Upstream update service: {}", p.upstream);
        }
        if p.channels.is_empty() {
            let _ = writeln!(out, "Channel: {}", p.channel);
        } else {
            let _ = writeln!(
                out,
                "Channel: {} (available channels: {})",
                p.channel,
                p.channels.join(", ")
            );
        }
    }
    for w in &p.collect_warnings {
        err.push_str(w);
    }

    if let Some(t) = requested_target(p, o) {
        let t = match t {
            Ok(t) => t,
            Err(e) => return quieted(out, err, Some(e), o.quiet),
        };
        out.push('\n');
        let r = &t.release;
        match t.not_recommended() {
            None => {
                let _ = write!(
                    out,
                    "Update to {} has no known issues relevant to this cluster.\nImage: {}\nRelease URL: {}\n",
                    r.version, r.image, r.url
                );
            }
            Some(c) => {
                let reason = if !p.cvo_evaluates_risks && accept("ConditionalUpdateRisk") {
                    format!("accepted {} via ConditionalUpdateRisk", c.reason)
                } else {
                    c.reason.clone()
                };
                let _ = write!(
                    out,
                    "Update to {} {}={}:\nImage: {}\nRelease URL: {}\nReason: {reason}\nMessage: {}\n",
                    r.version,
                    c.type_,
                    c.status,
                    r.image,
                    r.url,
                    indent(&c.message)
                );
            }
        }
        let issues = target_issues(p, t);
        if let (_, Some(e)) = unaccepted(p, &issues, o) {
            return quieted(out, err, Some(e), o.quiet);
        }
        if !issues.is_empty() {
            let all: Vec<&str> = issues.iter().map(String::as_str).collect();
            let _ = writeln!(
                out,
                "Update to {} has no known issues relevant to this cluster other than the accepted {}.",
                r.version,
                all.join(",")
            );
        }
        return quieted(out, err, None, o.quiet);
    }

    if p.minors.is_empty() {
        out.push_str("No updates available. You may still upgrade to a specific release image with --to-image or wait for new updates to be available.\n");
        return Answer {
            out,
            err,
            error: None,
        };
    }
    listing(p, o.show_outdated, &mut out);
    Answer {
        out,
        err,
        error: None,
    }
}

/// With `--quiet` nothing but the error is printed.
fn quieted(out: String, err: String, error: Option<String>, quiet: bool) -> Answer {
    if quiet {
        Answer {
            error,
            ..Answer::default()
        }
    } else {
        Answer { out, err, error }
    }
}

/// The precheck's three lines (no concern, accepted, concern) and the details of each
/// condition of concern, in the precheck's order.
fn precheck_text(p: &Plan, accept: &dyn Fn(&str) -> bool, out: &mut String) {
    let checks = match &p.precheck {
        Err(e) => {
            let _ = writeln!(out, "Failed to check for at least some preconditions: {e}");
            return;
        }
        Ok(c) => c,
    };
    let mut happy = Vec::new();
    let mut accepted = Vec::new();
    let mut unhappy = Vec::new();
    for c in checks {
        if c.status == "True" {
            happy.push(format!("{} ({})", c.type_, c.reason));
        } else if accept(&c.accept_as) {
            accepted.push(c.type_.clone());
        } else {
            unhappy.push(c.type_.clone());
        }
    }
    for l in [&mut happy, &mut accepted, &mut unhappy] {
        l.sort();
    }
    if !happy.is_empty() {
        let _ = write!(
            out,
            "The following conditions found no cause for concern in updating this cluster to later releases: {}\n\n",
            happy.join(", ")
        );
    }
    if !accepted.is_empty() {
        let _ = write!(
            out,
            "The following conditions found cause for concern in updating this cluster to later releases, but were explicitly accepted via --accept: {}\n\n",
            accepted.join(", ")
        );
    }
    if !unhappy.is_empty() {
        let _ = write!(
            out,
            "The following conditions found cause for concern in updating this cluster to later releases: {}\n\n",
            unhappy.join(", ")
        );
        for c in checks.iter().filter(|c| c.status != "True") {
            let _ = write!(
                out,
                "{}={}:\n\n  Reason: {}\n  Message: {}\n\n",
                c.type_,
                c.status,
                c.reason,
                indent(&c.message)
            );
        }
    }
}

/// The updates of each minor, highest first: at most two per minor (then "And N older")
/// unless `show_outdated`; recommended ones as table rows, others as blocks.
fn listing(p: &Plan, show_outdated: bool, out: &mut String) {
    for m in &p.minors {
        let _ = write!(out, "\nUpdates to {}.{}:\n", m.major, m.minor);
        // What oc's tabwriter holds until it is flushed (dropped if it never is).
        let mut table = String::from(HEADER);
        let flush = |table: &mut String, out: &mut String| {
            out.push_str(&align_min(table, 14, 1));
            table.clear();
        };
        let mut last_long = false;
        let mut header_queued = true;
        for (i, t) in m.sorted.iter().enumerate() {
            let c = t.not_recommended();
            if last_long || (c.is_some() && !show_outdated) {
                out.push('\n');
                if c.is_none() && !header_queued {
                    table.push_str(HEADER);
                    header_queued = true;
                }
                last_long = false;
            }
            if i == 2 && !show_outdated {
                let _ = writeln!(
                    out,
                    "And {} older {}.{} updates you can see with '--show-outdated-releases' or '--version VERSION'.",
                    m.sorted.len() - 2,
                    m.major,
                    m.minor
                );
                break;
            }
            match c {
                None => {
                    let _ = writeln!(
                        table,
                        "  {}\tno known issues relevant to this cluster",
                        t.release.version
                    );
                    if !show_outdated {
                        header_queued = false;
                        flush(&mut table, out);
                    }
                }
                Some(c) if show_outdated => {
                    let _ = writeln!(table, "  {}\t{}", t.release.version, c.reason);
                }
                Some(c) => {
                    let _ = write!(
                        out,
                        "  Version: {}\n  Image: {}\n  Reason: {}\n  Message: {}\n",
                        t.release.version,
                        t.release.image,
                        c.reason,
                        indent(c.message.trim())
                    );
                    last_long = true;
                }
            }
        }
        if show_outdated {
            flush(&mut table, out);
        }
    }
}

#[cfg(test)]
mod tests {
    //! The paths oc's oracle harness cannot reach (it never passes `--accept` or `--quiet`),
    //! written from oc's `recommend.go`: the wording `--accept` changes, what `--quiet`
    //! keeps, and the flag checks made before anything is read.
    use super::*;
    use crate::recommend::precheck::AlertData;
    use crate::recommend::{RecommendInputs, plan};

    fn inputs() -> RecommendInputs {
        let cv: crate::model::ClusterVersion = serde_json::from_value(serde_json::json!({
            "apiVersion": "config.openshift.io/v1",
            "kind": "ClusterVersion",
            "metadata": {"name": "version"},
            "spec": {"channel": "stable-4.16", "upstream": "https://u.example/graph"},
            "status": {
                "desired": {"version": "4.16.10", "image": "q/r@sha256:10", "channels": ["stable-4.16"]},
                "conditions": [
                    {"type": "Failing", "status": "True", "reason": "ClusterOperatorDegraded", "message": "Cluster operator etcd is degraded"},
                    {"type": "RetrievedUpdates", "status": "True", "reason": "", "message": ""}
                ],
                "availableUpdates": [{"version": "4.16.11", "image": "q/r@sha256:11", "url": "https://errata/11"}],
                "conditionalUpdates": [{
                    "release": {"version": "4.16.12", "image": "q/r@sha256:12", "url": "https://errata/12"},
                    "risks": [{"name": "SomeRisk", "message": "it may break", "url": "https://risk"}],
                    "conditions": [{"type": "Recommended", "status": "False", "reason": "SomeRisk", "message": "it may break"}]
                }]
            }
        }))
        .unwrap();
        let alert: crate::model::Alert = serde_json::from_value(serde_json::json!({
            "labels": {"alertname": "KubeNodeNotReady", "severity": "warning"},
            "annotations": {"summary": "Node is not ready."},
            "state": "firing"
        }))
        .unwrap();
        RecommendInputs {
            cluster_version: cv,
            alerts: AlertData::Alerts(vec![alert]),
            cvo_evaluates_risks: false,
        }
    }

    fn run(o: Options) -> Answer {
        render_text(&plan(&inputs()), &o)
    }

    #[test]
    fn unaccepted_issues_end_a_version_answer_with_oc_s_error() {
        let a = run(Options {
            version: Some("4.16.12".into()),
            ..Options::default()
        });
        assert!(
            a.out
                .contains("Failing=True:\n\n  Reason: ClusterOperatorDegraded\n")
        );
        assert!(a.out.contains(
            "\nUpdate to 4.16.12 Recommended=False:\nImage: q/r@sha256:12\nRelease URL: https://errata/12\nReason: SomeRisk\nMessage: it may break\n"
        ));
        assert_eq!(
            a.error.as_deref(),
            Some(
                "issues that apply to this cluster but which were not included in --accept: ConditionalUpdateRisk,Failing,KubeNodeNotReady"
            )
        );
        assert_eq!(a.exit_code(), 1);
    }

    #[test]
    fn accepted_issues_change_the_wording_and_the_exit() {
        let a = run(Options {
            version: Some("4.16.12".into()),
            accept: vec![
                "Failing".into(),
                "KubeNodeNotReady".into(),
                "ConditionalUpdateRisk".into(),
            ],
            ..Options::default()
        });
        assert!(a.out.starts_with("accepted Failing=True:\n"), "{}", a.out);
        assert!(a.out.contains(
            "The following conditions found cause for concern in updating this cluster to later releases, but were explicitly accepted via --accept: recommended/NodeAlerts/KubeNodeNotReady/0\n\n"
        ));
        // Every condition of concern accepted: no details are printed.
        assert!(
            !a.out
                .contains("recommended/NodeAlerts/KubeNodeNotReady/0=False")
        );
        assert!(
            a.out
                .contains("Reason: accepted SomeRisk via ConditionalUpdateRisk\n")
        );
        assert!(a.out.ends_with(
            "Update to 4.16.12 has no known issues relevant to this cluster other than the accepted ConditionalUpdateRisk,Failing,KubeNodeNotReady.\n"
        ), "{}", a.out);
        assert_eq!((a.error, a.err.as_str()), (None, ""));
        // Accepting only some: the rest are named, and it still fails.
        let a = run(Options {
            version: Some("4.16.11".into()),
            accept: vec!["Failing".into()],
            ..Options::default()
        });
        assert_eq!(
            a.error.as_deref(),
            Some(
                "issues that apply to this cluster but which were not included in --accept: KubeNodeNotReady"
            )
        );
    }

    #[test]
    fn quiet_prints_only_the_error() {
        let a = run(Options {
            version: Some("4.16.12".into()),
            quiet: true,
            ..Options::default()
        });
        assert_eq!((a.out.as_str(), a.err.as_str()), ("", ""));
        assert!(
            a.error
                .unwrap()
                .ends_with("ConditionalUpdateRisk,Failing,KubeNodeNotReady")
        );
        let a = run(Options {
            version: Some("4.16.11".into()),
            quiet: true,
            accept: vec!["Failing".into(), "KubeNodeNotReady".into()],
            ..Options::default()
        });
        assert_eq!(a, Answer::default());
    }

    #[test]
    fn flag_combinations_oc_refuses_are_refused_before_anything_is_printed() {
        for (o, want) in [
            (
                Options {
                    quiet: true,
                    ..Options::default()
                },
                "--quiet can only be set when --version is set",
            ),
            (
                Options {
                    version: Some("4.16.11".into()),
                    show_outdated: true,
                    ..Options::default()
                },
                "when --version is set, --show-outdated-releases is unnecessary",
            ),
            (
                Options {
                    version: Some("4.16".into()),
                    ..Options::default()
                },
                "cannot parse SemVer target \"4.16\": No Major.Minor.Patch elements found",
            ),
        ] {
            let a = run(o);
            assert_eq!(a.error.as_deref(), Some(want));
            assert!(a.out.is_empty() && a.err.is_empty());
        }
    }

    #[test]
    fn without_alerts_the_precheck_fails_as_oc_s_does_when_it_cannot_fetch_them() {
        let mut i = inputs();
        i.alerts = AlertData::Absent;
        let a = render_text(&plan(&i), &Options::default());
        assert!(a.out.contains(&format!(
            "Failed to check for at least some preconditions: {}\n",
            crate::recommend::precheck::ABSENT
        )));
        let a = render_text(
            &plan(&i),
            &Options {
                version: Some("4.16.11".into()),
                ..Options::default()
            },
        );
        assert!(a.error.unwrap().contains("FailedToCompletePrecheck"));
    }
}
