//! Deterministic generator of large, realistic must-gathers for benchmarks.
//!
//! `cargo run --release --example gen_mustgather -- <size: 100M|1G|4G|bytes> <out dir>`
//!
//! The layout follows a real must-gather: `must-gather.local.<n>/<image-dir>/` with
//! `timestamp`, `version`, cluster-scoped ClusterVersion/ClusterOperators/Nodes/MCPs, and
//! namespaces with list files, events and pod logs. Most bytes are pod logs of other
//! namespaces (which upgrade analysis never reads); about a tenth is the CVO log, a legacy
//! (4.6-style) log with an install, steady reconcile passes, an update to 4.7 that stalls on a
//! failing precondition for a while, then proceeds and completes. Same size, same bytes.
//!
//! With a third argument `steady`, nine tenths of the bytes are the CVO log, and it covers a
//! year: the same payload's manifests reconciled pass after pass (the same lines every pass,
//! as a real CVO logs them), with the update in the middle (the repetitive case).
//!
//! `cargo run --release --example gen_mustgather -- intervals <size> <out.json>` writes one
//! large origin interval file instead (`e2e-events_*.json` as large CI jobs write them:
//! indented, current schema with the legacy string forms beside the structured ones), for
//! measuring the interval reader's memory.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A small deterministic PRNG (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const IMG_DIR: &str = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-5d2bd6d1f1b5c4e6a2b8b3f7c0d9e8a1b2c3d4e5f60718293a4b5c6d7e8f9012";
const FROM: &str = "4.6.42";
const TO: &str = "4.7.13";
const FROM_IMG: &str = "quay.io/openshift-release-dev/ocp-release@sha256:59e2e85f5d1bcb4440765c310b6261387ffc3f16ed55ca0a79012367e15b558b";
const TO_IMG: &str = "quay.io/openshift-release-dev/ocp-release@sha256:783a2c963f35ccab38e82e6a8c7fa954c3a4551e07d2f43c06098828dd986ed4";
const OPERATORS: &[&str] = &[
    "authentication",
    "baremetal",
    "cloud-credential",
    "cluster-autoscaler",
    "config-operator",
    "console",
    "csi-snapshot-controller",
    "dns",
    "etcd",
    "image-registry",
    "ingress",
    "insights",
    "kube-apiserver",
    "kube-controller-manager",
    "kube-scheduler",
    "kube-storage-version-migrator",
    "machine-api",
    "machine-approver",
    "machine-config",
    "marketplace",
    "monitoring",
    "network",
    "node-tuning",
    "openshift-apiserver",
    "openshift-controller-manager",
    "openshift-samples",
    "operator-lifecycle-manager",
    "operator-lifecycle-manager-catalog",
    "operator-lifecycle-manager-packageserver",
    "service-ca",
    "storage",
];
const KINDS: &[&str] = &[
    "deployment",
    "configmap",
    "service",
    "serviceaccount",
    "clusterrole",
    "clusterrolebinding",
    "customresourcedefinition",
    "role",
    "rolebinding",
    "namespace",
];

