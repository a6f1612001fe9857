#!/usr/bin/env bash
# Renders the figure-12 report as HTML and loads it in headless Chromium with #selftest: the
# page expands a collapsed node itself and writes what became visible into the DOM.
# Usage: html_selftest.sh VCMON_REPORT WRITE_FIGURE12_PROFILE
set -euo pipefail
report=$1
writer=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "html_selftest: chromium is not installed (Debian package: chromium)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$writer" "$work/fig12.vcmon"
"$report" "$work/fig12.vcmon" --format html -o "$work/report.html"
dom=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
  --disable-background-networking --disable-component-update --no-first-run \
  --user-data-dir="$work/browser" --dump-dom "file://$work/report.html#selftest" \
  2>"$work/browser.log") || { cat "$work/browser.log" >&2; exit 1; }
result=$(grep -o '<pre id="selftest">[^<]*' <<<"$dom" | sed 's/^<pre id="selftest">//' || true)
echo "${result:-selftest: no result in the DOM}"
# p1 is the first node the page opens collapsed; expanding it must show p3.
grep -q '^selftest: PASS expanded p1 showing p3;' <<<"$result"
# The icicle view drew boxes; both communication statements, their two MPI functions and their
# message sizes are listed, and the time split has a row per rank (4) and min, mean and max.
grep -Eq 'icicle boxes [1-9][0-9]*; statements 2; time split rows 7; functions 2; message sizes 2$' \
  <<<"$result"
