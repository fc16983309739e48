"""The `oc adm upgrade recommend` input sets (imported by generate.py).

Each set is a ClusterVersion (NAME-cv.yaml) and, for most, the alerts oc's prechecks read
(NAME-alerts.json); recommend/targets.tsv lists the `--version` targets regen.sh asks oc about
for each set (recommended, not recommended, unknown, outdated, malformed). Only the fields
recommend reads are written: spec.channel/upstream, status.desired, status.conditions,
availableUpdates and conditionalUpdates (release, risks, conditions).
"""

from __future__ import annotations

import datetime as dt
import json
import os

from generate import h, ts, to_yaml, write_set, prune

UTC = dt.timezone.utc
UPSTREAM = "https://api.openshift.com/api/upgrades_info/v1/graph"
OKD_UPSTREAM = "https://amd64.origin.releases.ci.openshift.org/graph"
M = dt.timedelta(minutes=1)
H = dt.timedelta(hours=1)
D = dt.timedelta(days=1)


def image(v: str) -> str:
    if "okd-scos" in v:
        return "quay.io/okd/scos-release@sha256:" + h("release:" + v)
    if "okd" in v:
        return "quay.io/openshift/okd@sha256:" + h("release:" + v)
    return "quay.io/openshift-release-dev/ocp-release@sha256:" + h("release:" + v)


def url(v: str) -> str:
    if "okd" in v:
        return f"https://github.com/okd-project/okd/releases/tag/{v}"
    n = int(h("errata:" + v, 6), 16) % 19000 + 1000
    kind = "RHSA" if int(h("kind:" + v, 2), 16) % 3 == 0 else "RHBA"
    year = 2024 if v < "4.17" else 2025
    return f"https://access.redhat.com/errata/{kind}-{year}:{n}"


def release(v: str, channels=None) -> dict:
    r = {"version": v, "image": image(v), "url": url(v)}
    if channels:
        r["channels"] = channels
    return r


def cond(type_, status, at, reason=None, message=None):
    c = {"type": type_, "status": status, "lastTransitionTime": ts(at)}
    if reason:
        c["reason"] = reason
    if message is not None:
        c["message"] = message
    return c


# Risks as the update service publishes them (names and texts written for these sets).
RISKS = {
    "AzureDefaultVMType": ("https://issues.redhat.com/browse/OCPBUGS-26120",
                           "Azure clusters using the default virtual machine type for control plane nodes may lose quorum during the update."),
    "OVNNetworkPolicyLongName": ("https://access.redhat.com/solutions/7057169",
                                 "Clusters using OVN-Kubernetes with a NetworkPolicy name longer than 43 characters may lose pod connectivity after updating."),
    "BaremetalProvisioningNetwork": ("https://issues.redhat.com/browse/OCPBUGS-31542",
                                     "Bare metal clusters with a provisioning network may fail to reprovision hosts after the update."),
    "PreRelease": ("https://docs.openshift.com/container-platform/latest/updating/understanding_updates/understanding-update-channels-release.html",
                   "This is a pre-release version, not supported in production."),
    "ImageRegistryS3Storage": ("https://access.redhat.com/solutions/7074686",
                               "Clusters storing images in S3-compatible storage without region may fail to push images after the update."),
    "NMStateServiceFailure": ("https://issues.redhat.com/browse/OCPBUGS-40112",
                              "Clusters with the Kubernetes NMState operator installed may lose node network configuration on reboot."),
}


def risk(name, rules=None):
    u, msg = RISKS[name]
    r = {"name": name, "url": u, "message": msg}
    if rules:
        r["matchingRules"] = rules
    return r


PROMQL = [{"type": "PromQL", "promql": {"promql": 'group(cluster_infrastructure_provider{_id="",type="Azure"})\nor\n0 * group(cluster_infrastructure_provider{_id=""})'}}]


