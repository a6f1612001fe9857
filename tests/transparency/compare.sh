#!/usr/bin/env bash
# compare.sh [OPTIONS] MPIEXEC RANKS PLAIN MONITORED [ARG...]
# Runs the plain and the libvcmon-linked build of one program under `MPIEXEC -n RANKS`, each
# with the arguments ARG..., and fails, printing the difference, unless every run exits with
# status 0 (or --status) and prints exactly the same standard output. (stderr is not compared:
# the monitored run adds its summary line there; but see --stderr-part.)
# Options:
#   --timeout S          limit of each run, in seconds (default 25); a run that reaches it is
#                        reported as a hang, with every rank's threads' stacks (gdb) when gdb
#                        can attach: a hang seen once in CI is then a hang one can read
#   --env VAR=VALUE      set for every run, plain and monitored (repeatable)
#   --monitored-env VAR=VALUE   set for the monitored runs only (repeatable)
#   --runs N             run the monitored build N times (default 1), each compared with the
#                        first plain output; the first that fails ends the test
#   --plain-runs N       run the plain build N times (default 1); they must agree with each
#                        other too, or the program is not deterministic and the test is wrong
#   --forbid REGEX       fail if a run's stdout or stderr has a line matching REGEX (grep -E;
#                        repeatable): warnings that do not change the exit status
#   --status N           every run must end with exit status N (an erroneous program)
#   --stderr-part REGEX  the parts of stderr matching REGEX (grep -oE) that a monitored run
#                        prints must be among those the plain runs so far printed: how MPI
#                        reports an error. mpiexec may drop an aborting rank's last output, so
#                        a run that printed none is not held against it (nor judged while no
#                        plain run printed one), but one monitored run at least must have been
#                        compared so (use --runs and --plain-runs)
set -u
usage() {
  echo "usage: $0 [--timeout S] [--env V=X]... [--monitored-env V=X]... [--runs N]" \
    "[--plain-runs N] [--forbid REGEX]... [--status N] [--stderr-part REGEX]" \
    "MPIEXEC RANKS PLAIN MONITORED [ARG...]" >&2
  exit 2
}
per_run_timeout=25 runs=1 plain_runs=1 expected_status=0 stderr_part=
common_env=() monitored_env=() forbidden=()
while [ $# -gt 0 ]; do
  case $1 in
  --timeout) per_run_timeout=${2:?}; shift 2 ;;
  --env) common_env+=("${2:?}"); shift 2 ;;
  --monitored-env) monitored_env+=("${2:?}"); shift 2 ;;
  --runs) runs=${2:?}; shift 2 ;;
  --plain-runs) plain_runs=${2:?}; shift 2 ;;
  --forbid) forbidden+=("${2:?}"); shift 2 ;;
  --status) expected_status=${2:?}; shift 2 ;;
  --stderr-part) stderr_part=${2:?}; shift 2 ;;
  --) shift; break ;;
  -*) usage ;;
  *) break ;;
  esac
