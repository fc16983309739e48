#!/usr/bin/env python3
"""Writes the generated input sets for oc's `adm upgrade status` and `adm upgrade recommend`.

    python3 scripts/oc-sets/generate.py     # deterministic: run it again and nothing changes

- fixtures/oc/status/<NAME>/: what `oc adm upgrade status --mock-clusterversion=NAME-cv.yaml`
  reads: NAME-cv.yaml, NAME-co.yaml, NAME-mcp.yaml, NAME-mc.yaml, NAME-node.yaml, and where the
  set has them NAME-alerts.json and NAME-mco-deployment.yaml;
- fixtures/oc/status-oc-crashes/<NAME>/: sets on which oc's status code crashes (nil
  dereferences), kept without outputs;
- fixtures/oc/recommend/<NAME>/: what `oc adm upgrade recommend --mock-clusterversion=...`
  reads: NAME-cv.yaml and optionally NAME-alerts.json; recommend/targets.tsv lists the
  `--version` targets asked for each set.

Every object comes from this script's own templates and carries only the fields oc reads (plus
the few that make it recognisable), so the sets stay small. What oc prints for each set is
written by scripts/oc-sets/regen.sh, which runs oc's own code (../shared/tools/oc-oracle);
those files are oc's: never edit them by hand, change this script and regenerate.

The generator writes the input files and removes stale ones; it leaves oc's outputs alone.
Python 3 standard library only; no randomness beyond fixed, name-derived hashes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OC = os.path.join(ROOT, "fixtures", "oc")
OUT = os.path.join(OC, "status")
CRASH_OUT = os.path.join(OC, "status-oc-crashes")

NOW = dt.datetime(2024, 8, 20, 14, 30, 0, tzinfo=dt.timezone.utc)
M = dt.timedelta(minutes=1)
S = dt.timedelta(seconds=1)
H = dt.timedelta(hours=1)
D = dt.timedelta(days=1)

OPERATORS = [
    "authentication", "baremetal", "cloud-controller-manager", "cloud-credential", "cluster-autoscaler",
    "config-operator", "console", "control-plane-machine-set", "csi-snapshot-controller", "dns", "etcd",
    "image-registry", "ingress", "insights", "kube-apiserver", "kube-controller-manager", "kube-scheduler",
    "kube-storage-version-migrator", "machine-api", "machine-approver", "machine-config", "marketplace",
    "monitoring", "network", "node-tuning", "olm", "openshift-apiserver", "openshift-controller-manager",
    "openshift-samples", "operator-lifecycle-manager", "operator-lifecycle-manager-catalog",
    "operator-lifecycle-manager-packageserver", "service-ca", "storage",
]
# A cluster installed with most optional capabilities disabled (baselineCapabilitySet: None):
# no baremetal, console, insights, marketplace, samples, storage, image registry, Machine API,
# node tuning, cloud credentials or OLM operators.
MINIMAL = [o for o in OPERATORS if o not in {
    "baremetal", "console", "csi-snapshot-controller", "image-registry", "insights", "marketplace",
    "openshift-samples", "storage", "cluster-autoscaler", "control-plane-machine-set", "machine-api",
    "cloud-credential", "node-tuning", "olm", "operator-lifecycle-manager", "operator-lifecycle-manager-catalog",
    "operator-lifecycle-manager-packageserver"}]
# 4.14-era payloads have no `olm` ClusterOperator.
OPERATORS_414 = [o for o in OPERATORS if o != "olm"]
MCO_IMAGE = {"4.16.3": "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + "3" * 64,
             "4.16.8": "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + "8" * 64}


def h(s: str, n: int = 64) -> str:
    return hashlib.sha256(s.encode()).hexdigest()[:n]


def ts(x: dt.datetime) -> str:
    return x.strftime("%Y-%m-%dT%H:%M:%SZ")


def img(v: str) -> str:
    if "okd" in v:
        return "quay.io/openshift/okd@sha256:" + h("release:" + v)
    return "quay.io/openshift-release-dev/ocp-release@sha256:" + h("release:" + v)


def mco_image(v: str) -> str:
    if not v:
        return ""
    return MCO_IMAGE.get(v) or "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + h("mco:" + v)


def minor_of(v: str) -> str:
    return ".".join(v.split(".")[:2])


def cond(type_, status, at, reason=None, message=None):
    c = {"type": type_, "status": status, "lastTransitionTime": ts(at)}
    if reason:
        c["reason"] = reason
    if message is not None:
        c["message"] = message
    return c


def rendered(pool: str, version: str) -> str:
    return f"rendered-{pool}-" + h(f"{pool}:{version}", 32)


# --- a small YAML writer ----------------------------------------------------------------------
# Block style as `oc get -o yaml` writes it (sequence items at their key's indentation), plain
# scalars where YAML 1.1 and 1.2 read them as the same string, double-quoted (JSON escapes)
# otherwise.
_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./@+-]*(:[A-Za-z0-9_./@+-]+)*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"}


def yaml_scalar(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return str(v)
    if _PLAIN.match(v) and v.lower() not in _RESERVED:
        return v
    return json.dumps(v, ensure_ascii=False)


def _yaml_lines(obj, indent, out):
    pad = " " * indent
    if isinstance(obj, dict):
        for k, v in obj.items():
            key = yaml_scalar(k)
            if isinstance(v, dict) and v:
                out.append(f"{pad}{key}:")
                _yaml_lines(v, indent + 2, out)
            elif isinstance(v, list) and v:
                out.append(f"{pad}{key}:")
                _yaml_lines(v, indent, out)
            elif isinstance(v, dict):
                out.append(f"{pad}{key}: {{}}")
            elif isinstance(v, list):
                out.append(f"{pad}{key}: []")
            else:
                out.append(f"{pad}{key}: {yaml_scalar(v)}")
    else:
        for v in obj:
            if isinstance(v, (dict, list)) and v:
                sub = []
                _yaml_lines(v, indent + 2, sub)
                sub[0] = pad + "- " + sub[0][indent + 2:]
                out.extend(sub)
            elif isinstance(v, dict):
                out.append(f"{pad}- {{}}")
            elif isinstance(v, list):
                out.append(f"{pad}- []")
            else:
                out.append(f"{pad}- {yaml_scalar(v)}")


def to_yaml(obj) -> str:
    out = []
    _yaml_lines(obj, 0, out)
    return "\n".join(out) + "\n"


def write_set(base: str, name: str, files: dict[str, str]):
    """Writes one set's input files (suffix -> text) into base/name, removing stale inputs
    (files named NAME-...) but leaving oc's outputs (NAME.<form>...) to regen.sh."""
    d = os.path.join(base, name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if f.startswith(name + "-") and f[len(name) + 1:] not in files:
            os.remove(os.path.join(d, f))
    for suffix, text in files.items():
        p = os.path.join(d, f"{name}-{suffix}")
        old = None
        if os.path.exists(p):
            with open(p) as fh:
                old = fh.read()
        if old != text:
            with open(p, "w") as fh:
                fh.write(text)


def prune(base: str, keep):
    if os.path.isdir(base):
        for d in os.listdir(base):
            p = os.path.join(base, d)
            if os.path.isdir(p) and d not in keep:
                shutil.rmtree(p)


# =============================================================================================
# oc adm upgrade status
# =============================================================================================

class Cluster:
    """One cluster at `now` (by default NOW): a ClusterVersion, its ClusterOperators, pools,
    rendered MachineConfigs and nodes. Every set is a Cluster changed in a few ways, then written.

    oc's mock mode takes "now" as the latest condition lastTransitionTime of the ClusterVersion
    and ClusterOperators (+368975ns); the ClusterVersion's RetrievedUpdates condition sits at
    `now` so that every age below is measured from it."""

    def __init__(self, frm="4.16.3", to="4.16.8", started=None, updated_ops=None, masters=3,
                 workers=3, phase="updating", now=NOW, install="4.16.0", channel=None,
                 operators=OPERATORS, operator_image=True):
        self.now = now
        self.frm, self.to, self.phase = frm, to, phase
        self.started = started if started is not None else now - 52 * M
        self.install = install
        self.channel = channel if channel is not None else f"stable-{minor_of(to)}"
        self.operator_image = operator_image
        self.operators = list(operators)
        self.ops = {n: self.operator(n) for n in self.operators}
        n_updated = len(self.operators) - 1 if updated_ops is None else updated_ops
        order = [o for o in self.operators if o != "machine-config"] + ["machine-config"]
        for i, name in enumerate(order):
            done = phase == "completed" or (phase in ("updating", "installing") and i < n_updated)
            self.set_version(name, to if done else frm)
        if phase == "updating":
            mc = self.ops["machine-config"]
            self.set_cond(mc, "Progressing", "True", self.now - 21 * M, None, f"Working towards {to}")
        self.alerts = None          # None: no NAME-alerts.json; a list: those alerts; a str: the file's text
        self.mco_deployment = True
        self.mco_deployment_image = None   # None: the target's MCO image
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
        self.shape = "list"         # list | v1-list | json | cv-clusterversionlist | cv-v1-list

    # --- ClusterOperators ---------------------------------------------------------------------
    def operator(self, name):
        since = self.started - 8 * H
        return {
            "apiVersion": "config.openshift.io/v1", "kind": "ClusterOperator",
            "metadata": {"name": name, "annotations": {
                "include.release.openshift.io/self-managed-high-availability": "true"}},
            "status": {"conditions": [
                cond("Available", "True", since),
                cond("Degraded", "False", since),
                cond("Progressing", "False", since),
            ], "versions": []},
        }

    def set_version(self, name, v):
        o = self.ops[name]
        o["status"]["versions"] = [{"name": "operator", "version": v}]
        if name == "machine-config" and self.operator_image:
            o["status"]["versions"].append({"name": "operator-image", "version": mco_image(v)})

    def version_of(self, name):
        return self.ops[name]["status"]["versions"][0]["version"]

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
        self.set_cond(self.ops[name], "Degraded", "True", self.now - age, reason, message)

    def unavailable(self, name, age, reason="Unavailable", message=None):
        msg = message if message is not None else f"The {name} operand is not available: 0 of 2 replicas ready"
        self.set_cond(self.ops[name], "Available", "False", self.now - age, reason, msg)

    def progressing(self, name, age, reason=None, message=None):
        msg = message if message is not None else f"Working towards {self.to}"
        self.set_cond(self.ops[name], "Progressing", "True", self.now - age, reason, msg)

    # --- pools, configs, nodes ----------------------------------------------------------------
    def add_mc(self, name, version):
        ann = {"machineconfiguration.openshift.io/release-image-version": version} if version else {}
        md = {"name": name}
        if ann:
            md["annotations"] = ann
        self.mcs[name] = {"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfig",
                          "metadata": md}

    def add_pool(self, name, role_label, selector=None, paused=False):
        for v in (self.frm, self.to):
            self.add_mc(rendered(name, v), v)
        self.pools.append({
            "apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfigPool",
            "metadata": {"name": name},
            "spec": {"configuration": {"name": rendered(name, self.frm if self.phase == "idle" else self.to)},
                     "nodeSelector": selector or {"matchLabels": {role_label: ""}}, "paused": paused},
        })

    def pool(self, name):
        return next(p for p in self.pools if p["metadata"]["name"] == name)

    @staticmethod
    def pool_of(n):
        labels = n["metadata"]["labels"]
        if "node-role.kubernetes.io/master" in labels:
            return "master"
        for k in labels:
            if k.startswith("node-role.kubernetes.io/") and k.split("/")[1] not in ("worker", "master", "control-plane"):
                return k.split("/")[1]
        return "worker"

    def add_node(self, name, role, state="Done", at_target=False, arch="amd64", extra_labels=None):
        cur = self.to if (at_target or self.phase in ("completed", "installing")) else self.frm
        pool = role
        labels = {"kubernetes.io/arch": arch, f"node-role.kubernetes.io/{role}": ""}
        if role not in ("master", "worker"):
            labels["node-role.kubernetes.io/worker"] = ""
        labels.update(extra_labels or {})
        n = {"apiVersion": "v1", "kind": "Node",
             "metadata": {"name": name, "labels": labels, "annotations": {
                 "machineconfiguration.openshift.io/currentConfig": rendered(pool, cur),
                 "machineconfiguration.openshift.io/desiredConfig": rendered(pool, cur),
                 "machineconfiguration.openshift.io/state": state}},
             "spec": {},
             "status": {"conditions": [
                 cond("DiskPressure", "False", self.started - 30 * H),
                 cond("Ready", "True", self.started - 30 * H),
             ]}}
        self.nodes.append(n)
        return n

    def node(self, name):
        return next(n for n in self.nodes if n["metadata"]["name"] == name)

    def nodes_of(self, role):
        return [n for n in self.nodes if f"node-role.kubernetes.io/{role}" in n["metadata"]["labels"]]

    @staticmethod
    def ann(n, key, value):
        n["metadata"]["annotations"][f"machineconfiguration.openshift.io/{key}"] = value

    def node_updating(self, n, state="Working"):
        pool = "master" if "node-role.kubernetes.io/master" in n["metadata"]["labels"] else "worker"
        n["metadata"]["annotations"]["machineconfiguration.openshift.io/desiredConfig"] = rendered(pool, self.to)
        n["metadata"]["annotations"]["machineconfiguration.openshift.io/state"] = state

    def node_done(self, n):
        pool = "master" if "node-role.kubernetes.io/master" in n["metadata"]["labels"] else "worker"
        for k in ("currentConfig", "desiredConfig"):
            n["metadata"]["annotations"][f"machineconfiguration.openshift.io/{k}"] = rendered(pool, self.to)

    def node_draining(self, n):
        """MCD asked to drain for the target config, the drain not yet applied (Draining)."""
        pool = self.pool_of(n)
        self.ann(n, "desiredConfig", rendered(pool, self.to))
        self.ann(n, "state", "Working")
        self.ann(n, "desiredDrain", "drain-" + rendered(pool, self.to))
        self.ann(n, "lastAppliedDrain", "uncordon-" + rendered(pool, self.frm))
        n["spec"]["unschedulable"] = True

    def node_rolling(self, n, state):
        """Drained for the target config, MCD in `state` (Working: Updating, Rebooting)."""
        pool = self.pool_of(n)
        self.ann(n, "desiredConfig", rendered(pool, self.to))
        self.ann(n, "state", state)
        self.ann(n, "desiredDrain", "drain-" + rendered(pool, self.to))
        self.ann(n, "lastAppliedDrain", "drain-" + rendered(pool, self.to))
        n["spec"]["unschedulable"] = True

    @staticmethod
    def node_cond(n, type_, status, at, reason, message):
        for c in n["status"]["conditions"]:
            if c["type"] == type_:
                c.update(cond(type_, status, at, reason, message))
                return
        n["status"]["conditions"].append(cond(type_, status, at, reason, message))

    # --- ClusterVersion -----------------------------------------------------------------------
    def entry(self, state, version, started, completed, verified=True, image=None):
        return {"state": state, "version": version, "image": image or img(version), "verified": verified,
                "startedTime": ts(started), "completionTime": ts(completed) if completed else None}

    def default_history(self):
        prev_start = self.started - 14 * D
        install = self.entry("Completed", self.install, prev_start - 20 * D, prev_start - 20 * D + 38 * M, False)
        prev = self.entry("Completed", self.frm, prev_start, prev_start + 71 * M)
        if self.phase == "installing":
            return [self.entry("Partial", self.to, self.started, None, False)]
        if self.phase == "completed":
            return [self.entry("Completed", self.to, self.started, self.now - 6 * M), prev, install]
        if self.phase == "idle":
            return [prev, install]
        return [self.entry("Partial", self.to, self.started, None), prev, install]

    def default_cv_conditions(self):
        running = self.frm if self.phase == "idle" else self.to
        progressing = {
            "updating": cond("Progressing", "True", self.started, None,
                             f"Working towards {self.to}: 711 of 903 done (78% complete), waiting on machine-config"),
            "installing": cond("Progressing", "True", self.started, None,
                               f"Working towards {self.to}: 412 of 903 done (45% complete)"),
            "completed": cond("Progressing", "False", self.now - 6 * M, None, f"Cluster version is {self.to}"),
            "idle": cond("Progressing", "False", self.started - 14 * D + 71 * M, None,
                         f"Cluster version is {running}"),
        }[self.phase]
        return [
            cond("RetrievedUpdates", "True", self.now, None, None),
            cond("ReleaseAccepted", "True", self.started, "PayloadLoaded",
                 f'Payload loaded version="{self.to}" image="{img(self.to)}" architecture="amd64"'),
            cond("Available", "True" if self.phase != "installing" else "False", self.started - 14 * D,
                 None, f"Done applying {self.frm}"),
            cond("Failing", "False", self.started - 10 * M, None, None),
            progressing,
            cond("Upgradeable", "True", self.started - 2 * D, None, None),
        ]

    def cv_cond(self, type_, status, at, reason=None, message=None):
        self.cv_conditions = [c for c in self.cv_conditions if c["type"] != type_]
        self.cv_conditions.append(cond(type_, status, at, reason, message))

    def cv(self):
        desired = self.history[0] if self.history else {"version": self.to, "image": img(self.to)}
        spec = {"channel": self.channel} if self.channel else {}
        if self.desired_update:
            spec["desiredUpdate"] = self.desired_update
        return {"apiVersion": "config.openshift.io/v1", "kind": "ClusterVersion", "metadata": {"name": "version"},
                "spec": spec,
                "status": {"desired": {"version": desired["version"], "image": desired["image"]},
                           "history": self.history, "conditions": self.cv_conditions}}

    # --- writing ------------------------------------------------------------------------------
    def files(self) -> dict[str, str]:
        lists = {
            "co": ("ClusterOperatorList", "config.openshift.io/v1", list(self.ops.values())),
            "mcp": ("MachineConfigPoolList", "machineconfiguration.openshift.io/v1", self.pools),
            "mc": ("MachineConfigList", "machineconfiguration.openshift.io/v1", list(self.mcs.values())),
            "node": ("NodeList", "v1", self.nodes),
        }
        for n in self.nodes:
            if not n.get("spec", True):
                del n["spec"]
        objs = {"cv": self.cv()}
        if self.shape == "cv-clusterversionlist":
            objs["cv"] = {"apiVersion": "config.openshift.io/v1", "kind": "ClusterVersionList", "items": [objs["cv"]]}
        elif self.shape == "cv-v1-list":
            objs["cv"] = {"apiVersion": "v1", "kind": "List", "items": [objs["cv"]]}
        for key, (kind, api, items) in lists.items():
            if self.shape == "v1-list":
                objs[key] = {"apiVersion": "v1", "kind": "List", "items": items}
            else:
                # As the API serves a typed list: the items carry no apiVersion/kind of their own.
                objs[key] = {"apiVersion": api, "kind": kind,
                             "items": [{k: v for k, v in i.items() if k not in ("apiVersion", "kind")} for i in items]}
        out = {}
        for key, obj in objs.items():
            out[f"{key}.yaml"] = json.dumps(obj, indent=1) + "\n" if self.shape == "json" else to_yaml(obj)
        if self.mco_deployment:
            dep = {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "machine-config-operator", "namespace": "openshift-machine-config-operator"},
                   "spec": {"template": {"spec": {"containers": [
                       {"name": "machine-config-operator", "image": self.mco_deployment_image or mco_image(self.to)}]}}}}
            out["mco-deployment.yaml"] = to_yaml(dep)
        if isinstance(self.alerts, str):
            out["alerts.json"] = self.alerts
        elif self.alerts is not None:
            out["alerts.json"] = json.dumps({"status": "success", "data": {"alerts": self.alerts}}, indent=1) + "\n"
        return out


