//! The one entry point every caller uses (the CLI's verbs, `batch`, tests, benches): from
//! inputs and resolved [`Settings`] to a [`Run`]: the inputs as found, and one [`Analysis`]
//! per cluster in them (inputs of different clusters are never mixed). An analysis computes
//! each view a command asks for once, on first use: the timeline, the report (the facts the
//! selected rules declared first, then the rules; see [`crate::rules::Fact`]), the replay and
//! oc's recommend plan (the ones the rules read, when they did) and the condition stretches
//! the HTML chart draws. Every text a run writes goes through
//! [`Run::finish`]: secrets are always masked, identifying values replaced when `redact` is
//! set, with one placeholder mapping for every output of the run.
//!
//! ```no_run
//! let settings = mglint::Settings::default();
//! let run = mglint::app::load(&["must-gather.tar.gz".to_string()], &settings).unwrap();
//! let report = run.analysis().report();
//! std::process::exit(i32::from(run.exit_code(report.exit_code())));
//! ```

mod clusters;
mod output;
pub mod settings;
mod threads;

pub use output::{OutputError, check_destinations, is_stdout, write_text};
pub use settings::{CONFIG_FILE, Limits, Overrides, Settings, SettingsError};
pub use threads::{ThreadError, init_threads};

use crate::bundle::{Bundle, InputInfo};
use crate::ingest::{IngestError, IngestOptions};
use crate::reconciler::replay::ReplayResult;
use crate::redact::{Redactor, SharedRedactor};
use crate::remote;
use crate::rules::FactStore;
use crate::rules::Report;
use crate::timeline::{ConditionStretches, Timeline};
use std::sync::{Mutex, OnceLock, PoisonError};

/// Why a run could not start or found nothing to analyse (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Ingest(#[from] IngestError),
    /// No input could be fetched or opened; one reason per input.
    #[error("{}", .0.join("\n"))]
    Inputs(Vec<String>),
}

/// One analysed cluster: its bundle, and each view derived from it, made on first use and
/// then kept (a command asks only for the views it prints).
#[derive(Debug)]
pub struct Analysis {
    pub bundle: Bundle,
    selection: crate::rules::Selection,
    /// The settings file the selection came from, recorded in the report.
    config_file: Option<std::path::PathBuf>,
    known: std::sync::Arc<crate::rules::known::KnownSet>,
    timeline: OnceLock<Timeline>,
    report: OnceLock<Report>,
    /// The replay, oc's assessment and plan: made for the rules before they run, or for a
    /// view on first use; once either way.
    facts: FactStore,
    stretches: OnceLock<ConditionStretches>,
}

impl Analysis {
    /// An analysis of a bundle under a rule selection.
    pub fn new(bundle: Bundle, selection: crate::rules::Selection) -> Self {
        Analysis::with_rules(bundle, selection, Default::default())
    }

    /// An analysis that also runs the loaded known-issue rules.
    pub fn with_rules(
        bundle: Bundle,
        selection: crate::rules::Selection,
        known: std::sync::Arc<crate::rules::known::KnownSet>,
    ) -> Self {
        Analysis {
            bundle,
            selection,
            config_file: None,
            known,
            timeline: OnceLock::new(),
            report: OnceLock::new(),
            facts: FactStore::default(),
            stretches: OnceLock::new(),
        }
    }

    /// The upgrade timeline (built on first use).
    pub fn timeline(&self) -> &Timeline {
        self.timeline
            .get_or_init(|| crate::timeline::build(&self.bundle))
    }

    /// The dump replayed through the reference reconciler (computed on first use, once).
    pub fn replay(&self) -> &ReplayResult {
        self.facts.replay(&self.bundle, self.timeline())
    }

    /// What `oc adm upgrade recommend` knows of the bundle (the one the rules read, else
    /// made on first use); `None` without a ClusterVersion.
    pub fn plan(&self) -> Option<&crate::recommend::Plan> {
        self.facts.plan(&self.bundle)
    }

