//! Published update risks on the real data: the verdicts of the bundled catalogue's risks on
//! the two real must-gathers, each written down by reading the risk's PromQL and the dump's
//! objects by hand (docs/risks.md), and agreement with the CVO's own verdicts in the real
//! ClusterVersions' `conditionalUpdates` wherever both decide.

use mglint::risks::catalogue::Catalogue;
use mglint::risks::verdict::{Verdict, judge};
use std::path::Path;
use std::sync::Arc;

/// Loads inputs as `mglint risks` does (the objects the series read kept whole).
fn load(inputs: &[&Path]) -> mglint::Run {
    let mut wants = mglint::vocab::wants::Wants::default();
    mglint::risks::series::add_wants(&mut wants);
    let mut known = mglint::rules::known::KnownSet::default();
    known.wants = Arc::new(wants);
    let settings = mglint::Settings {
        known: Arc::new(known),
        ..Default::default()
    };
    let inputs: Vec<String> = inputs
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    mglint::app::load(&inputs, &settings).unwrap_or_else(|e| panic!("{inputs:?}: {e}"))
}

use Verdict::{Applies as A, DoesNotApply as N, Unknown as U};

/// (risk, verdict on the AWS dump, on the metal dump, metrics the dumps cannot give).
/// The dumps: AWS is platform `AWS`, born 4.8.0-0.nightly-2021-07-31; metal is platform
/// `None`, born 4.9.0-0.nightly-2021-09-10; both have 3 master and 3 worker RHCOS amd64 nodes
/// (role `master`, no `control-plane`), every node with a rendered config, no `aro`
/// ClusterOperator, the default feature set, no capabilities in the ClusterVersion.
const HAND: &[(&str, Verdict, Verdict, &[&str])] = &[
    // max(provider{OpenStack|oVirt|VSphere} or 0*provider) = 0, times the workers' 1: 0.
    ("KeepalivedMulticastSkew", N, N, &[]),
    // group(provider{BareMetal}) or 0*group(provider): neither is BareMetal.
    ("BrokenBaremetalProvisioning", N, N, &[]),
    // No `aro` ClusterOperator: 0 * group(cluster_operator_conditions).
    ("AROBrokenDNSMasq", N, N, &[]),
    ("ARODNSWrongBootSequence", N, N, &[]),
    ("ARO420UDRWorkerNodesFail", N, N, &[]),
    // born by 4.12 (1) * on () group_left (name) 0*topk(1, group by (name) (conditions)).
    ("AROSystemDLooping", N, N, &[]),
    // The born-before-4.12.54 regex does not match a nightly version whole: 0 * ... * 0.
    ("AzureSystemDLooping", N, N, &[]),
    // group by (type) (provider{AWS}) or 0*...: 1 on AWS, 0 on None.
    ("AWSCustomDomainNodesNotReady", A, N, &[]),
    ("NonZonalAzureMachineSetScaling", N, N, &[]),
    // No aro: 0*group(conditions) + born_by_4_9 (1) = 1, * on () 0*provider = 0.
    ("AzureDefaultVMType", N, N, &[]),
    // Born in 4.8 / 4.9: `4[.][0-9][.].*` matches; the yes branch, valued 1.
    ("OldBootImagesMissingOSReleaseRHELVersion", A, A, &[]),
    ("EarlyAPICertRotation", A, A, &[]),
    ("OldBootImagesComposeFSvsGrubProbe", A, A, &[]),
    ("CSRNotApprovedBadCerts", A, A, &[]),
    ("FlowControlV1Beta3Migration", A, A, &[]),
    // Not Azure|GCP (0) * on () group_left no rhel node (0).
    ("CRIAuthPluginRHEL", N, N, &[]),
    ("RHELFailedRebootMissingService", N, N, &[]),
    ("S390xContainerDataFailure", N, N, &[]),
    // type=~"None|BareMetal": metal's None applies.
    ("NMStateServiceFailure", N, A, &[]),
    ("VSphereHW14CrossNodeNetworkingError", N, A, &[]),
    ("VSphereNodeNameChanges", N, A, &[]),
    ("OpenStackAvailabilityZoneOutOfRange", N, N, &[]),
    // 0*group by (role) (control-plane) is empty; 1*group by (role) (master) is 1.
    ("MachineConfigNodesV1AlphaControlPlaneLabels", A, A, &[]),
    // Metrics a must-gather cannot give: unknown, naming them.
    (
        "OLMOperatorsInFailedState",
        U,
        U,
        &["csv_count", "csv_succeeded"],
    ),
    (
        "HCPServiceHealthCheckDisruption",
        U,
        U,
        &["cluster_installer"],
    ),
    ("AMD19hFirmware", U, U, &["node_cpu_info"]),
    (
        "ConsoleImplicitlyEnabled",
        U,
        U,
        &["cluster_version_capability"],
    ),
    ("GCPMintModeRoleAdmin", U, U, &["cco_credentials_mode"]),
    (
        "PerformanceProfilesCPUQuota",
        U,
        U,
        &["apiserver_storage_objects"],
    ),
    (
        "AuthOAuthProxyLeakedConnections",
        U,
        U,
        &["cluster_proxy_enabled"],
    ),
    (
        "NetworkManagerOVNBridgeMapping",
        U,
        U,
        &["csv_succeeded", "kubernetes_nmstate_features_applied"],
    ),
    // Always.
    ("OpenStackNodeCreationFails", A, A, &[]),
];