def recommended(status, at, names, evaluation_failure=False):
    """The Recommended condition the CVO writes for these matched risks."""
    if status == "True":
        return cond("Recommended", "True", at, "AsExpected",
                    "The update is recommended, because none of the conditional update risks apply to this cluster.")
    if evaluation_failure:
        n = names[0]
        u, msg = RISKS[n]
        return cond("Recommended", "Unknown", at, "EvaluationFailed",
                    f"Exposure to {n} is unknown due to an evaluation failure: invalid PromQL result length must be one, but is 0\n{msg} {u}")
    if len(names) == 1:
        u, msg = RISKS[names[0]]
        return cond("Recommended", "False", at, names[0], f"{msg} {u}")
    return cond("Recommended", "False", at, "MultipleReasons",
                "\n\n".join(f"{RISKS[n][1]} {RISKS[n][0]}" for n in names))


def conditional(v, risk_names, status=None, at=None, evaluation_failure=False, rules=None):
    cu = {"release": release(v), "risks": [risk(n, rules) for n in risk_names]}
    if status is not None:
        cu["conditions"] = [recommended(status, at, risk_names, evaluation_failure)]
    return cu


class CV:
    def __init__(self, current, now, channel=None, upstream=UPSTREAM, channels=None):
        self.current, self.now = current, now
        minor = ".".join(current.split(".")[:2])
        self.channel = f"stable-{minor}" if channel is None else channel
        self.upstream = upstream
        if channels is None and self.channel:
            # the channels the current release is in: its minor's and the next one's
            major, y = current.split(".")[:2]
            nxt = f"{major}.{int(y) + 1}"
            channels = sorted([f"candidate-{minor}", f"candidate-{nxt}", f"fast-{minor}", f"fast-{nxt}",
                               f"stable-{minor}", f"stable-{nxt}"] + ([f"eus-{minor}"] if int(y) % 2 == 0 else []))
        self.channels = channels or []
        installed = now - 21 * D
        self.conditions = [
            cond("RetrievedUpdates", "True", now - 3 * H),
            cond("ReleaseAccepted", "True", installed, "PayloadLoaded",
                 f'Payload loaded version="{current}" image="{image(current)}" architecture="amd64"'),
            cond("Available", "True", installed + 40 * M, None, f"Done applying {current}"),
            cond("Failing", "False", installed + 40 * M),
            cond("Progressing", "False", installed + 40 * M, None, f"Cluster version is {current}"),
        ]
        self.available = []
        self.conditional = []
        self.alerts = []            # None: no NAME-alerts.json; a str: the file's text
        self.targets = []
        self.shape = "object"       # object | clusterversionlist | v1-list
        self.desired_version = current
        self.history = None

    def set(self, type_, status, reason=None, message=None, at=None):
        self.conditions = [c for c in self.conditions if c["type"] != type_]
        self.conditions.append(cond(type_, status, at or self.now - 20 * M, reason, message))

    def drop(self, type_):
        self.conditions = [c for c in self.conditions if c["type"] != type_]

    def avail(self, *versions):
        self.available += [release(v) for v in versions]

    def obj(self):
        spec = {}
        if self.channel:
            spec["channel"] = self.channel
        if self.upstream:
            spec["upstream"] = self.upstream
        desired = {"version": self.desired_version, "image": image(self.current), "url": url(self.current)}
        if self.channels:
            desired["channels"] = self.channels
        status = {"desired": desired, "conditions": self.conditions}
        if self.history:
            status["history"] = self.history
        status["availableUpdates"] = self.available or None
        if self.conditional:
            status["conditionalUpdates"] = self.conditional
        o = {"apiVersion": "config.openshift.io/v1", "kind": "ClusterVersion", "metadata": {"name": "version"},
             "spec": spec, "status": status}
        if self.shape == "clusterversionlist":
            return {"apiVersion": "config.openshift.io/v1", "kind": "ClusterVersionList", "items": [o]}
        if self.shape == "v1-list":
            return {"apiVersion": "v1", "kind": "List", "items": [o]}
        return o

    def files(self):
        out = {"cv.yaml": to_yaml(self.obj())}
        if isinstance(self.alerts, str):
            out["alerts.json"] = self.alerts
        elif self.alerts is not None:
            out["alerts.json"] = json.dumps({"status": "success", "data": {"alerts": self.alerts}}, indent=1) + "\n"
        return out