    /// The timeline's condition stretches, as the HTML chart draws them (on first use).
    pub fn stretches(&self) -> &ConditionStretches {
        self.stretches
            .get_or_init(|| crate::timeline::condition_stretches(self.timeline()))
    }

    /// The findings of the selected rules (computed on first use): the facts they declared
    /// are made first, once, the replay into this analysis's (see [`Analysis::replay`]).
    pub fn report(&self) -> &Report {
        self.report.get_or_init(|| {
            let mut r = crate::rules::analyze_known(
                &self.bundle,
                self.timeline(),
                &self.facts,
                &self.selection,
                &self.known,
            );
            r.settings.file = self.config_file.as_ref().map(|p| p.display().to_string());
            r
        })
    }
}

/// What a run found.
#[derive(Debug)]
pub struct Run {
    /// Remarks for the user (objects of a remote job that were not downloaded, …).
    pub notes: Vec<String>,
    /// What the user must know to read the results right (inputs of different clusters
    /// analysed apart).
    pub warnings: Vec<String>,
    /// Inputs holding ClusterVersions of several clusters that could not be told apart,
    /// analysed as one (each also a warning): the answer mixes clusters.
    pub unsplit: Vec<String>,
    /// One analysis per cluster, in the order of the inputs; never empty.
    analyses: Vec<Analysis>,
    redactor: Option<SharedRedactor>,
}

impl Run {
    /// The analysis of the inputs (of the first cluster when they hold several).
    pub fn analysis(&self) -> &Analysis {
        &self.analyses[0]
    }

    /// One analysis per cluster: inputs of different clusters are never mixed; inputs of
    /// the same cluster (two snapshots, a must-gather and its CI artifacts) are one.
    pub fn analyses(&self) -> &[Analysis] {
        &self.analyses
    }

    /// The inputs as found (of every cluster).
    pub fn inputs(&self) -> Vec<&InputInfo> {
        self.analyses
            .iter()
            .flat_map(|a| a.bundle.inputs.iter())
            .collect()
    }

    /// Inputs that could not be opened or fetched (the run still analysed the others).
    pub fn input_errors(&self) -> &[String] {
        &self.analyses[0].bundle.input_errors
    }

    /// Records the objects of the remote job `input` that could not be downloaded: each an
    /// error diagnostic on its file in the analysis of the cluster the input belongs to, so
    /// it is named, counted as unread and makes the answer incomplete like any unreadable
    /// file.
    pub fn add_failed_downloads(&mut self, input: &str, failed: &[remote::FailedObject]) {
        let at = self
            .analyses
            .iter()
            .position(|a| a.bundle.inputs.iter().any(|i| i.name == input))
            .unwrap_or(0);
        if let Some(a) = self.analyses.get_mut(at) {
            a.bundle
                .diagnostics
                .extend(failed.iter().map(|f| crate::model::Diagnostic {
                    level: crate::model::Severity::Error,
                    prov: crate::vocab::files::Provenance::detached(input, &f.path),
                    column: None,
                    reason: format!("could not be downloaded: {}", f.reason),
                    cause: Default::default(),
                }));
        }
    }

    /// `code`, or 2 when some input could not be read at all.
    pub fn exit_code(&self, code: u8) -> u8 {
        if self.input_errors().is_empty() {
            code
        } else {
            2
        }
    }

    /// Makes `shared` the run's redactor (what the run's inputs say is identifying is added
    /// to it), so that the outputs and what else shares it (standard error) give a value the
    /// same placeholder.
    pub fn share_redactor(&mut self, shared: SharedRedactor) {
        let names = self
            .analyses
            .iter()
            .flat_map(|a| identifying_names(&a.bundle))
            .collect();
        shared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .learn_names(names);
        self.redactor = Some(shared);
    }

    /// A text as it may leave the run: secrets masked, and with `redact` identifying values
    /// replaced (the same value gets the same placeholder in every output of the run).
    pub fn finish(&self, text: &str) -> String {
        match &self.redactor {
            Some(r) => r.lock().unwrap_or_else(PoisonError::into_inner).apply(text),
            None => crate::redact::scrub_secrets(text),
        }
    }
}

