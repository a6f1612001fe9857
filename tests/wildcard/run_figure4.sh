#!/bin/sh
# run_figure4.sh MPIEXEC PROGRAM STRATEGY DIR: runs figure4_program on 4 ranks with
# VCMON_DEADLOCK=STRATEGY, writing its profile into DIR (emptied first); it must exit 0 and
# print "P1 took 0 then 3". wildcard_profile_check then reads the profile.
set -u
mpiexec=$1 program=$2 strategy=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir" || exit 1
output=$(VCMON_DEADLOCK=$strategy VCMON_OUTPUT=$dir "$mpiexec" -n 4 "$program" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then
  echo "FAILED: exit status $status"
  exit 1
fi
if ! printf '%s\n' "$output" | grep -q '^P1 took 0 then 3$'; then
  echo "FAILED: expected 'P1 took 0 then 3'"
  exit 1
fi
