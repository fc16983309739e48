//! What the dump's updates were exposed to: of every candidate judged ([`super::verdict`]),
//! the update the cluster took last (`status.history[0]` from `history[1]`, completed or
//! not), the one it was asked for and has not started (`spec.desiredUpdate`), and the ones it
//! is offered (`availableUpdates`, `conditionalUpdates`), each with the published risks that
//! apply to it or could not be evaluated. Older updates of the history and `--to` targets are
//! left out. Rule CV025, `recommend --published-risks` and the Markdown and HTML reports read
//! this one list.

use super::verdict::{Evaluation, RiskOutcome, Verdict, Why};
use crate::bundle::Bundle;
use crate::model::Time;

/// Where a target stands for the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The update the cluster took last (`status.history[0]`); `completed` when that entry
    /// is Completed, else it is in progress or stopped part-way.
    Taken {
        completed: bool,
        started: Option<Time>,
    },
    /// Requested (`spec.desiredUpdate`) and not started.
    Requested,
    /// Offered (`availableUpdates` or `conditionalUpdates`) and neither taken nor requested.
    Offered,
}

impl Stage {
    /// `the update it took last` / `the requested update` / `an offered update`, for texts.
    pub fn words(self) -> &'static str {
        match self {
            Stage::Taken {
                completed: true, ..
            } => "the cluster's last update",
            Stage::Taken { .. } => "the update in progress",
            Stage::Requested => "the requested update",
            Stage::Offered => "an offered update",
        }
    }
}

impl Stage {
    /// A table's word for it: `in progress`, `last update`, `requested`, `offered`.
    pub fn short(self) -> &'static str {
        match self {
            Stage::Taken {
                completed: true, ..
            } => "last update",
            Stage::Taken { .. } => "in progress",
            Stage::Requested => "requested",
            Stage::Offered => "offered",
        }
    }
}

/// How many offered targets the reports' tables show (the rest are counted).
pub const OFFERED_SHOWN: usize = 10;

/// The rows a report's "Published update risks" table shows: every taken and requested
/// target, the first [`OFFERED_SHOWN`] offered ones; and how many offered ones are left out.
pub fn shown(all: &[Exposure]) -> (Vec<&Exposure>, usize) {
    let mut offered = 0;
    let mut left = 0;
    let mut rows = Vec::new();
    for x in all {
        if x.stage == Stage::Offered {
            offered += 1;
            if offered > OFFERED_SHOWN {
                left += 1;
                continue;
            }
        }
        rows.push(x);
    }
    (rows, left)
}

/// The names of the risks of one verdict, joined by `, `.
pub fn names(x: &Exposure, v: Verdict) -> Vec<&str> {
    x.with(v).map(|r| r.name.as_str()).collect()
}

/// One target and the risks on its edge that apply or could not be evaluated.
#[derive(Debug, Clone, PartialEq)]
pub struct Exposure {
    pub version: String,
    pub from: String,
    pub stage: Stage,
    /// Whether an unnamed blocked edge removes this update from the graph outright.
    pub blocked: bool,
    /// The risks whose verdict is `applies` or `unknown`, applying ones first, by name.
    pub risks: Vec<RiskOutcome>,
}

impl Exposure {
    /// The risks of one verdict.
    pub fn with(&self, v: Verdict) -> impl Iterator<Item = &RiskOutcome> {
        self.risks.iter().filter(move |r| r.judged.verdict == v)
    }
}

/// The exposures of `b` in `e`: taken, then requested, then offered (in the order the
/// ClusterVersion lists them); a target without an applying or unknown risk is left out.
pub fn exposures(b: &Bundle, e: &Evaluation) -> Vec<Exposure> {
    let Some(cv) = b.cluster_version() else {
        return Vec::new();
    };
    let h = &cv.value.status.history;
    let last = match h.as_slice() {
        [to, from, ..] => Some((to, from)),
        _ => None,
    };
    let mut out = Vec::new();
    for t in &e.targets {
        let c = &t.candidate;
        let stage = match last {
            Some((to, from))
                if c.why.contains(&Why::Taken)
                    && c.version == to.version
                    && c.from == from.version =>
            {
                Stage::Taken {
                    completed: to.is_completed(),
                    started: to.started_time,
                }
            }
            _ if c.why.contains(&Why::Requested) => Stage::Requested,
            _ if c.why.contains(&Why::Offered) || c.why.contains(&Why::Conditional) => {
                Stage::Offered
            }
            _ => continue,
        };
        let mut risks: Vec<RiskOutcome> = t
            .risks
            .iter()
            .filter(|r| r.judged.verdict != Verdict::DoesNotApply)
            .cloned()
            .collect();
        if risks.is_empty() {
            continue;
        }
        risks.sort_by(|a, b| (a.judged.verdict, &a.name).cmp(&(b.judged.verdict, &b.name)));
        out.push(Exposure {
            version: c.version.clone(),
            from: c.from.clone(),
            stage,
            blocked: t.blocked,
            risks,
        });
    }
    out.sort_by_key(|x| match x.stage {
        Stage::Taken { .. } => 0,
        Stage::Requested => 1,
        Stage::Offered => 2,
    });
    out
}
