#!/usr/bin/env bash
# expect_report.sh [--timeout S] [--env VAR=VALUE]... [--expect REGEX]... MPIEXEC RANKS
#                  MONITORED [ARG...]
# For an erroneous program (a real deadlock, collectives that do not match), which hangs or
# worse without the monitor and so is run monitored only: runs `MPIEXEC -n RANKS MONITORED
# ARG...` with a limit of S seconds (default 30) and fails unless it ends by itself with a
# non-zero status, within the limit, and its stderr has "vcmon: deadlock" and a line matching
# each REGEX (grep -E), e.g. the calls the report must name.
set -u
usage() {
  echo "usage: $0 [--timeout S] [--env V=X]... [--expect REGEX]... MPIEXEC RANKS MONITORED" \
    "[ARG...]" >&2
  exit 2
}
limit=30 environment=() expected=("vcmon: deadlock")
while [ $# -gt 0 ]; do
  case $1 in
  --timeout) limit=${2:?}; shift 2 ;;
  --env) environment+=("${2:?}"); shift 2 ;;
  --expect) expected+=("${2:?}"); shift 2 ;;
  --) shift; break ;;
  -*) usage ;;
  *) break ;;
  esac
done
[ $# -ge 3 ] || usage
mpiexec=$1 ranks=$2 monitored=$(realpath "$3")
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/profiles"
start=$(date +%s.%N)
(cd "$work" && env VCMON_OUTPUT="$work/profiles" ${environment[@]+"${environment[@]}"} \
  timeout -k 5 "$limit" "$mpiexec" -n "$ranks" "$monitored" "$@" >"$work/out" 2>"$work/err")
status=$?
seconds=$(echo "$start $(date +%s.%N)" | awk '{printf "%.2f", $2 - $1}')
failures=0
check() { # check STATUS DESCRIPTION: counts a failure unless STATUS is 0
  if [ "$1" -eq 0 ]; then
    echo "ok: $2"
  else
    echo "FAILED: $2"
    failures=$((failures + 1))
  fi
}
[ "$status" != 124 ] && [ "$status" != 137 ]
check $? "the job ended by itself within $limit s (after $seconds s, exit status $status)"
[ "$status" != 0 ]
check $? "non-zero exit status ($status)"
for pattern in "${expected[@]}"; do
  grep -E -q -- "$pattern" "$work/err"
  check $? "stderr matches '$pattern'"
done
if [ "$failures" != 0 ]; then
  echo "--- stdout:"
  head -c 5000 "$work/out"
  echo "--- stderr:"
  head -c 20000 "$work/err"
  exit 1
fi
grep '^vcmon:' "$work/err"