def alert(name, severity, active, state="firing", ns="openshift-monitoring", nanos=123456789, **ann):
    labels = {"alertname": name, "severity": severity}
    if ns:
        labels["namespace"] = ns
    return {"labels": labels, "annotations": ann, "state": state,
            "activeAt": active.strftime("%Y-%m-%dT%H:%M:%S") + (f".{nanos:09d}Z" if nanos else "Z"),
            "value": "1e+00"}


SETS: dict[str, Cluster] = {}
CRASHES: dict[str, tuple[Cluster, str]] = {}


def add(name: str, c: Cluster):
    assert name not in SETS, name
    SETS[name] = c




# --- the first 107 sets: one thing at a time around a 4.16.3 -> 4.16.8 update at NOW ---------

def existing_sets():
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



# --- more sets: exact thresholds, other versions and topologies, estimates, layered pools, ---
# --- MachineConfigs, alerts of every shape, insight order, file shapes, errors --------------

# The order in which the CVO's run levels bring operators to the target (roughly).
RUNLEVEL = [
    "config-operator", "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler",
    "cloud-credential", "kube-storage-version-migrator", "machine-api", "openshift-apiserver",
    "cloud-controller-manager", "cluster-autoscaler", "control-plane-machine-set", "baremetal",
    "openshift-controller-manager", "authentication", "machine-approver", "csi-snapshot-controller",
    "service-ca", "node-tuning", "image-registry", "ingress", "storage", "insights", "monitoring", "olm",
    "operator-lifecycle-manager", "operator-lifecycle-manager-catalog",
    "operator-lifecycle-manager-packageserver", "marketplace", "openshift-samples", "console", "dns",
    "network", "machine-config",
]
assert sorted(RUNLEVEL) == sorted(OPERATORS)

