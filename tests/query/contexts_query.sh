#!/usr/bin/env bash
# contexts_query.sh MPIEXEC CONTEXTS_PROGRAM VCMON_QUERY VCMON_REPORT
# Issue 13's case read from outside while the job runs: a 3-rank contexts_program (work(10 n)
# and work(n) from two call sites, after a call MPI_Pcontrol(2) reset and one made while
# recording was paused) checks its contexts through the C API itself, writes a profile
# (MPI_Pcontrol(3)) and waits. vcmon-query's report must then be built from the calling
# contexts, exact (each call's own iterations, Allreduce operations and time, on one rank and
# summed), without the excluded calls, and its work subtrees must be those vcmon-report shows
# for the profile written in the same state.
set -euo pipefail
mpiexec=$1 program=$2 query=$3 report=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-contexts-query.XXXXXX")
job_pid=
cleanup() {
  touch "$work/done"
  if [ -n "$job_pid" ]; then wait "$job_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "contexts_query: $*" >&2; exit 1; }
n=20 ranks=3 heavy_line=154 light_line=155 reset_line=149 paused_line=152

mkdir "$work/profiles"
VCMON_PUBLISH_MS=100 VCMON_OUTPUT="$work/profiles" timeout 200 \
  "$mpiexec" -n $ranks "$program" "$work/done" >"$work/stdout" 2>"$work/stderr" &
job_pid=$!

job=
for _ in $(seq 1200); do # at most 120 s for the ranks to work and check
  job=$(sed -n 's/^contexts_program: job \([0-9][0-9]*\) ready$/\1/p' "$work/stdout")
  [ -n "$job" ] && break
  kill -0 "$job_pid" 2>/dev/null || fail "the job ended early: $(cat "$work/stdout" "$work/stderr")"
  sleep 0.1
done
[ -n "$job" ] || fail "the job never got ready: $(cat "$work/stdout" "$work/stderr")"

# work called at $2 in the report $1 -> "activations loops iterations Allreduce time_ns", one
# line per context of that call (summed over the ranks the report holds).
numbers() {
  jq -r --argjson line "$2" '.tree.children[] | select(.name == "main") | .children[]
    | select(.name == "work" and .call_position.line == $line) as $w
    | ($w.children[] | select(.kind == "loop")) as $l
    | ($l.children[] | select(.kind == "comm")) as $c
    | "\($w.count) \($l.count) \($l.iterations) \($c.count) \($w.time.total_ns)"' "$1"
}

# The segments are rewritten every 100 ms: wait for one written after the calls. One written
# during the last call shows part of its iterations (48 of 60 in a CI run), so wait for all.
light_done="$ranks $ranks $((n * ranks)) $((n * ranks))"
for _ in $(seq 100); do
  "$query" --format json "$job" >"$work/live.json"
  light=$(numbers "$work/live.json" $light_line)
  [ "${light% *}" = "$light_done" ] && break
  sleep 0.1
done
jq -e '.header.tree_source == "contexts"' "$work/live.json" >/dev/null ||
  fail "vcmon-query's tree is not the calling contexts: $(jq -c .header.tree_source "$work/live.json")"
apportioned=$(jq '[.. | objects | select(.apportioned? == true)] | length' "$work/live.json")
[ "$apportioned" = 0 ] || fail "$apportioned apportioned nodes in vcmon-query's JSON"

check_calls() { # $1: report, $2: how many ranks it sums
  local heavy light
  heavy=$(numbers "$1" $heavy_line)
  light=$(numbers "$1" $light_line)
  [ "${heavy% *}" = "$2 $2 $((10 * n * $2)) $((10 * n * $2))" ] ||
    fail "$1: work called at line $heavy_line: '$heavy' (want $2 activations, $2 loops," \
      "$((10 * n * $2)) iterations and Allreduce, one context)"
  [ "${light% *}" = "$2 $2 $((n * $2)) $((n * $2))" ] ||
    fail "$1: work called at line $light_line: '$light' (want $2 activations, $2 loops," \
      "$((n * $2)) iterations and Allreduce, one context)"
  # Ten times the work: well over 3 times the time however loaded the machine.
  awk -v h="${heavy##* }" -v l="${light##* }" 'BEGIN { exit !(l > 0 && h > 3 * l) }' ||
    fail "$1: work at line $heavy_line took ${heavy##* } ns, at line $light_line ${light##* } ns"
  for line in $reset_line $paused_line; do
    [ -z "$(numbers "$1" $line)" ] || fail "$1: work called at line $line, excluded, is shown"
  done
  echo "$1: work at line $heavy_line: ${heavy}; at line $light_line: $light"
}
check_calls "$work/live.json" $ranks
"$query" --format json --rank 1 "$job" >"$work/rank1.json"
check_calls "$work/rank1.json" 1

"$query" "$job" >"$work/live.txt"
grep -q 'calling contexts merged by path, exact' "$work/live.txt" ||
  fail "vcmon-query's text does not say the tree is exact: $(cat "$work/live.txt")"
if grep -n '~' "$work/live.txt" >&2; then fail "an apportioned (~) value in vcmon-query's text"; fi

# The profile written in the same state: the same work subtrees (their percentages aside: the
# program's time keeps growing while the job waits).
profiles=("$work"/profiles/*-snapshot-1.vcmon)
[ -s "${profiles[0]}" ] || fail "no snapshot profile: $(ls "$work/profiles")"
"$report" --format json "${profiles[0]}" >"$work/profile.json"
work_subtrees() {
  jq -S '[.tree.children[] | select(.name == "main") | .children[] | select(.name == "work")]
    | walk(if type == "object" then del(.id, .percent) else . end)' "$1"
}
diff <(work_subtrees "$work/profile.json") <(work_subtrees "$work/live.json") >&2 ||
  fail "vcmon-query's work contexts differ from vcmon-report's of the profile"
[ "$(work_subtrees "$work/live.json" | jq length)" = 2 ] || fail "not two contexts of work"

touch "$work/done"
wait "$job_pid" || fail "the job failed: $(cat "$work/stdout" "$work/stderr")"
job_pid=
cat "$work/stdout"
grep -q "(wrong)" "$work/stdout" && fail "the C API checks failed"
[ "$(grep -c '^gathered rank' "$work/stdout")" = $ranks ] || fail "not every rank gathered"
echo "contexts_query: ok"
