//! The `mglint/recommend/v1` document (`docs/schemas/recommend.schema.json`): the same facts
//! oc's text shows, typed, every target of every minor (none cut), with what `--version`
//! would say of the requested one.

use super::{Options, Plan, Target, issues, requested_target, target_issues, unaccepted};
use crate::vocab::text::JsonLayout;
use serde::Serialize;

pub const SCHEMA: &str = crate::vocab::schema::RECOMMEND;

#[derive(Serialize)]
struct Doc<'a> {
    schema: &'static str,
    cluster: &'a crate::bundle::ClusterIdentity,
    current_version: &'a str,
    channel: &'a str,
    upstream: &'a str,
    available_channels: &'a [String],
    conditions: Conditions<'a>,
    /// The precheck's conditions, or why it could not run.
    prechecks: Vec<&'a super::Check>,
    precheck_error: Option<&'a str>,
    /// The issues that apply whatever the target (names `--accept` takes).
    issues: Vec<String>,
    warnings: Vec<String>,
    minors: Vec<MinorDoc>,
    /// The `--version` target, when one was asked for.
    target: Option<TargetAnswer>,
}

#[derive(Serialize)]
struct Conditions<'a> {
    failing: Option<Cond<'a>>,
    progressing: Option<Cond<'a>>,
    retrieved_updates: Option<Cond<'a>>,
    upgradeable: Option<Cond<'a>>,
}

#[derive(Serialize)]
struct Cond<'a> {
    status: &'a str,
    reason: &'a str,
    message: &'a str,
}

fn cond(c: &Option<crate::model::Condition>) -> Option<Cond<'_>> {
    c.as_ref().map(|c| Cond {
        status: &c.status,
        reason: &c.reason,
        message: &c.message,
    })
}

#[derive(Serialize)]
struct MinorDoc {
    version: String,
    targets: Vec<TargetDoc>,
}

#[derive(Serialize)]
struct TargetDoc {
    version: String,
    image: String,
    url: String,
    recommended: bool,
    /// The not-recommended condition's reason and message (empty when recommended).
    reason: String,
    message: String,
    risks: Vec<Risk>,
}

#[derive(Serialize)]
struct Risk {
    name: String,
    message: String,
    url: String,
}

#[derive(Serialize)]
struct TargetAnswer {
    requested: String,
    found: Option<TargetDoc>,
    /// oc's error for this target (not found, or issues not accepted).
    error: Option<String>,
    unaccepted_issues: Vec<String>,
}

fn target_doc(t: &Target) -> TargetDoc {
    let c = t.not_recommended();
    TargetDoc {
        version: t.release.version.clone(),
        image: t.release.image.clone(),
        url: t.release.url.clone(),
        recommended: c.is_none(),
        reason: c.as_ref().map(|c| c.reason.clone()).unwrap_or_default(),
        message: c.map(|c| c.message).unwrap_or_default(),
        risks: t
            .risks
            .iter()
            .map(|r| Risk {
                name: r.name.clone(),
                message: r.message.clone(),
                url: r.url.clone(),
            })
            .collect(),
    }
}

/// The JSON document for `p` with `o` (pretty-printed, newline-terminated).
pub fn render_json(p: &Plan, o: &Options, layout: JsonLayout) -> String {
    let base = issues(p);
    let target = requested_target(p, o).map(|t| {
        let mut a = TargetAnswer {
            requested: o.version.clone().unwrap_or_default(),
            found: None,
            error: None,
            unaccepted_issues: Vec::new(),
        };
        match t {
            Err(e) => a.error = Some(e),
            Ok(t) => {
                (a.unaccepted_issues, a.error) = unaccepted(p, &target_issues(p, t), o);
                a.found = Some(target_doc(t));
            }
        }
        a
    });
    let doc = Doc {
        schema: SCHEMA,
        cluster: &p.cluster,
        current_version: &p.current,
        channel: &p.channel,
        upstream: &p.upstream,
        available_channels: &p.channels,
        conditions: Conditions {
            failing: cond(&p.failing),
            progressing: cond(&p.progressing),
            retrieved_updates: cond(&p.retrieved_updates),
            upgradeable: cond(&p.upgradeable),
        },
        prechecks: p
            .precheck
            .as_ref()
            .map(|c| c.iter().collect())
            .unwrap_or_default(),
        precheck_error: p.precheck.as_ref().err().map(String::as_str),
        issues: base.into_iter().collect(),
        warnings: p
            .collect_warnings
            .iter()
            .map(|w| w.trim_end().to_string())
            .collect(),
        minors: p
            .minors
            .iter()
            .map(|m| MinorDoc {
                version: format!("{}.{}", m.major, m.minor),
                targets: m.sorted.iter().map(target_doc).collect(),
            })
            .collect(),
        target,
    };
    layout.document(&doc)
}
