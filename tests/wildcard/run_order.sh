#!/bin/sh
# run_order.sh MPIEXEC PROGRAM MODE RUNS: runs order_program MODE RUNS times on 4 ranks, with
# 20 ms of injected cost per probe on workers 1 and 2 (MPMD), so that worker 2 sends after
# worker 3 in real time. Every run must exit 0, take the messages in virtual order ("order: 1 2 3") and
# report a real send order other than 1 2 3, which shows the injection inverted it: a layer
# that took messages as they came would fail.
set -u
mpiexec=$1 program=$2 mode=$3 runs=$4
# The runs' profiles are not looked at.
VCMON_OUTPUT=$(mktemp -d) || exit 1
export VCMON_OUTPUT
trap 'rm -rf "$VCMON_OUTPUT"' EXIT
failures=0
run=1
while [ "$run" -le "$runs" ]; do
  output=$("$mpiexec" -n 1 "$program" "$mode" \
    : -n 2 env VCMON_INJECT_PROBE_NS=20000000 "$program" "$mode" \
    : -n 1 "$program" "$mode" 2>&1)
  status=$?
  order=$(printf '%s\n' "$output" | sed -n 's/^order: \([0-9 ]*\)$/\1/p')
  real=$(printf '%s\n' "$output" | sed -n 's/^real order: \([0-9]\) \([0-9]\) \([0-9]\).*/\1 \2 \3/p')
  verdict=ok
  if [ "$status" -ne 0 ]; then
    verdict="FAILED: exit status $status"
  elif [ "$order" != "1 2 3" ]; then
    verdict="FAILED: order '$order', expected '1 2 3'"
  elif [ -z "$real" ] || [ "$real" = "1 2 3" ]; then
    verdict="FAILED: real order '$real': the injection did not invert it, the run proves nothing"
  fi
  echo "run $run ($mode): order '$order', real order '$real': $verdict"
  if [ "$verdict" != ok ]; then
    printf '%s\n' "$output" | sed 's/^/  | /'
    failures=$((failures + 1))
  fi
  run=$((run + 1))
done
if [ "$failures" -ne 0 ]; then
  echo "FAILED: $failures of $runs runs"
  exit 1
fi
echo "all $runs runs took the messages in virtual order"
