//! Prow job metadata: `prowjob.json` (job, build id, state, times, target, release images),
//! `started.json` and `finished.json`.

use super::ParseError;
use crate::model::{Provenance, ProwJob, Time, parse_rfc3339};
use serde_json::Value;

fn unix(v: &Value) -> Option<Time> {
    let secs = v.as_i64().or_else(|| v.as_str()?.parse().ok())?;
    Time::from_unix(secs, 0)
}

fn s(v: &Value, ptr: &str) -> String {
    v.pointer(ptr)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// Merges one metadata file into `job`. `name` is the file name.
pub fn merge(
    job: &mut ProwJob,
    name: &str,
    data: &[u8],
    prov: Provenance,
) -> Result<(), ParseError> {
    let v: Value = serde_json::from_slice(data).map_err(|e| ParseError::json(&e))?;
    if !v.is_object() {
        return Err(ParseError::Shape("expected a JSON object"));
    }
    if name.ends_with("prowjob.json") || v.get("spec").is_some() {
        job.job = s(&v, "/spec/job");
        let bid = s(&v, "/status/build_id");
        if !bid.is_empty() {
            job.build_id = bid;
        }
        job.state = s(&v, "/status/state");
        job.start = job
            .start
            .or_else(|| parse_rfc3339(&s(&v, "/status/startTime")));
        job.completion = job
            .completion
            .or_else(|| parse_rfc3339(&s(&v, "/status/completionTime")));
        job.from_tag = s(&v, "/metadata/annotations/release.openshift.io~1from-tag");
        job.to_tag = s(&v, "/metadata/annotations/release.openshift.io~1tag");
        if let Some(containers) = v
            .pointer("/spec/pod_spec/containers")
            .and_then(Value::as_array)
        {
            for c in containers {
                for a in c
                    .get("args")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(t) = a.as_str().and_then(|a| a.strip_prefix("--target=")) {
                        job.target = t.to_string();
                    }
                }
                for e in c.get("env").and_then(Value::as_array).into_iter().flatten() {
                    let val = e
                        .get("value")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    match e.get("name").and_then(Value::as_str) {
                        Some("RELEASE_IMAGE_INITIAL") => job.release_initial = val,
                        Some("RELEASE_IMAGE_LATEST") => job.release_latest = val,
                        _ => {}
                    }
                }
            }
        }
    } else if name.ends_with("finished.json") {
        if let Some(t) = v.get("timestamp").and_then(unix) {
            job.completion = Some(t);
        }
        job.passed = v.get("passed").and_then(Value::as_bool);
        job.result = v
            .get("result")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
    } else if name.ends_with("started.json")
        && let Some(t) = v.get("timestamp").and_then(unix)
    {
        job.start = job.start.or(Some(t));
    }
    job.prov.push(prov);
    Ok(())
}
