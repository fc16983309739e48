//! Secrets masked in the assessment as it is built (see [`crate::vocab::secrets`]): every
//! text it took from the dump (operators' and nodes' messages, versions, the Update Health
//! insights' summaries, descriptions and references, the notes), so that oc's text, the JSON
//! and the Markdown all get the masked value whatever their escaping. oc's examples hold no
//! secret: their text stays oc's byte for byte.

use super::Assessment;
use super::controlplane::{ControlPlane, OperatorCounts, TargetVersion, UpdatingOperator};
use super::insights::{Insight, InsightResource};
use super::nodes::{NodeAssessment, PoolAssessment};
use crate::vocab::secrets::masked_fields;

masked_fields!(UpdatingOperator: name, reason, message);
masked_fields!(OperatorCounts: updating);
masked_fields!(TargetVersion: target, previous);
masked_fields!(ControlPlane: target, desired_version, operators);
masked_fields!(NodeAssessment: name, version, estimate, message);
masked_fields!(PoolAssessment: name, nodes);
masked_fields!(InsightResource: group, kind, namespace, name);
masked_fields!(Insight: resources, summary, description, reference);
masked_fields!(
    Assessment: control_plane,
    control_plane_nodes,
    worker_pools,
    insights,
    notes
);
