#!/bin/sh
# run_unmonitored.sh MPIEXEC ORDER FIGURE4 RANDOM: the test programs themselves, with the
# monitor off (VCMON_DISABLE=1: libvcmon passes every call through), so that a failure of the
# monitored tests is not a fault of the programs. Unmonitored, the workers of order_program
# send in virtual order in real time too, figure 4 has one outcome, and the random programs
# check their own messages (seeds 1..50 here).
set -u
mpiexec=$1 order=$2 figure4=$3 random=$4
export VCMON_DISABLE=1
failures=0
expect() { # expect PATTERN COMMAND...: the command exits 0 and prints a line matching PATTERN
  pattern=$1
  shift
  output=$("$@" 2>&1)
  status=$?
  if [ "$status" -eq 0 ] && printf '%s\n' "$output" | grep -q "$pattern"; then
    echo "ok: $pattern"
  else
    echo "FAILED (exit status $status): expected '$pattern' from: $*"
    printf '%s\n' "$output" | sed 's/^/  | /'
    failures=$((failures + 1))
  fi
}
for mode in recv waitany iprobe; do
  expect '^order: 1 2 3$' "$mpiexec" -n 4 "$order" "$mode"
  expect '^real order: 1 2 3 ' "$mpiexec" -n 4 "$order" "$mode"
done
expect '^P1 took 0 then 3$' "$mpiexec" -n 4 "$figure4"
expect '^random: 50 programs, all checks passed' "$mpiexec" -n 4 "$random" 1 50
[ "$failures" -eq 0 ]
