#!/usr/bin/env bash
# Performance benchmark for mglint (not a test). Prints a Markdown table.
#
#   bench/run.sh [SIZE...]        default sizes: 100M 1G 4G
#
# For each size it generates (once, cached in $MGLINT_BENCH_DATA, default target/bench-data) a
# realistic must-gather directory and a .tar.gz of it, then measures with a warm page cache:
# wall time and peak RSS of `mglint analyze` and `mglint summary`, `analyze` with 1 thread, the
# time to `cat` the files mglint reads and the whole tree (the read-limit references), and
# `analyze` of the .tar.gz. It also measures the real must-gathers in ../shared/corpus.
# Each figure is the best of $RUNS runs (default 3) after a warm-up. Needs GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(100M 1G 4G)
DATA=${MGLINT_BENCH_DATA:-target/bench-data}
mkdir -p "$DATA"
cargo build --release --quiet --bin mglint --example gen_mustgather --example needed_files
BIN=target/release/mglint

# best_of CMD...: prints "seconds peak_kb" of the fastest of 3 runs (after one warm-up).
best_of() {
    "$@" >/dev/null 2>&1 || true
    local best="" mem=""
    for _ in $(seq "${RUNS:-3}"); do
        /usr/bin/time -f "%e %M" -o "$DATA/time.txt" "$@" >/dev/null 2>&1 || true
        local out t m
        out=$(tail -n 1 "$DATA/time.txt")
        t=${out% *}
        m=${out#* }
        if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; mem=$m; fi
    done
    echo "$best $mem"
}

row() { # label dir_or_file
    local label=$1 input=$2 kind=$3
    read -r a_t a_m < <(best_of "$BIN" analyze --format json "$input")
    read -r s_t s_m < <(best_of "$BIN" summary "$input")
    read -r one_t _ < <(best_of "$BIN" analyze -j 1 --format json "$input")
    local cat_needed="-" cat_all="-" size
    if [ "$kind" = dir ]; then
        target/release/examples/needed_files "$input" > "$DATA/needed.txt"
        read -r cat_needed _ < <(best_of sh -c "tr '\n' '\0' < '$DATA/needed.txt' | xargs -0 cat")
        read -r cat_all _ < <(best_of sh -c "find '$input' -type f -print0 | xargs -0 cat")
        cat_needed="$cat_needed s"
        cat_all="$cat_all s"
        size=$(du -sb "$input" | cut -f1)
        needed=$(tr '\n' '\0' < "$DATA/needed.txt" | xargs -0 du -cb | tail -n1 | cut -f1)
    else
        size=$(stat -c %s "$input")
        needed="-"
    fi
    local speedup
    speedup=$(awk "BEGIN{ if ($a_t > 0) printf \"%.2fx\", $one_t / $a_t; else print \"-\" }")
    printf "| %s | %s MB | %s | %s s / %s MB | %s s / %s MB | %s s (%s) | %s | %s |\n" \
        "$label" "$((size / 1000000))" "$( [ "$needed" = "-" ] && echo - || echo "$((needed / 1000000)) MB")" \
        "$a_t" "$((a_m / 1024))" "$s_t" "$((s_m / 1024))" "$one_t" "$speedup" "$cat_needed" "$cat_all"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
echo "| input | size | bytes mglint reads | analyze (all threads) | summary | analyze -j 1 (2 threads' speedup) | cat needed files | cat whole tree |"
echo "|---|---|---|---|---|---|---|---|"
CORPUS=../shared/corpus/must-gathers
if [ -d "$CORPUS" ]; then
    for n in must-gather-aws must-gather-metal; do
        if [ ! -d "$DATA/$n" ]; then
            mkdir -p "$DATA/$n" && tar -C "$DATA/$n" -xJf "$CORPUS/$n.tar.xz"
        fi
        row "$n (real, dir)" "$DATA/$n" dir
        row "$n (real, .tar.xz)" "$CORPUS/$n.tar.xz" file
    done
fi
for s in "${SIZES[@]}"; do
    dir="$DATA/mg-$s"
    if [ ! -d "$dir" ]; then
        target/release/examples/gen_mustgather "$s" "$dir.tmp" >/dev/null && mv "$dir.tmp" "$dir"
    fi
    if [ ! -f "$dir.tar.gz" ]; then
        tar -C "$dir" -czf "$dir.tar.gz.tmp" . && mv "$dir.tar.gz.tmp" "$dir.tar.gz"
    fi
    row "generated $s (dir)" "$dir" dir
    row "generated $s (.tar.gz)" "$dir.tar.gz" file
done
