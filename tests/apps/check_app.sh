#!/usr/bin/env bash
# check_app.sh MPIEXEC MPICC VCMON_MPICC SOURCE [ARG...]
# Builds one proxy application of bench/apps plainly and through vcmon-mpicc (-O2), runs both
# under `MPIEXEC -n 2` with the arguments ARG... (a tiny size), and fails unless both exit 0,
# print a `phase total` line and the same `verify` line, and the instrumented run writes one
# profile.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 MPIEXEC MPICC VCMON_MPICC SOURCE [ARG...]" >&2
  exit 2
fi
mpiexec=$1 mpicc=$2 vcmon_mpicc=$3 source=$4
shift 4
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-apps-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/profiles"

"$mpicc" -O2 "$source" -o "$work/plain" -lm
"$vcmon_mpicc" -O2 "$source" -o "$work/instrumented" -lm

# run NAME ARG...: runs $work/NAME in $work (its profile goes to $work/profiles).
run() {
  local name=$1 status=0
  shift
  (cd "$work" && VCMON_OUTPUT="$work/profiles" timeout -k 5 60 "$mpiexec" -n 2 "$work/$name" \
    "$@" </dev/null >"$work/$name.out" 2>"$work/$name.err") || status=$?
  if [ $status -ne 0 ]; then
    echo "FAIL: $name run exited with status $status; stdout:"
    cat "$work/$name.out"
    echo "stderr:"
    cat "$work/$name.err"
    exit 1
  fi
  if ! grep -q '^phase total [0-9]' "$work/$name.out" ||
    [ "$(grep -c '^verify ' "$work/$name.out")" -ne 1 ]; then
    echo "FAIL: $name run prints no 'phase total' line or not exactly one 'verify' line:"
    cat "$work/$name.out"
    exit 1
  fi
  if grep -v -E '^(#|phase |verify )' "$work/$name.out"; then
    echo "FAIL: $name run prints the lines above besides '#', 'phase' and 'verify' lines"
    exit 1
  fi
}
run plain "$@"
run instrumented "$@"

plain_verify=$(grep '^verify ' "$work/plain.out")
instrumented_verify=$(grep '^verify ' "$work/instrumented.out")
if [ "$plain_verify" != "$instrumented_verify" ]; then
  echo "FAIL: $(basename "$source") computes differently instrumented:"
  echo "  plain:        $plain_verify"
  echo "  instrumented: $instrumented_verify"
  exit 1
fi
profiles=$(find "$work/profiles" -name '*.vcmon' | wc -l)
if [ "$profiles" -ne 1 ]; then
  echo "FAIL: the instrumented run wrote $profiles profiles, not 1; its stderr:"
  cat "$work/instrumented.err"
  exit 1
fi
echo "$(basename "$source"): plain and instrumented agree ($plain_verify), one profile"