def alert(alertname, severity, active, state="firing", nanos=512734001, **labels_and_ann):
    labels = {"alertname": alertname, "severity": severity}
    ann = {}
    for k, v in labels_and_ann.items():
        if k in ("summary", "description", "message", "runbook_url"):
            ann[k] = v
        else:
            labels[k] = v
    return {"labels": labels, "annotations": ann, "state": state,
            "activeAt": active.strftime("%Y-%m-%dT%H:%M:%S") + f".{nanos:09d}Z", "value": "1e+00",
            "partialResponseStrategy": "WARN"}


def zs(minor, lo, hi):
    """z-stream versions minor.hi down to minor.lo."""
    return [f"{minor}.{z}" for z in range(hi, lo - 1, -1)]


SETS: dict[str, CV] = {}


def add(name, cv, *targets):
    assert name not in SETS, name
    cv.targets = list(targets)
    SETS[name] = cv


T0 = dt.datetime(2024, 10, 2, 8, 0, 0, tzinfo=UTC)
T1 = dt.datetime(2025, 2, 11, 15, 30, 0, tzinfo=UTC)
T2 = dt.datetime(2025, 8, 6, 10, 45, 0, tzinfo=UTC)

CRIT_CO_DOWN = dict(namespace="openshift-cluster-version", name="monitoring", reason="UpdatingPrometheusFailed",
                    summary="Cluster operator has not been available for 10 minutes.",
                    description="The monitoring operator may be down or disabled because UpdatingPrometheusFailed, and the components it manages may be unavailable or degraded.  Cluster upgrades may not complete. For more information refer to 'oc get -o yaml clusteroperator monitoring' or https://console-openshift-console.apps.example.com/settings/cluster/.",
                    runbook_url="https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDown.md")
PDB_AT_LIMIT = dict(namespace="openshift-ingress", poddisruptionbudget="router-default",
                    summary="The pod disruption budget is preventing further disruption to pods.",
                    description="The pod disruption budget is at the minimum disruptions allowed level. The number of current healthy pods is equal to the desired healthy pods.",
                    runbook_url="https://github.com/openshift/runbooks/blob/master/alerts/cluster-kube-controller-manager-operator/PodDisruptionBudgetAtLimit.md")


