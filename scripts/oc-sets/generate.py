#!/usr/bin/env python3
"""Writes the generated `oc adm upgrade status` input sets: fixtures/oc/status/<NAME>/.

Each set is what oc's mock mode reads (`NAME-cv.yaml`, `NAME-co.yaml`, `NAME-mcp.yaml`,
`NAME-mc.yaml`, `NAME-node.yaml`, optionally `NAME-alerts.json` and
`NAME-mco-deployment.yaml`), written from this script's own templates: only the fields oc reads,
so the sets stay small. What oc prints for each (`NAME.output`, `NAME.detailed-output`) is
written by `scripts/oc-sets/regen.sh`, which runs oc's own code (../shared/tools/oc-oracle);
never edit those files by hand.

The sets vary one thing at a time around a 4.16.3 -> 4.16.8 update of a 3+3 node cluster:
operator conditions at ages either side of oc's thresholds, many insights sharing a start time
(oc's unstable sort), the ClusterVersion's Failing and history (install, completed, previous
update unfinished), nodes (NotReady, degraded, cordoned, pressure), pools (paused, custom with
selectors, empty), topologies (single node, compact, 12 workers, multi-arch), alerts, the MCO
Deployment, and the file shapes oc accepts (typed lists, v1 List, JSON).

    python3 scripts/oc-sets/generate.py          # deterministic: run again, nothing changes
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "fixtures", "oc", "status")

NOW = dt.datetime(2024, 8, 20, 14, 30, 0, tzinfo=dt.timezone.utc)
M = dt.timedelta(minutes=1)
S = dt.timedelta(seconds=1)
H = dt.timedelta(hours=1)

OPERATORS = [
    "authentication", "baremetal", "cloud-controller-manager", "cloud-credential", "cluster-autoscaler",
    "config-operator", "console", "control-plane-machine-set", "csi-snapshot-controller", "dns", "etcd",
    "image-registry", "ingress", "insights", "kube-apiserver", "kube-controller-manager", "kube-scheduler",
    "kube-storage-version-migrator", "machine-api", "machine-approver", "machine-config", "marketplace",
    "monitoring", "network", "node-tuning", "olm", "openshift-apiserver", "openshift-controller-manager",
    "openshift-samples", "operator-lifecycle-manager", "operator-lifecycle-manager-catalog",
    "operator-lifecycle-manager-packageserver", "service-ca", "storage",
]
MCO_IMAGE = {"4.16.3": "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + "3" * 64,
             "4.16.8": "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + "8" * 64}


def h(s: str, n: int = 64) -> str:
    return hashlib.sha256(s.encode()).hexdigest()[:n]


def ts(x: dt.datetime) -> str:
    return x.strftime("%Y-%m-%dT%H:%M:%SZ")


def img(v: str) -> str:
    return "quay.io/openshift-release-dev/ocp-release@sha256:" + h("release:" + v)


def cond(type_, status, at, reason=None, message=None):
    c = {"type": type_, "status": status, "lastTransitionTime": ts(at)}
    if reason:
        c["reason"] = reason
    if message is not None:
        c["message"] = message
    return c


def rendered(pool: str, version: str) -> str:
    return f"rendered-{pool}-" + h(f"{pool}:{version}", 32)


class Cluster:
    """One cluster at NOW; every set is a Cluster changed in one way, then written."""

    def __init__(self, frm="4.16.3", to="4.16.8", started=NOW - 52 * M, updated_ops=None, masters=3,
                 workers=3, phase="updating"):
        self.frm, self.to, self.started, self.phase = frm, to, started, phase
        self.ops = {n: self.operator(n) for n in OPERATORS}
        n_updated = len(OPERATORS) - 1 if updated_ops is None else updated_ops
        order = [o for o in OPERATORS if o != "machine-config"] + ["machine-config"]
        for i, name in enumerate(order):
            done = phase == "completed" or (phase in ("updating", "installing") and i < n_updated)
            self.set_version(name, to if done else frm)
        if phase == "updating":
            mc = self.ops["machine-config"]
            self.set_cond(mc, "Progressing", "True", NOW - 21 * M, None, f"Working towards {to}")
        self.alerts = None
        self.mco_deployment = True
        self.pools = []
        self.nodes = []
        self.mcs = {}
        self.add_pool("master", "node-role.kubernetes.io/master")
        self.add_pool("worker", "node-role.kubernetes.io/worker")
        for i in range(masters):
            self.add_node(f"ip-10-0-{17 + 31 * i}-{40 + 7 * i}.ec2.internal", "master")
        for i in range(workers):
            self.add_node(f"ip-10-0-{20 + 29 * i}-{159 - 11 * i}.ec2.internal", "worker")
        self.history = self.default_history()
        self.cv_conditions = self.default_cv_conditions()
        self.desired_update = {"version": to, "image": img(to)} if phase == "updating" else None
        self.shape = "list"

    # --- ClusterOperators ---------------------------------------------------------------------
    def operator(self, name):
        since = self.started - 8 * H
        return {
            "apiVersion": "config.openshift.io/v1", "kind": "ClusterOperator",
            "metadata": {"name": name, "annotations": {
                "include.release.openshift.io/self-managed-high-availability": "true",
                "include.release.openshift.io/single-node-developer": "true"}},
            "status": {"conditions": [
                cond("Available", "True", since, "AsExpected", "All is well"),
                cond("Degraded", "False", since, "AsExpected", "All is well"),
                cond("Progressing", "False", since, "AsExpected", "All is well"),
            ], "versions": []},
        }

    def set_version(self, name, v):
        o = self.ops[name]
        o["status"]["versions"] = [{"name": "operator", "version": v}]
        if name == "machine-config":
            o["status"]["versions"].append({"name": "operator-image", "version": MCO_IMAGE.get(v, "")})
        if name in ("etcd", "kube-apiserver"):
            o["status"]["versions"].append({"name": "raw-internal", "version": v})

    @staticmethod
    def set_cond(o, type_, status, at, reason, message):
        for c in o["status"]["conditions"]:
            if c["type"] == type_:
                c.clear()
                c.update(cond(type_, status, at, reason, message))
                return
        o["status"]["conditions"].append(cond(type_, status, at, reason, message))

    def degrade(self, name, age, reason="NodeController_MasterNodesReady",
                message="NodeControllerDegraded: The master nodes not ready: node \"ip-10-0-17-40.ec2.internal\" not ready since 2024-08-20 13:58:00 +0000 UTC because KubeletNotReady"):
        self.set_cond(self.ops[name], "Degraded", "True", NOW - age, reason, message)

    def unavailable(self, name, age, reason="Unavailable", message=None):
        msg = message if message is not None else f"The {name} operand is not available: 0 of 2 replicas ready"
        self.set_cond(self.ops[name], "Available", "False", NOW - age, reason, msg)

    # --- pools, configs, nodes ----------------------------------------------------------------
    def add_pool(self, name, role_label, selector=None, paused=False):
        for v in (self.frm, self.to):
            r = rendered(name, v)
            self.mcs[r] = {"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
                           "metadata": {"name": r, "annotations": {
                               "machineconfiguration.openshift.io/release-image-version": v}}}
        self.pools.append({
            "apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfigPool",
            "metadata": {"name": name},
            "spec": {"configuration": {"name": rendered(name, self.frm if self.phase == "idle" else self.to)},
                     "nodeSelector": selector or {"matchLabels": {role_label: ""}}, "paused": paused},
            "status": {"conditions": []},
        })

    def pool(self, name):
        return next(p for p in self.pools if p["metadata"]["name"] == name)

    def add_node(self, name, role, state="Done", at_target=False, arch="amd64", extra_labels=None):
        cur = self.to if (at_target or self.phase in ("completed", "installing")) else self.frm
        pool = role if role in ("master", "worker") else role
        labels = {"kubernetes.io/arch": arch, "kubernetes.io/hostname": name.split(".")[0],
                  f"node-role.kubernetes.io/{role}": ""}
        if role not in ("master", "worker"):
            labels["node-role.kubernetes.io/worker"] = ""
        labels.update(extra_labels or {})
        n = {"apiVersion": "v1", "kind": "Node",
             "metadata": {"name": name, "labels": labels, "annotations": {
                 "machineconfiguration.openshift.io/currentConfig": rendered(pool, cur),
                 "machineconfiguration.openshift.io/desiredConfig": rendered(pool, cur),
                 "machineconfiguration.openshift.io/state": state,
                 "machineconfiguration.openshift.io/reason": ""}},
             "spec": {},
             "status": {"conditions": [
                 cond("DiskPressure", "False", self.started - 30 * H, "KubeletHasNoDiskPressure",
                      "kubelet has no disk pressure"),
                 cond("Ready", "True", self.started - 30 * H, "KubeletReady", "kubelet is posting ready status"),
             ]}}
        self.nodes.append(n)
        return n

    def node(self, name):
        return next(n for n in self.nodes if n["metadata"]["name"] == name)

    def nodes_of(self, role):
        return [n for n in self.nodes if f"node-role.kubernetes.io/{role}" in n["metadata"]["labels"]]

    def node_updating(self, n, state="Working"):
        pool = "master" if "node-role.kubernetes.io/master" in n["metadata"]["labels"] else "worker"
        n["metadata"]["annotations"]["machineconfiguration.openshift.io/desiredConfig"] = rendered(pool, self.to)
        n["metadata"]["annotations"]["machineconfiguration.openshift.io/state"] = state

    def node_done(self, n):
        pool = "master" if "node-role.kubernetes.io/master" in n["metadata"]["labels"] else "worker"
        for k in ("currentConfig", "desiredConfig"):
            n["metadata"]["annotations"][f"machineconfiguration.openshift.io/{k}"] = rendered(pool, self.to)

    @staticmethod
    def node_cond(n, type_, status, at, reason, message):
        for c in n["status"]["conditions"]:
            if c["type"] == type_:
                c.update(cond(type_, status, at, reason, message))
                return
        n["status"]["conditions"].append(cond(type_, status, at, reason, message))

    # --- ClusterVersion -----------------------------------------------------------------------
    def default_history(self):
        prev_start = self.started - 14 * 24 * H
        install = {"state": "Completed", "version": "4.16.0", "image": img("4.16.0"), "verified": False,
                   "startedTime": ts(prev_start - 20 * 24 * H),
                   "completionTime": ts(prev_start - 20 * 24 * H + 38 * M)}
        prev = {"state": "Completed", "version": self.frm, "image": img(self.frm), "verified": True,
                "startedTime": ts(prev_start), "completionTime": ts(prev_start + 71 * M)}
        if self.phase == "installing":
            return [{"state": "Partial", "version": self.to, "image": img(self.to), "verified": False,
                     "startedTime": ts(self.started), "completionTime": None}]
        if self.phase == "completed":
            return [{"state": "Completed", "version": self.to, "image": img(self.to), "verified": True,
                     "startedTime": ts(self.started), "completionTime": ts(NOW - 6 * M)}, prev, install]
        if self.phase == "idle":
            return [prev, install]
        return [{"state": "Partial", "version": self.to, "image": img(self.to), "verified": True,
                 "startedTime": ts(self.started), "completionTime": None}, prev, install]

    def default_cv_conditions(self):
        running = self.frm if self.phase == "idle" else self.to
        progressing = {
            "updating": cond("Progressing", "True", self.started, None,
                             f"Working towards {self.to}: 711 of 903 done (78% complete), waiting on machine-config"),
            "installing": cond("Progressing", "True", self.started, None,
                               f"Working towards {self.to}: 412 of 903 done (45% complete)"),
            "completed": cond("Progressing", "False", NOW - 6 * M, None, f"Cluster version is {self.to}"),
            "idle": cond("Progressing", "False", self.started - 14 * 24 * H + 71 * M, None,
                         f"Cluster version is {running}"),
        }[self.phase]
        return [
            cond("RetrievedUpdates", "True", NOW, None, None),
            cond("ReleaseAccepted", "True", self.started, "PayloadLoaded",
                 f'Payload loaded version="{self.to}" image="{img(self.to)}" architecture="amd64"'),
            cond("Available", "True" if self.phase != "installing" else "False", self.started - 14 * 24 * H,
                 None, f"Done applying {self.frm}"),
            cond("Failing", "False", self.started - 10 * M, None, None),
            progressing,
            cond("Upgradeable", "True", self.started - 2 * 24 * H, None, None),
        ]

    def cv_cond(self, type_, status, at, reason=None, message=None):
        self.cv_conditions = [c for c in self.cv_conditions if c["type"] != type_]
        self.cv_conditions.append(cond(type_, status, at, reason, message))

    def cv(self):
        desired = self.history[0] if self.history else {"version": self.to, "image": img(self.to)}
        spec = {"clusterID": "5d3f1a2c-" + h("cluster", 4) + "-4b7e-9c21-" + h("id", 12), "channel": "stable-4.16"}
        if self.desired_update:
            spec["desiredUpdate"] = self.desired_update
        return {"apiVersion": "config.openshift.io/v1", "kind": "ClusterVersion", "metadata": {"name": "version"},
                "spec": spec,
                "status": {"desired": {"version": desired["version"], "image": desired["image"]},
                           "history": self.history, "conditions": self.cv_conditions, "observedGeneration": 3}}

    # --- writing ------------------------------------------------------------------------------
    def write(self, name):
        d = os.path.join(OUT, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        lists = {
            "co": ("ClusterOperatorList", "config.openshift.io/v1", list(self.ops.values())),
            "mcp": ("MachineConfigPoolList", "machineconfiguration.openshift.io/v1", self.pools),
            "mc": ("MachineConfigList", "machineconfiguration.openshift.io/v1", list(self.mcs.values())),
            "node": ("NodeList", "v1", self.nodes),
        }
        files = {"cv": self.cv()}
        for key, (kind, api, items) in lists.items():
            if self.shape == "v1-list":
                files[key] = {"apiVersion": "v1", "kind": "List", "items": items}
            else:
                files[key] = {"apiVersion": api, "kind": kind, "items": items}
        for key, obj in files.items():
            text = json.dumps(obj, indent=1, sort_keys=False) + "\n"
            if self.shape != "json":
                text = to_yaml(obj)
            with open(os.path.join(d, f"{name}-{key}.yaml"), "w") as f:
                f.write(text)
        if self.mco_deployment:
            dep = {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "machine-config-operator", "namespace": "openshift-machine-config-operator"},
                   "spec": {"template": {"spec": {"containers": [
                       {"name": "machine-config-operator", "image": MCO_IMAGE[self.to]}]}}}}
            with open(os.path.join(d, f"{name}-mco-deployment.yaml"), "w") as f:
                f.write(to_yaml(dep))
        if self.alerts is not None:
            with open(os.path.join(d, f"{name}-alerts.json"), "w") as f:
                f.write(json.dumps({"status": "success", "data": {"alerts": self.alerts}}, indent=1) + "\n")


def yaml_scalar(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return str(v)
    return json.dumps(v)


def to_yaml(obj, indent=0) -> str:
    """A small YAML writer: block mappings and sequences, JSON-quoted scalars."""
    pad = " " * indent
    out = []
    if isinstance(obj, dict):
        if not obj:
            return pad + "{}\n"
        for k, v in obj.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}{k}:\n{to_yaml(v, indent + 2)}")
            elif isinstance(v, dict):
                out.append(f"{pad}{k}: {{}}\n")
            elif isinstance(v, list):
                out.append(f"{pad}{k}: []\n")
            else:
                out.append(f"{pad}{k}: {yaml_scalar(v)}\n")
    else:
        for v in obj:
            if isinstance(v, (dict, list)) and v:
                inner = to_yaml(v, indent + 2)
                out.append(f"{pad}- {inner[indent + 2:]}")
            else:
                out.append(f"{pad}- {yaml_scalar(v)}\n")
    return "".join(out)


def alert(name, severity, active, state="firing", ns="openshift-monitoring", **ann):
    return {"labels": {"alertname": name, "namespace": ns, "severity": severity}, "annotations": ann,
            "state": state, "activeAt": (active.strftime("%Y-%m-%dT%H:%M:%S.") + "123456789Z"), "value": "1e+00"}


SETS: dict[str, Cluster] = {}


def add(name: str, c: Cluster):
    assert name not in SETS, name
    SETS[name] = c


def generate():
    add("baseline-update", Cluster())

    # Operator conditions either side of oc's thresholds (5m/20m unavailable, 5m/40m degraded).
    ages = {"0s": 0 * S, "13s": 13 * S, "4m59s": 4 * M + 59 * S, "5m1s": 5 * M + S, "19m": 19 * M, "21m": 21 * M,
            "39m": 39 * M, "41m": 41 * M, "3h": 3 * H}
    for label, age in ages.items():
        c = Cluster()
        c.degrade("network", age, "OVNKubernetesNodeNotReady", "DaemonSet \"/openshift-ovn-kubernetes/ovnkube-node\" rollout is not making progress")
        add(f"co-degraded-{label}", c)
        c = Cluster()
        c.unavailable("console", age, "RouteHealth_FailedGet", "RouteHealthAvailable: failed to GET route: context deadline exceeded")
        add(f"co-unavailable-{label}", c)
    for label, age in (("6m", 6 * M), ("25m", 25 * M), ("45m", 45 * M)):
        c = Cluster()
        c.degrade("authentication", age)
        c.unavailable("authentication", age, "OAuthServerServiceEndpointAccessibleController_EndpointUnavailable", "")
        add(f"co-degraded-and-unavailable-{label}", c)
    c = Cluster()
    for i, n in enumerate(["etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"]):
        c.degrade(n, (58 + i) * M)
    c.unavailable("control-plane-machine-set", 61 * M, "UnavailableReplicas", "Missing 1 available replica(s)")
    add("co-control-plane-degraded", c)
    c = Cluster()
    c.degrade("machine-config", 12 * M, "RequiredPoolsFailed", "Unable to apply 4.16.8: error during syncRequiredMachineConfigPools")
    add("co-machine-config-degraded", c)
    c = Cluster()
    c.set_cond(c.ops["ingress"], "Degraded", "True", NOW - 30 * M, "", "")
    add("co-degraded-no-reason-no-message", c)
    c = Cluster()
    c.set_cond(c.ops["dns"], "Available", "Unknown", NOW - 30 * M, "NoData", "no data")
    add("co-available-unknown", c)
    c = Cluster()
    c.ops["console"]["metadata"]["annotations"] = {}
    c.unavailable("console", 30 * M)
    add("co-not-in-payload-unavailable", c)
    c = Cluster()
    c.ops["storage"]["status"]["conditions"].append(cond("Degraded", "True", NOW - 50 * M, "Old", "an old degraded"))
    add("co-duplicate-condition-last-wins", c)

    # Many insights with one level and one start time: oc's sort.Slice is unstable beyond 12.
    for n in (13, 17, 25, 33):
        c = Cluster()
        names = [o for o in OPERATORS if o != "machine-config"][:n]
        for i, o in enumerate(names):
            c.degrade(o, 44 * M if i % 3 else 47 * M, "NodeController_MasterNodesReady",
                      f"{o}: NodeControllerDegraded: The master nodes not ready")
        add(f"many-degraded-{n}", c)
    c = Cluster()
    for i, o in enumerate(OPERATORS[:20]):
        if o == "machine-config":
            continue
        c.degrade(o, (10 + (i * 7) % 45) * M)
        if i % 2:
            c.unavailable(o, (25 + (i * 5) % 30) * M)
    add("many-mixed-levels-and-times", c)
    c = Cluster()
    for o in OPERATORS[:16]:
        if o != "machine-config":
            c.unavailable(o, 22 * M)
    for nn in c.nodes_of("worker"):
        c.node_updating(nn, "Degraded")
        nn["metadata"]["annotations"]["machineconfiguration.openshift.io/reason"] = "failed to drain node"
    add("many-unavailable-and-degraded-nodes", c)

    # The ClusterVersion.
    c = Cluster(phase="idle")
    add("cv-not-updating", c)
    c = Cluster(phase="completed")
    add("cv-update-completed", c)
    c = Cluster(phase="completed")
    c.degrade("network", 3 * H)
    add("cv-update-completed-operator-degraded", c)
    c = Cluster(phase="installing", frm="", to="4.16.8", started=NOW - 18 * M, updated_ops=12)
    for o in ["authentication", "console", "ingress", "monitoring", "image-registry"]:
        c.unavailable(o, 9 * M, "NotYetAvailable", f"{o} is coming up")
    c.mco_deployment = True
    add("cv-installing-18m", c)
    c = Cluster(phase="installing", frm="", to="4.16.8", started=NOW - 95 * M, updated_ops=28)
    c.unavailable("console", 40 * M, "RouteHealth_FailedGet", "RouteHealthAvailable: failed to GET route")
    add("cv-installing-95m-console-down", c)
    for reason, msg, status in (
            ("ClusterOperatorDegraded", "Cluster operator etcd is degraded", "True"),
            ("ClusterOperatorsDegraded", "Cluster operators etcd, kube-apiserver are degraded", "True"),
            ("ClusterOperatorNotAvailable", "Cluster operator console is not available", "True"),
            ("WorkloadNotAvailable", "could not find the deployment openshift-monitoring/cluster-monitoring-operator", "True"),
            ("ClusterOperatorUpdating", "Cluster operator machine-config is updating versions", "Unknown"),
            ("SlowClusterOperator", "waiting on machine-config over 30 minutes which is longer than expected", "Unknown")):
        c = Cluster()
        c.cv_cond("Failing", status, NOW - 9 * M, reason, msg)
        add(f"cv-failing-{reason.lower()}", c)
    c = Cluster()
    c.cv_conditions = [x for x in c.cv_conditions if x["type"] != "Failing"]
    add("cv-no-failing-condition", c)
    c = Cluster()
    c.history.insert(1, {"state": "Partial", "version": "4.16.5", "image": img("4.16.5"), "verified": True,
                         "startedTime": ts(c.started - 3 * H), "completionTime": ts(c.started)})
    add("cv-previous-update-partial", c)
    c = Cluster()
    c.history.insert(1, {"state": "Partial", "version": "4.16.5", "image": img("4.16.5"), "verified": True,
                         "startedTime": ts(c.started - 3 * H), "completionTime": ts(c.started)})
    c.history.insert(2, {"state": "Partial", "version": "4.16.4", "image": img("4.16.4"), "verified": True,
                         "startedTime": ts(c.started - 6 * H), "completionTime": ts(c.started - 3 * H)})
    add("cv-two-previous-partial", c)
    c = Cluster()
    c.cv_cond("Upgradeable", "False", NOW - 30 * M, "PoolUpdating",
              "Cluster operator machine-config should not be upgraded between minor versions: One or more machine config pools are updating, please see `oc get mcp` for further details")
    add("cv-upgradeable-false-accepted", c)
    c = Cluster()
    c.history[0]["acceptedRisks"] = "Target release version=\"4.16.8\" image=\"x\" cannot be verified, but continuing anyway because the update was forced: release images that are not accessed via digest cannot be verified"
    c.history[0]["verified"] = False
    c.desired_update = {"version": "4.16.8", "image": img("4.16.8"), "force": True}
    add("cv-forced-update", c)
    for label, dur in (("just-started", 2 * M), ("slow", 3 * H), ("very-long", 26 * H)):
        c = Cluster(started=NOW - dur, updated_ops=3 if dur < 10 * M else 33)
        add(f"cv-duration-{label}", c)
    c = Cluster(updated_ops=15)
    for o in ("kube-apiserver", "etcd", "kube-controller-manager"):
        if c.ops[o]["status"]["versions"][0]["version"] != c.to:
            c.set_cond(c.ops[o], "Progressing", "True", NOW - 7 * M, "NodeInstaller", "NodeInstallerProgressing: 1 node is at revision 7; 2 nodes are at revision 8")
    add("cv-control-plane-halfway", c)

    # Nodes.
    for label, age in (("3m", 3 * M), ("6m", 6 * M), ("2h", 2 * H)):
        c = Cluster()
        nn = c.nodes_of("worker")[1]
        c.node_cond(nn, "Ready", "Unknown", NOW - age, "NodeStatusUnknown", "Kubelet stopped posting node status.")
        add(f"node-notready-{label}", c)
    c = Cluster()
    nn = c.nodes_of("master")[0]
    c.node_cond(nn, "Ready", "False", NOW - 30 * M, "KubeletNotReady", "container runtime network not ready")
    add("node-master-notready", c)
    c = Cluster()
    c.node_cond(c.nodes_of("worker")[0], "DiskPressure", "True", NOW - 4 * M, "KubeletHasDiskPressure", "kubelet has disk pressure")
    add("node-disk-pressure", c)
    c = Cluster()
    c.node_cond(c.nodes_of("worker")[2], "NetworkUnavailable", "True", NOW - 40 * S, "NoRouteCreated", "RouteController failed to create a route")
    add("node-network-unavailable-40s", c)
    c = Cluster()
    c.nodes_of("worker")[0]["spec"]["unschedulable"] = True
    add("node-cordoned", c)
    for k in (1, 2, 3):
        c = Cluster()
        for nn in c.nodes_of("worker")[:k]:
            c.node_updating(nn, "Degraded")
            nn["metadata"]["annotations"]["machineconfiguration.openshift.io/reason"] = (
                'unexpected on-disk state validating against ' + rendered("worker", c.to) + ': content mismatch for file "/etc/kubernetes/kubelet.conf"')
        add(f"node-degraded-{k}", c)
    c = Cluster()
    nn = c.nodes_of("worker")[0]
    c.node_updating(nn, "Unreconcilable")
    nn["metadata"]["annotations"]["machineconfiguration.openshift.io/reason"] = "can't reconcile config: ignition file changes"
    add("node-unreconcilable", c)
    c = Cluster()
    for nn in c.nodes_of("master"):
        c.node_done(nn)
    w = c.nodes_of("worker")
    c.node_updating(w[0], "Working")
    w[0]["spec"]["unschedulable"] = True
    w[0]["metadata"]["annotations"]["machineconfiguration.openshift.io/desiredDrain"] = "drain-" + rendered("worker", c.to)
    c.node_updating(w[1], "Rebooting")
    c.node_done(w[2])
    add("nodes-workers-updating", c)
    c = Cluster()
    for nn in c.nodes_of("master")[:2]:
        c.node_done(nn)
    c.node_updating(c.nodes_of("master")[2], "Working")
    add("nodes-masters-updating", c)
    c = Cluster(phase="completed")
    for nn in c.nodes:
        c.node_done(nn)
    add("nodes-all-updated", c)
    c = Cluster(phase="completed")
    for nn in c.nodes_of("master"):
        c.node_done(nn)
    for nn in c.nodes_of("worker"):
        pool = "worker"
        nn["metadata"]["annotations"]["machineconfiguration.openshift.io/currentConfig"] = rendered(pool, c.frm)
        nn["metadata"]["annotations"]["machineconfiguration.openshift.io/desiredConfig"] = rendered(pool, c.frm)
    add("cv-completed-workers-outdated", c)
    c = Cluster()
    nn = c.nodes_of("worker")[0]
    c.node_updating(nn, "Working")
    c.node_cond(nn, "Ready", "False", NOW - 2 * M, "KubeletNotReady", "node is rebooting")
    add("node-rebooting-notready", c)

    # Pools.
    for outdated in (True, False):
        c = Cluster()
        c.pool("worker")["spec"]["paused"] = True
        if not outdated:
            for nn in c.nodes_of("worker"):
                c.node_done(nn)
        add(f"pool-paused-{'outdated' if outdated else 'updated'}", c)
    c = Cluster()
    c.add_pool("infra", "node-role.kubernetes.io/infra",
               selector={"matchLabels": {"node-role.kubernetes.io/infra": ""}})
    for i in range(2):
        c.add_node(f"ip-10-0-{90 + i}-{7 + i}.ec2.internal", "infra")
    add("pool-custom-infra", c)
    c = Cluster()
    c.add_pool("infra", "node-role.kubernetes.io/infra",
               selector={"matchLabels": {"node-role.kubernetes.io/infra": ""}}, paused=True)
    for i in range(2):
        c.add_node(f"ip-10-0-{90 + i}-{7 + i}.ec2.internal", "infra")
    add("pool-custom-infra-paused", c)
    c = Cluster()
    c.add_pool("gpu", "node-role.kubernetes.io/gpu",
               selector={"matchExpressions": [{"key": "node-role.kubernetes.io/gpu", "operator": "Exists"}]})
    c.add_node("ip-10-0-120-33.ec2.internal", "gpu")
    add("pool-custom-match-expressions", c)
    c = Cluster()
    c.add_pool("empty", "node-role.kubernetes.io/empty",
               selector={"matchLabels": {"node-role.kubernetes.io/empty": ""}})
    add("pool-custom-empty", c)
    c = Cluster()
    c.add_pool("canary", "node-role.kubernetes.io/canary",
               selector={"matchLabels": {"node-role.kubernetes.io/canary": ""}})
    c.add_node("ip-10-0-130-5.ec2.internal", "canary")
    c.node_done(c.node("ip-10-0-130-5.ec2.internal"))
    c.pool("worker")["spec"]["paused"] = True
    add("pool-canary-done-worker-paused", c)

    # Topologies.
    c = Cluster(masters=1, workers=0)
    c.nodes[0]["metadata"]["labels"]["node-role.kubernetes.io/worker"] = ""
    c.unavailable("network", 10 * S, "Deploying", "DaemonSet is not available")
    c.degrade("network", 0 * S)
    add("topology-single-node-network-restarting", c)
    c = Cluster(masters=1, workers=0)
    c.nodes[0]["metadata"]["labels"]["node-role.kubernetes.io/worker"] = ""
    add("topology-single-node", c)
    c = Cluster(workers=0)
    for nn in c.nodes:
        nn["metadata"]["labels"]["node-role.kubernetes.io/worker"] = ""
    add("topology-compact", c)
    c = Cluster(workers=12)
    add("topology-12-workers", c)
    c = Cluster(workers=12)
    for nn in c.nodes_of("worker")[:5]:
        c.node_done(nn)
    for nn in c.nodes_of("worker")[5:7]:
        c.node_updating(nn, "Working")
    add("topology-12-workers-rolling", c)
    c = Cluster()
    for nn in c.nodes_of("worker")[:2]:
        nn["metadata"]["labels"]["kubernetes.io/arch"] = "arm64"
    add("topology-multi-arch-workers", c)
    c = Cluster(frm="4.16.8", to="4.16.8")
    c.history.insert(0, {"state": "Partial", "version": "4.16.8", "image": img("4.16.8") + "-multi", "verified": True,
                         "startedTime": ts(NOW - 30 * M), "completionTime": None})
    c.history[1] = {"state": "Completed", "version": "4.16.8", "image": img("4.16.8"), "verified": True,
                    "startedTime": ts(NOW - 5 * 24 * H), "completionTime": ts(NOW - 5 * 24 * H + 70 * M)}
    add("topology-multi-arch-migration", c)

    # Alerts.
    c = Cluster()
    c.alerts = []
    add("alerts-none", c)
    c = Cluster()
    c.alerts = [alert("KubePodNotReady", "warning", NOW - 16 * M, ns="openshift-kube-apiserver",
                      summary="Pod has been in a non-ready state for more than 15 minutes.",
                      description="Pod openshift-kube-apiserver/kube-apiserver-guard has been in a non-ready state for longer than 15 minutes.",
                      runbook_url="https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/KubePodNotReady.md")]
    add("alerts-warning-during-update", c)
    c = Cluster()
    c.alerts = [alert("etcdMembersDown", "critical", NOW - 9 * M, ns="openshift-etcd",
                      summary="etcd cluster members are down.", description="etcd cluster \"etcd\": members are down (1).",
                      runbook_url="https://github.com/openshift/runbooks/blob/master/alerts/cluster-etcd-operator/etcdMembersDown.md")]
    add("alerts-critical-during-update", c)
    c = Cluster()
    c.alerts = [alert("KubePodNotReady", "warning", c.started - 2 * H, summary="Pod not ready")]
    add("alerts-before-update", c)
    c = Cluster()
    c.alerts = [alert("PodDisruptionBudgetAtLimit", "warning", c.started - 26 * H,
                      summary="The pod disruption budget is preventing further disruption to pods.",
                      description="The pod disruption budget is at the minimum disruptions allowed level.")]
    add("alerts-pdb-at-limit-before-update", c)
    c = Cluster()
    c.alerts = [alert("PodDisruptionBudgetLimit", "critical", NOW - 3 * M, message="The pod disruption budget is below the minimum")]
    add("alerts-pdb-limit-critical", c)
    c = Cluster()
    c.alerts = [alert("Watchdog", "none", NOW - 20 * M), alert("InfoAlert", "info", NOW - 8 * M),
                alert("KubeDeploymentReplicasMismatch", "warning", NOW - 2 * M, state="pending")]
    add("alerts-ignored-kinds", c)
    c = Cluster()
    c.alerts = [alert(f"TargetDown{i}", "warning", NOW - (5 + i) * M, summary=f"Some targets are down ({i})",
                      description="x" * 10 + str(i)) for i in range(14)]
    add("alerts-many-warnings", c)
    c = Cluster()
    c.alerts = [alert("KubeletDown", "critical", NOW - 30 * M, summary="Target disappeared from Prometheus target discovery."),
                alert("KubePodCrashLooping", "warning", NOW - 12 * M, summary="Pod is crash looping.", message="container restarted")]
    c.degrade("monitoring", 20 * M, "UpdatingPrometheusK8SFailed", "Failed to rollout the stack")
    add("alerts-with-degraded-operator", c)

    # The MCO Deployment: without it oc never counts machine-config as updated.
    for at_target in (True, False):
        c = Cluster(updated_ops=34 if at_target else None)
        c.mco_deployment = False
        add(f"mco-deployment-absent-{'mc-updated' if at_target else 'mc-updating'}", c)
    c = Cluster(updated_ops=34)
    add("mco-deployment-mc-updated", c)

    # File shapes oc accepts.
    for shape in ("v1-list", "json"):
        c = Cluster()
        c.shape = shape
        c.degrade("etcd", 45 * M)
        add(f"shape-{shape}", c)

    # Combinations seen in real updates.
    c = Cluster()
    c.degrade("authentication", 13 * S, "OAuthServerDeployment_UnavailablePod", "OAuthServerDeploymentDegraded: 1 of 3 requested instances are unavailable")
    c.degrade("openshift-apiserver", 0 * S, "APIServerDeployment_UnavailablePod", "APIServerDeploymentDegraded: 1 of 3 requested instances are unavailable")
    c.degrade("machine-config", 8 * M + 55 * S, "MachineConfigDaemonFailed", "Failed to resync 4.16.8 because: error during waitForDaemonsetRollout")
    add("real-shape-brief-degradations", c)
    c = Cluster()
    c.degrade("etcd", 2 * H, "EtcdMembers_UnhealthyMembers", "EtcdMembersDegraded: 2 of 3 members are available")
    c.cv_cond("Failing", "True", NOW - 80 * M, "ClusterOperatorDegraded", "Cluster operator etcd is degraded")
    c.node_cond(c.nodes_of("master")[1], "Ready", "False", NOW - 2 * H, "KubeletNotReady", "PLEG is not healthy")
    add("real-shape-stalled-on-etcd", c)
    c = Cluster(updated_ops=20)
    c.pool("worker")["spec"]["paused"] = True
    c.alerts = [alert("PodDisruptionBudgetAtLimit", "warning", NOW - 40 * M, summary="PDB at limit")]
    add("real-shape-eus-paused-workers-pdb", c)
    for i in range(6):
        c = Cluster(started=NOW - (40 + 13 * i) * M, updated_ops=5 * i + 4)
        c.degrade(OPERATORS[(7 * i) % 33], (6 + 7 * i) * M)
        if i % 2:
            c.unavailable(OPERATORS[(5 * i + 3) % 33], (21 + 3 * i) * M)
        if i % 3 == 0:
            nn = c.nodes_of("worker")[i % 3]
            c.node_updating(nn, "Working")
        add(f"mixed-{i}", c)


def main():
    generate()
    if os.path.isdir(OUT):
        for d in os.listdir(OUT):
            if d not in SETS:
                shutil.rmtree(os.path.join(OUT, d))
    for name, c in SETS.items():
        c.write(name)
    print(f"{len(SETS)} sets in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
