#!/usr/bin/env python3
"""Hostile inputs against valid ones of the same size: time and peak RSS.

Every case of fixtures/bad/ and the large generated cases of the robustness issue (alias
expansion, deep nesting, long histories, same-second log lines, aggregate lists, duplicate
keys) is laid over the good must-gather of fixtures/bad/_base and run with `analyze -j 1`.
The third round's cases are whole inputs run with the verb that reads them (`whole()`):
hostile zips (overlapping entries, a self-extracting stub, a large zip inside a tar.gz),
zstd frames (a 2 GiB window, a flood of skippable frames), scenarios whose aliases expand,
100,000 firing alerts for `status` and 20,000 local rule files for `rules`.
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


def tar_of_base(extra=None):
    """The base must-gather (and `extra`: {relative path: bytes}) as tar bytes."""
    return tar_of(extra, base=True)


def tar_of(files, base=False):
    """`files` ({relative path: bytes}), after the base must-gather when `base`, as tar bytes."""
    import io
    import tarfile
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as t:
        if base:
            t.add(BASE, arcname=".")
        for rel, data in (files or {}).items():
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_of(files, compression):
    import io
    import zipfile
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression, compresslevel=1 if compression else None) as z:
        for rel, data in files:
            z.writestr(rel, data)
    return buf.getvalue()


def base_files():
    out = []
    for d, _, fs in os.walk(BASE):
        for f in sorted(fs):
            p = os.path.join(d, f)
            out.append((os.path.relpath(p, BASE), open(p, "rb").read()))
    return out


def overlapping_zip(n, body):
    """The base must-gather as a zip, plus `n` central-directory names for CVO logs that
    all point at one local entry holding `body`."""
    import struct
    import zipfile
    name = lambda i: LOG.replace("qx7zt", f"o{i:05}")
    one = zip_of(base_files() + [(name(0), body)], zipfile.ZIP_DEFLATED)
    eocd = one.rindex(b"PK\x05\x06")
    cd_at = struct.unpack("<I", one[eocd + 16:eocd + 20])[0]
    entries, at = [], cd_at
    while at < eocd:
        ln = 46 + sum(struct.unpack("<HHH", one[at + 28:at + 34]))
        entries.append(one[at:at + ln])
        at += ln
    last = entries.pop()
    nl = struct.unpack("<H", last[28:30])[0]
    cd = b"".join(entries)
    for i in range(n):
        nm = name(i).encode()
        cd += last[:28] + struct.pack("<H", len(nm)) + last[30:46] + nm + last[46 + nl:]
    count = len(entries) + n
    return one[:cd_at] + cd + b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, count, count, len(cd), cd_at, 0)


def scenario(events):
    seed = open(os.path.join(ROOT, "fixtures", "scenarios", "seed-1822752-blocked-4.3.11-then-return.yaml")).read()
    return seed.split("\nevents:")[0] + "\nevents:\n" + events


def valid_scenario(size):
    """The seed scenario's settings and distinct steady passes, about `size` bytes."""
    out, n, t = [], 0, 0
    while n < size:
        h, rest = divmod(t, 3600)
        line = f'  - {{at: "2020-04-{10 + h // 24:02}T{h % 24:02}:{rest // 60:02}:{rest % 60:02}Z", pass_result: {{ok: true}}}}\n'
        out.append(line)
        n += len(line)
        t += 7
    return scenario("".join(out))


def whole(tmp):
    """The third round's cases: name -> (verb and options, path of the input), built in `tmp`."""
    import json
    import struct
    import subprocess as sp
    import zipfile
    cases = {}

    def put(name, data):
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    log = cvo_log(256 << 10).encode()
    cases["zip-overlapping-2000-names-256KB-body"] = (["analyze"], put("bomb.zip", overlapping_zip(2000, log)))
    cases["zip-self-extracting"] = (
        ["analyze"],
        put("sfx.exe", b"MZ" + os.urandom(64 << 10) + zip_of(base_files() + [(LOG, log)], zipfile.ZIP_DEFLATED)),
    )
    big = zip_of([("pad.bin", os.urandom(150 << 20))] + base_files(), zipfile.ZIP_DEFLATED)
    cases["zip-150MB-inside-tar.gz"] = (["analyze"], put("zip.tar.gz", gzip_fast(tar_of({"upload/mg.zip": big}))))
    del big
    tar = tar_of_base({LOG: log})
    if shutil.which("zstd"):
        z = sp.run(["zstd", "-q", "--long=31", "-c"], input=tar, stdout=sp.PIPE, check=True).stdout
        cases["zstd-window-2GiB"] = (["analyze"], put("long.tar.zst", z))
        z = sp.run(["zstd", "-q", "-c"], input=tar, stdout=sp.PIPE, check=True).stdout
        cases["zstd-300k-skippable-frames"] = (
            ["analyze"],
            put("skip.tar.zst", struct.pack("<II", 0x184D2A50, 0) * 300_000 + z),
        )
    ups = ",".join(f'{{version: 4.3.{i}, image: "quay.io/x@sha256:{i:064x}"}}' for i in range(2000))
    cases["scenario-100k-aliases-of-2000-updates"] = (
        ["reconcile"],
        put("alias-big.yaml", scenario(f'  - &e {{at: "2020-04-09T18:03:41Z", available_updates: {{updates: [{ups}]}}}}\n' + "  - *e\n" * 100_000).encode()),
    )
    cases["scenario-1M-aliases-flat"] = (
        ["reconcile"],
        put("alias-flat.yaml", scenario('  - &e {at: "2020-04-09T18:03:41Z", pass_result: {ok: true}}\n' + "  - *e\n" * 1_000_000).encode()),
    )
    src = os.path.join(ROOT, "fixtures", "oc", "status", "alerts-active-at-update-start")
    alerts = os.path.join(tmp, "alerts")
    shutil.copytree(src, alerts)
    doc = json.load(open(os.path.join(src, "alerts-active-at-update-start-alerts.json")))
    one = doc["data"]["alerts"][0]
    doc["data"]["alerts"] = [
        dict(one, labels=dict(one["labels"], alertname=f"Alert{i}", pod=f"pod-{i}"), state="firing")
        for i in range(100_000)
    ]
    with open(os.path.join(alerts, "alerts-active-at-update-start-alerts.json"), "w") as f:
        json.dump(doc, f, indent=1)
    cases["status-100k-firing-alerts"] = (["status"], alerts)
    rules = os.path.join(tmp, "rules")
    os.makedirs(rules)
    for i in range(20_000):
        with open(os.path.join(rules, f"r{i:06}.yaml"), "w") as f:
            f.write(f"code: X-T-{i:06}\nname: rule-{i}\nseverity: warning\nsummary: s\nhelp: h\nmessage: m\nmatch:\n  objects:\n    kind: ClusterVersion\n")
    cases["rules-20000-local-files"] = (["rules", "--no-bundled-rules", "--rules"], rules)
    return cases


