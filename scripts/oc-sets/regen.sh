#!/usr/bin/env bash
# Regenerates fixtures/oc/status: writes the sets (generate.py), then asks oc's own status
# code what it prints for each (the oracle of ../shared/tools/oc-oracle, built once per
# machine into $ORACLE_HOME, outside the repo) and keeps oc's outputs beside the inputs:
# NAME.output (`oc adm upgrade status`), NAME.detailed-output (`--details=all`), and, when
# oc wrote them, NAME.stray (what oc prints outside the report, e.g. "Unable to fetch
# alerts") and NAME.<form>.err (oc's error). Those files are oc's, never edited by hand.
set -euo pipefail
: "${ORACLE_HOME:?build ../shared/tools/oc-oracle (see its README) and set ORACLE_HOME}"
cd "$(dirname "$0")/../.."
python3 scripts/oc-sets/generate.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
for set in fixtures/oc/status/*/; do
  name=$(basename "$set")
  rm -f "$set/$name".*
  "$ORACLE_HOME/oc-oracle.sh" -o "$tmp/$name" "$set" >/dev/null
  for form in output detailed-output; do
    [ -f "$tmp/$name/status.$form" ] && cp "$tmp/$name/status.$form" "$set/$name.$form"
    [ -s "$tmp/$name/status.$form.err" ] && cp "$tmp/$name/status.$form.err" "$set/$name.$form.err"
  done
  for f in "$tmp/$name"/status.*stray; do
    [ -s "$f" ] && cp "$f" "$set/$name.stray"
  done
  n=$((n + 1))
done
echo "$n sets: oc's outputs written"
