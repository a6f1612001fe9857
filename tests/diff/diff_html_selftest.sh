#!/usr/bin/env bash
# Renders figure 12 against a copy with p4 3x slower as the HTML diff page and loads it in
# headless Chromium with #selftest: the page orders its rows by self time and filters them by
# path, as a user would, and writes what the table showed into the DOM.
# Usage: diff_html_selftest.sh VCMON_REPORT WRITE_DIFF_PROFILES HEADLESS_DOM
set -euo pipefail
report=$1
writer=$2
headless_dom=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$writer" "$work/before.vcmon" "$work/after.vcmon"
"$report" --diff "$work/before.vcmon" "$work/after.vcmon" --format html -o "$work/diff.html"
result=$("$headless_dom" "$work/diff.html" "$work")
echo "$result"
# By self time, p4 in loop2 leads with ratio 3; the filter keeps only p4's rows (its two call
# sites under p1 and p2: 4 rows); both statements are listed.
grep -Eq '^selftest: PASS first by self main > p2@fig12.c:3 > p3@fig12.c:7 > loop@fig12.c:11 > loop@fig12.c:13 > p4@fig12.c:14 ratio 3.00x; nodes [0-9]+; filtered 4; statements 2$' \
  <<<"$result"