def gzip_fast(data):
    import gzip
    return gzip.compress(data, compresslevel=1)


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
    """Median wall time and the largest peak RSS (MB) of `runs` runs; `verb` is the verb and
    its options (a string or a list)."""
    verb = [verb] if isinstance(verb, str) else verb
    # `reconcile` and `rules` run on one thread and take no -j.
    threads = [] if verb[0] in ("reconcile", "rules") else ["-j", "1"]
    if verb[0] == "analyze":
        # Hostile inputs hold files that cannot be read on purpose: the rest is analysed.
        threads.append("--partial")
    times, rss = [], 0
    for _ in range(runs):
        # The peak RSS through GNU time: a child forked from this process starts with this
        # process's peak (Linux carries it over the exec), which is not mglint's.
        with tempfile.NamedTemporaryFile("r") as peak:
            t0 = time.monotonic()
            p = subprocess.run(
                ["/usr/bin/time", "-f", "%M", "-o", peak.name, binary, verb[0], *threads, *verb[1:], path],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            times.append(time.monotonic() - t0)
            lines = peak.read().split()
        rss = max(rss, int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else 0)
        code = p.returncode
        if code not in (0, 1) and not (code == 2 and verb[0] in ("reconcile", "rules")):
            # A hostile scenario refused, or rule files over the bound named, with exit 2 is
            # the bound working.
            return None, rss, code
    times.sort()
    return times[len(times) // 2], rss, 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--build-whole":
        import json
        print(json.dumps(whole(sys.argv[2])))
        return 0
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
        built = os.path.join(tmp, "whole")
        os.makedirs(built)
        # Built by a child process: a child's peak RSS starts at its parent's at fork, so this
        # process must not hold the large inputs while it measures.
        listed = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--build-whole", built],
            stdout=subprocess.PIPE,
            check=True,
        ).stdout
        import json
        for name, (verb, path) in json.loads(listed).items():
            if a.only and a.only not in name:
                continue
            size = size_of(path) if os.path.isdir(path) else os.path.getsize(path)
            good = os.path.join(tmp, "good")
            if verb[0] == "reconcile":
                # A scenario is measured against a valid scenario of its size (distinct
                # events: what loading and running that much text costs).
                good += ".yaml"
                with open(good, "w") as f:
                    f.write(valid_scenario(size))
                t_good, _, _ = run(a.binary, "reconcile", good, a.runs)
                os.remove(good)
            elif verb[0] == "rules":
                # Many files against many files: the base plus as many healthy
                # ClusterOperator files, as big together as the rule files.
                n = len(os.listdir(path))
                lay(good)
                item = healthy_co_list(max(size // n, 1))
                for i in range(n):
                    with open(os.path.join(good, CO, f"op{i:06}.yaml"), "w") as f:
                        f.write(item)
                t_good, _, _ = run(a.binary, "summary", good, a.runs)
                shutil.rmtree(good)
            else:
                lay(good)
                os.makedirs(os.path.dirname(os.path.join(good, LOG)), exist_ok=True)
                with open(os.path.join(good, LOG), "w") as f:
                    # Written in pieces: this process stays small (see `run`).
                    for _ in range(max(size // (4 << 20), 1)):
                        f.write(cvo_log(min(size, 4 << 20)))
                t_good, _, _ = run(a.binary, "summary", good, a.runs)
                shutil.rmtree(good)
            t_bad, rss, code = run(a.binary, verb, path, a.runs)
            label = f"{name} ({verb[0]})"
            if t_bad is None:
                over.append(name)
                print(f"{label:44} {size:>9} exit {code}")
                continue
            ratio = t_bad / max(t_good, 1e-3)
            flag = " <-" if ratio > 10 or rss > 512 else ""
            if flag:
                over.append(name)
            print(f"{label:44} {size:>9} {t_bad:>7.3f}s {t_good:>7.3f}s {ratio:>5.1f}x {rss:>7.0f}{flag}")
    print("summary*: `summary` on the base plus a valid CVO log or ClusterOperator list as big as the case's files")
    print("  (for `reconcile` cases: `reconcile` on a valid scenario of steady passes as big as the case;")
    print("  for `rules` cases: the base plus as many ClusterOperator files, as big together)")
    print(f"over 10x or 512 MB: {', '.join(over) if over else 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
