//! Secrets masked in the plan as it is built (see [`crate::vocab::secrets`]): the
//! ClusterVersion's conditions, its upstream URL, the targets' pull specs, URLs and risks,
//! the alert checks' messages and the warnings, so that oc's text, the JSON and the Markdown
//! all get the masked value whatever their escaping. Versions and issue names, which the
//! flags match, are kept as read (a version is never a secret shape).

use super::precheck::Check;
use super::{Minor, Plan, Target};
use crate::vocab::secrets::masked_fields;

masked_fields!(Check: reason, message);
masked_fields!(Target: release, risks, conditions);
masked_fields!(Minor: collected, sorted);
masked_fields!(
    Plan: current,
    channel,
    upstream,
    channels,
    failing,
    progressing,
    retrieved_updates,
    upgradeable,
    precheck,
    collect_warnings,
    minors
);