done
[ $# -ge 4 ] || usage
mpiexec=$1 ranks=$2
plain=$(realpath "$3") monitored=$(realpath "$4")
shift 4
arguments=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# stacks PID PROGRAM: the backtrace of every thread of every process under PID that runs
# PROGRAM (the ranks, below mpiexec and its proxy), from gdb, all ranks at once (one at a time
# took over 20 s a rank beside other tests); nothing when gdb is missing.
stacks() {
  command -v gdb >/dev/null || return 0
  local pid pids=()
  for pid in $(descendants "$1"); do
    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$2" ] || continue
    pids+=("$pid")
    timeout 60 gdb -p "$pid" -batch -nx -ex 'set print frame-arguments none' \
      -ex 'thread apply all bt 30' </dev/null >"$work/stack.$pid" 2>/dev/null &
  done
  wait
  for pid in ${pids[@]+"${pids[@]}"}; do
    echo "=== process $pid"
    grep -E '^(Thread|#)' "$work/stack.$pid" |
      sed -E 's/ \(([A-Za-z_0-9]+=\.\.\.(, )?)*\)//; s/^(#[0-9]+ +)0x[0-9a-f]+ in /\1/'
    rm -f "$work/stack.$pid"
  done
}
descendants() { # descendants PID: every process below PID
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}

run() { # run NAME PROGRAM VAR=VALUE...: stdout, stderr, exit status, seconds to $work/NAME.*
  local name=$1 program=$2
  shift 2
  mkdir -p "$work/$name.profiles"
  local start end job watchdog
  start=$(date +%s.%N)
  # The run's own limit only ends a run the watchdog could not (mpiexec ignoring SIGTERM).
  (cd "$work" && exec env VCMON_OUTPUT="$work/$name.profiles" "$@" \
    timeout -k 5 $((per_run_timeout + 60)) "$mpiexec" -n "$ranks" "$program" \
    "${arguments[@]}" </dev/null >"$work/$name.out" 2>"$work/$name.err") &
  job=$!
  # At the limit: the stacks first, then SIGTERM (timeout passes it on to mpiexec, mpiexec to
  # the ranks, which write their partial profiles).
  (
    sleep "$per_run_timeout" </dev/null >/dev/null 2>&1
    kill -0 "$job" 2>/dev/null || exit 0 # ended (and reaped) in time: the sleep was cut short
    touch "$work/$name.hung"
    stacks "$job" "$program" >"$work/$name.stacks" 2>&1
    kill -TERM "$job" 2>/dev/null
  ) </dev/null >/dev/null 2>&1 &
  watchdog=$!
  wait "$job"
  echo $? >"$work/$name.status"
  pkill -P "$watchdog" 2>/dev/null
  kill "$watchdog" 2>/dev/null
  wait "$watchdog" 2>/dev/null
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.2f\n", $2 - $1}' >"$work/$name.seconds"
}

outcome() { # outcome NAME: "exit status N" or "hang (no end within S s)"
  local status
  status=$(cat "$work/$1.status")
  # The watchdog marks the runs it ended; timeout's own statuses are runs it could not.
  if [ -e "$work/$1.hung" ] || [ "$status" = 124 ] || [ "$status" = 137 ]; then
    echo "hang (no end within $per_run_timeout s)"
  else
    echo "exit status $status"
  fi
}

show_run() { # show_run NAME
  echo "--- $1: $(outcome "$1") after $(cat "$work/$1.seconds") s, stderr:"
  head -c 20000 "$work/$1.err"
  if [ -s "$work/$1.stacks" ]; then
    echo "--- $1: the ranks' threads at the limit:"
    head -c 40000 "$work/$1.stacks"
  fi
}

stderr_parts() { # stderr_parts NAME...
  local name
  for name in "$@"; do
    grep -oE -- "$stderr_part" "$work/$name.err"
  done | sort -u
}
compared_stderr=0

failed=0
check_forbidden() { # check_forbidden NAME
  local pattern
  for pattern in ${forbidden[@]+"${forbidden[@]}"}; do
    if grep -E -q -- "$pattern" "$work/$1.out" "$work/$1.err"; then
      echo "FAIL: $1 prints a line matching '$pattern':"
      grep -E -h -- "$pattern" "$work/$1.out" "$work/$1.err" | head -5
      failed=1
    fi
  done
}

# check_monitored I: compares monitored run I with the first plain run.
check_monitored() {
  local i=$1 run_failed=0 before=$failed
  if [ "$(cat "$work/monitored.$i.status")" != "$expected_status" ]; then
    echo "FAIL: monitored run $i: $(outcome "monitored.$i"), the plain build exits with" \
      "status $expected_status"
    run_failed=1
  fi
  if [ -n "$stderr_part" ]; then
    local plain_parts monitored_parts unknown
    plain_parts=$(cd "$work" && stderr_parts $(ls plain.*.err | sed 's/\.err$//'))
    monitored_parts=$(stderr_parts "monitored.$i")
    # mpiexec drops the plain runs' report too at times: with none from them yet, nothing to
    # judge this run by (transparency.fatal_errors.split failed so, 2 times in 72 at -j4).
    unknown=$(comm -13 <(echo "$plain_parts") <(echo "$monitored_parts") | grep -v '^$')
    if [ -z "$plain_parts" ]; then
      :
    elif [ -n "$unknown" ]; then
      echo "FAIL: monitored run $i reports on stderr what the plain runs do not:"
      echo "$unknown"
      echo "the plain runs:"
      echo "$plain_parts"
      run_failed=1
    elif [ -n "$plain_parts" ] && [ -n "$monitored_parts" ]; then
      compared_stderr=1
    fi
  fi
  if ! diff -u --label plain --label "monitored run $i" "$work/plain.1.out" \
    "$work/monitored.$i.out"; then
    echo "FAIL: monitored run $i prints something else (diff above)"
    run_failed=1
  fi
  check_forbidden "monitored.$i"
  [ "$failed" = "$before" ] || run_failed=1
  if [ $run_failed = 1 ]; then
    show_run "monitored.$i"
    failed=1
  fi
}

# Round 1 runs plain first (the reference), round 2 monitored first, and so on, so that a
# loaded machine slows both alike. The first monitored run that fails ends the test.
total=$((runs > plain_runs ? runs : plain_runs))
for ((i = 1; i <= total; ++i)); do
  order="plain monitored"
  [ $((i % 2)) = 0 ] && order="monitored plain"
  for kind in $order; do
    if [ "$kind" = plain ] && [ "$i" -le "$plain_runs" ]; then
      run "plain.$i" "$plain" ${common_env[@]+"${common_env[@]}"}
      echo "plain run $i: $(outcome "plain.$i"), $(cat "$work/plain.$i.seconds") s"
      if [ "$(cat "$work/plain.$i.status")" != "$expected_status" ] ||
        [ ! -s "$work/plain.$i.out" ]; then
        echo "FAIL: the plain build must exit $expected_status and print something" >&2
        show_run "plain.$i"
        exit 1
      fi
      check_forbidden "plain.$i"
      if [ "$i" -gt 1 ] && ! diff -u --label plain.1 --label "plain.$i" "$work/plain.1.out" \
        "$work/plain.$i.out"; then
        echo "FAIL: the plain build prints something else in run $i: the program is not" \
          "deterministic"
        exit 1
      fi
      [ $failed = 0 ] || exit 1
    elif [ "$kind" = monitored ] && [ "$i" -le "$runs" ]; then
      run "monitored.$i" "$monitored" ${common_env[@]+"${common_env[@]}"} \
        ${monitored_env[@]+"${monitored_env[@]}"}
      echo "monitored run $i: $(outcome "monitored.$i"), $(cat "$work/monitored.$i.seconds") s"
      check_monitored "$i"
      [ $failed = 0 ] || exit 1
    fi
  done
done
if [ -n "$stderr_part" ] && [ "$compared_stderr" = 0 ]; then
  echo "FAIL: no monitored run could be compared with a plain one on '$stderr_part'" \
    "(mpiexec dropped their output): add runs"
  exit 1
fi
echo "same output ($(wc -l <"$work/plain.1.out") lines) and exit status with and without vcmon" \
  "($plain_runs plain, $runs monitored runs)"
