#!/bin/sh
# run_deadlock.sh MPIEXEC PROGRAM SOURCE STRATEGY DIR: runs deadlock_program on 2 ranks with
# VCMON_DEADLOCK=STRATEGY, VCMON_DEADLOCK_TIMEOUT_MS=500 and VCMON_OUTPUT=DIR (emptied first),
# under `timeout 60`. The monitor must end the job (non-zero status, not the timeout's 124),
# report on stderr the deadlock, rank 0 and rank 1 each with its receive site (file:line from
# SOURCE's "site: rank N" comments, the line after each) and the cycle, and leave a partial
# profile in DIR.
set -u
mpiexec=$1 program=$2 source=$3 strategy=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir" || exit 1
file=$(basename "$source")
line0=$(($(grep -n 'site: rank 0' "$source" | cut -d: -f1) + 1))
line1=$(($(grep -n 'site: rank 1' "$source" | cut -d: -f1) + 1))
stderr_file=$dir/stderr.txt
VCMON_DEADLOCK=$strategy VCMON_DEADLOCK_TIMEOUT_MS=500 VCMON_OUTPUT=$dir \
  timeout 60 "$mpiexec" -n 2 "$program" 2>"$stderr_file"
status=$?
cat "$stderr_file"
failures=0
check() { # check STATUS DESCRIPTION: counts a failure unless STATUS (of the test before) is 0
  if [ "$1" -eq 0 ]; then
    echo "ok: $2"
  else
    echo "FAILED: $2"
    failures=$((failures + 1))
  fi
}
[ "$status" -ne 0 ] && [ "$status" -ne 124 ]
check $? "the monitor ended the job (exit status $status; 0: it ran through, 124: timeout)"
# Words, not parts of names: the program's and the directory's names contain "deadlock_" and
# "_cycle".
grep -qw 'deadlock' "$stderr_file"
check $? "stderr names a deadlock"
grep -q "rank 0.*$file:$line0\\b" "$stderr_file"
check $? "stderr: rank 0 waits at $file:$line0"
grep -q "rank 1.*$file:$line1\\b" "$stderr_file"
check $? "stderr: rank 1 waits at $file:$line1"
grep -qw 'cycle' "$stderr_file"
check $? "stderr names the cycle"
ls "$dir"/*.vcmon >/dev/null 2>&1
check $? "a partial profile (*.vcmon) in $dir"
[ "$failures" -eq 0 ]
