#!/usr/bin/env bash
# Performance benchmark for mglint (not a test). Prints Markdown tables of ratios, each figure
# against a reference measured in the same run on the same machine.
#
#   bench/run.sh [SIZE...]        default sizes: 100M 1G 4G
#
# For each size it generates (once, cached in $MGLINT_BENCH_DATA, default target/bench-data) a
# deterministic must-gather directory and a .tar.gz of it, and a directory of $STEADY (default
# 4G; empty for none) whose CVO log is a year of steady reconcile passes (`steady`, the
# repetitive case), with the rate at which one core ingests that log. With a warm page
# cache it measures the median of $RUNS runs (default 3, after a warm-up) of:
#   - directories: `analyze` against `cat` of the whole tree; `-j 1` against `-j 2`; peak RSS;
#   - archives: `analyze` against decompressing the same file alone with mglint's own inflater
#     (the `inflate` example: same crate, same backend), against `igzip -dc` / `xz -dc`
#     when installed; peak RSS (gzip through ISA-L when libisal is installed, see FEATURES);
#   - the real must-gathers of ../shared/corpus (directory and .tar.xz);
#   - `batch` over 200 generated CI jobs with 1 and 2 threads (benches/batch.rs);
#   - `batch` over 1,000 CI jobs served by the tests' loopback GCS look-alike: jobs per second,
#     bytes fetched per job, peak RSS, growth from 100 to 1,000 jobs; and a job whose
#     ClusterVersion and CVO log are only in a 200 MB must-gather.tar, read by range requests
#     (benches/batch_remote.rs; its generated data lives in a temporary directory, removed);
#   - `analyze` with and without the bundled known-issue catalogue (`--no-bundled-rules`).
# Needs GNU time. Set SKIP_BATCH=1 to skip the batch benches, SKIP_REMOTE=1 the remote one.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(100M 1G 4G)
DATA=${MGLINT_BENCH_DATA:-target/bench-data}
RUNS=${RUNS:-3}
# The size of the steady-passes directory (empty: none).
STEADY=${STEADY-4G}
mkdir -p "$DATA"
# With the system's ISA-L (Debian's libisal-dev) mglint is built with the `isal` feature, as a
# user with the library would build it; INFLATER=zlib-rs builds without it.
FEATURES=()
if [ "${INFLATER:-}" != zlib-rs ] && [ -e /usr/include/isa-l.h ]; then
    FEATURES=(--features isal)
fi
cargo build --release --quiet "${FEATURES[@]}" --bin mglint --example gen_mustgather --example inflate
BIN=target/release/mglint
INFLATE=target/release/examples/inflate

# GNU time's report, in a file of this run's own (the data directory may be shared).
TIMES=$(mktemp)
trap 'rm -f "$TIMES"' EXIT

# median CMD...: prints "seconds peak_kb" (median wall time of $RUNS runs after a warm-up,
# and the largest peak RSS seen).
median() {
    "$@" >/dev/null 2>&1 || true
    local ts=() mem=0
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M" -o "$TIMES" "$@" >/dev/null 2>&1 || true
        local out
        out=$(tail -n 1 "$TIMES")
        ts+=("${out% *}")
        [ "${out#* }" -gt "$mem" ] && mem=${out#* }
    done
    printf '%s\n' "${ts[@]}" | sort -g | awk -v m="$mem" '{a[NR]=$1} END {print a[int((NR+1)/2)], m}'
}

# medians "CMD A" "CMD B" ...: prints the median wall time of $RUNS runs of each shell
# command, in the order given, run in turn (A, B, ..., A, B, ...) after a warm-up of each, so
# that a change in the machine's load touches all alike (the ratio of two medians taken one
# after the other moved by a quarter between runs on a shared machine).
medians() {
    local c i n=$#
    for c in "$@"; do sh -c "$c" >/dev/null 2>&1 || true; done
    local -a ts
    for _ in $(seq "$RUNS"); do
        i=0
        for c in "$@"; do
            /usr/bin/time -f "%e" -o "$TIMES" sh -c "$c" >/dev/null 2>&1 || true
            ts[i]="${ts[i]:-} $(tail -n 1 "$TIMES")"
            i=$((i + 1))
        done
    done
    local out=()
    for ((i = 0; i < n; i++)); do
        out+=("$(printf '%s\n' ${ts[i]} | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')")
    done
    echo "${out[*]}"
}

ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2fx\", $1 / $2; else print \"-\" }"; }
mb() { echo "$(( $1 / 1024 )) MB"; }

