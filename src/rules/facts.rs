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
use crate::risks::catalogue::Catalogue;
use crate::risks::exposure::Exposure;
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
    /// The published update risks (the bundled catalogue, or the checkout the run was given)
    /// the dump's last, requested and offered updates were exposed to
    /// (`cx.published_risks()`); the reports show them too.
    PublishedRisks,
}

/// Which facts an analysis computes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Needs {
    replay: bool,
    health: bool,
    plan: bool,
    risks: bool,
}

impl Needs {
    /// Adds `fact`.
    pub fn add(&mut self, fact: Fact) {
        match fact {
            Fact::Replay => self.replay = true,
            Fact::UpdateHealth => self.health = true,
            Fact::Recommendation => self.plan = true,
            Fact::PublishedRisks => self.risks = true,
        }
    }

    /// Whether `fact` is needed.
    pub fn has(&self, fact: Fact) -> bool {
        match fact {
            Fact::Replay => self.replay,
            Fact::UpdateHealth => self.health,
            Fact::Recommendation => self.plan,
            Fact::PublishedRisks => self.risks,
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
    risks: OnceLock<Vec<Exposure>>,
    /// The published update risks judged: `None` is the bundled snapshot.
    catalogue: Option<std::sync::Arc<Catalogue>>,
}

impl FactStore {
    /// A store whose published risks come from `catalogue` (`None`: the bundled snapshot).
    pub fn with_catalogue(catalogue: Option<std::sync::Arc<Catalogue>>) -> FactStore {
        FactStore {
            catalogue,
            ..FactStore::default()
        }
    }

    /// The catalogue the published risks are judged against; `None` when the bundled one
    /// cannot be loaded.
    pub fn catalogue(&self) -> Option<&Catalogue> {
        match &self.catalogue {
            Some(c) => Some(c),
            None => Catalogue::bundled_shared().ok(),
        }
    }

    /// Makes the facts in `needs` not made yet, the replay beside oc's assessment and plan
    /// (which read the bundle alone), and lends the ones made.
    pub fn compute<'s>(&'s self, bundle: &Bundle, timeline: &Timeline, needs: Needs) -> Facts<'s> {
        // Each task fills its own cell and waits for no other, so the replay may run its
        // variants on the pool while the assessment and the plan are made beside it.
        let (replay, ((health, plan), risks)) = rayon::join(
            || needs.replay.then(|| self.replay(bundle, timeline)),
            || {
                rayon::join(
                    || {
                        rayon::join(
                            || needs.health.then(|| self.assessment(bundle)).flatten(),
                            || needs.plan.then(|| self.plan(bundle)).flatten(),
                        )
                    },
                    || needs.risks.then(|| self.published_risks(bundle)),
                )
            },
        );
        Facts {
            replay,
            health,
            plan,
            catalogue: risks.and(self.catalogue()),
            risks,
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

    /// The published update risks the dump's updates were exposed to (the store's
    /// catalogue evaluated against the dump); empty when the catalogue cannot be loaded.
    pub fn published_risks(&self, bundle: &Bundle) -> &[Exposure] {
        self.risks.get_or_init(|| {
            let Some(cat) = self.catalogue() else {
                return Vec::new();
            };
            let (_, e) = crate::risks::evaluate(cat, bundle, &[]);
            crate::risks::exposure::exposures(bundle, &e)
        })
    }
}

/// Computed facts by reference, as a rule's context holds them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Facts<'a> {
    pub replay: Option<&'a ReplayResult>,
    pub health: Option<&'a Assessment>,
    pub plan: Option<&'a Plan>,
    pub risks: Option<&'a [Exposure]>,
    /// The catalogue those risks were judged against (with `risks`).
    pub catalogue: Option<&'a Catalogue>,
}

impl<'a> Facts<'a> {
    /// These facts, keeping only the `declared` ones.
    pub fn only(self, declared: &[Fact]) -> Facts<'a> {
        let has = |f| declared.contains(&f);
        Facts {
            replay: self.replay.filter(|_| has(Fact::Replay)),
            health: self.health.filter(|_| has(Fact::UpdateHealth)),
            plan: self.plan.filter(|_| has(Fact::Recommendation)),
            risks: self.risks.filter(|_| has(Fact::PublishedRisks)),
            catalogue: self.catalogue.filter(|_| has(Fact::PublishedRisks)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Selection, analyze_with, find};

    impl FactStore {
        /// Which facts have been made.
        fn made(&self) -> [bool; 4] {
            [
                self.replay.get().is_some(),
                self.health.get().is_some(),
                self.plan.get().is_some(),
                self.risks.get().is_some(),
            ]
        }
    }

    /// The store of one analysis of `fixture` with `codes` selected, and the codes that
    /// reported.
    fn analyse(fixture: &str, codes: &[&str]) -> (FactStore, Vec<String>) {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/rules/");
        // As the app reads a dump: the objects the published risks' series come from only
        // when CV025 is selected.
        let mut opts = crate::ingest::IngestOptions::default();
        if codes.contains(&"CV025") {
            let mut w = (*opts.source.wants).clone();
            crate::risks::series::add_wants(&mut w);
            opts.source.wants = std::sync::Arc::new(w);
        }
        let bundle =
            crate::ingest::ingest(&[format!("{dir}{fixture}")], &opts).expect("fixture reads");
        let timeline = crate::timeline::build(&bundle);
        let store = FactStore::default();
        let selection = Selection {
            select: codes.iter().map(|c| c.to_string()).collect(),
            ..Default::default()
        };
        let report = analyze_with(&bundle, &timeline, &store, &selection);
        let mut found: Vec<String> = report.findings.iter().map(|f| f.code.to_string()).collect();
        found.dedup();
        (store, found)
    }

    #[test]
    fn only_the_facts_the_selected_rules_declare_are_made() {
        // RC001 reads the replay alone; it reports on its fixture with it.
        assert_eq!(find("RC001").map(|m| m.facts), Some(&[Fact::Replay][..]));
        let (store, found) = analyse("RC001/fail", &["RC001"]);
        assert_eq!(found, ["RC001"]);
        assert_eq!(store.made(), [true, false, false, false]);
        // CV022 reads oc's recommend plan alone.
        let (store, found) = analyse("CV022/fail", &["CV022"]);
        assert_eq!(found, ["CV022"]);
        assert_eq!(store.made(), [false, false, true, false]);
        // CV025 reads the published risks alone.
        let (store, found) = analyse("CV025/fail", &["CV025"]);
        assert_eq!(found, ["CV025"]);
        assert_eq!(store.made(), [false, false, false, true]);
        // A rule that declares none: nothing is made for it.
        let (store, _) = analyse("RC001/fail", &["CV001"]);
        assert_eq!(store.made(), [false, false, false, false]);
    }

    #[test]
    fn a_rule_sees_only_the_facts_it_declared() {
        let (store, _) = analyse("CV022/fail", &["CV022", "RC001"]);
        let all = Facts {
            replay: store.replay.get(),
            health: None,
            plan: store.plan.get().and_then(Option::as_ref),
            risks: None,
            catalogue: None,
        };
        assert!(all.replay.is_some() && all.plan.is_some());
        let only = all.only(&[Fact::Recommendation]);
        assert!(only.replay.is_none());
        assert!(only.plan.is_some());
        assert!(all.only(&[]).plan.is_none());
    }
}
