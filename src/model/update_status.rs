//! The cluster's own view of an update: the `update.openshift.io/v1alpha1` UpdateStatus API
//! (behind the `UpgradeStatus` feature gate; written by the CVO's update status controller
//! from 4.18 on). Both shapes the API has had are read into one list of insights: the
//! `UpdateStatus` singleton with insights nested under `status.controlPlane.informers[]`
//! and `status.workerPools[].informers[]`, and the standalone insight objects
//! (`ClusterVersionProgressInsight`, `ClusterOperatorProgressInsight`,
//! `MachineConfigPoolProgressInsight`, `NodeProgressInsight`, `HealthInsight`) whose `status`
//! is the insight body.

use super::ObjectMeta;
use crate::vocab::time::{Time, de_opt_time};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The standalone insight kinds, read into [`UpdateStatus`] like the singleton.
pub const INSIGHT_KINDS: &[&str] = &[
    "ClusterVersionProgressInsight",
    "ClusterOperatorProgressInsight",
    "MachineConfigPoolProgressInsight",
    "NodeProgressInsight",
    "HealthInsight",
];

/// A resource an insight is about (`group`, `resource`, `name`, `namespace`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct ResourceRef {
    pub group: String,
    pub resource: String,
    pub name: String,
    pub namespace: String,
}

impl ResourceRef {
    /// `clusterversions.config.openshift.io/version`, as oc names resources.
    pub fn display(&self) -> String {
        let gr = if self.group.is_empty() {
            self.resource.clone()
        } else {
            format!("{}.{}", self.resource, self.group)
        };
        let ns = if self.namespace.is_empty() {
            String::new()
        } else {
            format!("{}/", self.namespace)
        };
        format!("{gr}/{ns}{}", self.name)
    }
}

/// What an insight reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum InsightBody {
    /// Progress of the control plane, a pool, an operator or a node.
    Progress {
        /// `ClusterVersion`, `ClusterOperator`, `MachineConfigPool` or `Node`.
        of: String,
        /// The object it is about (`version`, `etcd`, `worker`, a node name).
        name: String,
        /// `Progressing`, `Completed`, `Degraded`, … (empty when the insight has none).
        assessment: String,
        previous_version: String,
        target_version: String,
        /// Percent complete, when given.
        completion: Option<u32>,
        started_at: Option<Time>,
        completed_at: Option<Time>,
        estimated_completed_at: Option<Time>,
        /// `reason: message` of each condition that is `True`.
        conditions: Vec<String>,
    },
    /// Something wrong (or notable) about the cluster or the update.
    Health {
        level: String,
        impact: String,
        summary: String,
        description: String,
        reference: String,
        started_at: Option<Time>,
        /// `ControlPlane` or `WorkerPool`.
        scope: String,
        resources: Vec<String>,
    },
}

/// One insight, with the informer that reported it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UpdateInsight {
    /// The informer (`update-status-controller`), empty for standalone objects.
    pub informer: String,
    pub body: InsightBody,
}

