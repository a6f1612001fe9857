#!/usr/bin/env bash
# run_conformance.sh MPIEXEC MANIFEST [RUNS]
# Runs every case of the conformance suite (tests/conformance; MANIFEST is the
# conformance_manifest.txt its CMakeLists.txt writes into the build directory) plain and
# monitored, RUNS times each (default 3, or $RUNS), alternating (plain first in odd rounds, monitored
# first in even ones), and prints one table:
#   case, ranks, plain outcome and median time, monitored outcome and median time,
#   same outcome, same output
# An outcome is "exit N" or "hang" (no end within the limit), with counts when the runs differ
# ("exit 0 x2, hang x1"); a median that includes a hang is shown as ">S". "same output" compares
# every run's stdout with the first plain run's. Erroneous cases (a real deadlock, mismatched
# collectives) are expected to differ: plain hangs or does something undefined, monitored must
# end with a non-zero status and "vcmon: deadlock" on stderr; their "same outcome" column says
# "reported" when it did, "NOT REPORTED" otherwise.
# Environment: RUN_TIMEOUT (s, default 30) limits each run; ERRONEOUS_TIMEOUT (s, default 10)
# each plain run of an erroneous case; CASES (an extended regular expression) selects cases
# by name. Every run gets MPIR_CVAR_POLLS_BEFORE_YIELD=1 and the case's own variables.
# The exit status is 0 when every correct case had the same outcome and output and every
# erroneous case was reported, 1 otherwise.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 MPIEXEC MANIFEST [RUNS]" >&2
  exit 2
fi
mpiexec=$1 manifest=$2 runs=${3:-${RUNS:-3}}
run_timeout=${RUN_TIMEOUT:-30} erroneous_timeout=${ERRONEOUS_TIMEOUT:-10} cases=${CASES:-.}
# Each run sets what it needs; nothing may leak in from the caller's environment.
unset VCMON_DISABLE VCMON_DEADLOCK VCMON_DEADLOCK_TIMEOUT_MS VCMON_INJECT_PROBE_NS VCMON_OUTPUT
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run KEY LIMIT PROGRAM ENV ARGS: one run; its stdout, stderr, status ("hang" when the limit
# ended it) and seconds to $work/KEY.*
run() {
  local key=$1 limit=$2 program=$3 environment=$4 arguments=$5 status start
  mkdir -p "$work/profiles"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086 # the variables and arguments are words by design
  (cd "$work" && env VCMON_OUTPUT="$work/profiles" MPIR_CVAR_POLLS_BEFORE_YIELD=1 $environment \
    timeout -k 5 "$limit" "$mpiexec" -n "$ranks" "$program" $arguments \
    </dev/null >"$work/$key.out" 2>"$work/$key.err")
  status=$?
  case $status in 124 | 137) status=hang ;; esac
  echo "$status" >"$work/$key.status"
  echo "$start $(date +%s.%N)" | awk '{printf "%.2f\n", $2 - $1}' >"$work/$key.seconds"
  rm -rf "$work/profiles"
}

# outcome KIND: the outcomes of the runs of KIND, "exit 0" or "exit 0 x2, hang x1".
outcome() {
  local i
  for ((i = 1; i <= runs; ++i)); do
    local s
    s=$(cat "$work/$1.$i.status")
    if [ "$s" = hang ]; then echo hang; else echo "exit $s"; fi
  done | sort | uniq -c | awk '{n = $1; $1 = ""; sub(/^ /, ""); o[++k] = $0; c[k] = n}
    END {if (k == 1) {print o[1]; exit}
         for (i = 1; i <= k; ++i) printf "%s%s x%d", (i > 1 ? ", " : ""), o[i], c[i]; print ""}'
}

# median KIND LIMIT: the median time of the runs of KIND, ">LIMIT" if it is a hang's.
median() {
  local i
  for ((i = 1; i <= runs; ++i)); do
    if [ "$(cat "$work/$1.$i.status")" = hang ]; then echo "$2 hang"; else
      echo "$(cat "$work/$1.$i.seconds") ok"; fi
  done | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2) {
    if ($2 == "hang") printf ">%d\n", $1; else printf "%.2f\n", $1}'
}

failures=0
printf '%-42s %5s  %-18s %8s  %-18s %8s  %-12s %s\n' case ranks "plain outcome" "median s" \
  "vcmon outcome" "median s" "same outcome" "same output"
while IFS='|' read -r name ranks kind plain monitored environment arguments; do
  [ -n "$name" ] || continue
  [[ $name =~ $cases ]] || continue
  plain_limit=$run_timeout
  [ "$kind" = erroneous ] && plain_limit=$erroneous_timeout
  for ((i = 1; i <= runs; ++i)); do
    if ((i % 2)); then
      run "plain.$i" "$plain_limit" "$plain" "$environment" "$arguments"
      run "vcmon.$i" "$run_timeout" "$monitored" "$environment" "$arguments"
    else
      run "vcmon.$i" "$run_timeout" "$monitored" "$environment" "$arguments"
      run "plain.$i" "$plain_limit" "$plain" "$environment" "$arguments"
    fi
  done
  plain_outcome=$(outcome plain) vcmon_outcome=$(outcome vcmon)
  same_output=yes differing=0
  for ((i = 1; i <= runs; ++i)); do
    cmp -s "$work/plain.1.out" "$work/vcmon.$i.out" || differing=$((differing + 1))
  done
  [ $differing = 0 ] || same_output="no ($differing of $runs)"
  if [ "$kind" = erroneous ]; then
    same=reported
    for ((i = 1; i <= runs; ++i)); do
      s=$(cat "$work/vcmon.$i.status")
      if [ "$s" = 0 ] || [ "$s" = hang ] || ! grep -q 'vcmon: deadlock' "$work/vcmon.$i.err"; then
        same="NOT REPORTED"
      fi
    done
    [ "$same" = reported ] || failures=$((failures + 1))
    same_output="-"
  else
    same=yes
    [ "$plain_outcome" = "$vcmon_outcome" ] || same=no
    { [ $same = yes ] && [ "$same_output" = yes ]; } || failures=$((failures + 1))
  fi
  printf '%-42s %5s  %-18s %8s  %-18s %8s  %-12s %s\n' "$name" "$ranks" "$plain_outcome" \
    "$(median plain "$plain_limit")" "$vcmon_outcome" "$(median vcmon "$run_timeout")" "$same" \
    "$same_output"
done <"$manifest"
echo "$runs runs of each build per case, alternating; limits: $run_timeout s per run," \
  "$erroneous_timeout s for the plain runs of erroneous cases; $failures case(s) differ"
[ $failures = 0 ]
