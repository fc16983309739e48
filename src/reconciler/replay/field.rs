//! Typed paths of the ClusterVersion status fields the replay compares, so that rules and
//! renderers read a deviation's field without parsing a string back. They print relative to
//! `status` (`history[1].completionTime`, `conditions[Failing].reason`) and order by position
//! (history indexes numerically). A field's name is its serde name (`rename_all`), the one
//! declaration of it.

use crate::vocab::names::serde_name;
use std::fmt;

/// A field of one `status.history` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum HistoryField {
    State,
    Version,
    Image,
    StartedTime,
    CompletionTime,
    Verified,
}

/// A field of one condition.
pub use crate::model::ConditionField;

/// A field of `status.desired`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ReleaseField {
    Version,
    Image,
    /// Present up to 4.5 (`status.desired` is an `Update`), absent from 4.6.
    Force,
}

/// One compared place of a ClusterVersion's status.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StatusField {
    /// A field of `history[i]` (index as in the dump).
    History(usize, HistoryField),
    /// `history[i]` as a whole: a dump entry the model does not write.
    HistoryEntry(usize),
    /// `history`: an entry the model writes that the dump lacks.
    HistoryMissing,
    Desired(ReleaseField),
    ObservedGeneration,
    /// A field of the condition of this type.
    Condition(String, ConditionField),
    /// The condition of this type as a whole (present on one side only).
    ConditionEntry(String),
}

impl StatusField {
    /// The history index the field is about, if any.
    pub fn history_index(&self) -> Option<usize> {
        match self {
            StatusField::History(i, _) | StatusField::HistoryEntry(i) => Some(*i),
            _ => None,
        }
    }

    /// The path from the object's root (`status.history[1].completionTime`).
    pub fn object_path(&self) -> String {
        format!("status.{self}")
    }
}

impl fmt::Display for HistoryField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(serde_name(self))
    }
}

impl fmt::Display for ConditionField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(serde_name(self))
    }
}

impl fmt::Display for ReleaseField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(serde_name(self))
    }
}

impl fmt::Display for StatusField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatusField::History(i, h) => write!(f, "history[{i}].{h}"),
            StatusField::HistoryEntry(i) => write!(f, "history[{i}]"),
            StatusField::HistoryMissing => f.write_str("history"),
            StatusField::Desired(r) => write!(f, "desired.{r}"),
            StatusField::ObservedGeneration => f.write_str("observedGeneration"),
            StatusField::Condition(t, c) => write!(f, "conditions[{t}].{c}"),
            StatusField::ConditionEntry(t) => write!(f, "conditions[{t}]"),
        }
    }
}

impl serde::Serialize for StatusField {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_as_before_and_orders_indexes_numerically() {
        let a = StatusField::History(10, HistoryField::CompletionTime);
        let b = StatusField::History(2, HistoryField::State);
        assert_eq!(a.to_string(), "history[10].completionTime");
        assert_eq!(a.object_path(), "status.history[10].completionTime");
        assert!(b < a);
        assert_eq!(
            StatusField::Condition("Failing".into(), ConditionField::LastTransitionTime)
                .to_string(),
            "conditions[Failing].lastTransitionTime"
        );
        assert_eq!(
            StatusField::Desired(ReleaseField::Force).to_string(),
            "desired.force"
        );
    }
}
