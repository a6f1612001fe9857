#!/usr/bin/env bash
# Renders the figure-12 report as HTML and loads it in headless Chromium with #selftest: the
# page expands a collapsed node itself and writes what became visible into the DOM.
# Usage: html_selftest.sh VCMON_REPORT WRITE_FIGURE12_PROFILE
set -euo pipefail
report=$1
writer=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$writer" "$work/fig12.vcmon"
"$report" "$work/fig12.vcmon" --format html -o "$work/report.html"
result=$("$(dirname "$0")/headless_dom.sh" "$work/report.html" "$work")
echo "$result"
# p1 is the first node the page opens collapsed; expanding it must show p3.
grep -q '^selftest: PASS expanded p1 showing p3;' <<<"$result"
# The icicle view drew boxes; both communication statements, their two MPI functions and their
# message sizes are listed, and the time split has a row per rank (4) and min, mean and max.
grep -Eq 'icicle boxes [1-9][0-9]*; statements 2; time split rows 7; functions 2; message sizes 2$' \
  <<<"$result"