FAMILIES = {
    # z-stream on 4.14: no `olm` operator, machine-config reports no operator-image
    "4.14": dict(frm="4.14.20", to="4.14.25", install="4.14.3", operators=OPERATORS_414, operator_image=False,
                 now=dt.datetime(2024, 4, 11, 9, 12, 33, tzinfo=dt.timezone.utc)),
    "4.15-4.16": dict(frm="4.15.30", to="4.16.12", install="4.15.2", operator_image=False, channel="stable-4.16",
                      now=dt.datetime(2024, 9, 30, 2, 47, 10, tzinfo=dt.timezone.utc)),
    "4.17-4.18": dict(frm="4.17.8", to="4.18.2", install="4.17.0", channel="fast-4.18",
                      now=dt.datetime(2025, 3, 4, 17, 5, 41, tzinfo=dt.timezone.utc)),
    "4.18-4.19": dict(frm="4.18.14", to="4.19.3", install="4.18.1", channel="stable-4.19",
                      now=dt.datetime(2025, 7, 15, 11, 20, 0, tzinfo=dt.timezone.utc)),
    "nightly": dict(frm="4.19.0-0.nightly-2025-05-01-101010", to="4.19.0-0.nightly-2025-05-05-031522",
                    install="4.19.0-0.nightly-2025-05-01-101010", channel="",
                    now=dt.datetime(2025, 5, 5, 6, 41, 17, tzinfo=dt.timezone.utc)),
    "okd": dict(frm="4.15.0-0.okd-2024-03-10-010116", to="4.15.0-0.okd-2024-04-20-151131",
                install="4.15.0-0.okd-2024-03-10-010116", channel="stable-4", operator_image=False,
                now=dt.datetime(2024, 4, 22, 20, 3, 9, tzinfo=dt.timezone.utc)),
    "ec": dict(frm="4.20.0-ec.3", to="4.20.0-ec.4", install="4.20.0-ec.1", channel="candidate-4.20",
               now=dt.datetime(2025, 6, 24, 8, 15, 52, tzinfo=dt.timezone.utc)),
}


