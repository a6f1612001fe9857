#!/usr/bin/env bash
# squatted_names.sh MPIEXEC LIVE_PROGRAM VCMON_QUERY VCMON_REPORT
# Anyone can create files in /dev/shm under this user's segment names before a job starts.
# For the next 550 pids (a job's id is its rank 0's pid) and ranks 0 and 1, this creates a
# readable file under the name vcmon used to give a rank's segment (/vcmon-<uid>-<pid>-<rank>)
# and one under today's form with a guessed tag: 2200 files (owned by nobody when run as
# root), while the job may open only 1024 descriptors. The 2-rank job must still publish
# (vcmon-query lists and shows it, ignoring the squatters) and write its profile.
set -euo pipefail
mpiexec=$1 program=$2 query=$3 report=$4
uid=$(id -u)
work=$(mktemp -d)
squats=$work/squats
job_pid=
cleanup() {
  if [ -n "$job_pid" ]; then kill "$job_pid" 2>/dev/null || true; wait "$job_pid" 2>/dev/null || true; fi
  if [ -f "$squats" ]; then xargs -r rm -f <"$squats"; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "squatted_names: $*" >&2; exit 1; }

first=$(($$ + 1))
last=$((first + 549))
umask 022 # readable by all, as another user's files would be
set -o noclobber # never take over a file that exists
for pid in $(seq "$first" "$last"); do
  for rank in 0 1; do
    for name in "vcmon-$uid-$pid-$rank" "vcmon-$uid-$pid-$rank-0000000000000000"; do
      if printf 'squatted' >"/dev/shm/$name" 2>/dev/null; then
        echo "/dev/shm/$name" >>"$squats"
      fi
    done
  done
done
set +o noclobber
[ "$(wc -l <"$squats")" -ge 2100 ] || fail "could not create the squatting files"
if [ "$uid" -eq 0 ]; then xargs chown 65534:65534 <"$squats"; fi
ulimit -n 1024

VCMON_PUBLISH_MS=100 VCMON_OUTPUT="$work" "$mpiexec" -n 2 "$program" 3 \
  >"$work/stdout" 2>"$work/stderr" &
job_pid=$!
job=
for _ in $(seq 150); do # at most 15 s for the ranks to start publishing
  job=$(sed -n 's/^live_program: job \([0-9][0-9]*\)$/\1/p' "$work/stdout")
  if [ -n "$job" ] && "$query" 2>"$work/list.err" | grep -Eq "^ *$job +2 of 2 +live_program"; then
    break
  fi
  job=
  sleep 0.1
done
[ -n "$job" ] || fail "the job never listed 2 publishing ranks: $(cat "$work/stdout" "$work/stderr")"
if grep -q foreign "$work/list.err"; then fail "vcmon-query listed squatters: $(head -3 "$work/list.err")"; fi
if [ "$job" -ge "$first" ] && [ "$job" -le "$last" ]; then
  echo "job $job: its ranks' names (old form) were squatted"
else
  echo "job $job: pid outside the squatted range $first-$last (the machine is busy)"
fi
"$query" --format json "$job" >"$work/live.json" || fail "vcmon-query $job failed"
jq -e '.header.ranks_reported == 2' "$work/live.json" >/dev/null ||
  fail "the live view lacks a rank: $(jq -c .header "$work/live.json")"

wait "$job_pid" || fail "the job failed: $(cat "$work/stderr")"
job_pid=
if grep -E "vcmon: .*(not written|no live publication|publication stopped|open files)" "$work/stderr"; then
  fail "the job lost its profile or its publication"
fi
profile=$(sed -n "s|^vcmon: virtual .*, profile \\($work/live_program-.*\\.vcmon\\)\$|\\1|p" "$work/stderr")
[ -n "$profile" ] && [ -s "$profile" ] || fail "no profile: $(cat "$work/stderr")"
"$report" "$profile" >/dev/null || fail "the profile does not read back"
echo "squatted_names: published and wrote $profile among $(wc -l <"$squats") squatting files"