DIR_ROWS=()
ARC_ROWS=()

dir_row() { # label dir
    local label=$1 dir=$2
    read -r a_t a_m < <(median "$BIN" analyze --format json "$dir")
    read -r one_t two_t < <(medians "'$BIN' analyze -j 1 --format json '$dir'" "'$BIN' analyze -j 2 --format json '$dir'")
    read -r cat_t _ < <(median sh -c "find '$dir' -type f -print0 | xargs -0 cat")
    local size
    size=$(du -sb "$dir" | cut -f1)
    DIR_ROWS+=("| $label | $((size / 1000000)) MB | $a_t s | $cat_t s | **$(ratio "$a_t" "$cat_t")** | $one_t s / $two_t s | **$(ratio "$one_t" "$two_t")** | $(mb "$a_m") |")
    echo "${DIR_ROWS[-1]}" >&2
}

arc_row() { # label file
    local label=$1 f=$2 ref_name ref_t="" ref
    read -r _ a_m < <(median "$BIN" analyze --format json "$f")
    case "$f" in
        *.gz) ref_name=igzip; ref="igzip -dc" ;;
        *.xz) ref_name=xz; ref="xz -T1 -dc" ;;
        *) ref_name=-; ref="" ;;
    esac
    # analyze, mglint's inflater and the reference inflater in turn (times); peak RSS above.
    if [ -n "$ref" ] && command -v "${ref%% *}" >/dev/null; then
        read -r a_t inf_t ref_t < <(medians "'$BIN' analyze --format json '$f'" "'$INFLATE' '$f'" "$ref '$f'")
    else
        read -r a_t inf_t < <(medians "'$BIN' analyze --format json '$f'" "'$INFLATE' '$f'")
    fi
    local size
    size=$(stat -c %s "$f")
    if [ -n "$ref_t" ]; then
        ARC_ROWS+=("| $label | $((size / 1000000)) MB | $a_t s | $inf_t s | **$(ratio "$a_t" "$inf_t")** | $ref_name $ref_t s | **$(ratio "$a_t" "$ref_t")** | $(mb "$a_m") |")
    else
        ARC_ROWS+=("| $label | $((size / 1000000)) MB | $a_t s | $inf_t s | **$(ratio "$a_t" "$inf_t")** | $ref_name not installed | - | $(mb "$a_m") |")
    fi
    echo "${ARC_ROWS[-1]}" >&2
}

gen() { # size dir [steady]
    if [ ! -d "$2" ]; then
        target/release/examples/gen_mustgather "$1" "$2.tmp" ${3:-} >/dev/null && mv "$2.tmp" "$2"
    fi
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1 /proc/loadavg)"
echo "mglint $($BIN --version | cut -d' ' -f2) (gzip: $("$INFLATE" /dev/null 2>&1 >/dev/null | sed -n 's/^inflater: //p')), median of $RUNS runs, warm page cache"
echo

CORPUS=../shared/corpus/must-gathers
if [ -d "$CORPUS" ]; then
    for n in must-gather-aws must-gather-metal; do
        if [ ! -d "$DATA/$n" ]; then
            mkdir -p "$DATA/$n" && tar -C "$DATA/$n" -xJf "$CORPUS/$n.tar.xz"
        fi
        dir_row "$n (real)" "$DATA/$n"
        arc_row "$n.tar.xz (real)" "$CORPUS/$n.tar.xz"
    done