/// One UpdateStatus document (or one standalone insight object) and its insights.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UpdateStatus {
    /// `UpdateStatus` or the standalone insight's kind.
    pub kind: String,
    pub metadata: ObjectMeta,
    pub insights: Vec<UpdateInsight>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Versions {
    previous: VersionRef,
    target: VersionRef,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct VersionRef {
    version: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Cond {
    #[serde(rename = "type")]
    type_: String,
    status: String,
    reason: String,
    message: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ProgressFields {
    name: String,
    resource: ResourceRef,
    assessment: String,
    versions: Versions,
    /// Nodes have a single `version`.
    version: String,
    completion: Option<u32>,
    #[serde(deserialize_with = "de_opt_time")]
    started_at: Option<Time>,
    #[serde(deserialize_with = "de_opt_time")]
    completed_at: Option<Time>,
    #[serde(deserialize_with = "de_opt_time")]
    estimated_completed_at: Option<Time>,
    conditions: Vec<Cond>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct HealthFields {
    #[serde(deserialize_with = "de_opt_time")]
    started_at: Option<Time>,
    scope: Scope,
    impact: Impact,
    remediation: Remediation,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Scope {
    #[serde(rename = "type")]
    type_: String,
    resources: Vec<ResourceRef>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Impact {
    level: String,
    #[serde(rename = "type")]
    type_: String,
    summary: String,
    description: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Remediation {
    reference: String,
}

/// The field of a nested insight that holds its body, and what the body is of.
const BODY_FIELDS: &[(&str, &str)] = &[
    ("clusterVersion", "ClusterVersion"),
    ("clusterOperator", "ClusterOperator"),
    ("machineConfigPool", "MachineConfigPool"),
    ("node", "Node"),
    ("health", "Health"),
];

fn body(of: &str, v: Value) -> Result<InsightBody, serde_json::Error> {
    if of == "Health" {
        let h: HealthFields = serde_json::from_value(v)?;
        return Ok(InsightBody::Health {
            level: h.impact.level,
            impact: h.impact.type_,
            summary: h.impact.summary,
            description: h.impact.description,
            reference: h.remediation.reference,
            started_at: h.started_at,
            scope: h.scope.type_,
            resources: h.scope.resources.iter().map(ResourceRef::display).collect(),
        });
    }
    let p: ProgressFields = serde_json::from_value(v)?;
    let name = if p.name.is_empty() {
        p.resource.name.clone()
    } else {
        p.name.clone()
    };
    let target = if p.versions.target.version.is_empty() {
        p.version.clone()
    } else {
        p.versions.target.version.clone()
    };
    Ok(InsightBody::Progress {
        of: of.to_string(),
        name,
        assessment: p.assessment,
        previous_version: p.versions.previous.version,
        target_version: target,
        completion: p.completion,
        started_at: p.started_at,
        completed_at: p.completed_at,
        estimated_completed_at: p.estimated_completed_at,
        conditions: p
            .conditions
            .iter()
            .filter(|c| c.status == "True")
            .map(|c| {
                let head = if c.reason.is_empty() {
                    &c.type_
                } else {
                    &c.reason
                };
                if c.message.is_empty() {
                    head.clone()
                } else {
                    format!("{head}: {}", c.message)
                }
            })
            .collect(),
    })
}

/// The insights nested in one `informers[]` list.
fn informers(list: Option<&Value>, out: &mut Vec<UpdateInsight>) -> Result<(), serde_json::Error> {
    for inf in list.and_then(Value::as_array).into_iter().flatten() {
        let informer = inf["name"].as_str().unwrap_or_default().to_string();
        for ins in inf["insights"].as_array().into_iter().flatten() {
            let found = BODY_FIELDS
                .iter()
                .find(|(field, _)| ins.get(*field).is_some_and(Value::is_object));
            if let Some((field, of)) = found {
                out.push(UpdateInsight {
                    informer: informer.clone(),
                    body: body(of, ins[*field].clone())?,
                });
            }
        }
    }
    Ok(())
}

impl UpdateInsight {
    /// One line for a person: `control plane ClusterVersion version: Progressing 42%
    /// 4.17.0 → 4.18.0` or `Error (API Availability): <summary> [resources] <reference>`.
    pub fn line(&self) -> String {
        match &self.body {
            InsightBody::Progress {
                of,
                name,
                assessment,
                previous_version,
                target_version,
                completion,
                ..
            } => {
                let mut out = format!("{of} {name}");
                if !assessment.is_empty() {
                    out.push_str(&format!(": {assessment}"));
                }
                if let Some(c) = completion {
                    out.push_str(&format!(" {c}%"));
                }
                match (previous_version.is_empty(), target_version.is_empty()) {
                    (false, false) => {
                        out.push_str(&format!(" {previous_version} \u{2192} {target_version}"))
                    }
                    (true, false) => out.push_str(&format!(" {target_version}")),
                    _ => {}
                }
                out
            }
            InsightBody::Health {
                level,
                impact,
                summary,
                reference,
                resources,
                ..
            } => {
                let mut out = format!("{level} ({impact}): {summary}");
                if !resources.is_empty() {
                    out.push_str(&format!(" [{}]", resources.join(", ")));
                }
                if !reference.is_empty() {
                    out.push_str(&format!(" {reference}"));
                }
                out
            }
        }
    }
}

impl UpdateStatus {
    /// Reads an UpdateStatus or a standalone insight object.
    pub fn from_value(v: Value) -> Result<UpdateStatus, serde_json::Error> {
        let kind = v["kind"].as_str().unwrap_or("UpdateStatus").to_string();
        let metadata: ObjectMeta = match v.get("metadata") {
            Some(m) => serde_json::from_value(m.clone())?,
            None => ObjectMeta::default(),
        };
        let mut insights = Vec::new();
        let status = &v["status"];
        if kind == "UpdateStatus" {
            informers(status["controlPlane"].get("informers"), &mut insights)?;
            for pool in status["workerPools"].as_array().into_iter().flatten() {
                informers(pool.get("informers"), &mut insights)?;
            }
        } else if status.is_object() {
            let of = kind
                .strip_suffix("ProgressInsight")
                .unwrap_or(if kind == "HealthInsight" {
                    "Health"
                } else {
                    &kind
                })
                .to_string();
            insights.push(UpdateInsight {
                informer: String::new(),
                body: body(&of, status.clone())?,
            });
        }
        Ok(UpdateStatus {
            kind,
            metadata,
            insights,
        })
    }
}

impl<'de> Deserialize<'de> for UpdateStatus {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        UpdateStatus::from_value(v).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of openshift/api's own CRD test for an UpdateStatus during an update
    /// (update/v1alpha1/tests/updatestatuses.update.openshift.io/UpgradeStatus.yaml).
    const SINGLETON: &str = r#"
apiVersion: update.openshift.io/v1alpha1
kind: UpdateStatus
metadata:
  name: cluster
spec: {}
status:
  controlPlane:
    resource: {group: config.openshift.io, resource: clusterversions, name: version}
    informers:
    - name: update-status-controller
      insights:
      - uid: "1234"
        acquiredAt: "2021-01-01T00:00:00Z"
        type: ClusterVersion
        clusterVersion:
          resource: {group: config.openshift.io, resource: clusterversions, name: version}
          assessment: Progressing
          versions:
            previous: {version: 4.17.0, metadata: [{key: Partial}]}
            target: {version: 4.18.0}
          completion: 42
          startedAt: "2021-01-01T00:00:00Z"
          estimatedCompletedAt: "2021-01-01T02:00:00Z"
          conditions:
          - {type: Updating, status: "True", lastTransitionTime: "2021-01-01T00:00:00Z", reason: ClusterVersionProgressing, message: "Installing version 4.18.0"}
      - uid: "5678"
        acquiredAt: "2021-01-01T00:30:00Z"
        type: Health
        health:
          startedAt: "2021-01-01T00:20:00Z"
          scope: {type: ControlPlane, resources: [{group: config.openshift.io, resource: clusteroperators, name: etcd}]}
          impact: {level: Error, type: API Availability, summary: "Cluster Operator etcd is degraded (NodeController_MasterNodesReady)"}
          remediation: {reference: "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDegraded.md"}
"#;

    #[test]
    fn singleton_and_standalone_shapes() {
        let v: Value = yaml_serde::from_str(SINGLETON).unwrap();
        let u = UpdateStatus::from_value(v).unwrap();
        assert_eq!(u.insights.len(), 2);
        match &u.insights[0].body {
            InsightBody::Progress {
                of,
                name,
                previous_version,
                target_version,
                completion,
                conditions,
                ..
            } => {
                assert_eq!((of.as_str(), name.as_str()), ("ClusterVersion", "version"));
                assert_eq!(
                    (previous_version.as_str(), target_version.as_str()),
                    ("4.17.0", "4.18.0")
                );
                assert_eq!(*completion, Some(42));
                assert_eq!(
                    conditions,
                    &["ClusterVersionProgressing: Installing version 4.18.0"]
                );
            }
            other => panic!("{other:?}"),
        }
        match &u.insights[1].body {
            InsightBody::Health {
                level, resources, ..
            } => {
                assert_eq!(level, "Error");
                assert_eq!(resources, &["clusteroperators.config.openshift.io/etcd"]);
            }
            other => panic!("{other:?}"),
        }
        let standalone: Value = yaml_serde::from_str(
            "apiVersion: update.openshift.io/v1alpha1\nkind: ClusterVersionProgressInsight\nmetadata: {name: version}\nstatus:\n  name: version\n  assessment: Completed\n  versions: {previous: {version: 4.18.1}, target: {version: 4.18.2}}\n  completion: 100\n",
        )
        .unwrap();
        let s = UpdateStatus::from_value(standalone).unwrap();
        assert!(matches!(
            &s.insights[0].body,
            InsightBody::Progress { of, assessment, .. } if of == "ClusterVersion" && assessment == "Completed"
        ));
    }
}
