#!/usr/bin/env bash
# The gzip inflaters mglint could use, side by side on one file (not a test): each candidate
# inflates the same .tar.gz to nothing, the candidates interleaved round by round, and the
# median of $RUNS rounds (default 3) of wall time and user CPU is printed with its ratio to
# `igzip -dc` (Debian's `isal` package) in the same run.
#
#   bench/inflaters.sh [FILE.gz]   default: the bench's generated 1 GB .tar.gz
#                                   ($MGLINT_BENCH_DATA/mg-1G.tar.gz, made as bench/run.sh makes it)
#
# The candidates are built by bench/inflaters/, a crate of its own (its dependencies never
# enter mglint's), once per set of features:
#   zlib-rs (mglint)     flate2 + zlib-rs as mglint linked it before: no CPU detection
#   zlib-rs              flate2 + zlib-rs with runtime CPU detection (AVX2, PCLMULQDQ)
#   zlib-rs's own gzip   the same, its gzip header and CRC done by zlib-rs (flate2's `Decompress`)
#   zlib-ng              flate2 + zlib-ng built by libz-sys with cc (no cmake; libz-sys 1.1.33's
#                        cc build fails at start here: "Zlib-ng functable failed initialization")
#   isal (system)        isal-rs over Debian's libisal (libisal-dev)
#   isal (static)        isal-rs building ISA-L from source: autotools and nasm ($ISAL_STATIC=0 skips)
#   libdeflate           libdeflater (bundled C, cc): whole buffer, not a stream
#   zune-inflate         pure Rust: whole buffer, not a stream
#   rapidgzip 1/2        rapidgzip-core (zlib-rs, speculative parallel) on 1 and 2 threads
# plus `gzip -dc` and `igzip -dc`. Needs GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${MGLINT_BENCH_DATA:-target/bench-data}
RUNS=${RUNS:-3}
mkdir -p "$DATA"
FILE=${1:-}
if [ -z "$FILE" ]; then
    FILE="$DATA/mg-1G.tar.gz"
    if [ ! -f "$FILE" ]; then
        cargo build --release --quiet --example gen_mustgather
        target/release/examples/gen_mustgather 1G "$DATA/mg-1G.tmp" >/dev/null
        tar -C "$DATA/mg-1G.tmp" -czf "$FILE.tmp" . && mv "$FILE.tmp" "$FILE"
        rm -rf "$DATA/mg-1G.tmp"
    fi
fi

# build NAME FEATURES: the bench crate built with FEATURES, copied to $DATA/inflaters-NAME.
build() {
    local name=$1 features=$2
    CARGO_TARGET_DIR="$DATA/inflaters-target/$name" cargo build --release --quiet \
        --manifest-path bench/inflaters/Cargo.toml ${features:+--features "$features"}
    cp "$DATA/inflaters-target/$name/release/inflaters" "$DATA/inflaters-$name"
}
build mglint ""
build detect "zlib-rs-detect,isal-system,libdeflate,zune,rapidgzip"
build zng "zlib-ng"
STATIC=""
if [ "${ISAL_STATIC:-1}" != 0 ]; then
    if build static "isal-static" 2>"$DATA/isal-static.log"; then
        STATIC=1
    else
        echo "note: ISA-L from source did not build (autotools and nasm needed); see $DATA/isal-static.log" >&2
    fi
fi

NAMES=() CMDS=()
add() { NAMES+=("$1"); CMDS+=("$2"); }
command -v igzip >/dev/null && add "igzip -dc" "igzip -dc '$FILE'"
add "gzip -dc" "gzip -dc '$FILE'"
add "zlib-rs as mglint linked it (no CPU detection)" "$DATA/inflaters-mglint flate2 '$FILE'"
add "zlib-rs (flate2, CPU detection)" "$DATA/inflaters-detect flate2 '$FILE'"
add "zlib-rs's own gzip (flate2 Decompress, CPU detection)" "$DATA/inflaters-detect flate2-gzip '$FILE'"
add "zlib-ng (flate2, libz-sys built with cc)" "$DATA/inflaters-zng flate2 '$FILE'"
[ -e /usr/include/isa-l.h ] && add "ISA-L (system libisal)" "$DATA/inflaters-detect isal '$FILE'"
[ -n "$STATIC" ] && add "ISA-L (static, from source)" "$DATA/inflaters-static isal '$FILE'"
add "libdeflate (whole buffer)" "$DATA/inflaters-detect libdeflate '$FILE'"
add "zune-inflate (whole buffer)" "$DATA/inflaters-detect zune '$FILE'"
add "rapidgzip-core, 1 thread" "$DATA/inflaters-detect rapidgzip1 '$FILE'"
add "rapidgzip-core, 2 threads" "$DATA/inflaters-detect rapidgzip2 '$FILE'"

# Every candidate's output size must agree (each checks the gzip CRC itself).
for i in "${!NAMES[@]}"; do
    sizes[i]=$(sh -c "${CMDS[i]} 2>/dev/null" | { [ "${CMDS[i]#*-dc}" != "${CMDS[i]}" ] && wc -c || cat; }) || true
    [ -n "${sizes[i]}" ] || sizes[i]=failed
done

declare -A WALL USER MEM
for _ in $(seq "$RUNS"); do
    for i in "${!NAMES[@]}"; do
        /usr/bin/time -f "%e %U %M" -o "$DATA/time.txt" sh -c "${CMDS[i]} >/dev/null 2>&1" || true
        read -r w u m < <(tail -n 1 "$DATA/time.txt")
        WALL[$i]+="$w " USER[$i]+="$u " MEM[$i]=$m
    done
done
med() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ref=$(med "${WALL[0]}")
refu=$(med "${USER[0]}")

echo "file: $FILE ($(($(stat -c %s "$FILE") / 1000000)) MB, ${sizes[0]} bytes inflated)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1 /proc/loadavg)"
echo "median of $RUNS interleaved rounds; ratios against ${NAMES[0]} (user CPU: what a busy machine changes least)"
echo
echo "| inflater | wall | ratio | user CPU | ratio | peak RSS | bytes |"
echo "|---|---|---|---|---|---|---|"
for i in "${!NAMES[@]}"; do
    w=$(med "${WALL[$i]}")
    u=$(med "${USER[$i]}")
    r=$(awk "BEGIN{printf \"%.2fx\", $w / $ref}")
    ru=$(awk "BEGIN{printf \"%.2fx\", $u / $refu}")
    ok=ok
    [ "${sizes[i]}" = "${sizes[0]}" ] || ok="**${sizes[i]}**"
    echo "| ${NAMES[i]} | $w s | **$r** | $u s | **$ru** | $((MEM[$i] / 1024)) MB | $ok |"
done
echo "load after: $(cut -d' ' -f1 /proc/loadavg)"