/// Fetches URL inputs into the cache (they keep their URL as name), ingests everything and
/// prepares the analysis. Inputs that cannot be opened are recorded in the run; `Err` only
/// when nothing could be read at all.
pub fn load(inputs: &[String], settings: &Settings) -> Result<Run, RunError> {
    let mut named = Vec::new();
    let mut fetch_errors = Vec::new();
    let mut notes = Vec::new();
    let mut lost: Vec<(String, Vec<remote::FailedObject>)> = Vec::new();
    for i in inputs {
        let job = remote::GcsLocation::parse(i);
        if remote::is_remote(i) && job.is_err() && remote::is_http_url(i) {
            // Not a CI job location: a link to one archive or file.
            match remote::fetch_url(i, &settings.remote) {
                Ok(local) => named.push((local.to_string_lossy().to_string(), i.clone())),
                Err(e) => fetch_errors.push(e.to_string()),
            }
        } else if remote::is_remote(i) {
            match remote::fetch(i, &settings.remote) {
                Ok(r) => {
                    notes.extend(
                        r.skipped
                            .iter()
                            .map(|s| format!("{i}: not downloaded: {s}")),
                    );
                    lost.push((i.clone(), r.failed));
                    named.push((r.local_dir.to_string_lossy().to_string(), i.clone()));
                }
                Err(e) => fetch_errors.push(e.to_string()),
            }
        } else {
            named.push((i.clone(), i.clone()));
        }
    }
    if named.is_empty() {
        return Err(RunError::Inputs(fetch_errors));
    }
    let mut run = load_named(&named, settings, fetch_errors)?;
    for (input, failed) in &lost {
        run.add_failed_downloads(input, failed);
    }
    notes.append(&mut run.notes);
    run.notes = notes;
    Ok(run)
}

/// [`load`] for inputs already on this machine, each given as `(local path, name to show)`;
/// `earlier_errors` are inputs that could not be fetched (kept in the run and in the
/// "nothing found" reasons).
pub fn load_named(
    named: &[(String, String)],
    settings: &Settings,
    earlier_errors: Vec<String>,
) -> Result<Run, RunError> {
    let mut opts = IngestOptions {
        source: settings.limits.source_options(),
    };
    // Other kinds and logs are read only when a loaded rule asks for them; the objects the
    // published risks' series come from, only when CV025 (which evaluates them) is selected.
    opts.source.wants = settings.known.wants.clone();
    if crate::rules::find("CV025").is_some_and(|m| settings.selection.selects(m)) {
        let mut w = (*opts.source.wants).clone();
        crate::risks::series::add_wants(&mut w);
        opts.source.wants = std::sync::Arc::new(w);
    }
    let nothing_found = |e| match e {
        IngestError::NothingFound(mut reasons) => {
            reasons.extend(earlier_errors.iter().cloned());
            RunError::Ingest(IngestError::NothingFound(reasons))
        }
        other => RunError::Ingest(other),
    };
    // One walk: one bundle, or (several clusters) that walk cut into one per cluster.
    let gathered = crate::ingest::gather(named, &opts).map_err(nothing_found)?;
    let facts = gathered.facts();
    let unsplit = clusters::mixed_inputs(&facts);
    let mut warnings = unsplit.clone();
    warnings.extend(clusters::control_plane_warnings(&facts));
    let bundles = match clusters::groups(&facts, named) {
        Some(groups) => {
            warnings.push(clusters::warning(&groups));
            // The run's input errors, reported once (with the first cluster): inputs that
            // could not be opened or fetched, where nothing was read, and groups that hold
            // nothing recognisable.
            let mut input_errors = gathered.input_errors();
            input_errors.extend(
                facts
                    .inputs
                    .iter()
                    .filter(|i| i.parsed == 0)
                    .map(|i| crate::ingest::nothing_in(&i.name, i.files_seen)),
            );
            let parts: Vec<Vec<crate::source::Part>> =
                groups.into_iter().map(|g| g.parts).collect();
            let mut bundles = Vec::with_capacity(parts.len());
            for b in gathered.split(&parts) {
                match b {
                    Ok(b) => bundles.push(b),
                    Err(IngestError::NothingFound(reasons)) => input_errors.extend(reasons),
                    Err(e) => return Err(RunError::Ingest(e)),
                }
            }
            input_errors.extend(earlier_errors);
            match bundles.first_mut() {
                Some(first) => first.input_errors = input_errors,
                None => return Err(RunError::Ingest(IngestError::NothingFound(input_errors))),
            }
            bundles
        }
        None => {
            let mut bundle = gathered.into_bundle().map_err(nothing_found)?;
            bundle.input_errors.extend(earlier_errors);
            vec![bundle]
        }
    };
    let redactor = settings.redact.then(|| {
        let names = bundles.iter().flat_map(identifying_names).collect();
        std::sync::Arc::new(Mutex::new(Redactor::new(names)))
    });
    Ok(Run {
        notes: Vec::new(),
        warnings,
        unsplit,
        analyses: bundles
            .into_iter()
            .map(|b| {
                let mut a =
                    Analysis::with_rules(b, settings.selection.clone(), settings.known.clone());
                a.config_file = settings.config_file.as_ref().map(|c| c.path.clone());
                a.facts = FactStore::with_catalogue(settings.catalogue.clone());
                a
            })
            .collect(),
        redactor,
    })
}

