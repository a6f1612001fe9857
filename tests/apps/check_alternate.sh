#!/usr/bin/env bash
# check_alternate.sh MPIEXEC MPICC VCMON_MPICC SOURCE ALTERNATE
# bench/apps/alternate.sh on a real program (a proxy of bench/apps at a tiny size), plain and
# built through vcmon-mpicc: both rows with their timer's median, the monitored command run
# with VCMON_WTIME=virtual and its profile kept out of the working directory, and a failure
# when the verification lines differ or a command fails.
set -euo pipefail
if [ $# -ne 5 ]; then
  echo "usage: $0 MPIEXEC MPICC VCMON_MPICC SOURCE ALTERNATE" >&2
  exit 2
fi
mpiexec=$1 mpicc=$2 vcmon_mpicc=$3 source=$4 alternate=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-alternate-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
"$mpicc" -O2 "$source" -o plain -lm
"$vcmon_mpicc" -O2 "$source" -o instrumented -lm
fail() {
  echo "FAIL: $*"
  echo "output:"
  cat out
  exit 1
}

"$alternate" -r 2 -t "phase total" -v "verify" -- plain="$mpiexec -n 2 ./plain 16 20" \
  monitored="$mpiexec -n 2 ./instrumented 16 20" \
  virtual="printenv VCMON_WTIME | grep -qx virtual && ./plain 16 20" >out 2>&1 ||
  fail "alternate.sh exited with status $?"
for name in plain monitored virtual; do
  grep -Eq "^$name +[0-9.]+ \[[0-9.]+-[0-9.]+\] +[0-9.]+x +[0-9.e+-]+ \[" out ||
    fail "no row with a wall time and a 'phase total' median for $name"
done
grep -Eq '^plain .* 1\.00x .* \+0\.0%$' out || fail "the baseline row is not 1.00x and +0.0%"
[ -z "$(find . -name '*.vcmon')" ] || fail "a profile was left in the working directory"

status=0
"$alternate" -r 1 -v "verify" -- small="./plain 16 20" large="./plain 16 30" >out 2>&1 || status=$?
[ $status -eq 1 ] || fail "differing verify lines: status $status, not 1"
grep -q "large's 'verify' lines in round 1 differ" out || fail "no message naming the difference"

status=0
"$alternate" -r 1 -- ok="./plain 16 20" broken="./plain 16 20; exit 3" >out 2>&1 || status=$?
[ $status -eq 1 ] || fail "a failing command: status $status, not 1"
grep -q "broken failed in round 1" out || fail "no message naming the failing command"
echo "alternate.sh: rows, baseline, verification and failures as expected"