fn parse_size(s: &str) -> u64 {
    let s = s.trim();
    let (num, mult) = match s.chars().last() {
        Some('K' | 'k') => (&s[..s.len() - 1], 1u64 << 10),
        Some('M' | 'm') => (&s[..s.len() - 1], 1 << 20),
        Some('G' | 'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>().expect("size") * mult
}

fn write(path: &Path, data: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, data).unwrap();
}

/// Seconds since the start of the scenario → CRI + klog prefix.
fn stamp(base: i64, secs: f64) -> (String, String) {
    let t = chrono::DateTime::from_timestamp(base + secs as i64, ((secs.fract()) * 1e9) as u32)
        .unwrap();
    (
        t.format("%Y-%m-%dT%H:%M:%S%.9fZ").to_string(),
        t.format("%m%d %H:%M:%S%.6f").to_string(),
    )
}

struct Log {
    w: BufWriter<std::fs::File>,
    base: i64,
    t: f64,
    bytes: u64,
    /// Every pass syncs the same manifests in the same order (`steady`), instead of a random
    /// kind and namespace for each line.
    fixed: bool,
}

impl Log {
    fn line(&mut self, level: char, file: &str, msg: &str) {
        let (cri, kl) = stamp(self.base, self.t);
        let s = format!("{cri} {level}{kl}       1 {file}] {msg}\n");
        self.bytes += s.len() as u64;
        self.w.write_all(s.as_bytes()).unwrap();
    }
    fn pass(
        &mut self,
        rng: &mut Rng,
        target: &str,
        generation: u32,
        state: &str,
        attempt: u32,
        manifests: u32,
    ) {
        self.line('I', "sync_worker.go:515", &format!("Running sync {target} (force=false) on generation {generation} in state {state} at attempt {attempt}"));
        for i in 1..=manifests {
            let (kind, ns) = if self.fixed {
                (
                    KINDS[i as usize % KINDS.len()],
                    OPERATORS[i as usize / KINDS.len() % OPERATORS.len()],
                )
            } else {
                (
                    KINDS[rng.below(KINDS.len() as u64) as usize],
                    OPERATORS[rng.below(OPERATORS.len() as u64) as usize],
                )
            };
            self.t += 0.004;
            self.line(
                'I',
                "sync_worker.go:752",
                &format!(
                    "Running sync for {kind} \"openshift-{ns}/{ns}-{i}\" ({i} of {manifests})"
                ),
            );
            self.t += 0.002;
            self.line(
                'I',
                "sync_worker.go:764",
                &format!(
                    "Done syncing for {kind} \"openshift-{ns}/{ns}-{i}\" ({i} of {manifests})"
                ),
            );
        }
        self.line('I', "task_graph.go:555", "Result of work: []");
        self.line('I', "status.go:167", &format!("Synchronizing errs=field.ErrorList{{}} status=&cvo.SyncWorkerStatus{{Generation:{generation}, Step:\"\", Failure:error(nil), Fraction:1, Completed:1, Reconciling:true, Initial:false, VersionHash:\"h4Xz0-cQ1bM=\", LastProgress:time.Time{{}}, Actual:v1.Release{{Version:\"{target}\", Image:\"{FROM_IMG}\"}}, Verified:false}}"));
    }
}

fn cvo_log(path: &Path, budget: u64, base: i64, steady: bool) -> (f64, f64, f64) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut rng = Rng(7);
    let mut log = Log {
        w: BufWriter::with_capacity(1 << 20, std::fs::File::create(path).unwrap()),
        base,
        t: 0.0,
        bytes: 0,
        fixed: steady,
    };
    log.line(
        'I',
        "start.go:21",
        &format!("ClusterVersionOperator v1.0.0-{FROM}"),
    );
    log.t += 1.0;
    log.line(
        'I',
        "leaderelection.go:243",
        "attempting to acquire leader lease openshift-cluster-version/version...",
    );
    log.line(
        'I',
        "leaderelection.go:253",
        "successfully acquired lease openshift-cluster-version/version",
    );
    log.line(
        'I',
        "cvo.go:413",
        "Starting ClusterVersionOperator with minimum reconcile period 3m2.5s",
    );
    let manifests = 680;
    // Install, then steady passes until 40% of the budget, the stalled update, the update, and
    // steady passes again.
    log.pass(&mut rng, FROM, 1, "Initializing", 0, manifests);
    // The time between passes: the CVO's minimum reconcile period, or in the steady case
    // whatever spreads the passes that fit the budget over a year.
    let period = if steady {
        let per_pass = log.bytes.max(1) as f64;
        (365.0 * 86400.0 / (budget as f64 / per_pass)).max(182.5)
    } else {
        182.5
    };
    let mut gen_ = 1;
    while log.bytes < budget * 2 / 5 {
        log.t += period;
        log.pass(&mut rng, FROM, gen_, "Reconciling", 0, manifests);
    }
    gen_ = 2;
    log.t += 60.0;
    let stall_start = log.t;
    for attempt in 0..40 {
        log.line('I', "sync_worker.go:515", &format!("Running sync {TO} (force=false) on generation {gen_} in state Updating at attempt {attempt}"));
        log.line('I', "sync_worker.go:552", "Loading payload");
        log.line(
            'I',
            "payload.go:210",
            "Loading updatepayload from \"/etc/cvo/updatepayloads/Yx9v1mW0hY1z7gRGXtJ0rA\"",
        );
        log.line('E', "precondition.go:49", "Precondition \"ClusterVersionUpgradeable\" failed: Cluster operator machine-config should not be upgraded between minor versions: PoolUpdating: One or more machine config pools are updating, please see `oc get mcp` for further details");
        log.line('E', "sync_worker.go:358", "unable to synchronize image (waiting 3m2.5s): Precondition \"ClusterVersionUpgradeable\" failed because of \"PoolUpdating\": Cluster operator machine-config should not be upgraded between minor versions");
        log.t += 182.5;
    }
    let stall_end = log.t;
    log.line(
        'I',
        "sync_worker.go:515",
        &format!(
            "Running sync {TO} (force=false) on generation {gen_} in state Updating at attempt 40"
        ),
    );
    log.line('I', "sync_worker.go:552", "Loading payload");
    log.line(
        'I',
        "sync_worker.go:622",
        &format!("Payload loaded from {TO_IMG} with hash 9zNtav-0cDg="),
    );
    for i in 1..=manifests {
        log.t += 2.0;
        log.line(
            'I',
            "sync_worker.go:752",
            &format!(
                "Running sync for clusteroperator \"{}\" ({i} of {manifests})",
                OPERATORS[i as usize % OPERATORS.len()]
            ),
        );
        log.line(
            'I',
            "sync_worker.go:764",
            &format!(
                "Done syncing for clusteroperator \"{}\" ({i} of {manifests})",
                OPERATORS[i as usize % OPERATORS.len()]
            ),
        );
    }
    log.line('I', "task_graph.go:555", "Result of work: []");
    log.line(
        'I',
        "sync_worker.go:534",
        "Sync succeeded, transitioning from Updating to Reconciling",
    );
    let done = log.t;
    while log.bytes < budget {
        log.t += period;
        log.pass(&mut rng, TO, gen_, "Reconciling", 0, manifests);
    }
    log.w.flush().unwrap();
    (stall_start, stall_end, done)
}