/// Values the dump says identify the cluster, each with its placeholder kind, redacted
/// wherever they appear: node names, the infrastructure name and API hosts
/// (Infrastructure), the base domain (DNS), node addresses and the cluster ID.
pub fn identifying_names(bundle: &Bundle) -> Vec<(&'static str, String)> {
    let o = &bundle.objects;
    let mut v: Vec<(&'static str, String)> = Vec::new();
    for n in &o.nodes {
        v.push(("node", n.metadata.name.clone()));
    }
    for i in &o.infrastructures {
        let mut ids = i.identifying().into_iter();
        if let Some(name) = i.status.infrastructure_name.clone() {
            v.push(("infra", name));
            ids.next();
        }
        v.extend(ids.map(|d| ("domain", d)));
    }
    for d in &o.dnses {
        v.extend(d.spec.base_domain.iter().map(|b| ("domain", b.clone())));
    }
    for cv in &o.cluster_versions {
        if !cv.spec.cluster_id.is_empty() {
            v.push(("cluster-id", cv.spec.cluster_id.clone()));
        }
    }
    // A value that is also a release version (a cluster ID set to `4.3.10`) or too short to
    // be a name would scrub text that is not the secret: every mention of that release.
    v.retain(|(_, s)| s.chars().count() >= 4 && !looks_like_release(s));
    v
}

/// `4.3.10`, `4.14.0-rc.1`, `v1.27.3`: digits and dots first, as versions are written.
fn looks_like_release(s: &str) -> bool {
    let core = s.strip_prefix('v').unwrap_or(s);
    let head = core.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = head.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Runs the `tests:` cases of a set of known-issue rules (`mglint rules test`): each input
/// analysed with its rule alone selected (and the whole set's wants), its input taken relative
/// to the rule file.
pub fn run_rule_cases(
    set: &std::sync::Arc<crate::rules::known::KnownSet>,
) -> Vec<crate::rules::known::cases::CaseOutcome> {
    use crate::rules::Rule as _;
    use crate::rules::known::{KnownRule, cases};
    use std::path::Path;
    let base = |r: &KnownRule| {
        Path::new(&r.file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    };
    let analyze = |inputs: &[String], r: &KnownRule| {
        let settings = Settings {
            selection: crate::rules::Selection {
                select: vec![r.meta().code.to_string()],
                ..Default::default()
            },
            known: set.clone(),
            ..Default::default()
        };
        let run = load(inputs, &settings).map_err(|e| e.to_string())?;
        Ok(run.analysis().report().clone())
    };
    cases::run(set, &base, &analyze)
}
