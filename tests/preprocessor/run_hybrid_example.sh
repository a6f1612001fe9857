#!/usr/bin/env bash
# run_hybrid_example.sh BIN-DIR REPORT MPIEXEC SOURCE: builds the hybrid MPI + OpenMP example
# (examples/hybrid/heat.c) with `vcmon-mpicc -fopenmp` (it must be instrumented: no warning),
# runs it on 2 ranks of 2 OpenMP threads, and fails unless the profile holds the loop of the
# parallel region with every thread's executions and iterations merged: 2 ranks x 2 threads x
# STEPS executions, rod_points x STEPS iterations.
set -euo pipefail
bin=$1 report=$2 mpiexec=$3 source=$4
steps=40
rod_points=65536
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-hybrid.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$bin/vcmon-mpicc" -fopenmp -O2 "$source" -o "$work/heat" 2>"$work/build.err"
if [ -s "$work/build.err" ]; then
  echo "FAIL: building $source through vcmon-mpicc -fopenmp said:" >&2
  cat "$work/build.err" >&2
  exit 1
fi
mkdir "$work/profiles"
# Passive waiting: 4 threads share 2 busy cores, spinning barriers would only slow them.
(cd "$work" && OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive VCMON_OUTPUT=$work/profiles \
  timeout 60 "$mpiexec" -n 2 ./heat $steps >out)
grep -qx "heat: 2 ranks, 2 threads, $steps steps, max change [0-9.]*, heat 128.000000" \
  "$work/out" || { echo "FAIL: unexpected output" >&2; cat "$work/out" >&2; exit 1; }
profiles=("$work"/profiles/*.vcmon)
[ ${#profiles[@]} -eq 1 ] && [ -s "${profiles[0]}" ] ||
  { echo "FAIL: expected one profile in $work/profiles" >&2; exit 1; }
"$report" --format json "${profiles[0]}" >"$work/report.json"

# The loop of the parallel region: the `for` in relax() (its line found in the source).
line=$(grep -n 'for (int i = first; i < last; ++i)' "$source" | cut -d: -f1)
[ -n "$line" ] || { echo "FAIL: the region's loop is not in $source" >&2; exit 1; }
jq --argjson line "$line" '[.tree | .. | objects | select(.kind? == "loop" and .position.line? == $line)
  | {count, iterations}]' "$work/report.json" >"$work/loop.json"
count=$(jq '[.[].count] | add // 0' "$work/loop.json")
iterations=$(jq '[.[].iterations] | add // 0' "$work/loop.json")
if [ "$count" != $((2 * 2 * steps)) ] || [ "$iterations" != $((rod_points * steps)) ]; then
  echo "FAIL: the parallel region's loop (heat.c:$line): count $count (want $((2 * 2 * steps)))," \
    "iterations $iterations (want $((rod_points * steps)))" >&2
  cat "$work/loop.json" >&2
  exit 1
fi
echo "hybrid example: loop heat.c:$line in the OpenMP region, $count executions, $iterations" \
  "iterations (2 ranks x 2 threads)"