fn co_yaml(name: &str, version: &str, t: &str) -> String {
    format!(
        "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: {name}\nstatus:\n  conditions:\n  - lastTransitionTime: \"{t}\"\n    status: \"True\"\n    type: Available\n  - lastTransitionTime: \"{t}\"\n    status: \"False\"\n    type: Degraded\n  - lastTransitionTime: \"{t}\"\n    status: \"False\"\n    type: Progressing\n  - lastTransitionTime: \"{t}\"\n    status: \"True\"\n    type: Upgradeable\n  versions:\n  - name: operator\n    version: {version}\n"
    )
}

/// Level, source, locator type and keys, reason, human message, annotations.
type Kind<'a> = (
    &'a str,
    &'a str,
    &'a str,
    Vec<(&'a str, String)>,
    &'a str,
    String,
    Vec<(&'a str, String)>,
);

/// One interval of the `n`th kind, indented as origin writes them (v3: string and
/// structured `locator`/`message` both present).
fn interval(rng: &mut Rng, i: u64, base: i64) -> String {
    let t = |s: i64| {
        chrono::DateTime::from_timestamp(base + s, 0)
            .unwrap()
            .format("%Y-%m-%dT%H:%M:%SZ")
            .to_string()
    };
    let from = t((i / 10) as i64);
    let to = t((i / 10 + rng.below(120)) as i64);
    let (level, source, ty, keys, reason, human, ann): Kind<'_> = match i % 5 {
        0 => (
            "Info",
            "PodMonitor",
            "Pod",
            vec![
                ("namespace", format!("e2e-test-{}", rng.below(900))),
                ("pod", format!("pod-{:05x}", rng.below(1 << 20))),
                (
                    "uid",
                    format!(
                        "{:08x}-{:04x}-4b86-a4e4-efb786051ac6",
                        rng.next() as u32,
                        rng.below(1 << 16)
                    ),
                ),
            ],
            "Created",
            String::new(),
            vec![
                ("constructed", "pod-lifecycle-constructor".to_string()),
                ("reason", "Created".to_string()),
            ],
        ),
        1 => (
            "Warning",
            "NodeMonitor",
            "Node",
            vec![(
                "node",
                format!("ci-op-{:08x}-worker-{}", rng.next() as u32, rng.below(6)),
            )],
            "NodeUpdate",
            "drained node".to_string(),
            vec![
                ("phase", "Drain".to_string()),
                ("roles", "worker".to_string()),
            ],
        ),
        2 => (
            "Error",
            "OperatorState",
            "ClusterOperator",
            vec![(
                "clusteroperator",
                OPERATORS[rng.below(OPERATORS.len() as u64) as usize].to_string(),
            )],
            "OperatorDegraded",
            "changed: condition Degraded went True: the operator is degraded".to_string(),
            vec![
                ("condition", "Degraded".to_string()),
                ("status", "True".to_string()),
            ],
        ),
        3 => (
            "Error",
            "Disruption",
            "Disruption",
            vec![
                (
                    "backend-disruption-name",
                    "kube-api-new-connections".to_string(),
                ),
                ("connection", "new".to_string()),
                ("disruption", "host-to-service".to_string()),
            ],
            "DisruptionBegan",
            format!(
                "kube-api-new-connections stopped responding to GET requests over new connections: Get \"https://api.ci-op.example.com:6443/api/v1/namespaces/default\": dial tcp 10.0.{}.{}:6443: connect: connection refused",
                rng.below(255),
                rng.below(255)
            ),
            vec![],
        ),
        _ => (
            "Info",
            "E2ETest",
            "E2ETest",
            vec![(
                "e2e-test",
                format!(
                    "[sig-node] Pods should run test number {i} [Suite:openshift/conformance/parallel]"
                ),
            )],
            "",
            "e2e test finished As \"Passed\"".to_string(),
            vec![("status", "Passed".to_string())],
        ),
    };
    let obj = |pairs: &[(&str, String)], ind: &str| -> String {
        if pairs.is_empty() {
            return "{}".to_string();
        }
        let body: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{ind}    \"{k}\": {}", json(v)))
            .collect();
        format!("{{\n{}\n{ind}}}", body.join(",\n"))
    };
    let loc_str: Vec<String> = keys
        .iter()
        .map(|(k, v)| format!("{}/{v}", if *k == "namespace" { "ns" } else { k }))
        .collect();
    let mut msg_str: Vec<String> = ann.iter().map(|(k, v)| format!("{k}/{v}")).collect();
    if !human.is_empty() {
        msg_str.push(human.clone());
    }
    format!(
        "        {{\n            \"level\": \"{level}\",\n            \"display\": true,\n            \"source\": \"{source}\",\n            \"locator\": {ls},\n            \"locator\": {{\n                \"type\": \"{ty}\",\n                \"keys\": {k}\n            }},\n            \"message\": {ms},\n            \"message\": {{\n                \"reason\": \"{reason}\",\n                \"cause\": \"\",\n                \"humanMessage\": {human},\n                \"annotations\": {a}\n            }},\n            \"from\": \"{from}\",\n            \"to\": \"{to}\"\n        }}",
        ls = json(&loc_str.join(" ")),
        human = json(&human),
        k = obj(&keys, "                "),
        ms = json(&msg_str.join(" ")),
        a = obj(&ann, "                "),
    )
}

