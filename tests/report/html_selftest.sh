#!/usr/bin/env bash
# Renders the figure-12 report as HTML and loads it in headless Chromium with #selftest: the
# page expands a collapsed node itself and writes what became visible into the DOM.
# Then the same for a ring of 2000 ranks: the matrix is a density picture of at most 600 pixels
# (blocks of ranks), not a pixel or more per rank, and the heaviest pairs are listed.
# Usage: html_selftest.sh VCMON_REPORT WRITE_TEST_PROFILE
set -euo pipefail
report=$1
writer=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$writer" figure12 "$work/fig12.vcmon"
"$report" "$work/fig12.vcmon" --format html -o "$work/report.html"
result=$("$(dirname "$0")/headless_dom.sh" "$work/report.html" "$work")
echo "$result"
# p1 is the first node the page opens collapsed; expanding it must show p3.
grep -q '^selftest: PASS expanded p1 showing p3;' <<<"$result"
# The icicle view drew boxes; both communication statements, their two MPI functions and their
# message sizes are listed, and the time split has a row per rank (4) and min, mean and max.
# Figure 12's matrix is 4 ranks of 40 px; its 8 pairs are all listed, the costliest first (rank
# 3's receives from rank 2: the most time of the slowest rank, fig12_scale).
grep -Eq 'icicle boxes [1-9][0-9]*; statements 2; time split rows 7; functions 2; message sizes 2; matrix 160 px; heaviest pairs 8, first 3 -> 2$' \
  <<<"$result"

"$writer" ring "$work/ring.vcmon" 2000
"$report" "$work/ring.vcmon" --format html -o "$work/ring.html"
result=$("$(dirname "$0")/headless_dom.sh" "$work/ring.html" "$work")
echo "$result"
# 2000 ranks in blocks of 4: 500 blocks of 1 px; 32 of the 2000 pairs, the last rank's first.
grep -Eq '; matrix 500 px; heaviest pairs 32, first 1999 -> 0$' <<<"$result"
