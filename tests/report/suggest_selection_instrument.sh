#!/usr/bin/env bash
# vcmon-report --suggest-selection on figure 12 with p4 small and very frequent, its file given
# to the real vcmon-instrument with the real figure-12 source: p4 (fig12.c:47) is left out, p3
# (fig12.c:35, holding MPI calls) stays a site.
# Usage: suggest_selection_instrument.sh VCMON_REPORT WRITE_TEST_PROFILE VCMON_INSTRUMENT FIG12_C
set -euo pipefail
report=$1 writer=$2 instrument=$3 source=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "suggest_selection_instrument: $*" >&2; exit 1; }
"$writer" figure12 "$work/fig12.vcmon" 1000000
"$report" --suggest-selection "$work/fig12.vcmon" -o "$work/selection"
cat "$work/selection"
grep -qx p4 "$work/selection" || fail "p4 was not suggested"
cp "$source" "$work/fig12.c"
cd "$work"
"$instrument" --list-tables fig12.c >all.tables || fail "vcmon-instrument failed without selection"
"$instrument" --list-tables --selection="$work/selection" fig12.c >selected.tables ||
  fail "vcmon-instrument refused the suggested selection file"
grep -q 'fig12.c:47:6' all.tables || fail "p4 is not a site even without selection: $(cat all.tables)"
if grep -q 'fig12.c:47:6' selected.tables; then fail "p4 is still a site: $(cat selected.tables)"; fi
grep -q '^PCom fig12.c:35:6 ' selected.tables || fail "p3 lost its site: $(cat selected.tables)"
echo "suggest_selection_instrument: ok"
