//! ClusterVersion condition edits as the CVO's library makes them (`SetOperatorStatusCondition`,
//! `RemoveOperatorStatusCondition`): shared by the status sync and the Upgradeable computation.

use crate::model::{Condition, Time};

/// `SetOperatorStatusCondition`: append when absent; lastTransitionTime changes only with the
/// status; reason and message are always overwritten.
pub fn set_condition(
    conds: &mut Vec<Condition>,
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: Time,
) {
    match conds.iter_mut().find(|c| c.type_ == type_) {
        Some(c) => {
            if c.status != status {
                c.status = status.into();
                c.last_transition_time = Some(now);
            }
            c.reason = reason.into();
            c.message = message.into();
        }
        None => conds.push(Condition {
            type_: type_.into(),
            status: status.into(),
            reason: reason.into(),
            message: message.into(),
            last_transition_time: Some(now),
        }),
    }
}

/// Deletes a condition type.
pub fn remove_condition(conds: &mut Vec<Condition>, type_: &str) {
    conds.retain(|c| c.type_ != type_);
}
