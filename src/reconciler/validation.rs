//! Validation of `spec.desiredUpdate` as the CVO does it: field errors in the Kubernetes
//! wording that become the `Invalid` condition (cvo-reference §1.1, §3.8).

use super::errors::go_quote;
use crate::model::ClusterVersion;

fn is_semver(v: &str) -> bool {
    let (core, _build) = v.split_once('+').unwrap_or((v, ""));
    let (core, pre) = match core.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (core, None),
    };
    let nums: Vec<&str> = core.split('.').collect();
    let numeric = |s: &&str| {
        !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_digit())
            && (s.len() == 1 || !s.starts_with('0'))
    };
    let ident =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    nums.len() == 3 && nums.iter().all(numeric) && pre.is_none_or(|p| p.split('.').all(ident))
}

/// Field errors of `spec.desiredUpdate` (cvo-reference §1.1); an invalid update is ignored.
pub fn validate(cv: &ClusterVersion) -> Vec<String> {
    let mut errs = Vec::new();
    let Some(u) = &cv.spec.desired_update else {
        return errs;
    };
    let field = "spec.desiredUpdate.version";
    if !u.version.is_empty() && !is_semver(&u.version) {
        errs.push(format!(
            "{field}: Invalid value: {}: must be a semantic version (1.2.3[-...])",
            go_quote(&u.version)
        ));
    }
    if u.image.is_empty() && !u.version.is_empty() {
        let n = cv
            .status
            .available_updates
            .iter()
            .filter(|a| a.version == u.version)
            .count();
        let in_history = cv.status.history.iter().any(|h| h.version == u.version);
        let q = go_quote(&u.version);
        if n == 0 && !in_history {
            errs.push(format!("{field}: Invalid value: {q}: when image is empty the update must be an available update"));
        } else if n > 1 {
            errs.push(format!(
                "{field}: Invalid value: {q}: there are multiple possible payloads for this version, specify the exact image"
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_check_matches_the_api() {
        for ok in [
            "4.3.10",
            "4.3.0-0.ci-2019-09-27-182824",
            "1.0.0-abc",
            "4.1.0+build.1",
        ] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in ["4.3", "v4.3.1", "04.3.1", "4.3.1-", ""] {
            assert!(!is_semver(bad), "{bad}");
        }
    }
}
