#!/usr/bin/env bash
# Regenerates fixtures/oc: writes the input sets (generate.py), then asks oc's own code what it
# prints for each, through the oracle of ../shared/tools/oc-oracle (built once per machine into
# $ORACLE_HOME, outside the repo, as its README says), and keeps oc's outputs beside the inputs.
# Those files are oc's (openshift/oc 6b8e30c5): never edit them by hand.
#
# status/<NAME>/ (oc adm upgrade status --mock-clusterversion=examples/NAME-cv.yaml):
#   NAME.output                 --details=none (oc's default)
#   NAME.detailed-output        --details=all
#   NAME.<form>.err             present when oc returned an error for that form (oc exits 1);
#                               NAME.<form> then holds what it printed before the error
#   NAME.<form>.stray           what oc printed to the process's stdout outside its report
#                               (e.g. "Unable to fetch alerts, ignoring alerts in 'Update Health'")
# recommend/<NAME>/ (oc adm upgrade recommend --mock-clusterversion=examples/NAME-cv.yaml):
#   NAME.output                 no flags
#   NAME.show-outdated-releases-output    --show-outdated-releases
#   NAME.version-V-output       --version V, for each V listed for NAME in recommend/targets.tsv;
#                               an error is appended as "\nerror: ...\n", as in oc's own goldens,
#                               and means oc exits 1
#   NAME.<form>.stderr          what oc wrote to its standard error (warnings)
# status-oc-crashes/<NAME>/:
#   NAME.oc-crash.txt           the panic oc's status code dies with (no outputs: oc has none)
#
# Side files are kept only when not empty. Usage: ORACLE_HOME=/path/to/oracle scripts/oc-sets/regen.sh
set -euo pipefail
: "${ORACLE_HOME:?build ../shared/tools/oc-oracle (see its README) and set ORACLE_HOME}"
oracle=$ORACLE_HOME/oc-oracle.sh
cd "$(dirname "$0")/../.."
python3 scripts/oc-sets/generate.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failed=()

# keep SRC as DST when it is a report, or a non-empty side file
keep() {
  case $1 in
    *.err|*.stray|*.stderr) [ -s "$1" ] || return 0 ;;
  esac
  cp "$1" "$2"
}

n=0
for set in fixtures/oc/status/*/; do
  set=${set%/}; name=${set##*/}
  rm -f "$set/$name".*
  out=$tmp/status/$name
  if ! "$oracle" -o "$out" "$set" >/dev/null 2>"$tmp/stderr"; then
    failed+=("status/$name: $(head -c 300 "$tmp/stderr")"); continue
  fi
  for f in "$out"/status.*; do
    b=${f##*/}
    keep "$f" "$set/$name${b#status}"
  done
  n=$((n + 1))
done
echo "status: $n sets"

n=0
while IFS=$'\t' read -r name targets; do
  case $name in ''|'#'*) continue ;; esac
  set=fixtures/oc/recommend/$name
  rm -f "$set/$name".*
  first=1
  for v in $targets; do
    out=$tmp/recommend/$name/$v
    if ! "$oracle" -v "$v" -o "$out" "$set" >/dev/null 2>"$tmp/stderr"; then
      failed+=("recommend/$name --version $v: $(head -c 300 "$tmp/stderr")"); continue
    fi
    for f in "$out"/recommend.*; do
      b=${f##*/}
      case $b in
        recommend.version-*) keep "$f" "$set/$name${b#recommend}" ;;
        *) [ $first = 1 ] && keep "$f" "$set/$name${b#recommend}" ;;
      esac
    done
    first=0
  done
  n=$((n + 1))
done < fixtures/oc/recommend/targets.tsv
echo "recommend: $n sets"

n=0
for set in fixtures/oc/status-oc-crashes/*/; do
  set=${set%/}; name=${set##*/}
  rm -f "$set/$name".*
  if "$oracle" -f status "$set" >/dev/null 2>"$tmp/stderr"; then
    failed+=("status-oc-crashes/$name: oc did not crash"); continue
  fi
  # The panic and oc's own frames, without addresses, goroutine numbers or this machine's paths.
  python3 - "$tmp/stderr" >"$set/$name.oc-crash.txt" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
out = []
for i, l in enumerate(lines):
    if l.startswith("panic: ") and not out:
        out.append(re.sub(r" \[recovered[^]]*\]", "", l))
    elif l.startswith("[signal "):
        out.append(re.sub(r"addr=0x[0-9a-f]+ pc=0x[0-9a-f]+", "addr=... pc=...", l))
    elif l.startswith("github.com/openshift/oc/pkg/cli/admin/upgrade/") and "Oracle" not in l and "oracleCapture" not in l:
        out.append(re.sub(r"\((0x|\{|_|\)).*$", "(...)", l))
        loc = lines[i + 1] if i + 1 < len(lines) else ""
        out.append("\t" + re.sub(r"^.*/(pkg/cli/admin/upgrade/)", r"\1", loc.strip()).split(" +0x")[0])
print("\n".join(out))
PY
  n=$((n + 1))
done
echo "status-oc-crashes: $n sets"

if [ ${#failed[@]} -gt 0 ]; then
  printf 'oracle failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
