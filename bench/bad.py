#!/usr/bin/env python3
"""Hostile inputs against valid ones of the same size: time and peak RSS.

Every case of fixtures/bad/ and the large generated cases of the robustness issue (alias
expansion, deep nesting, long histories, same-second log lines, aggregate lists, duplicate
keys) is laid over the good must-gather of fixtures/bad/_base and run with `analyze -j 1`.
Each is compared with `summary -j 1` on a valid input of the same kind and size (the same base
plus a realistic CVO log, or a healthy ClusterOperator list, as big as the case's files),
measured in the same run. The bound the
robustness issue sets: at most 10x that time and at most 512 MB.

    cargo build --release && bench/bad.py [--binary target/release/mglint] [--runs 3]
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAD = os.path.join(ROOT, "fixtures", "bad")
BASE = os.path.join(BAD, "_base")
MG = "must-gather.local.3319502838477283711/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1f2e3d4c5b6a79880f1e2d3c4b5a69788f9e0d1c2b3a4958677f8e9d0c1b2a39"
CSR = MG + "/cluster-scoped-resources"
CO = CSR + "/config.openshift.io/clusteroperators"
LOG = MG + "/namespaces/openshift-cluster-version/pods/cluster-version-operator-5b8f9c7d6-qx7zt/cluster-version-operator/cluster-version-operator/logs/current.log"
CV = CSR + "/config.openshift.io/clusterversions/version.yaml"


def cvo_log(size):
    """A realistic CVO log of about `size` bytes: sync passes, manifests, status syncs."""
    lines = []
    n = 0
    t = 0
    while n < size:
        h, m, s = (t // 3600) % 24, (t // 60) % 60, t % 60
        stamp = f"2019-10-14T{h:02}:{m:02}:{s:02}.{t % 999983:06}000Z I1014 {h:02}:{m:02}:{s:02}.{t % 999983:06}"
        for msg in (
            "sync_worker.go:471] Running sync 4.1.18 (force=false) on generation 3 in state Reconciling at attempt 0",
            f"sync_worker.go:596] Running sync for deployment \"openshift-x/op{t % 400}\" ({t % 400} of 400)",
            f"sync_worker.go:609] Done syncing for deployment \"openshift-x/op{t % 400}\" ({t % 400} of 400)",
            "cvo.go:442] Finished syncing cluster version \"openshift-cluster-version/version\" (150.2µs)",
        ):
            line = f"{stamp}       1 {msg}\n"
            lines.append(line)
            n += len(line)
        t += 1
    return "".join(lines)


def cv_with_history(n):
    base = open(os.path.join(BASE, CV)).read()
    a = base.index("  history:\n") + len("  history:\n")
    b = base.index("  conditions:\n")
    entries = "".join(
        f'  - state: Completed\n    startedTime: "2019-10-14T03:00:00Z"\n    completionTime: "2019-10-14T03:00:01Z"\n    version: 4.1.{i}\n    image: quay.io/x@sha256:{i:064x}\n    verified: false\n'
        for i in range(n, 0, -1)
    )
    return base[:a] + entries + base[b:]


def co_list(n):
    items = "".join(
        f'- apiVersion: config.openshift.io/v1\n  kind: ClusterOperator\n  metadata:\n    name: op{i}\n  status:\n    conditions:\n    - type: Available\n      status: "False"\n      lastTransitionTime: "2019-10-14T03:10:02Z"\n      message: down\n    - type: Degraded\n      status: "True"\n      lastTransitionTime: "2019-10-14T03:10:02Z"\n    versions:\n    - name: operator\n      version: 4.1.18\n'
        for i in range(n)
    )
    return f"---\napiVersion: config.openshift.io/v1\nitems:\n{items}kind: ClusterOperatorList\n"


def nodes(n):
    items = "".join(
        f'- apiVersion: v1\n  kind: Node\n  metadata:\n    name: node-{i}\n    labels:\n      node-role.kubernetes.io/worker: ""\n  status:\n    conditions:\n    - type: Ready\n      status: "False"\n      lastTransitionTime: "2019-10-14T03:10:02Z"\n      reason: KubeletNotReady\n      message: not ready\n    nodeInfo:\n      kubeletVersion: v1.13.4\n'
        for i in range(n)
    )
    return f"---\napiVersion: v1\nitems:\n{items}kind: NodeList\n"


def healthy_co_list(size):
    """A healthy aggregate ClusterOperator list of about `size` bytes."""
    item = '- apiVersion: config.openshift.io/v1\n  kind: ClusterOperator\n  metadata:\n    name: op{i}\n  status:\n    conditions:\n    - type: Available\n      status: "True"\n      lastTransitionTime: "2019-10-14T03:10:02Z"\n    - type: Degraded\n      status: "False"\n      lastTransitionTime: "2019-10-14T03:10:02Z"\n    versions:\n    - name: operator\n      version: 4.1.18\n'
    items, n, i = [], 0, 0
    while n < size:
        it = item.format(i=i)
        items.append(it)
        n += len(it)
        i += 1
    return "---\napiVersion: config.openshift.io/v1\nitems:\n" + "".join(items) + "kind: ClusterOperatorList\n"


def valid_like(files_dir, files, size):
    """A valid input of the same kind and size as a case: a CVO log when the case's largest
    file is a log, else a healthy ClusterOperator list."""
    own = [(rel, len(text)) for rel, text in (files or {}).items()]
    if files_dir:
        for d, _, fs in os.walk(files_dir):
            own += [(f, os.path.getsize(os.path.join(d, f))) for f in fs]
    largest = max(own, key=lambda x: x[1], default=("", 0))[0]
    if largest.endswith(".log"):
        return {LOG: cvo_log(size)}
    return {CSR + "/config.openshift.io/clusteroperators.yaml": healthy_co_list(size)}


def generated():
    """The large cases: name -> {relative path: text}."""
    same = "2019-10-14T03:43:20.114225013Z I1014 03:43:20.114120       1 sync_worker.go:471] Running sync 4.1.18 (force=false) on generation 3 in state Updating at attempt 0\n"
    aliases = ",".join(["*a"] * 10_000)
    return {
        "gen-alias-expansion-10^8": {
            CO + "/lol.yaml": "kind: ClusterOperator\nmetadata:\n  name: lol\nanchor: &a ["
            + ",".join(["x"] * 10_000)
            + f"]\nstatus:\n  many: [{aliases}]\n"
        },
        "gen-flow-nesting-100k": {
            CO + "/deep.yaml": "kind: ClusterOperator\nmetadata:\n  name: deep\nstatus: "
            + "[" * 100_000
            + "]" * 100_000
            + "\n"
        },
        "gen-history-4000-same-times": {CV: cv_with_history(4000)},
        "gen-same-second-log-20MB": {LOG: same * (20_000_000 // len(same))},
        "gen-co-list-10k": {CSR + "/config.openshift.io/clusteroperators.yaml": co_list(10_000)},
        "gen-notready-nodes-5000": {CSR + "/core/nodes.yaml": nodes(5000)},
        "gen-duplicate-keys-200k": {
            CO + "/etcd.yaml": "kind: ClusterOperator\nmetadata:\n  name: etcd\n  labels:\n"
            + "    a: b\n" * 200_000
        },
    }


def lay(dest, files_dir=None, files=None):
    shutil.copytree(BASE, dest, dirs_exist_ok=True)
    if files_dir:
        shutil.copytree(files_dir, dest, dirs_exist_ok=True)
    for rel, text in (files or {}).items():
        p = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)


def size_of(path):
    total = 0
    for d, _, fs in os.walk(path):
        for f in fs:
            total += os.path.getsize(os.path.join(d, f))
    return total


def run(binary, verb, path, runs):
    """Median wall time and the largest peak RSS (MB) of `runs` runs."""
    times, rss = [], 0
    for _ in range(runs):
        t0 = time.monotonic()
        p = subprocess.Popen(
            [binary, verb, "-j", "1", path],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _, status, ru = os.wait4(p.pid, 0)
        times.append(time.monotonic() - t0)
        rss = max(rss, ru.ru_maxrss / 1024)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            return None, rss, code
    times.sort()
    return times[len(times) // 2], rss, 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "mglint"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="", help="run only cases whose name contains this")
    a = ap.parse_args()
    cases = []
    for name in sorted(os.listdir(BAD)):
        p = os.path.join(BAD, name)
        if os.path.isdir(p) and not name.startswith("_"):
            cases.append((name, os.path.join(p, "files"), None))
    cases += [(n, None, f) for n, f in generated().items()]
    base_size = size_of(BASE)
    over = []
    print(f"{'case':44} {'size':>9} {'analyze':>8} {'summary*':>8} {'ratio':>6} {'RSS MB':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, files_dir, files in cases:
            if a.only and a.only not in name:
                continue
            bad = os.path.join(tmp, "bad")
            good = os.path.join(tmp, "good")
            lay(bad, files_dir, files)
            extra = max(size_of(bad) - base_size, 0)
            lay(good, files=valid_like(files_dir, files, extra))
            t_bad, rss, code = run(a.binary, "analyze", bad, a.runs)
            t_good, _, _ = run(a.binary, "summary", good, a.runs)
            if t_bad is None:
                over.append(name)
                print(f"{name:44} {extra:>9} exit {code}")
            else:
                ratio = t_bad / max(t_good, 1e-3)
                flag = " <-" if ratio > 10 or rss > 512 else ""
                if flag:
                    over.append(name)
                print(
                    f"{name:44} {extra:>9} {t_bad:>7.3f}s {t_good:>7.3f}s {ratio:>5.1f}x {rss:>7.0f}{flag}"
                )
            shutil.rmtree(bad)
            shutil.rmtree(good)
    print("summary*: `summary` on the base plus a valid CVO log or ClusterOperator list as big as the case's files")
    print(f"over 10x or 512 MB: {', '.join(over) if over else 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
