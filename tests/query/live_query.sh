#!/usr/bin/env bash
# live_query.sh MPIEXEC LIVE_PROGRAM VCMON_QUERY
# Starts a 4-rank live_program publishing every 100 ms, then queries it from outside twice,
# one second apart: the figures (virtual time, messages) must grow, the text view must be the
# report's, and the job must be listed; after the job ends its segments must be gone.
set -euo pipefail
mpiexec=$1 program=$2 query=$3
work=$(mktemp -d)
job_pid=
cleanup() {
  if [ -n "$job_pid" ]; then kill "$job_pid" 2>/dev/null || true; wait "$job_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "live_query: $*" >&2; exit 1; }

# 15 s: under the sanitizers on a loaded machine the queries below took more than the 8 s the
# job once ran, and the last found no job.
VCMON_PUBLISH_MS=100 VCMON_OUTPUT="$work" timeout 90 "$mpiexec" -n 4 "$program" 15 \
  >"$work/stdout" 2>"$work/stderr" &
job_pid=$!

job=
for _ in $(seq 600); do # at most 60 s for the ranks to start
  job=$(sed -n 's/^live_program: job \([0-9][0-9]*\)$/\1/p' "$work/stdout")
  if [ -n "$job" ] && "$query" 2>/dev/null | grep -Eq "^ *$job +4 of 4 +live_program"; then
    break
  fi
  job=
  sleep 0.1
done
[ -n "$job" ] || fail "the job never listed 4 publishing ranks: $(cat "$work/stdout" "$work/stderr")"

figures() { # figures FILE: "virtual_ns messages"
  jq -r '[.header.virtual_ns, ([.matrix.cells[].messages] | add // 0)] | @tsv' "$1"
}
"$query" --format json "$job" >"$work/first.json"
sleep 1
"$query" --format json "$job" >"$work/second.json"
read -r vt1 msg1 < <(figures "$work/first.json")
read -r vt2 msg2 < <(figures "$work/second.json")
echo "first query:  virtual $vt1 ns, $msg1 messages"
echo "second query: virtual $vt2 ns, $msg2 messages"
[ "$vt2" -gt "$vt1" ] || fail "virtual time did not grow ($vt1 -> $vt2)"
[ "$msg2" -gt "$msg1" ] || fail "messages did not grow ($msg1 -> $msg2)"

"$query" "$job" >"$work/text"
grep -q "^live: job $job (.*live_program.*), 4 of 4 ranks on this node" "$work/text" ||
  fail "no live banner: $(head -3 "$work/text")"
grep -q "work" "$work/text" || fail "the text view lacks the procedure work: $(cat "$work/text")"
# main is still running: its time so far is counted (settled at the ranks' MPI calls).
grep -Eq "^ +(9[0-9]|100)\.[0-9]% .*└─ main .*live_program\.c:" "$work/text" ||
  fail "main, still running, does not carry the program's time: $(cat "$work/text")"
"$query" --watch 0.2 --count 2 "$job" | grep -c "^live: job $job" | grep -qx 2 ||
  fail "--watch --count 2 did not show two views"
# vcmon-report's view options on the live job: one rank's folded stacks, an HTML page via -o.
"$query" "$job" --format folded --rank 1 >"$work/folded"
grep -Eq '^program;main;.*work.* [0-9]+$' "$work/folded" ||
  fail "--format folded --rank 1 gave no stack through work: $(cat "$work/folded")"
"$query" "$job" --format json --rank 1 --depth 1 | jq -e '.header.ranks_reported == 1' >/dev/null ||
  fail "--rank 1 did not report one rank"
"$query" "$job" --format html -o "$work/live.html"
grep -q '^<!DOCTYPE html>' "$work/live.html" || fail "-o did not write the HTML page"
"$query" -o "$work/listing"
grep -Eq "^ *$job +4 of 4 +live_program" "$work/listing" || fail "-o did not write the listing"

wait "$job_pid" || fail "the job failed: $(cat "$work/stderr")"
job_pid=
ls /dev/shm | grep -q "^vcmon-$(id -u)-$job-" && fail "segments of job $job left behind"
if "$query" "$job" 2>"$work/ended"; then fail "an ended job was still shown"; fi
grep -qx "vcmon-query: no running job $job of this user on this node (vcmon-query lists them)" \
  "$work/ended" || fail "unexpected message for an ended job: $(cat "$work/ended")"
echo "live_query: ok"