fi
for s in "${SIZES[@]}"; do
    dir="$DATA/mg-$s"
    gen "$s" "$dir"
    if [ ! -f "$dir.tar.gz" ]; then
        tar -C "$dir" -czf "$dir.tar.gz.tmp" . && mv "$dir.tar.gz.tmp" "$dir.tar.gz"
    fi
    dir_row "generated $s" "$dir"
    arc_row "generated $s .tar.gz" "$dir.tar.gz"
done
# The repetitive case: a directory whose CVO log is a year of steady passes, and the rate at
# which one core ingests that log (`summary -j 1`: reading, parsing and coding its records).
STEADY_LINE=""
if [ -n "$STEADY" ]; then
    sd="$DATA/mg-$STEADY-steady"
    gen "$STEADY" "$sd" steady
    dir_row "generated $STEADY, a year of steady passes" "$sd"
    log=$(find "$sd" -name current.log -path '*cluster-version-operator*' -size +1M | head -n 1)
    read -r sum_t _ < <(median "$BIN" summary -j 1 "$sd")
    log_mb=$(( $(stat -c %s "$log") / 1000000 ))
    STEADY_LINE="### CVO log ingest on one core: ${log_mb} MB of log in the steady directory, \`summary -j 1\` $sum_t s: **$(awk "BEGIN{printf \"%.0f\", $log_mb / $sum_t}") MB/s** (the whole directory, so a lower bound)"
fi

echo "### Directories: analyze against cat of the whole tree, 1 thread against 2"
echo
echo "| input | size | analyze | cat whole tree | ratio | -j 1 / -j 2 | speed-up | peak RSS |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${DIR_ROWS[@]}"
echo
if [ -n "$STEADY_LINE" ]; then
    echo "$STEADY_LINE"
    echo
fi
echo "### Archives: analyze against decompression alone"
echo
echo "| input | size | analyze | mglint's inflater alone | ratio | fastest inflater | ratio | peak RSS |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${ARC_ROWS[@]}"
echo

# The known-issue catalogue's cost: analyze with it and without it, on the real dumps (their
# directory and .tar.xz) and on the largest generated directory.
if [ -d "$CORPUS" ]; then
    echo "### Known-issue catalogue on the real must-gathers: with it against without it (--no-bundled-rules)"
    echo
    echo "| input | with | without | ratio | peak RSS with | peak RSS without |"
    echo "|---|---|---|---|---|---|"
    for n in must-gather-aws must-gather-metal; do
        for input in "$DATA/$n" "$CORPUS/$n.tar.xz"; do
            read -r w_t w_m < <(median "$BIN" analyze --format json "$input")
            read -r o_t o_m < <(median "$BIN" analyze --no-bundled-rules --format json "$input")
            echo "| $(basename "$input") | $w_t s | $o_t s | **$(ratio "$w_t" "$o_t")** | $((w_m / 1024)) MB | $((o_m / 1024)) MB |"
        done
    done
    echo
fi
big="$DATA/mg-${SIZES[${#SIZES[@]}-1]}"
for s in "${SIZES[@]}"; do [ "$s" = 1G ] && big="$DATA/mg-1G"; done
read -r with_t _ < <(median "$BIN" analyze --format json "$big")
read -r without_t _ < <(median "$BIN" analyze --no-bundled-rules --format json "$big")
echo "### Known-issue catalogue on $(basename "$big"): with $with_t s, without (--no-bundled-rules) $without_t s: **$(ratio "$with_t" "$without_t")**"
echo

if [ -z "${SKIP_BATCH:-}" ]; then
    echo "### batch over 200 generated CI jobs (benches/batch.rs)"
    echo
    echo '```'
    MGLINT_BENCH_RUNS=$RUNS cargo bench --quiet --bench batch 2>/dev/null
    echo '```'
fi

if [ -z "${SKIP_BATCH:-}" ] && [ -z "${SKIP_REMOTE:-}" ]; then
    echo
    echo "### batch over 1,000 CI jobs from the loopback GCS server; a 200 MB must-gather.tar by range requests (benches/batch_remote.rs)"
    echo
    echo '```'
    cargo bench --quiet --bench batch_remote 2>/dev/null
    echo '```'
fi
