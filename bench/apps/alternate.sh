#!/usr/bin/env bash
# alternate.sh [-r ROUNDS] [-t TIMER] [-v VERIFY] -- NAME=COMMAND NAME=COMMAND...
# Your own application, plain and monitored, side by side: runs each COMMAND (a shell command
# line, e.g. "mpiexec -n 2 ./app-plain 48 48 48") once per round, ROUNDS rounds (default 9),
# in the reverse order every other round, and prints per command the median and range of the
# program's own timer and of the wall time, each against the first command's medians.
#   -t TIMER   the timer: the first number on the first output line that contains TIMER
#              (e.g. "Elapsed time"); without -t, only wall times
#   -v VERIFY  the output lines that contain VERIFY (e.g. "Origin Energy") must be the same in
#              every run of every command; fails otherwise
# Every command after the first runs with VCMON_WTIME=virtual, so a program that times itself
# with MPI_Wtime prints virtual time when it is built with vcmon (docs/runtime.md). Profiles
# are written into a temporary directory (VCMON_OUTPUT) and removed. Fails when a command
# fails. Used for LULESH and HPCCG (docs/evaluation.md, "Real applications").
set -euo pipefail
rounds=9 timer="" verify=""
usage() {
  echo "usage: $0 [-r ROUNDS] [-t TIMER] [-v VERIFY] -- NAME=COMMAND NAME=COMMAND..." >&2
  exit 2
}
while getopts "r:t:v:" option; do
  case $option in
  r) rounds=$OPTARG ;;
  t) timer=$OPTARG ;;
  v) verify=$OPTARG ;;
  *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
[[ $rounds =~ ^[1-9][0-9]*$ ]] || {
  echo "$0: ROUNDS must be a positive integer, not '$rounds'" >&2
  exit 2
}
names=() commands=()
for spec in "$@"; do
  [[ $spec == *=* && ${spec%%=*} =~ ^[A-Za-z0-9_.-]+$ ]] || {
    echo "$0: '$spec' is not NAME=COMMAND" >&2
    exit 2
  }
  names+=("${spec%%=*}")
  commands+=("${spec#*=}")
done

work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-alternate.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/profiles"
results=$work/results

run() { # run INDEX ROUND
  local index=$1 round=$2 output=$work/output start end
  local -a environment=()
  [ "$index" -gt 0 ] && environment=(VCMON_WTIME=virtual VCMON_OUTPUT="$work/profiles")
  start=$(date +%s.%N)
  if ! env "${environment[@]}" bash -c "${commands[$index]}" >"$output" 2>&1; then
    echo "$0: ${names[$index]} failed in round $round: ${commands[$index]}" >&2
    tail -n 20 "$output" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  local value=""
  if [ -n "$timer" ]; then
    # The text as given (ENVIRON: -v would read backslashes as escapes), not a pattern.
    value=$(TIMER=$timer awk 'at = index($0, ENVIRON["TIMER"]) {
        print substr($0, at + length(ENVIRON["TIMER"])); exit }' "$output" |
      grep -Eo '[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?' | head -n 1 || true)
    [ -n "$value" ] || {
      echo "$0: ${names[$index]} printed no number after '$timer' in round $round" >&2
      exit 1
    }
  fi
  if [ -n "$verify" ]; then
    grep -F -- "$verify" "$output" >"$work/verify.$index.$round" || true
    if ! cmp -s "$work/verify.0.1" "$work/verify.$index.$round"; then
      echo "$0: ${names[$index]}'s '$verify' lines in round $round differ from the first run's:" >&2
      diff "$work/verify.0.1" "$work/verify.$index.$round" >&2 || true
      exit 1
    fi
  fi
  echo "$index $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f", e - s }') ${value:--}" >>"$results"
  rm -f "$work/profiles"/*
}

count=${#commands[@]}
for round in $(seq 1 "$rounds"); do
  for step in $(seq 0 $((count - 1))); do
    if [ $((round % 2)) -eq 1 ]; then run "$step" "$round"; else run $((count - 1 - step)) "$round"; fi
  done
done

awk_lib=$(cat "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../stats.awk")
names_list=$(printf '%s\n' "${names[@]}")
awk -v names="$names_list" -v timer="$timer" -v rounds="$rounds" "$awk_lib"'
  { n[$1]++; wall[$1, n[$1]] = $2; value[$1, n[$1]] = $3 }
  function stats(a, i, out,    k, v, lo, hi) {
    for (k = 1; k <= n[i]; ++k) v[k] = a[i, k]
    out["median"] = median(v, n[i]); out["lo"] = v[1]; out["hi"] = v[n[i]]
  }
  END {
    count = split(names, name, "\n")
    printf "%d rounds; the first command is the baseline, the others ran with VCMON_WTIME=virtual\n", rounds
    printf "%-14s %26s %8s", "command", "wall s, median [range]", "ratio"
    if (timer != "") printf "   %-30s %8s", "\"" timer "\", median [range]", "diff"
    printf "\n"
    for (i = 0; i < count; ++i) {
      stats(wall, i, w)
      if (i == 0) base_wall = w["median"]
      printf "%-14s %9.3f [%.3f-%.3f] %7.2fx", name[i + 1], w["median"], w["lo"], w["hi"], w["median"] / base_wall
      if (timer != "") {
        stats(value, i, t)
        if (i == 0) base = t["median"]
        printf "   %9.4g [%.4g-%.4g]      %+7.1f%%", t["median"], t["lo"], t["hi"], (base > 0 ? 100 * (t["median"] - base) / base : 0)
      }
      printf "\n"
    }
  }' "$results"
