//! CVO generations: the spans of CVO minors whose status rules differ in ways a dump can show,
//! and the settings the replay models each with. 4.1-4.2 wrote history without the Bug
//! 1756461 fix (their last z-streams got it: #250, #251); 4.3 brought it and the precondition
//! checks; 4.6 made `status.desired` a `Release` (url and channels, no `force`) and 4.7 counts
//! manifests (`N of M done`); 4.11 is the fixed flavour (targets loaded and checked before they
//! become work, `ReleaseAccepted`, capabilities; the 4.10.z backport is modelled with them);
//! 4.14 hands a restarted worker its own release first (OCPBUGS-35228) and 4.12-4.16 add the
//! weighted pruning, condensed operator errors and the slow-operator texts.

use super::variant::Variant;
use crate::reconciler::model::semantics::{Flavour, minor_label};

/// One CVO generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generation {
    /// `4.1-4.2`, …, `4.14+`.
    pub label: &'static str,
    /// The first and last CVO minor it spans (5.x parses as 100+).
    pub first: u32,
    pub last: u32,
    /// The minor modelled when the dump does not say which CVO wrote it.
    pub typical: u32,
}

/// The five generations, oldest first.
pub const GENERATIONS: [Generation; 5] = [
    Generation {
        label: "4.1-4.2",
        first: 1,
        last: 2,
        typical: 2,
    },
    Generation {
        label: "4.3-4.5",
        first: 3,
        last: 5,
        typical: 3,
    },
    Generation {
        label: "4.6-4.10",
        first: 6,
        last: 10,
        typical: 8,
    },
    Generation {
        label: "4.11-4.13",
        first: 11,
        last: 13,
        typical: 13,
    },
    Generation {
        label: "4.14+",
        first: 14,
        last: u32::MAX,
        typical: 16,
    },
];

impl Generation {
    /// The generation a CVO 4.`minor` belongs to.
    pub fn of(minor: u32) -> Option<&'static Generation> {
        GENERATIONS
            .iter()
            .find(|g| (g.first..=g.last).contains(&minor))
    }

    /// The minor this generation is modelled as for a dump written by 4.`writer`: the same
    /// when it is one of its minors, else the nearest it has.
    pub fn modelled_minor(&self, writer: Option<u32>) -> u32 {
        match writer {
            None => self.typical,
            Some(m) => m.clamp(self.first, self.last),
        }
    }

    /// The settings (flavour and history fix) a CVO of this generation can have, at the
    /// minor it is modelled as.
    pub fn settings(&self, minor: u32) -> Vec<Variant> {
        let v = |flavour, history_fix| Variant {
            flavour,
            history_fix,
        };
        match minor {
            0..=2 => vec![v(Flavour::Legacy, false), v(Flavour::Legacy, true)],
            3..=9 => vec![v(Flavour::Legacy, true)],
            10 => vec![v(Flavour::Legacy, true), v(Flavour::Fixed, true)],
            _ => vec![v(Flavour::Fixed, true)],
        }
    }

    /// `4.3-4.5 (modelled as 4.5)`.
    pub fn describe(&self, minor: u32) -> String {
        format!("{} (modelled as CVO {})", self.label, minor_label(minor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generations_cover_every_minor_and_model_the_nearest_one() {
        for m in 1..=130 {
            assert!(Generation::of(m).is_some(), "4.{m}");
        }
        assert_eq!(Generation::of(8).map(|g| g.label), Some("4.6-4.10"));
        assert_eq!(Generation::of(101).map(|g| g.label), Some("4.14+"));
        let g = &GENERATIONS[1];
        assert_eq!(
            (
                g.modelled_minor(Some(8)),
                g.modelled_minor(Some(1)),
                g.modelled_minor(Some(4)),
                g.modelled_minor(None)
            ),
            (5, 3, 4, 3)
        );
        assert_eq!(
            GENERATIONS[0].settings(2).len(),
            2,
            "4.1-4.2: fix or no fix"
        );
        assert_eq!(
            GENERATIONS[2].settings(10).len(),
            2,
            "4.10: legacy or the backport"
        );
        assert_eq!(GENERATIONS[4].settings(15)[0].flavour, Flavour::Fixed);
    }
}
