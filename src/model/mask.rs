//! Secrets masked in the model objects the views copy from a dump (see
//! [`crate::vocab::secrets`]): conditions, releases (a pull spec or URL may carry
//! credentials), update risks, history, the ClusterVersion's spec and status, the Prow job,
//! the cluster's own update insights. The views (`status`, `recommend`, `summary`, `replay`)
//! mask their copies where they build them; the objects in the bundle stay as read, so the
//! rules and the reconciler judge the data itself.

use super::{
    ClusterVersion, ClusterVersionSpec, ClusterVersionStatus, Condition, ConditionalUpdate,
    ConditionalUpdateRisk, HistoryEntry, InsightBody, ProwJob, Release, UpdateInsight,
};
use crate::vocab::secrets::{Masked, masked_fields};

masked_fields!(Condition: reason, message);
masked_fields!(Release: version, image, url, channels);
masked_fields!(ConditionalUpdateRisk: name, message, url, matching_rules, conditions);
masked_fields!(ConditionalUpdate: release, risks, risk_names, conditions);
masked_fields!(HistoryEntry: state, version, image, accepted_risks);
masked_fields!(ClusterVersionSpec: channel, upstream, desired_update);
masked_fields!(
    ClusterVersionStatus: desired,
    history,
    conditions,
    available_updates,
    conditional_updates,
    conditional_update_risks
);
masked_fields!(ClusterVersion: spec, status);
masked_fields!(ProwJob: job, target, result, release_initial, release_latest, from_tag, to_tag);

impl Masked for UpdateInsight {
    fn mask_secrets(&mut self) {
        self.informer.mask_secrets();
        match &mut self.body {
            InsightBody::Progress {
                of,
                name,
                assessment,
                previous_version,
                target_version,
                conditions,
                ..
            } => {
                for s in [of, name, assessment, previous_version, target_version] {
                    s.mask_secrets();
                }
                conditions.mask_secrets();
            }
            InsightBody::Health {
                level,
                impact,
                summary,
                description,
                reference,
                scope,
                resources,
                ..
            } => {
                for s in [level, impact, summary, description, reference, scope] {
                    s.mask_secrets();
                }
                resources.mask_secrets();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_versions_texts_are_masked_and_its_facts_kept() {
        let mut cv = ClusterVersion::default();
        cv.spec.upstream = "https://admin:hunter2hunter2@updates.example.com/graph".into();
        cv.spec.channel = "stable-4.14".into();
        cv.status.desired = Release {
            version: "4.14.1".into(),
            image: "quay.io/openshift-release-dev/ocp-release@sha256:aa".into(),
            ..Release::default()
        };
        cv.status.conditions.push(Condition {
            type_: "Failing".into(),
            status: "True".into(),
            reason: "PullFailed".into(),
            message: r#"pull secret {"auths":{"quay.io":{"auth":"dXNlcjpodW50ZXIyaHVudGVyMg=="}}}"#
                .into(),
            last_transition_time: None,
        });
        let before = cv.clone();
        cv.mask_secrets();
        assert!(
            !cv.spec.upstream.contains("hunter2"),
            "{}",
            cv.spec.upstream
        );
        assert!(cv.spec.upstream.contains("updates.example.com"));
        let m = &cv.status.conditions[0].message;
        assert!(
            !m.contains("dXNlcjpodW50ZXIy") && m.contains("<secret>"),
            "{m}"
        );
        assert_eq!(cv.status.desired, before.status.desired);
        assert_eq!(cv.spec.channel, before.spec.channel);
    }
}
