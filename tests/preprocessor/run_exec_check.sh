#!/usr/bin/env bash
# run_exec_check.sh BIN-DIR REPORT MPIEXEC SOURCE: builds SOURCE plainly with mpicc (no vcmon at
# all), runs it on 2 ranks through vcmon-exec in both forms (`mpiexec -n 2 vcmon-exec ./prog`
# and `vcmon-exec -n 2 -- ./prog`), and fails unless each run prints what the plain run prints
# and leaves one profile whose MPI functions are recorded (link-only: no procedure sites).
set -euo pipefail
bin=$1 report=$2 mpiexec=$3 source=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-exec-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
mpicc -O1 "$source" -o "$work/prog"
if nm -D "$work/prog" | grep vcmon >/dev/null; then
  echo "FAIL: the plain build refers to vcmon" >&2
  exit 1
fi
(cd "$work" && timeout 60 "$mpiexec" -n 2 ./prog >plain.out)
[ -s "$work/plain.out" ] || { echo "FAIL: the program printed nothing" >&2; exit 1; }

check() { # $1: the form's name; the profile in $work/$1
  local profiles=("$work/$1"/*.vcmon)
  [ ${#profiles[@]} -eq 1 ] && [ -s "${profiles[0]}" ] ||
    { echo "FAIL ($1): expected one profile in $work/$1" >&2; ls -l "$work/$1" >&2; exit 1; }
  "$report" --format json "${profiles[0]}" >"$work/$1.json"
  local ranks sendrecv procedures
  ranks=$(jq '.header.ranks' "$work/$1.json")
  sendrecv=$(jq '[.mpi_functions[] | select(.name == "MPI_Sendrecv") | .count] | add // 0' \
    "$work/$1.json")
  procedures=$(jq '[.. | objects | select(.kind? == "procedure")] | length' "$work/$1.json")
  [ "$ranks" = 2 ] || { echo "FAIL ($1): $ranks ranks in the profile" >&2; exit 1; }
  [ "$sendrecv" -gt 0 ] || { echo "FAIL ($1): no MPI_Sendrecv record" >&2; exit 1; }
  [ "$procedures" = 0 ] || { echo "FAIL ($1): procedure records from a plain binary" >&2; exit 1; }
  # The ranks' messages: the runtime's closing line, no warning (VCMON_MPIEXEC stays with
  # vcmon-exec; the runtime warns about VCMON_* variables it does not know).
  if grep -i 'warning\|error' "$work/$1.err" >&2; then
    echo "FAIL ($1): the run warned" >&2
    exit 1
  fi
  echo "$1: 2 ranks, $sendrecv MPI_Sendrecv calls recorded"
}

mkdir "$work/ranks-form" "$work/launcher-form"
(cd "$work" && VCMON_OUTPUT=$work/ranks-form timeout 60 "$mpiexec" -n 2 "$bin/vcmon-exec" ./prog \
  >ranks-form.out 2>ranks-form.err)
diff -u "$work/plain.out" "$work/ranks-form.out"
check ranks-form
(cd "$work" && VCMON_OUTPUT=$work/launcher-form VCMON_MPIEXEC=$mpiexec timeout 60 \
  "$bin/vcmon-exec" -n 2 -- ./prog >launcher-form.out 2>launcher-form.err)
diff -u "$work/plain.out" "$work/launcher-form.out"
check launcher-form

# A usage error: exit 2, saying what is wrong.
status=0
"$bin/vcmon-exec" -n 2 ./prog 2>"$work/usage.err" || status=$?
[ $status = 2 ] && grep -q 'give the program after --' "$work/usage.err" ||
  { echo "FAIL: launcher form without -- gave status $status" >&2; cat "$work/usage.err" >&2; exit 1; }
echo "vcmon-exec: both forms profile the plain binary"
