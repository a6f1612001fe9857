#!/usr/bin/env bash
# vcmon-report --merge on the one profile a real run wrote into DIR, given twice: one job of
# twice its ranks (RANKS each), the second copy's ranks after the first's in the time split.
# Usage: merge_real_profile.sh VCMON_REPORT DIR RANKS
set -euo pipefail
report=$1 dir=$2 ranks=$3
profiles=("$dir"/*.vcmon)
[ ${#profiles[@]} -eq 1 ] || { echo "merge_real_profile: expected one profile in $dir" >&2; exit 1; }
p=${profiles[0]}
out=$("$report" --merge "$p" "$p")
head -1 <<<"$out"
expected="merged: 2 profiles as one job of $((2 * ranks)) ranks: $p (ranks 0-$((ranks - 1))), $p (ranks $ranks-$((2 * ranks - 1)))"
[ "$(head -1 <<<"$out")" = "$expected" ] || { echo "expected: $expected" >&2; exit 1; }
# The time split has a row for the last merged rank.
grep -Eq "^ +$((2 * ranks - 1)) .*%$" <<<"$out" || { echo "no row for rank $((2 * ranks - 1))" >&2; exit 1; }
echo "merge_real_profile: ok"
