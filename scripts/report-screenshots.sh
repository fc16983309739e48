#!/usr/bin/env bash
# Regenerates what the README and docs show of the HTML report: the report of a real dump
# (default: the shared corpus's AWS must-gather) at a phone's, a laptop's and a wide window's
# width (docs/report/report-375.png, -1280.png, -1920.png) and printed to PDF
# (docs/report/report.pdf), with Debian's Chromium, headless.
#
#   scripts/report-screenshots.sh [INPUT]
#
# MGLINT names the binary to use (default: a release build, built first); CHROMIUM the browser.
set -euo pipefail
cd "$(dirname "$0")/.."
input="${1:-../shared/corpus/must-gathers/must-gather-aws.tar.xz}"
chromium="${CHROMIUM:-chromium}"
if [ -z "${MGLINT:-}" ]; then
    cargo build --release --locked --quiet
    MGLINT=target/release/mglint
fi
out=docs/report
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$MGLINT" analyze "$input" --exit-zero --quiet -o "$tmp/report.html"
# Headless Chromium's window is at least 500 px wide: the phone's width is shown as the
# page in a 375 px frame (its media queries see the frame's width), in a 500 px window.
printf '<!DOCTYPE html><html><body style="margin:0"><iframe src="report.html" style="width:375px;height:2200px;border:0;border-right:1px solid #ccc"></iframe></body></html>' >"$tmp/phone.html"
browse() {
    local page="$1"
    shift
    "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --hide-scrollbars --allow-file-access-from-files --user-data-dir="$tmp/profile" "$@" \
        "file://$tmp/$page" >/dev/null 2>&1
}
browse phone.html --window-size=500,2200 --screenshot="$PWD/$out/report-375.png"
for w in 1280 1920; do
    browse report.html --window-size="$w,2200" --screenshot="$PWD/$out/report-$w.png"
done
browse report.html --print-to-pdf="$PWD/$out/report.pdf" --no-pdf-header-footer
ls -l "$out"