def node_name(style: str, role: str, i: int, salt: str) -> str:
    x = h(f"{salt}:{role}:{i}", 8)
    if style == "aws":
        return f"ip-10-0-{int(x[:2], 16) % 128}-{int(x[2:4], 16) % 254 + 1}.us-east-2.compute.internal"
    if style == "gcp":
        return f"ci-ln-{x[:7]}-72292-{x[4:8]}-{role}-{'abc'[i % 3]}-{x[:5]}" if role != "master" else f"ci-ln-{salt[:7]}-72292-master-{i}"
    if style == "azure":
        return f"prod-eu-{salt[:5]}-{role}-westeurope{i % 3 + 1}-{x[:5]}" if role != "master" else f"prod-eu-{salt[:5]}-master-{i}"
    if style == "bm":
        return f"{role}-{i}.lab.example.com"
    if style == "short":
        return f"{role[0]}{i}"
    raise ValueError(style)


def cluster(family="4.16", masters=3, workers=3, style="aws", **kw):
    """A Cluster of another version family and node naming; nodes named by `style`."""
    args = dict(FAMILIES.get(family, {}))
    args.update(kw)
    c = Cluster(masters=0, workers=0, **args)
    salt = h(family + style, 12)
    for i in range(masters):
        c.add_node(node_name(style, "master", i, salt), "master")
    for i in range(workers):
        c.add_node(node_name(style, "worker", i, salt), "worker")
    return c


def roll(c: Cluster, k: int, updating=1, window=None):
    """Brings the first k operators (run-level order) to the target, each finishing at its own
    time between the update's start and `window` after it (default: 1 minute ago); the next
    `updating` operators are Progressing=True; the rest wait at the old version."""
    order = [o for o in RUNLEVEL if o in c.ops]
    end = c.started + window if window is not None else c.now - M
    step = (end - c.started - 2 * M) / max(k, 1)
    for i, o in enumerate(order):
        if i < k:
            c.set_version(o, c.to)
            at = c.started + 2 * M + step * (i + 1)
            at = at.replace(microsecond=0)
            c.set_cond(c.ops[o], "Progressing", "False", at, None, None)
        elif i < k + updating:
            c.set_version(o, c.frm)
            c.progressing(o, min(c.now - c.started, 4 * M + 17 * S * (i - k)),
                          {"etcd": "NodeInstaller", "kube-apiserver": "NodeInstaller"}.get(o),
                          {"etcd": "NodeInstallerProgressing: 1 node is at revision 11; 2 nodes are at revision 12",
                           "kube-apiserver": "NodeInstallerProgressing: 3 nodes are at revision 14; 0 nodes have achieved new revision 15"}.get(o))
        else:
            c.set_version(o, c.frm)
            c.set_cond(c.ops[o], "Progressing", "False", c.started - 8 * H, None, None)
    waiting = [o for o in order[k:k + updating]]
    done = 120 + k * 23
    c.cv_cond("Progressing", "True", c.started, None,
              f"Working towards {c.to}: {done} of 903 done ({done * 100 // 903}% complete)"
              + (f", waiting on {', '.join(waiting)}" if waiting else ""))


def set_history_prev(c: Cluster, minutes: int):
    """The previous update (history[1], Completed) took `minutes`: oc's estimate baseline."""
    st = c.started - 9 * D
    c.history[1] = c.entry("Completed", c.frm, st, st + minutes * M)


