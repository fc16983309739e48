#!/bin/sh
# Regenerates the bundled update-risk catalogue, rules/update-risks/catalogue.json, from a
# checkout of https://github.com/openshift/cincinnati-graph-data (its blocked-edges/*.yaml),
# recording the checkout's commit:
#
#   git clone https://github.com/openshift/cincinnati-graph-data /tmp/cgd
#   scripts/refresh-risks.sh /tmp/cgd [COMMIT]
#
# COMMIT is read from the checkout's .git when not given. Review the diff (new risks, new
# metrics in docs/risks.md) and run `cargo test --lib risks` before committing it.
set -eu
checkout=${1:?usage: scripts/refresh-risks.sh CHECKOUT [COMMIT]}
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/rules/update-risks/catalogue.json"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
cargo run --quiet --manifest-path "$root/Cargo.toml" --example refresh_risks -- "$checkout" ${2:+"$2"} >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out" >&2
