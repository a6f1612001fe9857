#!/usr/bin/env bash
# publish_compare.sh MPIEXEC WORKLOAD [RUNS] [ROUNDS] [RANKS]
# Live publication's cost to the ranks: the same monitored workload with publication every
# 100 ms (VCMON_PUBLISH_MS=100) and off (VCMON_PUBLISH_MS=0), alternated in one invocation
# (which goes first alternates too). Prints the medians of the loop's wall time and of its
# main-thread CPU time; the cost of publication to a rank is its main thread's extra CPU time
# plus the publishing thread's CPU time, against the target (<= 1% of the unpublished run).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 MPIEXEC WORKLOAD [RUNS] [ROUNDS] [RANKS]" >&2
  exit 2
fi
mpiexec=$1 workload=$2 runs=${3:-11} rounds=${4:-20000} ranks=${5:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # run VARIANT PUBLISH_MS: appends "seconds publications publisher_ns main_ns" to VARIANT
  VCMON_PUBLISH_MS=$2 VCMON_OUTPUT="$work" timeout 120 "$mpiexec" -n "$ranks" "$workload" \
    "$rounds" 2>/dev/null >>"$work/$1"
}

for ((r = 0; r < runs; ++r)); do
  if ((r % 2 == 0)); then
    run on 100
    run off 0
  else
    run off 0
    run on 100
  fi
done

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
column() { cut -d' ' -f"$1" "$work/$2" | median; }
on=$(column 1 on) off=$(column 1 off)
main_on=$(column 4 on) main_off=$(column 4 off) publisher=$(column 3 on)
publications=$(column 2 on)
echo "live publication, mpiexec -n $ranks, $rounds rounds, median of $runs runs each (alternated)"
awk -v on="$on" -v off="$off" -v main_on="$main_on" -v main_off="$main_off" \
    -v publisher="$publisher" -v n="$publications" 'BEGIN {
  printf "%-34s %10s %10s %8s\n", "", "off", "every 100ms", "on/off"
  printf "%-34s %10.4f %10.4f %8.4f\n", "loop wall time (s)", off, on, on / off
  printf "%-34s %10.4f %10.4f %8.4f\n", "main thread CPU (s)", main_off / 1e9, main_on / 1e9, main_on / main_off
  printf "%-34s %10s %10.4f\n", "publishing thread CPU (s)", "-", publisher / 1e9
  printf "%-34s %10s %10.1f   (%d publications)\n", "per publication (us CPU)", "-", (n > 0 ? publisher / n / 1000 : 0), n
  printf "cost to a rank: (main CPU on + publishing CPU) / main CPU off = %.4f  (target <= 1.01)\n", (main_on + publisher) / main_off
}'
