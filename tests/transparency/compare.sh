#!/usr/bin/env bash
# compare.sh MPIEXEC RANKS PLAIN MONITORED
# Runs the plain and the libvcmon-linked build of one transparency program under
# `MPIEXEC -n RANKS` and fails, printing the difference, unless both exit with status 0 and
# print exactly the same standard output. (stderr is not compared: the monitored run adds its
# summary line there.)
set -u
if [ $# -ne 4 ]; then
  echo "usage: $0 MPIEXEC RANKS PLAIN MONITORED" >&2
  exit 2
fi
mpiexec=$1 ranks=$2
plain=$(realpath "$3") monitored=$(realpath "$4")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each run gets well under ctest's 60 s, so a hang is reported with its output.
per_run_timeout=25

run() { # run NAME PROGRAM: stdout, stderr and exit status to $work/NAME.*
  mkdir -p "$work/$1.profiles"
  (cd "$work" && VCMON_OUTPUT="$work/$1.profiles" \
    timeout "$per_run_timeout" "$mpiexec" -n "$ranks" "$2" >"$work/$1.out" 2>"$work/$1.err")
  echo $? >"$work/$1.status"
}

show_run() { # show_run NAME
  echo "--- $1: exit status $(cat "$work/$1.status"), stderr:"
  cat "$work/$1.err"
}

run plain "$plain"
if [ "$(cat "$work/plain.status")" != 0 ] || [ ! -s "$work/plain.out" ]; then
  echo "FAIL: the plain build must exit 0 and print something" >&2
  show_run plain
  exit 1
fi
run monitored "$monitored"

failed=0
if [ "$(cat "$work/monitored.status")" != 0 ]; then
  echo "FAIL: the monitored build exits with status $(cat "$work/monitored.status")"
  failed=1
fi
if ! diff -u --label plain --label monitored "$work/plain.out" "$work/monitored.out"; then
  echo "FAIL: the monitored build prints something else (diff above)"
  failed=1
fi
if [ $failed = 1 ]; then
  show_run monitored
  exit 1
fi
echo "same output ($(wc -l <"$work/plain.out") lines) and exit status with and without vcmon"