def build():
    # --- plain update lists -----------------------------------------------------------------
    c = CV("4.16.3", T0)
    c.avail(*zs("4.16", 4, 15))
    add("z-stream-all-recommended", c, "4.16.15", "4.16.6", "4.16.99")
    c = CV("4.15.30", T0, channel="stable-4.16")
    c.avail(*zs("4.15", 31, 36), *zs("4.16", 10, 16))
    add("y-and-z-streams", c, "4.16.16", "4.15.33", "4.17.1")
    c = CV("4.14.38", T0, channel="eus-4.16", channels=["eus-4.14", "eus-4.16", "stable-4.14", "stable-4.15", "stable-4.16"])
    c.avail(*zs("4.14", 39, 42), *zs("4.15", 34, 38), *zs("4.16", 15, 19))
    add("eus-channel-three-minors", c, "4.16.19", "4.15.34", "4.14.40")
    c = CV("4.16.14", T0)
    c.avail("4.16.15")
    add("single-update", c, "4.16.15", "4.16.16")
    c = CV("4.16.14", T0)
    c.avail("4.16.17", "4.16.16", "4.16.15")
    add("exactly-three-updates", c, "4.16.15")
    c = CV("4.16.14", T0)
    add("no-updates", c, "4.16.15")
    c = CV("4.17.0-ec.3", T1, channel="candidate-4.17", channels=["candidate-4.17"])
    c.avail("4.17.0-rc.1", "4.17.0-ec.4", "4.17.0-rc.0", "4.17.0", "4.17.1")
    add("prerelease-ordering", c, "4.17.0-rc.1", "4.17.0", "4.17.0-rc.2")
    c = CV("4.19.9", T2, channel="candidate-5.0", channels=["candidate-4.19", "candidate-4.20", "candidate-5.0"])
    c.avail("4.19.10", "4.20.2", "4.20.1", "5.0.0-ec.0", "4.19.11")
    add("next-major-ec", c, "5.0.0-ec.0", "5.1.0", "6.0.0")
    c = CV("4.14.20", T0, channel="stable-4.15")
    c.avail(*zs("4.14", 21, 42), *zs("4.15", 1, 36))
    add("many-releases-two-minors", c, "4.15.36", "4.15.1", "4.14.21")
    c = CV("4.16.3", T0)
    c.available = [release("4.16.5"), {"version": "4.16.x", "image": image("4.16.x")}, release("4.16.4"),
                   {"version": "", "image": image("empty")}]
    add("unparsable-available-version", c, "4.16.5")
    c = CV("4.16.3", T0)
    c.avail("4.16.6", "4.16.5")
    add("version-target-malformed", c, "4.16", "v4.16.5")

    # --- channels, upstream, RetrievedUpdates ----------------------------------------------
    c = CV("4.16.8", T0, channel="", channels=[])
    c.set("RetrievedUpdates", "False", "NoChannel", "The update channel has not been configured.")
    add("no-channel", c, "4.16.9")
    c = CV("4.16.8", T0, upstream="")
    c.avail("4.16.10", "4.16.9")
    add("no-upstream", c, "4.16.9")
    c = CV("4.16.8", T0, channels=[])
    c.avail("4.16.10", "4.16.9")
    add("channel-without-available-channels", c, "4.16.10")
    c = CV("4.16.8", T0, upstream="https://updates.internal.example.com/api/upgrades_info/graph")
    c.set("RetrievedUpdates", "False", "RemoteFailed",
          'Unable to retrieve available updates: Get "https://updates.internal.example.com/api/upgrades_info/graph?arch=amd64&channel=stable-4.16&id=5d3f1a2c&version=4.16.8": dial tcp: lookup updates.internal.example.com on 172.30.0.10:53: no such host')
    add("retrieved-updates-false-remote-failed", c, "4.16.9")
    c = CV("4.16.0-rc.3", T0, channel="stable-4.16")
    c.set("RetrievedUpdates", "False", "VersionNotFound",
          'Unable to retrieve available updates: currently reconciling cluster version 4.16.0-rc.3 not found in the "stable-4.16" channel')
    add("retrieved-updates-false-version-not-found", c, "4.16.0")
    c = CV("4.16.8", T0)
    c.set("RetrievedUpdates", "False", "ResponseFailed",
          'Unable to retrieve available updates: unexpected HTTP status: 503 Service Unavailable')
    c.avail("4.16.11", "4.16.10", "4.16.9")
    add("retrieved-updates-false-stale-updates", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.set("RetrievedUpdates", "Unknown", "ResponseInvalid",
          "Unable to retrieve available updates: invalid JSON: unexpected end of JSON input\nupstream sent an empty body")
    c.avail("4.16.9")
    add("retrieved-updates-unknown-multiline", c, "4.16.9")

    # --- conditional updates ---------------------------------------------------------------
    at = T1 - 2 * H
    c = CV("4.17.8", T1)
    c.avail("4.17.12", "4.17.10")
    c.conditional = [conditional("4.17.14", ["AzureDefaultVMType"], "False", at, rules=PROMQL),
                     conditional("4.17.12", ["AzureDefaultVMType"], "True", at),
                     conditional("4.17.11", ["OVNNetworkPolicyLongName"], "False", at)]
    add("conditional-not-recommended-first", c, "4.17.14", "4.17.12", "4.17.11")
    c = CV("4.17.8", T1)
    c.conditional = [conditional(v, ["AzureDefaultVMType"], "True", at) for v in ("4.17.13", "4.17.12", "4.17.11")]
    add("conditional-recommended-true", c, "4.17.13")
    c = CV("4.17.8", T1)
    c.conditional = [conditional("4.17.13", ["ImageRegistryS3Storage"], "Unknown", at, evaluation_failure=True),
                     conditional("4.17.12", ["ImageRegistryS3Storage"], "Unknown", at, evaluation_failure=True)]
    c.avail("4.17.10")
    add("conditional-evaluation-failed", c, "4.17.13", "4.17.10")
    c = CV("4.17.8", T1)
    c.conditional = [conditional("4.17.13", ["NMStateServiceFailure", "BaremetalProvisioningNetwork"]),
                     conditional("4.17.12", ["NMStateServiceFailure"], None)]
    c.avail("4.17.11")
    add("conditional-risks-without-conditions", c, "4.17.13", "4.17.12")
    c = CV("4.17.8", T1)
    c.conditional = [conditional("4.18.4", ["AzureDefaultVMType", "OVNNetworkPolicyLongName", "NMStateServiceFailure"], "False", at),
                     conditional("4.18.3", ["AzureDefaultVMType", "OVNNetworkPolicyLongName"], "False", at),
                     conditional("4.17.14", ["OVNNetworkPolicyLongName"], "False", at)]
    c.avail("4.17.12", "4.18.2")
    add("conditional-multiple-reasons", c, "4.18.4", "4.18.2")
    c = CV("4.16.10", T0)
    c.conditional = [conditional("4.16.20", ["OVNNetworkPolicyLongName"], "False", at),
                     conditional("4.16.18", ["OVNNetworkPolicyLongName"], "False", at)]
    c.avail("4.16.19", "4.16.17", "4.16.15", "4.16.13")
    add("conditional-interleaved", c, "4.16.18", "4.16.17", "4.16.13")
    c = CV("4.16.10", T0)
    c.conditional = [conditional(v, ["BaremetalProvisioningNetwork"], "False", at) for v in ("4.16.14", "4.16.13", "4.16.12")]
    c.avail("4.17.2", "4.17.1")
    add("conditional-minor-all-not-recommended", c, "4.16.12", "4.17.2")
    c = CV("4.16.10", T0)
    c.avail("4.16.14", "4.16.13", "4.16.12")
    c.conditional = [conditional("4.16.14", ["OVNNetworkPolicyLongName"], "False", at),
                     conditional("4.16.13", ["OVNNetworkPolicyLongName"], "False", at)]
    c.available[0]["image"] = c.conditional[0]["release"]["image"]
    c.available[1]["image"] = c.conditional[1]["release"]["image"]
    add("conditional-same-image-as-available", c, "4.16.14", "4.16.12")
    c = CV("4.18.0-rc.2", T1, channel="candidate-4.18", channels=["candidate-4.18"])
    c.conditional = [conditional("4.18.0-rc.3", ["PreRelease"], "False", at), conditional("4.18.0", ["PreRelease"], "True", at)]
    add("conditional-prerelease-risk", c, "4.18.0-rc.3", "4.18.0")

    # --- Upgradeable=False becomes a risk on minor (not patch) updates --------------------
    admin_ack = ("AdminAckRequired", "Kubernetes 1.29 and therefore OpenShift 4.16 remove several APIs which require admin consideration. Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions.")
    c = CV("4.15.30", T0, channel="stable-4.16")
    c.set("Upgradeable", "False", *admin_ack)
    c.avail(*zs("4.15", 31, 33), *zs("4.16", 12, 14))
    add("upgradeable-false-minor-updates", c, "4.16.14", "4.15.33")
    c = CV("4.13.40", T0, channel="stable-4.14")
    c.set("Upgradeable", "False", "AdminAckRequired", "Kubernetes 1.27 and therefore OpenShift 4.14 remove several APIs which require admin consideration. Please see the knowledge article https://access.redhat.com/articles/6958394 for details and instructions.")
    c.avail("4.13.42", "4.13.41", "4.14.30", "4.14.29")
    add("upgradeable-false-4.13-docs-link", c, "4.14.30")
    c = CV("4.15.30", T0, channel="stable-4.16")
    c.set("Upgradeable", "False", "PoolUpdating", "Cluster operator machine-config should not be upgraded between minor versions: One or more machine config pools are updating, please see `oc get mcp` for further details")
    c.conditional = [conditional("4.16.14", ["AzureDefaultVMType"], "True", at),
                     conditional("4.16.13", ["AzureDefaultVMType"], "False", at),
                     conditional("4.15.33", ["AzureDefaultVMType"], "False", at)]
    c.avail("4.16.12", "4.15.32")
    add("upgradeable-false-and-conditional-updates", c, "4.16.14", "4.16.13", "4.15.33")
    c = CV("4.15.30", T0, channel="stable-4.16")
    c.set("Upgradeable", "False", "ClusterOperatorsNotUpgradeable", "")
    c.conditional = [conditional("4.16.13", ["AzureDefaultVMType"], "True", at)]
    c.avail("4.16.12")
    add("upgradeable-false-empty-message", c, "4.16.13", "4.16.12")
    c = CV("4.16.3", T0)
    c.set("Upgradeable", "False", "DefaultSecurityContextConstraints_Mutated", "Cluster operator kube-apiserver should not be upgraded between minor versions: DefaultSecurityContextConstraintsUpgradeable: Default SecurityContextConstraints object(s) have mutated [privileged]")
    c.avail("4.16.5", "4.16.4")
    add("upgradeable-false-patch-updates-only", c, "4.16.5")
    c = CV("4.16.3", T0, channel="stable-4.17")
    c.desired_version = ""
    c.set("Upgradeable", "False", "PoolUpdating", "One or more machine config pools are updating")
    c.avail("4.17.2", "4.16.5")
    add("upgradeable-false-desired-version-unset", c, "4.17.2")

    # --- the ClusterVersion's own conditions -----------------------------------------------
    c = CV("4.16.8", T0)
    c.set("Failing", "True", "ClusterOperatorDegraded", "Cluster operator network is degraded")
    c.avail("4.16.10", "4.16.9")
    add("failing-true", c, "4.16.10")
    c = CV("4.16.8", T0)
    c.set("Failing", "True", "MultipleErrors", "Multiple errors are preventing progress:\n* Cluster operator authentication is degraded\n* Cluster operator monitoring is not available")
    c.avail("4.16.10")
    add("failing-true-multiline", c, "4.16.10")
    c = CV("4.16.8", T0)
    c.set("Failing", "Unknown", "SlowClusterOperator", "waiting on network over 30 minutes which is longer than expected")
    c.avail("4.16.10")
    add("failing-unknown", c, "4.16.10")
    c = CV("4.16.8", T0)
    c.drop("Failing")
    c.avail("4.16.10")
    add("failing-absent", c, "4.16.10")
    c = CV("4.16.8", T0)
    c.set("Progressing", "True", None, "Working towards 4.16.10: 106 of 903 done (11% complete), waiting on etcd, kube-apiserver")
    c.desired_version = "4.16.10"
    c.avail("4.16.11")
    add("progressing-update-in-progress", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.set("Progressing", "True", None, "")
    c.avail("4.16.11")
    add("progressing-without-message", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.set("Failing", "True", "ClusterOperatorNotAvailable", "Cluster operator monitoring is not available")
    c.set("Progressing", "True", "ClusterOperatorNotAvailable", "Unable to apply 4.16.10: the cluster operator monitoring is not available")
    c.set("Upgradeable", "False", "PoolUpdating", "Cluster operator machine-config should not be upgraded between minor versions: One or more machine config pools are updating, please see `oc get mcp` for further details")
    c.set("RetrievedUpdates", "False", "RemoteFailed", "Unable to retrieve available updates: Get \"https://api.openshift.com/api/upgrades_info/v1/graph\": context deadline exceeded")
    c.avail("4.16.11", "4.17.3")
    c.alerts = [alert("ClusterOperatorDown", "critical", T0 - 30 * M, **CRIT_CO_DOWN)]
    add("everything-wrong-at-once", c, "4.17.3", "4.16.11")
    c = CV("4.16.8", T0)
    c.history = [{"state": "Completed", "version": "4.16.8", "image": image("4.16.8"), "verified": False,
                  "startedTime": ts(T0 - 3 * D), "completionTime": ts(T0 - 3 * D + 75 * M),
                  "acceptedRisks": "Forced through blocking failures: Precondition \"ClusterVersionUpgradeable\" failed because of \"PoolUpdating\": One or more machine config pools are updating"}]
    c.avail("4.16.10", "4.16.9")
    c.conditional = [conditional("4.16.11", ["OVNNetworkPolicyLongName"], "False", at)]
    add("after-forced-update-accepted-risks", c, "4.16.11")

    # --- alerts read by the prechecks -------------------------------------------------------
    base = ["4.16.11", "4.16.10", "4.16.9"]
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = None
    add("alerts-file-absent", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = ""
    add("alerts-file-empty", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = '{"status": "success", "data": {"alerts": [{"labels": {"alertname": '
    add("alerts-file-malformed", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    add("alerts-none-firing", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("ClusterOperatorDown", "critical", T0 - 40 * M, **CRIT_CO_DOWN)]
    add("alerts-critical", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("PodDisruptionBudgetAtLimit", "warning", T0 - 26 * H, **PDB_AT_LIMIT)]
    add("alerts-pdb-at-limit", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("PodDisruptionBudgetLimit", "critical", T0 - 2 * H, namespace="openshift-storage", poddisruptionbudget="rook-ceph-mon-pdb",
                      summary="The pod disruption budget registers insufficient amount of pods.",
                      description="The pod disruption budget is below the minimum disruptions allowed level and is not satisfied. The number of current healthy pods is less than the desired healthy pods.",
                      runbook_url="https://github.com/openshift/runbooks/blob/master/alerts/cluster-kube-controller-manager-operator/PodDisruptionBudgetLimit.md")]
    add("alerts-pdb-limit-critical", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("PodDisruptionBudgetAtLimit", "critical", T0 - 5 * H, **PDB_AT_LIMIT)]
    add("alerts-pdb-at-limit-critical-severity", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("KubeContainerWaiting", "warning", T0 - 70 * M, namespace="openshift-marketplace", pod="redhat-operators-x7k2p", container="registry-server",
                      summary="Pod container waiting longer than 1 hour",
                      description="pod/redhat-operators-x7k2p in namespace openshift-marketplace on container registry-server has been in waiting state for longer than 1 hour. (reason: \"ImagePullBackOff\").")]
    add("alerts-container-waiting", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("KubeNodeNotReady", "warning", T0 - 20 * M, namespace="openshift-monitoring", node="worker-2.lab.example.com",
                      summary="Node is not ready.", description="worker-2.lab.example.com has been unready for more than 15 minutes.",
                      runbook_url="https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/KubeNodeNotReady.md"),
                alert("KubeletHealthState", "warning", T0 - 19 * M, namespace="openshift-machine-config-operator", node="worker-2.lab.example.com",
                      summary="This keeps track of Kubelet health failures, and tallies them. The warning is triggered if 2 or more failures occur.", message="Kubelet health failure threshold reached"),
                alert("KubeNodeReadinessFlapping", "warning", T0 - 18 * M, namespace="openshift-monitoring", node="worker-1.lab.example.com",
                      summary="Node readiness status is flapping.", description="The readiness status of node worker-1.lab.example.com has changed 4 times in the last 15 minutes."),
                alert("KubeNodeUnreachable", "warning", T0 - 17 * M, namespace="openshift-monitoring", node="worker-3.lab.example.com",
                      description="worker-3.lab.example.com is unreachable and some workloads may be rescheduled.")]
    add("alerts-node-alerts", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("CephClusterWarningState", "warning", T0 - 3 * H, namespace="openshift-storage", openShiftUpdatePrecheck="true",
                      summary="Storage cluster is in degraded state", description="Storage cluster is in warning state for more than 15m.")]
    add("alerts-update-precheck-label", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("VirtHandlerDaemonSetRolloutFailing", "warning", T0 - 50 * M, namespace="openshift-cnv",
                      summary="Some virt-handler pods failed to roll out", runbook_url="https://kubevirt.io/monitoring/runbooks/VirtHandlerDaemonSetRolloutFailing"),
                alert("VMCannotBeEvicted", "warning", T0 - 45 * M, namespace="vms", name="rhel9-db-01",
                      description="Eviction policy for VirtualMachine rhel9-db-01 in namespace vms (on node worker-1) is set to Live Migration but the VM is not migratable")]
    add("alerts-virtualization", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("KubeNodeNotReady", "warning", T0 - 3 * M, state="pending", summary="Node is not ready."),
                alert("ClusterOperatorDown", "critical", T0 - 2 * M, state="pending", **CRIT_CO_DOWN),
                {"labels": {"severity": "critical"}, "annotations": {"summary": "an alert without a name"}, "state": "firing",
                 "activeAt": ts(T0 - 9 * M)},
                alert("Watchdog", "none", T0 - 21 * D, namespace="openshift-monitoring", summary="An alert that should always be firing to certify that Alertmanager is working properly."),
                alert("UpdateAvailable", "info", T0 - 2 * D, namespace="openshift-cluster-version", channel="stable-4.16",
                      summary="Your upstream update recommendation service recommends you update your cluster.")]
    add("alerts-ignored", c, "4.16.11")
    c = CV("4.16.8", T0)
    c.avail(*base)
    c.alerts = [alert("etcdMembersDown", "critical", T0 - 9 * M, namespace="openshift-etcd", summary="etcd cluster members are down."),
                alert("KubeAPIDown", "critical", T0 - 8 * M, namespace="openshift-kube-apiserver", summary="Target disappeared from Prometheus target discovery",
                      message="KubeAPI has disappeared from Prometheus target discovery."),
                alert("AlertmanagerFailedToSendAlerts", "critical", T0 - 7 * M, namespace="openshift-monitoring"),
                alert("KubeContainerWaiting", "warning", T0 - 6 * M, namespace="openshift-logging", description="container fluentd waiting", message="ContainerCreating"),
                alert("PodDisruptionBudgetAtLimit", "warning", T0 - 5 * M, namespace="openshift-storage"),
                alert("KubeNodeUnreachable", "critical", T0 - 4 * M, namespace="openshift-monitoring", summary="Node is unreachable."),
                alert("KubeletHealthState", "warning", T0 - 3 * M, summary="Kubelet health failures.")]
    add("alerts-many-kinds", c, "4.16.11", "4.16.9")

    # --- OKD ----------------------------------------------------------------------------------
    c = CV("4.19.0-okd-scos.16", T2, channel="stable-scos-4", upstream=OKD_UPSTREAM, channels=[])
    c.available = [{"version": "4.20.0-okd-scos.ec.14", "image": image("4.20.0-okd-scos.ec.14")}, release("4.19.0-okd-scos.17")]
    c.alerts = [alert("UpdateAvailable", "info", T2 - 30 * M, namespace="openshift-cluster-version")]
    add("okd-scos", c, "4.19.0-okd-scos.17", "4.20.0-okd-scos.ec.14", "4.19.0-okd-scos.18")
    c = CV("4.15.0-0.okd-2024-03-10-010116", T0, channel="stable-4", upstream=OKD_UPSTREAM, channels=["stable-4"])
    c.avail("4.15.0-0.okd-2024-05-31-131237", "4.15.0-0.okd-2024-04-20-151131", "4.16.0-0.okd-2024-07-15-012105")
    add("okd-fcos", c, "4.15.0-0.okd-2024-05-31-131237", "4.16.0-0.okd-2024-07-15-012105")

    # --- file shapes ------------------------------------------------------------------------
    for shape in ("clusterversionlist", "v1-list"):
        c = CV("4.16.8", T0)
        c.shape = shape
        c.avail("4.16.10", "4.16.9")
        add(f"shape-{shape}", c, "4.16.10")


def write_all(out_dir: str) -> int:
    build()
    prune(out_dir, SETS)
    for name, c in SETS.items():
        write_set(out_dir, name, c.files())
    with open(os.path.join(out_dir, "targets.tsv"), "w") as f:
        f.write("# set\t--version targets asked of oc (regen.sh writes NAME.version-V-output for each)\n")
        for name, c in SETS.items():
            f.write(name + "\t" + " ".join(c.targets) + "\n")
    return len(SETS)
