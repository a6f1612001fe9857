#!/usr/bin/env bash
# check_volume.sh MPIEXEC VCMON_MPICC TRACE_VOLUME SOURCE
# The paper's data-volume property on bench/paper/pipeline_loop.c (SOURCE), built through
# vcmon-mpicc and run on 3 ranks with 200 and 2000 iterations: the profile holds the same number
# of dynamic records and stays within 1% in bytes, while the OTF2 trace of the same events
# (TRACE_VOLUME, bench/paper/trace_volume.cpp) grows 8 to 12 times. The paper's 4 loop
# statements' com records take some bytes, fewer than the paper's 144.
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: $0 MPIEXEC VCMON_MPICC TRACE_VOLUME SOURCE" >&2
  exit 2
fi
mpiexec=$1 vcmon_mpicc=$2 trace_volume=$3 source=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-paper-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset VCMON_DISABLE VCMON_OUTPUT

"$vcmon_mpicc" -O2 "$source" -o "$work/pipeline"
for iterations in 200 2000; do
  mkdir "$work/profiles-$iterations"
  if ! VCMON_OUTPUT="$work/profiles-$iterations" timeout -k 5 60 "$mpiexec" -n 3 \
    "$work/pipeline" "$iterations" </dev/null >"$work/out" 2>"$work/err"; then
    echo "FAIL: pipeline_loop with $iterations iterations failed:"
    cat "$work/out" "$work/err"
    exit 1
  fi
  "$trace_volume" "$work"/profiles-"$iterations"/*.vcmon "$work/trace-$iterations" \
    >"$work/sizes-$iterations"
  cat "$work/sizes-$iterations"
done
awk '
  function field(key,    i, kv) {
    for (i = 1; i <= NF; ++i) { split($i, kv, "="); if (kv[1] == key) return kv[2] }
  }
  { records[NR] = field("records"); profile[NR] = field("profile_bytes")
    trace[NR] = field("trace_bytes"); statements[NR] = field("loop_statements")
    loop_bytes[NR] = field("loop_records_bytes") }
  END {
    ok = 1
    if (records[1] != records[2]) { print "FAIL: record counts differ:", records[1], records[2]; ok = 0 }
    growth = (profile[2] - profile[1]) / profile[1]
    if (growth < -0.01 || growth > 0.01) { print "FAIL: profile bytes", profile[1], "->", profile[2]; ok = 0 }
    ratio = trace[2] / trace[1]
    if (ratio < 8 || ratio > 12) { print "FAIL: trace grew", ratio, "times for 10 times the iterations"; ok = 0 }
    for (run = 1; run <= 2; ++run)
      if (statements[run] != 4 || loop_bytes[run] < 4 || loop_bytes[run] >= 144) {
        print "FAIL: the loop statements\047 com records:", statements[run], "statements in", loop_bytes[run], "B"
        ok = 0
      }
    if (ok) printf "ok: %d records, profile %d -> %d B, trace x%.2f\n", records[1], profile[1], profile[2], ratio
    exit !ok
  }' "$work/sizes-200" "$work/sizes-2000"
