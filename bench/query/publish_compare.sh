#!/usr/bin/env bash
# publish_compare.sh MPIEXEC WORKLOAD [RUNS] [ROUNDS] [RANKS]
# Live publication's cost to the ranks: the same monitored workload with publication every
# 100 ms (VCMON_PUBLISH_MS=100) and off (VCMON_PUBLISH_MS=0), alternated in one invocation
# (which goes first alternates too). Prints the median loop time of each, their ratio against
# the target (<= 1.01), and the publishing thread's CPU time per publication.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 MPIEXEC WORKLOAD [RUNS] [ROUNDS] [RANKS]" >&2
  exit 2
fi
mpiexec=$1 workload=$2 runs=${3:-7} rounds=${4:-1000} ranks=${5:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # run VARIANT PUBLISH_MS: appends "seconds publications cpu_ns" to $work/VARIANT
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
on=$(cut -d' ' -f1 "$work/on" | median)
off=$(cut -d' ' -f1 "$work/off" | median)
per_publication=$(awk '$2 > 0 { print $3 / $2 / 1000 }' "$work/on" | median)
publications=$(cut -d' ' -f2 "$work/on" | median)
echo "live publication, mpiexec -n $ranks, $rounds rounds, median of $runs runs each (alternated)"
awk -v on="$on" -v off="$off" -v per="$per_publication" -v n="$publications" 'BEGIN {
  printf "%-28s %10.4f s\n", "publication off", off
  printf "%-28s %10.4f s\n", "publication every 100 ms", on
  printf "%-28s %10.4f   (target <= 1.01)\n", "ratio on/off", on / off
  printf "%-28s %10.1f us CPU (rank 0, %d publications per run)\n", "cost per publication", per, n
  printf "%-28s %10.4f %% of one core per rank\n", "publishing thread", per / 100000 * 100
}'