/// A JSON string literal.
fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// `gen_mustgather intervals <size> <out.json>`: one interval file of about `size` bytes.
fn intervals_file(total: u64, out: &Path) {
    let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(out).unwrap());
    let mut rng = Rng(7);
    let base = 1_699_020_000i64; // 2023-11-03T14:00:00Z
    w.write_all(b"{\n    \"items\": [\n").unwrap();
    let (mut n, mut i) = (0u64, 0u64);
    while n < total {
        let item = interval(&mut rng, i, base);
        if i > 0 {
            w.write_all(b",\n").unwrap();
        }
        w.write_all(item.as_bytes()).unwrap();
        n += item.len() as u64 + 2;
        i += 1;
    }
    w.write_all(b"\n    ]\n}\n").unwrap();
    w.flush().unwrap();
    println!("{}: {i} intervals, {n} bytes", out.display());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 4 && args[1] == "intervals" {
        return intervals_file(parse_size(&args[2]), Path::new(&args[3]));
    }
    if args.len() < 3 {
        eprintln!("usage: gen_mustgather <size: 100M|1G|4G|bytes> <out dir> [steady]");
        std::process::exit(2);
    }
    let total = parse_size(&args[1]);
    let out = PathBuf::from(&args[2]);
    let root = out
        .join("must-gather.local.4095728516630442291")
        .join(IMG_DIR);
    let base = 1_622_505_600i64; // 2021-06-01T00:00:00Z
    let mut rng = Rng(42);
    let fmt = |secs: f64| {
        chrono::DateTime::from_timestamp(base + secs as i64, 0)
            .unwrap()
            .format("%Y-%m-%dT%H:%M:%SZ")
            .to_string()
    };

    let steady = args.get(3).is_some_and(|a| a == "steady");
    let cvo_budget = if steady { total / 10 * 9 } else { total / 10 };
    let pod = "cluster-version-operator-6bd8f9c5b7-x2kq9";
    let ns_cvo = root.join("namespaces/openshift-cluster-version");
    let (stall_start, stall_end, done) = cvo_log(
        &ns_cvo.join(format!(
            "pods/{pod}/cluster-version-operator/cluster-version-operator/logs/current.log"
        )),
        cvo_budget,
        base,
        steady,
    );
    write(
        &ns_cvo.join(format!(
            "pods/{pod}/cluster-version-operator/cluster-version-operator/logs/previous.log"
        )),
        "",
    );
    let end = done + 3600.0;
    let collected = chrono::DateTime::from_timestamp(base + end as i64 + 600, 0).unwrap();
    let ts = format!(
        "{} +0000 UTC m=+0.021\n{} +0000 UTC m=+312.2\n",
        collected.format("%Y-%m-%d %H:%M:%S%.9f"),
        (collected + chrono::Duration::seconds(312)).format("%Y-%m-%d %H:%M:%S%.9f")
    );
    write(&root.join("timestamp"), &ts);
    write(
        &out.join("must-gather.local.4095728516630442291/timestamp"),
        &ts,
    );
    write(&root.join("version"), "openshift/must-gather\n4.7.13\n");
    let cv = format!(
        "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\n  generation: 2\nspec:\n  channel: stable-4.7\n  clusterID: 3d0e1c2b-5f6a-4b7c-8d9e-0f1a2b3c4d5e\n  desiredUpdate:\n    force: false\n    image: {TO_IMG}\n    version: {TO}\nstatus:\n  availableUpdates: null\n  conditions:\n  - lastTransitionTime: \"{d}\"\n    message: Done applying {TO}\n    status: \"True\"\n    type: Available\n  - lastTransitionTime: \"{d}\"\n    status: \"False\"\n    type: Failing\n  - lastTransitionTime: \"{d}\"\n    message: Cluster version is {TO}\n    status: \"False\"\n    type: Progressing\n  - lastTransitionTime: \"{s0}\"\n    status: \"True\"\n    type: RetrievedUpdates\n  desired:\n    force: false\n    image: {TO_IMG}\n    version: {TO}\n  history:\n  - completionTime: \"{d}\"\n    image: {TO_IMG}\n    startedTime: \"{ss}\"\n    state: Completed\n    verified: true\n    version: {TO}\n  - completionTime: \"{i}\"\n    image: {FROM_IMG}\n    startedTime: \"{s0}\"\n    state: Completed\n    verified: false\n    version: {FROM}\n  observedGeneration: 2\n",
        d = fmt(done),
        s0 = fmt(0.0),
        ss = fmt(stall_start),
        i = fmt(1200.0)
    );
    write(
        &root.join("cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"),
        &cv,
    );
    let mut agg = String::from("---\napiVersion: config.openshift.io/v1\nitems:\n");
    for co in OPERATORS {
        let y = co_yaml(co, TO, &fmt(stall_end + 600.0));
        write(
            &root.join(format!(
                "cluster-scoped-resources/config.openshift.io/clusteroperators/{co}.yaml"
            )),
            &y,
        );
        for l in y.lines() {
            let _ = writeln!(
                agg,
                "{}{l}",
                if l.starts_with("apiVersion") {
                    "- "
                } else {
                    "  "
                }
            );
        }
    }
    agg.push_str("kind: ClusterOperatorList\n");
    write(
        &root.join("cluster-scoped-resources/config.openshift.io/clusteroperators.yaml"),
        &agg,
    );
    let nodes = 6 + (total >> 27) as usize; // one more node per 128 MiB
    for n in 0..nodes {
        let role = if n < 3 { "master" } else { "worker" };
        let name = format!("ip-10-0-{}-{}.ec2.internal", 128 + n / 250, n % 250);
        write(
            &root.join(format!("cluster-scoped-resources/core/nodes/{name}.yaml")),
            &format!(
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels:\n    node-role.kubernetes.io/{role}: \"\"\n  annotations:\n    machineconfiguration.openshift.io/currentConfig: rendered-{role}-8f1c\n    machineconfiguration.openshift.io/desiredConfig: rendered-{role}-8f1c\n    machineconfiguration.openshift.io/state: Done\nspec: {{}}\nstatus:\n  conditions:\n  - lastTransitionTime: \"{t}\"\n    reason: KubeletReady\n    status: \"True\"\n    type: Ready\n",
                t = fmt(done - 900.0)
            ),
        );
    }
    for pool in ["master", "worker"] {
        write(
            &root.join(format!("cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigpools/{pool}.yaml")),
            &format!("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: {pool}\nspec:\n  paused: false\nstatus:\n  conditions:\n  - lastTransitionTime: \"{t}\"\n    status: \"True\"\n    type: Updated\n  - lastTransitionTime: \"{t}\"\n    status: \"False\"\n    type: Updating\n  - lastTransitionTime: \"{t}\"\n    status: \"False\"\n    type: Degraded\n  machineCount: 3\n  updatedMachineCount: 3\n  readyMachineCount: 3\n  unavailableMachineCount: 0\n  degradedMachineCount: 0\n", t = fmt(done - 600.0)),
        );
    }
    // Events: thousands, in the CVO namespace.
    let mut ev = String::from("---\napiVersion: v1\nitems:\n");
    let n_events = 2000 + (total >> 20) as usize * 4;
    for i in 0..n_events {
        let t = fmt(stall_start + i as f64 * 3.0);
        let (reason, msg) = match i % 4 {
            0 => ("LeaderElection", format!("{pod}_{i:x} became leader")),
            1 => ("RetrievePayload", format!("retrieving payload version=\"{TO}\" image=\"{TO_IMG}\"")),
            2 => ("VerifyPayload", format!("verifying payload version=\"{TO}\" image=\"{TO_IMG}\"")),
            _ => ("PreconditionsFailed", "preconditions failed for payload loaded version=\"4.7.13\" image=\"quay.io/openshift-release-dev/ocp-release@sha256:783a\" failures=Precondition \"ClusterVersionUpgradeable\" failed because of \"PoolUpdating\"".to_string()),
        };
        let _ = write!(
            ev,
            "- apiVersion: v1\n  count: 1\n  firstTimestamp: \"{t}\"\n  involvedObject:\n    kind: ClusterVersion\n    name: version\n    namespace: openshift-cluster-version\n  kind: Event\n  lastTimestamp: \"{t}\"\n  message: '{m}'\n  metadata:\n    name: version.{i:016x}\n    namespace: openshift-cluster-version\n    uid: {u:016x}-0000-4000-8000-{i:012x}\n  reason: {reason}\n  source:\n    component: openshift-cluster-version\n  type: Normal\n",
            m = msg.replace('\'', "''"),
            u = rng.next()
        );
    }
    ev.push_str("kind: EventList\n");
    write(&ns_cvo.join("core/events.yaml"), &ev);
    write(
        &ns_cvo.join(format!("pods/{pod}/{pod}.yaml")),
        &format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {pod}\n  namespace: openshift-cluster-version\nspec:\n  containers:\n  - name: cluster-version-operator\n    image: {TO_IMG}\nstatus:\n  phase: Running\n  startTime: \"{}\"\n  containerStatuses:\n  - name: cluster-version-operator\n    image: {TO_IMG}\n    restartCount: 0\n",
            fmt(0.0)
        ),
    );
    // The bulk: other namespaces' pods, logs and lists, which the analysis does not need.
    let mut written = cvo_budget;
    let mut ns_i = 0;
    while written < total {
        let ns = format!("openshift-workload-{ns_i:04}");
        let nsdir = root.join("namespaces").join(&ns);
        write(
            &nsdir.join(format!("{ns}.yaml")),
            &format!("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {ns}\n"),
        );
        let mut pods = String::from("apiVersion: v1\nitems:\n");
        for p in 0..8 {
            let pod = format!("{ns}-app-{p}-{:05x}", rng.below(1 << 20));
            let _ = write!(
                pods,
                "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: {pod}\n    namespace: {ns}\n  status:\n    phase: Running\n"
            );
            let logp = nsdir.join(format!("pods/{pod}/app/app/logs/current.log"));
            std::fs::create_dir_all(logp.parent().unwrap()).unwrap();
            let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(&logp).unwrap());
            let target = (total / 2000).clamp(64 << 10, 4 << 20);
            let mut n = 0u64;
            let mut t = 0.0f64;
            while n < target {
                t += (rng.below(1000) as f64) / 1000.0;
                let (cri, _) = stamp(base, t);
                let line = format!(
                    "{cri} level=info msg=\"handled request\" path=/api/v1/items/{} status=200 latency_ms={} bytes={}\n",
                    rng.below(100_000),
                    rng.below(500),
                    rng.below(65_536)
                );
                n += line.len() as u64;
                w.write_all(line.as_bytes()).unwrap();
            }
            w.flush().unwrap();
            written += n;
        }
        pods.push_str("kind: PodList\n");
        written += pods.len() as u64;
        write(&nsdir.join("core/pods.yaml"), &pods);
        ns_i += 1;
    }
    println!(
        "{}: {} namespaces, {} nodes, {} events, CVO log {} bytes; stall {}..{}, update done {}",
        out.display(),
        ns_i,
        nodes,
        n_events,
        cvo_budget,
        fmt(stall_start),
        fmt(stall_end),
        fmt(done)
    );
}
