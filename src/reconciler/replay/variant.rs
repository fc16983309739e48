//! One modelled CVO behaviour: a flavour with the Bug 1756461 history fix on or off, the four
//! settings a dump is replayed under, and how a deviation names who would have written the
//! model's values. The vocabulary the comparison and the CVO generations share (a leaf).

use crate::reconciler::model::semantics::Flavour;

/// One modelled CVO behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    pub flavour: Flavour,
    pub history_fix: bool,
}

impl Variant {
    /// The four settings, the correct CVO first.
    pub const ALL: [Variant; 4] = [
        Variant {
            flavour: Flavour::Fixed,
            history_fix: true,
        },
        Variant {
            flavour: Flavour::Fixed,
            history_fix: false,
        },
        Variant {
            flavour: Flavour::Legacy,
            history_fix: true,
        },
        Variant {
            flavour: Flavour::Legacy,
            history_fix: false,
        },
    ];

    /// `fixed, history fix on`.
    pub fn label(&self) -> String {
        let fix = if self.history_fix { "on" } else { "off" };
        format!("{}, history fix {fix}", self.flavour.as_str())
    }

    /// Who writes the model's values, for deviation messages.
    pub fn writer(&self) -> &'static str {
        match (self.flavour, self.history_fix) {
            (Flavour::Fixed, true) => "a correct CVO (fixed flavour, history fix on)",
            (Flavour::Fixed, false) => "a fixed CVO without the history fix",
            (Flavour::Legacy, true) => "a legacy CVO (4.1-4.10) with the history fix",
            (Flavour::Legacy, false) => "a legacy CVO without the history fix (Bug 1756461)",
        }
    }
}
