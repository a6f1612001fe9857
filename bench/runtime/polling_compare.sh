#!/usr/bin/env bash
# polling_compare.sh MPIEXEC PLAIN MONITORED [RUNS] [DELAY_MS]
# A loop that only polls, plain MPICH against the same program linked with libvcmon, side by
# side in one invocation: for MPI_Iprobe and MPI_Test, from MPI_ANY_SOURCE and from one source,
# RUNS rounds (default 5) each run both builds under `MPIEXEC -n 2` (which goes first
# alternates); the message comes after DELAY_MS (default 500). Monitored runs read virtual time
# (VCMON_WTIME=virtual). The table gives medians: the wall time of mpiexec, the polls made, and
# when the program saw the message by its own clock; and monitored/plain ratios, with the
# lowest and highest of the rounds' own wall ratios
# (docs/pmpi.md, "Probes"). Fails when a run fails or a program reports a wrong value.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 MPIEXEC PLAIN MONITORED [RUNS] [DELAY_MS]" >&2
  exit 2
fi
mpiexec=$1 plain=$2 monitored=$3 runs=${4:-5} delay=${5:-500}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/profiles"

run() { # run VARIANT PROGRAM CASE...: appends "case=.. wall=.. polls=.. seen=.." to $work/results
  local variant=$1 program=$2 status=0 start end out
  shift 2
  start=$(date +%s.%N)
  out=$(VCMON_OUTPUT="$work/profiles" VCMON_WTIME=virtual timeout 300 "$mpiexec" -n 2 \
    "$program" "$@" "$delay" 2>"$work/stderr") || status=$?
  end=$(date +%s.%N)
  if [ $status != 0 ] || [[ $out != *value=42* ]]; then
    echo "$variant $* failed with status $status; output: $out; stderr:" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  echo "variant=$variant case=$1-$2 wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }') $out" >>"$work/results"
}

for ((r = 0; r < runs; ++r)); do
  for kind in iprobe test; do
    for from in any source; do
      if ((r % 2 == 0)); then
        run plain "$plain" $kind $from
        run vcmon "$monitored" $kind $from
      else
        run vcmon "$monitored" $kind $from
        run plain "$plain" $kind $from
      fi
    done
  done
done

echo "A loop that only polls until a message sent after $delay ms comes, mpiexec -n 2:" \
  "medians over $runs rounds"
awk "$(cat "$here/../stats.awk")"'
  {
    v = field($0, "variant"); c = field($0, "case")
    if (!(c in seen_case)) { seen_case[c] = 1; cases[++ncases] = c }
    n = ++count[v, c]
    wall[v, c, n] = field($0, "wall"); polls[v, c, n] = field($0, "polls")
    seen[v, c, n] = field($0, "seen")
  }
  function med(a, v, c,    x, i) {
    for (i = 1; i <= count[v, c]; ++i) x[i] = a[v, c, i]
    return median(x, count[v, c])
  }
  # The spread of the wall ratio: each round ran both builds, so its own ratio.
  function ratio_range(c,    i, r, lo, hi) {
    for (i = 1; i <= count["vcmon", c]; ++i) {
      r = wall["vcmon", c, i] / wall["plain", c, i]
      if (i == 1 || r < lo) lo = r
      if (i == 1 || r > hi) hi = r
    }
    return sprintf("%.2f-%.2f", lo, hi)
  }
  END {
    printf "%-14s %9s %12s %9s | %9s %7s %11s %12s %7s %9s\n", "loop", "plain s", "polls", \
      "seen s", "vcmon s", "wall x", "rounds x", "polls", "polls x", "seen s"
    for (i = 1; i <= ncases; ++i) {
      c = cases[i]
      pw = med(wall, "plain", c); pp = med(polls, "plain", c)
      vw = med(wall, "vcmon", c); vp = med(polls, "vcmon", c)
      printf "%-14s %9.3f %12d %9.4f | %9.3f %7.2f %11s %12d %7.2f %9.4f\n", c, pw, pp, \
        med(seen, "plain", c), vw, vw / pw, ratio_range(c), vp, vp / pp, med(seen, "vcmon", c)
    }
  }' "$work/results"
