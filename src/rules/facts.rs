//! The facts rules read beside the bundle and the timeline, computed once per analysis and
//! before any rule runs (clippy's late context): the dump replayed through the reference
//! reconciler, oc's `oc adm upgrade status` assessment and oc's `oc adm upgrade recommend`
//! plan. Each rule declares the ones it reads (`facts:` in `declare_rule!`); the engine
//! takes the union over the selected rules that can run, [`FactStore::compute`] makes those
//! (the independent ones side by side on the pool), and each rule's context lends it plain
//! references to its own ([`Facts::only`]): a fact a rule did not declare reads as absent,
//! so a forgotten declaration shows on the rule's failing fixture. The store belongs to the
//! analysis, so a view that prints a fact (the replay, the HTML page's updates) reads the
//! one the rules read.

use crate::bundle::Bundle;
use crate::recommend::Plan;
use crate::reconciler::replay::ReplayResult;
use crate::status::Assessment;
use crate::timeline::Timeline;
use std::sync::OnceLock;

/// A fact a rule may declare it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The dump replayed through the reference reconciler (`cx.replay()`).
    Replay,
    /// oc's update assessment at the bundle's "now" (`cx.update_health()`).
    UpdateHealth,
    /// oc's recommend view: offered targets, risks, the precheck (`cx.recommendation()`).
    Recommendation,
}

/// Which facts an analysis computes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Needs {
    replay: bool,
    health: bool,
    plan: bool,
}

impl Needs {
    /// Adds `fact`.
    pub fn add(&mut self, fact: Fact) {
        match fact {
            Fact::Replay => self.replay = true,
            Fact::UpdateHealth => self.health = true,
            Fact::Recommendation => self.plan = true,
        }
    }

    /// Whether `fact` is needed.
    pub fn has(&self, fact: Fact) -> bool {
        match fact {
            Fact::Replay => self.replay,
            Fact::UpdateHealth => self.health,
            Fact::Recommendation => self.plan,
        }
    }
}

/// The facts of one analysis, each made at most once: before the rules, those the selected
/// rules declared ([`FactStore::compute`]); on first use, those a view reads (`mglint
/// replay`, the HTML page's updates). Rules never fill it: they read [`Facts`].
#[derive(Debug, Default)]
pub struct FactStore {
    replay: OnceLock<ReplayResult>,
    health: OnceLock<Option<Assessment>>,
    plan: OnceLock<Option<Plan>>,
}

impl FactStore {
    /// Makes the facts in `needs` not made yet, the replay beside oc's assessment and plan
    /// (which read the bundle alone), and lends the ones made.
    pub fn compute<'s>(&'s self, bundle: &Bundle, timeline: &Timeline, needs: Needs) -> Facts<'s> {
        // Each task fills its own cell and waits for no other, so the replay may run its
        // variants on the pool while the assessment and the plan are made beside it.
        let (replay, (health, plan)) = rayon::join(
            || needs.replay.then(|| self.replay(bundle, timeline)),
            || {
                rayon::join(
                    || needs.health.then(|| self.assessment(bundle)).flatten(),
                    || needs.plan.then(|| self.plan(bundle)).flatten(),
                )
            },
        );
        Facts {
            replay,
            health,
            plan,
        }
    }

    /// The dump replayed through the reference reconciler.
    pub fn replay(&self, bundle: &Bundle, timeline: &Timeline) -> &ReplayResult {
        self.replay
            .get_or_init(|| crate::reconciler::replay(bundle, timeline))
    }

    /// oc's `oc adm upgrade status` assessment of the bundle at its "now" (the collection
    /// time, else the latest condition transition), as `mglint status` prints it; `None`
    /// when oc could not assess it (no ClusterVersion, ClusterOperators or `Progressing`).
    pub fn assessment(&self, bundle: &Bundle) -> Option<&Assessment> {
        self.health
            .get_or_init(|| {
                let inputs = crate::status::StatusInputs::from_bundle(bundle, None).ok()?;
                crate::status::assess(&inputs).ok()
            })
            .as_ref()
    }

    /// What `oc adm upgrade recommend` knows of the bundle, as `mglint recommend` prints it;
    /// `None` without a ClusterVersion.
    pub fn plan(&self, bundle: &Bundle) -> Option<&Plan> {
        self.plan
            .get_or_init(|| {
                let inputs = crate::recommend::RecommendInputs::from_bundle(bundle).ok()?;
                Some(crate::recommend::plan(&inputs))
            })
            .as_ref()
    }
}

/// Computed facts by reference, as a rule's context holds them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Facts<'a> {
    pub replay: Option<&'a ReplayResult>,
    pub health: Option<&'a Assessment>,
    pub plan: Option<&'a Plan>,
}

impl<'a> Facts<'a> {
    /// These facts, keeping only the `declared` ones.
    pub fn only(self, declared: &[Fact]) -> Facts<'a> {
        let has = |f| declared.contains(&f);
        Facts {
            replay: self.replay.filter(|_| has(Fact::Replay)),
            health: self.health.filter(|_| has(Fact::UpdateHealth)),
            plan: self.plan.filter(|_| has(Fact::Recommendation)),
        }
    }
}