def more_sets():
    # Exactly at the thresholds: oc's now is 368975ns past the latest condition, so an operator
    # degraded exactly 5 minutes before it is already past `evaluated.After(ltt + 5m)`.
    for label, age in (("5m0s", 5 * M), ("39m59s", 39 * M + 59 * S), ("40m0s", 40 * M)):
        c = Cluster()
        c.degrade("network", age, "OVNKubernetesNodeNotReady", "DaemonSet \"/openshift-ovn-kubernetes/ovnkube-node\" rollout is not making progress")
        add(f"co-degraded-{label}", c)
    for label, age in (("5m0s", 5 * M), ("19m59s", 19 * M + 59 * S), ("20m0s", 20 * M)):
        c = Cluster()
        c.unavailable("console", age, "RouteHealth_FailedGet", "RouteHealthAvailable: failed to GET route: context deadline exceeded")
        add(f"co-unavailable-{label}", c)
    c = Cluster()
    for o, age in (("network", 4 * M + 59 * S), ("dns", 5 * M), ("ingress", 39 * M + 59 * S), ("storage", 40 * M),
                   ("node-tuning", 2 * H)):
        c.degrade(o, age, "Degraded_" + o.replace("-", "_").title().replace("_", ""), f"{o} is degraded")
    for o, age in (("insights", 4 * M + 59 * S), ("image-registry", 5 * M + S), ("console", 19 * M + 59 * S),
                   ("monitoring", 20 * M), ("authentication", 90 * M)):
        c.unavailable(o, age, "Unavailable_" + o.replace("-", "_"), f"{o}: 0 of 2 replicas available")
    add("co-thresholds-many-at-once", c)

    # Operators progressing: SINCE in the detailed table is now - lastTransitionTime, not
    # truncated, so an operator progressing since the latest condition (368975ns) reads "6m8s".
    c = cluster("4.17-4.18", started=FAMILIES["4.17-4.18"]["now"] - 14 * M)
    roll(c, 1, updating=2)
    c.progressing("kube-apiserver", 0 * S, "NodeInstaller", "NodeInstallerProgressing: 3 nodes are at revision 14; 0 nodes have achieved new revision 15")
    add("co-progressing-since-now", c)
    c = Cluster()
    roll(c, 12, updating=4)
    c.progressing("authentication", 13 * S, "", "")
    c.progressing("baremetal", 2 * M + 5 * S, "WaitingForProvisioningCRAndMetal3DeploymentToBeReady",
                  "Waiting for Provisioning CR and metal3 deployment to be ready\ndeployment openshift-machine-api/metal3 has 1 unavailable replica")
    c.progressing("openshift-controller-manager", 3 * M, "_DesiredStateNotYetAchieved",
                  "Progressing: deployment/controller-manager: observed generation is 9, desired generation is 10.\nProgressing: deployment/route-controller-manager: observed generation is 7, desired generation is 8.")
    add("co-progressing-reasons-and-messages", c)
    c = Cluster()
    roll(c, 9, updating=2)
    c.ops["openshift-samples"]["status"]["conditions"] = [x for x in c.ops["openshift-samples"]["status"]["conditions"] if x["type"] != "Progressing"]
    add("co-old-version-without-progressing", c)
    c = Cluster()
    c.set_cond(c.ops["dns"], "Progressing", "True", c.now - 40 * S, "Reconciling", "DNS \"default\" is progressing: Have 5 available DNS pods, want 6.")
    add("co-daemonset-progressing-mco-last", c)
    c = Cluster()
    for o in ("console", "monitoring"):
        c.ops[o]["metadata"]["annotations"] = {"exclude.release.openshift.io/internal-openshift-hosted": "true"}
    c.degrade("monitoring", 15 * M, "UpdatingPrometheusFailed", "Failed to rollout the stack. Error: updating prometheus: waiting for Prometheus object changes failed")
    c.ops["console"]["metadata"]["annotations"] = {"capability.openshift.io/name": "Console"}
    c.unavailable("console", 25 * M, "RouteHealth_FailedGet", "RouteHealthAvailable: failed to GET route")
    add("co-payload-annotations", c)

    # The ClusterVersion.
    c = Cluster(operators=MINIMAL)
    c.cv_cond("Failing", "True", c.now - 9 * M, "UpgradePreconditionCheckFailed",
              'Precondition "ClusterVersionUpgradeable" failed because of "AdminAckRequired": Kubernetes 1.29 and therefore OpenShift 4.16 remove several APIs which require admin consideration. Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions.')
    add("cv-failing-upgradepreconditioncheckfailed", c)
    c = Cluster(operators=MINIMAL)
    c.cv_cond("Failing", "True", c.now - 4 * M, "MultipleErrors",
              "Multiple errors are preventing progress:\n* Cluster operator authentication is degraded\n* Could not update deployment \"openshift-cluster-samples-operator/cluster-samples-operator\" (512 of 903): the object is invalid, possibly due to local cluster configuration")
    c.degrade("authentication", 12 * M, "OAuthServerRouteEndpointAccessibleController_SyncError", "OAuthServerRouteEndpointAccessibleControllerDegraded: Get \"https://oauth-openshift.apps.example.com/healthz\": EOF")
    add("cv-failing-multipleerrors-multiline", c)
    c = Cluster(operators=MINIMAL)
    c.cv_cond("Failing", "True", c.now - 4 * M, "ClusterOperatorDegraded", "")
    add("cv-failing-empty-message", c)
    c = Cluster(operators=MINIMAL, phase="idle")
    c.cv_cond("ReleaseAccepted", "False", c.now - 3 * M, "RetrievePayload",
              f'Retrieving payload failed version="4.16.9" image="{img("4.16.9")}" failure=The update cannot be verified: unable to verify sha256:{h("release:4.16.9")} against keyrings: verifier-public-key-redhat')
    add("cv-release-not-accepted-not-updating", c)
    c = Cluster(phase="installing", frm="", to="4.16.8", started=NOW - 41 * M, updated_ops=34)
    add("cv-installing-operators-done", c)
    c = cluster("4.18-4.19", phase="installing", frm="", to="4.19.3", workers=2,
                started=FAMILIES["4.18-4.19"]["now"] - 33 * M, updated_ops=30)
    for n in c.nodes_of("worker"):
        c.node_cond(n, "Ready", "False", c.now - 2 * M, "KubeletNotReady", "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?")
    for o in ("console", "ingress", "monitoring"):
        c.unavailable(o, 7 * M, "NotYetAvailable", f"{o} is coming up")
    add("cv-installing-workers-joining", c)
    c = Cluster(operators=MINIMAL)
    c.history = []
    add("cv-no-history", c)
    c = Cluster(operators=MINIMAL)
    c.history = [c.history[0], c.entry("Partial", "4.16.5", c.started - 3 * H, c.started)]
    add("cv-previous-partial-no-completed", c)
    c = Cluster(operators=MINIMAL, started=NOW - 71 * M)
    c.cv_cond("Progressing", "True", c.started, "ClusterOperatorDegraded",
              "Unable to apply 4.16.8: wait has exceeded 40 minutes for these operators: etcd")
    c.degrade("etcd", 48 * M, "EtcdMembers_UnhealthyMembers", "EtcdMembersDegraded: 2 of 3 members are available, ip-10-0-48-47.ec2.internal is unhealthy")
    c.cv_cond("Failing", "True", c.now - 30 * M, "ClusterOperatorDegraded", "Cluster operator etcd is degraded")
    add("cv-progressing-wait-exceeded", c)
    for shape in ("cv-clusterversionlist", "cv-v1-list"):
        c = Cluster(operators=MINIMAL)
        c.shape = shape
        add(f"shape-{shape}", c)

    # Estimates and durations: the previous Completed update is oc's baseline; Duration rounds
    # to seconds up to 10 minutes and to minutes beyond.
    # (The baseline only counts while the last observed progress is within 5 minutes of the
    # start, or no operator is updated yet; later oc extrapolates from the operators.)
    for minutes in (45, 150):
        c = Cluster(operators=MINIMAL, started=NOW - 4 * M)
        set_history_prev(c, minutes)
        roll(c, 2, updating=2)
        add(f"est-baseline-previous-{minutes}m", c)
    c = Cluster(operators=MINIMAL, started=NOW - 4 * M)
    c.history = [c.history[0], c.history[2]]
    roll(c, 2, updating=2)
    add("est-baseline-default-1h", c)
    c = Cluster(operators=MINIMAL, started=NOW - 4 * M)
    c.history = [c.history[0], c.entry("Partial", "4.16.5", c.started - 2 * D, c.started),
                 c.entry("Completed", "4.16.3", c.started - 9 * D, c.started - 9 * D + 50 * M), c.history[2]]
    roll(c, 2, updating=2)
    add("est-baseline-skips-partial", c)
    c = Cluster(operators=MINIMAL, started=NOW - 17 * M)
    set_history_prev(c, 45)
    roll(c, 0, updating=3)
    add("est-baseline-nothing-updated-yet", c)
    c = Cluster(operators=MINIMAL, started=NOW - 95 * M)
    set_history_prev(c, 45)
    roll(c, 32, updating=2, window=58 * M)
    for o in ("network", "machine-config"):
        c.progressing(o, 35 * M, None, f"Working towards {c.to}")
    add("est-progressing-slow", c)
    c = Cluster(operators=MINIMAL, started=NOW - 5 * H)
    set_history_prev(c, 60)
    roll(c, 33, updating=1, window=80 * M)
    c.progressing("machine-config", 4 * H, None, "Working towards 4.16.8")
    add("est-stalled", c)
    c = Cluster(operators=MINIMAL, started=NOW - 25 * M)
    set_history_prev(c, 70)
    roll(c, 33, updating=1, window=19 * M)
    add("est-under-10m", c)
    for label, dur in (("9m59s", 9 * M + 59 * S), ("10m1s", 10 * M + S), ("10m30s", 10 * M + 30 * S)):
        c = Cluster(operators=MINIMAL, started=NOW - dur)
        roll(c, 6, updating=2)
        add(f"est-duration-{label}", c)
    for label, dur in (("10m30s", 10 * M + 30 * S), ("2h29m30s", 2 * H + 29 * M + 30 * S)):
        c = Cluster(operators=MINIMAL, phase="completed", started=NOW - 4 * H)
        c.history[0] = c.entry("Completed", c.to, c.started, c.started + dur)
        for n in c.nodes:
            c.node_done(n)
        c.nodes_of("worker")[0]["metadata"]["annotations"]["machineconfiguration.openshift.io/currentConfig"] = rendered("worker", c.frm)
        c.nodes_of("worker")[0]["metadata"]["annotations"]["machineconfiguration.openshift.io/desiredConfig"] = rendered("worker", c.frm)
        add(f"cv-completed-duration-{label}", c)

    # Node counts and pool completion (oc prints %.0f: 12.5 -> 12, 37.5 -> 38, 62.5 -> 62).
    for k in (1, 3, 5):
        c = cluster(operators=MINIMAL, workers=8, style="gcp")
        for n in c.nodes_of("master"):
            c.node_done(n)
        w = c.nodes_of("worker")
        for n in w[:k]:
            c.node_done(n)
        c.node_draining(w[k])
        add(f"pool-8-workers-{k}-updated", c)
    c = cluster(operators=MINIMAL, workers=1, style="bm")
    for n in c.nodes_of("master"):
        c.node_done(n)
    c.node_rolling(c.nodes_of("worker")[0], "Rebooting")
    add("nodes-3-masters-1-worker-rebooting", c)
    c = cluster(operators=MINIMAL, workers=2, style="azure")
    for n in c.nodes_of("master"):
        c.node_done(n)
    c.node_done(c.nodes_of("worker")[0])
    add("nodes-3-masters-2-workers-half", c)
    c = cluster(operators=MINIMAL, workers=12, style="aws")
    for n in c.nodes_of("master"):
        c.node_done(n)
    for n in c.nodes_of("worker"):
        n["spec"]["unschedulable"] = True
    add("nodes-12-workers-cordoned", c)
    c = cluster(operators=MINIMAL, masters=1, workers=0, style="bm")
    c.nodes[0]["metadata"]["labels"]["node-role.kubernetes.io/worker"] = ""
    c.node_rolling(c.nodes[0], "Working")
    c.unavailable("kube-apiserver", 2 * M, "StaticPods_Error", "StaticPodsAvailable: 0 nodes are active; 1 node is at revision 0")
    add("topology-single-node-rebooting-into-update", c)
    c = cluster(operators=MINIMAL, workers=0, style="bm")
    for n in c.nodes:
        n["metadata"]["labels"]["node-role.kubernetes.io/worker"] = ""
    c.node_done(c.nodes[0])
    c.node_draining(c.nodes[1])
    add("topology-compact-rolling", c)

    # Node states.
    c = Cluster(operators=MINIMAL)
    w = c.nodes_of("worker")
    for n in (w[0], w[1]):
        c.node_updating(n, "Done")
    c.ann(w[1], "desiredDrain", "uncordon-" + rendered("worker", c.frm))
    c.ann(w[1], "lastAppliedDrain", "uncordon-" + rendered("worker", c.frm))
    add("node-desired-config-mcd-still-done", c)
    c = Cluster(operators=MINIMAL, phase="completed")
    for n in c.nodes:
        c.node_done(n)
    c.ann(c.nodes_of("worker")[1], "state", "Working")
    c.nodes_of("worker")[2]["metadata"]["annotations"]["machineconfiguration.openshift.io/currentConfig"] = rendered("worker", c.frm)
    c.nodes_of("worker")[2]["metadata"]["annotations"]["machineconfiguration.openshift.io/desiredConfig"] = rendered("worker", c.frm)
    add("node-mcd-working-on-updated-node", c)
    c = Cluster(operators=MINIMAL)
    n = c.nodes_of("worker")[0]
    c.node_cond(n, "DiskPressure", "True", c.now - 26 * M, "KubeletHasDiskPressure", "kubelet has disk pressure")
    c.node_cond(n, "Ready", "False", c.now - 11 * M, "KubeletNotReady", "PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s")
    n["spec"]["unschedulable"] = True
    add("node-notready-disk-pressure-cordoned", c)
    c = cluster(operators=MINIMAL, workers=3, style="short")
    for n in c.nodes_of("master"):
        c.node_done(n)
    for n, st in zip(c.nodes_of("worker")[:2], ("Degraded", "Degraded")):
        c.node_updating(n, st)
        c.ann(n, "reason", f"failed to drain node: {n['metadata']['name']} after 1 hour. Please see machine-config-controller logs for more information")
    add("node-degraded-short-names", c)
    c = Cluster(operators=MINIMAL)
    c.add_node("ip-10-0-77-12.ec2.internal", "edge")
    del c.nodes[-1]["metadata"]["labels"]["node-role.kubernetes.io/worker"]
    c.node_cond(c.nodes[-1], "Ready", "False", c.now - 3 * H, "KubeletNotReady", "node is shut down")
    add("node-in-no-pool", c)
    c = Cluster(operators=MINIMAL, phase="completed")
    for n in c.nodes:
        c.node_done(n)
    c.add_mc(rendered("worker", c.to), "")
    add("node-mc-without-release-version", c)
    c = Cluster(operators=MINIMAL)
    for n in c.nodes_of("master"):
        c.node_done(n)
    n = c.nodes_of("worker")[1]
    c.ann(n, "currentConfig", "rendered-worker-" + h("gone", 32))
    c.ann(n, "desiredConfig", "rendered-worker-" + h("gone", 32))
    add("node-mc-missing", c)
    c = Cluster(operators=MINIMAL)
    for n in c.nodes_of("master"):
        c.node_done(n)
    w = c.nodes_of("worker")
    c.node_draining(w[0])
    c.node_rolling(w[1], "Rebooting")
    c.node_cond(w[1], "Ready", "Unknown", c.now - 90 * S, "NodeStatusUnknown", "Kubelet stopped posting node status.")
    c.node_done(w[2])
    add("nodes-draining-rebooting-notready", c)

    # Custom and layered pools.
    c = Cluster(operators=MINIMAL)
    c.add_pool("infra", "node-role.kubernetes.io/infra")
    c.add_node("ip-10-0-90-7.ec2.internal", "infra", extra_labels={"node-role.kubernetes.io/worker": ""})
    c.add_node("ip-10-0-91-8.ec2.internal", "worker")
    c.nodes[-1]["metadata"]["labels"]["node-role.kubernetes.io/infra"] = ""
    c.node_draining(c.nodes[-2])
    add("pool-custom-selects-worker-labelled-nodes", c)
    for mismatch in (False, True):
        c = Cluster(operators=MINIMAL)
        os_image = "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:" + h("layered")
        c.add_pool("layered", "node-role.kubernetes.io/layered")
        p = c.pool("layered")
        p["metadata"]["labels"] = {"machineconfiguration.openshift.io/layering-enabled": ""}
        p["metadata"]["annotations"] = {"machineconfiguration.openshift.io/newestImageEquivalentConfig": os_image}
        for i in range(2):
            n = c.add_node(f"ip-10-0-{100 + i}-{21 + i}.ec2.internal", "layered")
            c.ann(n, "currentImage", os_image)
            c.ann(n, "desiredImage", os_image)
        if not mismatch:
            c.node_done(c.nodes[-2])
            c.ann(c.nodes[-2], "currentConfig", rendered("layered", c.to))
            c.ann(c.nodes[-2], "desiredConfig", rendered("layered", c.to))
            c.node_draining(c.nodes[-1])
        else:
            n = c.nodes[-1]
            c.ann(n, "desiredImage", os_image.replace(h("layered")[:12], h("other")[:12]))
            c.ann(n, "state", "Working")
            n["spec"]["unschedulable"] = True
        add(f"pool-layered-{'image-mismatch' if mismatch else 'image-current'}", c)
    c = Cluster(operators=MINIMAL, phase="completed")
    for n in c.nodes_of("master"):
        c.node_done(n)
    c.add_pool("infra", "node-role.kubernetes.io/infra", paused=True)
    for i in range(2):
        n = c.add_node(f"ip-10-0-{60 + i}-{3 + i}.ec2.internal", "infra")
        c.ann(n, "currentConfig", rendered("infra", c.frm))
        c.ann(n, "desiredConfig", rendered("infra", c.frm))
    add("pool-custom-paused-after-completed-update", c)

    # Multi-arch migration with the MCO Deployment already at the new (manifest-listed) image.
    c = Cluster(operators=MINIMAL, frm="4.16.8", to="4.16.8")
    c.history.insert(0, c.entry("Partial", "4.16.8", NOW - 24 * M, None, image=img("4.16.8-multi")))
    c.history[1] = c.entry("Completed", "4.16.8", NOW - 5 * D, NOW - 5 * D + 70 * M)
    c.mco_deployment_image = mco_image("4.16.8-multi")
    c.progressing("machine-config", 20 * M, None, "Working towards 4.16.8")
    for n in c.nodes_of("master")[:1]:
        c.ann(n, "desiredConfig", rendered("master", "4.16.8-multi"))
        c.ann(n, "state", "Working")
    for p in c.pools:
        p["spec"]["configuration"]["name"] = rendered(p["metadata"]["name"], "4.16.8-multi")
        c.add_mc(rendered(p["metadata"]["name"], "4.16.8-multi"), "4.16.8")
    c.nodes_of("worker")[0]["metadata"]["labels"]["kubernetes.io/arch"] = "arm64"
    add("topology-multi-arch-migration-mco-image-changing", c)

    # Version families, naming styles, MCO Deployment present or not.
    c = cluster("4.14", workers=3, style="aws")
    roll(c, 32, updating=1, window=40 * M)
    c.mco_deployment = False
    c.node_done(c.nodes_of("master")[0])
    c.node_draining(c.nodes_of("master")[1])
    add("family-4.14-z-masters-rolling", c)
    c = cluster("4.14", workers=4, style="aws", phase="completed")
    c.mco_deployment = False
    for n in c.nodes_of("master"):
        c.node_done(n)
    w = c.nodes_of("worker")
    c.node_done(w[0])
    for n in w[1:]:
        c.ann(n, "currentConfig", rendered("worker", c.frm))
        c.ann(n, "desiredConfig", rendered("worker", c.frm))
    c.node_rolling(w[1], "Working")
    add("family-4.14-completed-workers-rolling", c)
    c = cluster("4.15-4.16", workers=3, style="gcp", started=FAMILIES["4.15-4.16"]["now"] - 9 * M)
    roll(c, 4, updating=2)
    c.cv_cond("Upgradeable", "False", c.now - 2 * H, "AdminAckRequired",
              "Kubernetes 1.29 and therefore OpenShift 4.16 remove several APIs which require admin consideration. Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions.")
    add("family-4.15-to-4.16-early", c)
    c = cluster("4.17-4.18", workers=6, style="azure", started=FAMILIES["4.17-4.18"]["now"] - 107 * M)
    roll(c, 34, updating=0, window=70 * M)
    for n in c.nodes_of("master"):
        c.node_done(n)
    w = c.nodes_of("worker")
    c.node_done(w[0])
    c.node_done(w[1])
    c.node_draining(w[2])
    c.node_rolling(w[3], "Rebooting")
    c.cv_cond("Progressing", "False", c.now - 36 * M, None, f"Cluster version is {c.to}")
    c.history[0] = c.entry("Completed", c.to, c.started, c.now - 36 * M)
    add("family-4.17-to-4.18-workers-rolling", c)
    c = cluster("4.18-4.19", workers=3, style="aws", started=FAMILIES["4.18-4.19"]["now"] - 81 * M)
    roll(c, 34, updating=0, window=78 * M)
    c.mco_deployment = False
    for n in c.nodes:
        c.node_done(n)
    add("family-4.18-to-4.19-without-mco-deployment", c)
    c = cluster("4.18-4.19", workers=3, style="aws", started=FAMILIES["4.18-4.19"]["now"] - 81 * M)
    roll(c, 34, updating=0, window=78 * M)
    for n in c.nodes:
        c.node_done(n)
    add("family-4.18-to-4.19-with-mco-deployment", c)
    c = cluster("nightly", workers=3, style="gcp", started=FAMILIES["nightly"]["now"] - 44 * M)
    roll(c, 18, updating=3)
    c.degrade("kube-apiserver", 6 * M, "NodeController_MasterNodesReady", "NodeControllerDegraded: The master nodes not ready: node \"ci-ln-5e1a8d2-72292-master-1\" not ready since 2025-05-05 06:34:40 +0000 UTC because KubeletNotReady")
    add("family-nightly-mid-update", c)
    c = cluster("okd", workers=2, style="bm", started=FAMILIES["okd"]["now"] - 66 * M)
    roll(c, 33, updating=1, window=50 * M)
    c.node_done(c.nodes_of("master")[0])
    c.node_rolling(c.nodes_of("master")[1], "Working")
    add("family-okd-masters-updating", c)
    c = cluster("ec", workers=3, style="gcp", started=FAMILIES["ec"]["now"] - 23 * M)
    roll(c, 10, updating=2)
    c.cv_cond("Failing", "Unknown", c.now - 2 * M, "SlowClusterOperator", "waiting on kube-apiserver over 30 minutes which is longer than expected")
    add("family-ec-candidate", c)

    # Alerts.
    c = Cluster(operators=MINIMAL)
    c.alerts = [
        alert("KubePodNotReady", "warning", NOW - 16 * M, summary="Pod has been in a non-ready state for more than 15 minutes.",
              description="Pod openshift-ingress/router-default-6b9b8c4d7-x2v9k has been in a non-ready state for longer than 15 minutes.",
              message="router pod not ready", runbook_url="https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/KubePodNotReady.md"),
        alert("TargetDown", "warning", NOW - 14 * M, ns="openshift-dns", description="100% of the dns-default/dns-default targets in openshift-dns namespace have been unreachable for more than 15 minutes."),
        alert("KubeJobFailed", "warning", NOW - 12 * M, ns="openshift-marketplace", message="Job openshift-marketplace/collect-profiles-28733215 failed to complete."),
        alert("NodeClockNotSynchronising", "critical", NOW - 10 * M, ns="", summary="Clock not synchronising."),
        alert("AlertmanagerReceiversNotConfigured", "warning", NOW - 8 * M, summary="Receivers (notification integrations) are not configured on Alertmanager"),
    ]
    add("alerts-annotation-variants", c)
    c = Cluster(operators=MINIMAL)
    c.alerts = [{"labels": {"severity": "critical", "namespace": "openshift-etcd"}, "annotations": {"summary": "no name"},
                 "state": "firing", "activeAt": ts(NOW - 3 * M)},
                alert("etcdHighFsyncDurations", "critical", NOW - 7 * M, ns="openshift-etcd", state="pending", summary="etcd cluster 99th percentile fsync durations are too high."),
                alert("etcdHighCommitDurations", "warning", NOW - 7 * M, ns="openshift-etcd", summary="etcd cluster 99th percentile commit durations are too high.")]
    add("alerts-unnamed-and-pending", c)
    c = Cluster(operators=MINIMAL)
    c.alerts = '{"status": "success", "data": {"alerts": [{"labels": {"alertname": "KubePodNotReady"}, '
    add("alerts-malformed-json", c)
    c = Cluster(operators=MINIMAL)
    c.alerts = ""
    add("alerts-empty-file", c)
    c = Cluster(operators=MINIMAL)
    c.alerts = [alert("KubePodNotReady", "warning", c.started, nanos=0, summary="started with the update"),
                alert("PodDisruptionBudgetAtLimit", "warning", c.started, nanos=0, ns="openshift-ingress",
                      summary="The pod disruption budget is preventing further disruption to pods."),
                alert("KubeDaemonSetRolloutStuck", "warning", c.started, nanos=1, ns="openshift-dns", summary="DaemonSet rollout is stuck.")]
    add("alerts-active-at-update-start", c)
    c = Cluster(operators=MINIMAL)
    c.degrade("etcd", 45 * M, "EtcdMembers_UnhealthyMembers", "EtcdMembersDegraded: 2 of 3 members are available")
    c.degrade("network", 10 * M, "RolloutHung", "DaemonSet \"/openshift-multus/multus\" rollout is not making progress")
    c.alerts = [alert("etcdMembersDown", "critical", NOW - 44 * M, ns="openshift-etcd", summary="etcd cluster members are down."),
                alert("KubeAPIErrorBudgetBurn", "critical", NOW - 20 * M, ns="openshift-kube-apiserver", summary="The API server is burning too much error budget."),
                alert("TargetDown", "warning", NOW - 9 * M, ns="openshift-etcd", summary="Some targets were not reachable from the monitoring server for an extended period of time.")]
    add("alerts-critical-error-warning-order", c)

    # Many insights of one level with one start time: oc sorts them with sort.Slice (pdqsort,
    # unstable beyond 12 elements) by start time, then sort.SliceStable by level. Equal keys
    # keep their input order only when pdqsort finds the input already sorted
    # (many-same-second-25-alone); here one operator in the middle of oc's input (alphabetical)
    # turned degraded later, and the ClusterVersion's Failing (last in oc's input) later still,
    # so pdqsort partitions and the same-second group comes out in pdqsort's order.
    names = [o for o in OPERATORS if o != "machine-config"]

    def same_second(c, n, age, unavailable_too=False):
        group = names[:n + 1]
        odd = group.pop(len(group) // 2)
        for o in group:
            c.degrade(o, age, "OperatorDegraded", f"{o}: waiting for the API server to come back")
            if unavailable_too:
                c.unavailable(o, age, "OperatorUnavailable", f"{o}: the API server is not reachable")
        c.degrade(odd, 8 * M, "OperatorDegraded", f"{odd}: waiting for the API server to come back")
        c.cv_cond("Failing", "True", c.now - 3 * M, "ClusterOperatorsDegraded",
                  f"Cluster operators {', '.join(group[:3])} are degraded")
    c = Cluster()
    same_second(c, 13, 12 * M)
    add("many-same-second-13", c)
    c = Cluster(workers=8)
    same_second(c, 10, 12 * M)
    for n in c.nodes_of("worker")[:7]:
        c.node_cond(n, "Ready", "False", c.now - 12 * M, "KubeletNotReady", "PLEG is not healthy")
    add("many-same-second-17", c)
    c = Cluster()
    same_second(c, 25, 30 * M)
    add("many-same-second-25", c)
    c = Cluster()
    for o in names[:25]:
        c.degrade(o, 30 * M, "OperatorDegraded", f"{o}: waiting for the API server to come back")
    add("many-same-second-25-alone", c)
    c = Cluster()
    same_second(c, 20, 12 * M, unavailable_too=True)
    add("many-same-second-40", c)

    # oc stops with an error (and exits 1) on these.
    c = Cluster()
    c.ops = {}
    add("status-error-no-cluster-operators", c)
    c = Cluster()
    c.cv_conditions = [x for x in c.cv_conditions if x["type"] != "Progressing"]
    add("status-error-no-progressing-condition", c)


def crash_sets():
    """oc dereferences nil on these; kept, without outputs, for mglint to answer anyway."""
    c = Cluster()
    c.pools = []
    CRASHES["crash-no-machineconfigpools"] = (c, "no MachineConfigPools while there are nodes: whichPool calls Matches on a nil master selector")
    c = Cluster(phase="completed")
    for n in c.nodes_of("worker"):
        c.ann(n, "currentConfig", rendered("worker", c.frm))
        c.ann(n, "desiredConfig", rendered("worker", c.frm))
    c.history[0]["completionTime"] = None
    CRASHES["crash-completed-without-completiontime"] = (c, "history[0] is Completed without completionTime while workers are still outdated: assessControlPlaneStatus reads CompletionTime.Time")


def main():
    import recommend  # noqa: E402  (scripts/oc-sets/recommend.py)
    existing_sets()
    more_sets()
    crash_sets()
    prune(OUT, SETS)
    for name, c in SETS.items():
        write_set(OUT, name, c.files())
    prune(CRASH_OUT, CRASHES)
    for name, (c, _) in CRASHES.items():
        write_set(CRASH_OUT, name, c.files())
    with open(os.path.join(CRASH_OUT, "README.md"), "w") as f:
        f.write("# Sets on which oc's status code crashes\n\n"
                "oc (openshift/oc 6b8e30c5, `oc adm upgrade status` in mock mode) crashes on these sets: it\n"
                "dereferences nil. They have no expected output; `NAME.oc-crash.txt` holds what the oracle\n"
                "printed when oc panicked (written by scripts/oc-sets/regen.sh).\n\n")
        for name, (_, why) in CRASHES.items():
            f.write(f"- `{name}`: {why}.\n")
    n_rec = recommend.write_all(os.path.join(OC, "recommend"))
    print(f"{len(SETS)} status sets, {len(CRASHES)} crash sets, {n_rec} recommend sets in {os.path.relpath(OC, ROOT)}")


if __name__ == "__main__":
    sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