pub fn must_gather_verdicts_match_hand_evaluation(c: &Path) {
    let cat = Catalogue::bundled().unwrap();
    assert!(HAND.len() >= 20);
    for (i, dump) in ["must-gather-aws.tar.xz", "must-gather-metal.tar.xz"]
        .iter()
        .enumerate()
    {
        let run = load(&[&c.join("must-gathers").join(dump)]);
        let b = &run.analysis().bundle;
        let m = mglint::risks::series::from_bundle(b);
        let mut wrong = Vec::new();
        for (name, aws, metal, missing) in HAND {
            let want = if i == 0 { *aws } else { *metal };
            let risk = cat
                .risk(name)
                .unwrap_or_else(|| panic!("{name} not in the catalogue"));
            let j = judge(risk, &m);
            if j.verdict != want || j.missing != *missing {
                wrong.push(format!(
                    "{name}: {:?} missing {:?} ({:?}), want {want:?} missing {missing:?}",
                    j.verdict, j.missing, j.reason
                ));
            }
            // An evaluated verdict names the objects it rests on.
            if j.verdict != Verdict::Unknown && !matches!(*name, "OpenStackNodeCreationFails") {
                assert!(!j.evidence.is_empty(), "{dump}: {name} has no evidence");
            }
        }
        assert!(wrong.is_empty(), "{dump}:\n{}", wrong.join("\n"));
        // The evidence is the dump's own file: the platform from the Infrastructure.
        let j = judge(cat.risk("AWSCustomDomainNodesNotReady").unwrap(), &m);
        assert!(
            j.evidence.iter().all(|e| e
                .ends_with("config.openshift.io/infrastructures/cluster.yaml")
                || e.ends_with("config.openshift.io/infrastructures.yaml")),
            "{:?}",
            j.evidence
        );
    }
}

/// Every ClusterVersion of the corpus with conditional updates.
const CVS: &[&str] = &[
    "cv_4.12.16_conditionalUpdates-not-recommended-risks_list.yaml",
    "cv_4.14.1_conditionalUpdates-all-recommended_list.yaml",
    "oc-upgrade-recommend/4.12.16-longest-not-recommended-cv.yaml",
    "oc-upgrade-recommend/4.12.16-longest-recommended-cv.yaml",
    "oc-upgrade-recommend/4.14.1-all-recommended-cv.yaml",
    "oc-upgrade-recommend/4.16.27-degraded-monitoring-cv.yaml",
];

pub fn verdicts_agree_with_the_cvo_in_real_cluster_versions(c: &Path) {
    let cat = Catalogue::bundled().unwrap();
    let mut compared = 0;
    let mut cvo_seen = 0;
    let mut aro = 0;
    for f in CVS {
        let run = load(&[&c.join(f)]);
        let b = &run.analysis().bundle;
        let (_, e) = mglint::risks::evaluate(&cat, b, &[]);
        for t in &e.targets {
            for r in &t.risks {
                let Some(cvo) = r.cvo else { continue };
                cvo_seen += 1;
                assert!(
                    !cvo.disagrees,
                    "{f}: {} on {}: mglint {:?}, the CVO {:?}",
                    r.name, t.candidate.version, r.judged.verdict, cvo.verdict
                );
                if cvo.verdict != Verdict::Unknown && r.judged.verdict != Verdict::Unknown {
                    assert_eq!(cvo.verdict, r.judged.verdict);
                    compared += 1;
                }
                // A ClusterVersion alone gives no ClusterOperator: the ARO risks (is there an
                // `aro` operator?) are unknown, never "does not apply".
                if r.name.starts_with("ARO") {
                    assert_eq!(r.judged.verdict, Verdict::Unknown, "{f}: {}", r.name);
                    assert!(
                        r.judged
                            .missing
                            .iter()
                            .any(|m| m == "cluster_operator_conditions"),
                        "{f}: {}: {:?}",
                        r.name,
                        r.judged.missing
                    );
                    aro += 1;
                }
            }
        }
    }
    // 4.12.16's DualStackNeedsController and RHELKernelHighLoadIOWait (Always) on its
    // conditional updates, where the CVO says they apply.
    assert!(compared >= 9, "{compared} verdicts compared");
    assert!(cvo_seen >= 300, "{cvo_seen} CVO verdicts read");
    assert!(aro >= 16, "{aro} ARO risks judged");
}

pub fn json_validates_against_the_schema(c: &Path) {
    let text =
        std::fs::read_to_string(crate::common::root().join("docs/schemas/risks.schema.json"))
            .expect("schema file");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema is JSON");
    let v = jsonschema::validator_for(&schema).expect("schema compiles");
    let cat = Catalogue::bundled().unwrap();
    for input in [
        c.join("must-gathers/must-gather-metal.tar.xz"),
        c.join(CVS[0]),
    ] {
        let run = load(&[&input]);
        let b = &run.analysis().bundle;
        let (m, e) = mglint::risks::evaluate(&cat, b, &["4.10.38".to_string()]);
        let json = mglint::risks::report::render_json(
            &b.identity(),
            &cat,
            &m.derived(),
            &e,
            mglint::vocab::text::JsonLayout::Pretty,
        );
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", input.display());
        assert!(!doc["targets"].as_array().unwrap().is_empty());
    }
}

pub const TESTS: &[crate::CorpusTest] = &[
    (
        "must_gather_verdicts_match_hand_evaluation",
        must_gather_verdicts_match_hand_evaluation,
    ),
    (
        "verdicts_agree_with_the_cvo_in_real_cluster_versions",
        verdicts_agree_with_the_cvo_in_real_cluster_versions,
    ),
    (
        "json_validates_against_the_schema",
        json_validates_against_the_schema,
    ),
];
