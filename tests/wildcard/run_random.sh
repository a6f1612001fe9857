#!/bin/sh
# run_random.sh MPIEXEC PROGRAM CHECKER STRATEGY DIR FIRST LAST [CHECKER FLAGS...]: runs the
# random programs of seeds FIRST..LAST in one job on 4 ranks with VCMON_DEADLOCK=STRATEGY and
# VCMON_TRACE_WILDCARD=DIR (emptied first), rank 2 with 200 us of injected cost per probe
# (MPMD), then checks every rank's trace with wildcard_trace_check.
set -u
mpiexec=$1 program=$2 checker=$3 strategy=$4 dir=$5 first=$6 last=$7
shift 7
rm -rf "$dir" && mkdir -p "$dir" || exit 1
export VCMON_DEADLOCK="$strategy" VCMON_TRACE_WILDCARD="$dir" VCMON_OUTPUT="$dir"
"$mpiexec" -n 2 "$program" "$first" "$last" \
  : -n 1 env VCMON_INJECT_PROBE_NS=200000 "$program" "$first" "$last" \
  : -n 1 "$program" "$first" "$last"
status=$?
if [ "$status" -ne 0 ]; then
  echo "FAILED: random_program exit status $status"
  exit 1
fi
"$checker" "$dir" "$first" "$last" "$@"
