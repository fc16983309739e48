#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600) from its committed seeds and the working
# corpus, with the structure dictionaries, and prints one line per target: runs, coverage,
# corpus size, and whether it found anything. Needs cargo-fuzz and a nightly toolchain.
set -u
cd "$(dirname "$0")"
secs=${1:-600}
targets=${TARGETS:-"archive tar resources scenario rulefile junit intervals klog klog_blocks gzip textlog listing git"}
cargo +nightly fuzz build -O >/dev/null 2>&1 || { echo "fuzz build failed"; exit 1; }
echo "built at $(git -C .. rev-parse --short HEAD)$(git -C .. diff --quiet -- src || echo ' (with uncommitted changes)')"
for t in $targets; do
  dict=""
  case $t in
    resources|scenario|rulefile) dict="-dict=dicts/yaml.dict" ;;
    archive|tar) dict="-dict=dicts/tar.dict" ;;
  esac
  mkdir -p "corpus/$t" "artifacts/$t" logs
  # The binaries built once above: every target runs on the same build of mglint.
  "target/x86_64-unknown-linux-gnu/release/$t" -artifact_prefix="artifacts/$t/" \
    "corpus/$t" "seeds/$t" \
    -max_total_time="$secs" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 $dict \
    >"logs/$t.log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]*' "logs/$t.log" | tail -1 | grep -o '[0-9]*')
  printf '%-10s exit %-3s runs %-10s cov %-6s corpus %s\n' "$t" "$rc" "${runs:-?}" "${cov:-?}" \
    "$(ls "corpus/$t" | wc -l)"
done
