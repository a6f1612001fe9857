#!/usr/bin/env bash
# pingpong_compare.sh MPIEXEC PLAIN MONITORED [RUNS] [SAMPLES] [blocking|nonblocking]
# Ping-pong half round-trip, plain MPICH against the same program linked with libvcmon, measured
# side by side in one invocation: RUNS rounds (default 11), each running both builds under
# `MPIEXEC -n 2` (which goes first alternates, so neither always follows the other). Each run
# reports per size the median of SAMPLES samples; the table gives the median over runs and the
# ratio monitored/plain, against the targets (8 B <= 1.5x, 1 MiB <= 1.05x; docs/transparency.md,
# "Ping-pong cost"). It also gives the ratio of the fastest runs: on a shared machine other jobs
# only ever slow a run down, so that ratio shows the monitor's own cost when the medians are
# dominated by scheduling. The targets are for blocking Send/Recv; the nonblocking mode (Irecv,
# Isend and Waitall against Irecv, Wait, Isend, Wait) prints no target.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 MPIEXEC PLAIN MONITORED [RUNS] [SAMPLES] [blocking|nonblocking]" >&2
  exit 2
fi
mpiexec=$1 plain=$2 monitored=$3 runs=${4:-11} samples=${5:-15} mode=${6:-blocking}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/profiles"

run() { # run VARIANT PROGRAM: appends "size microseconds" lines to $work/VARIANT
  local status=0
  VCMON_OUTPUT="$work/profiles" timeout 300 "$mpiexec" -n 2 "$2" "$samples" "$mode" \
    >>"$work/$1" 2>"$work/stderr" || status=$?
  if [ $status != 0 ]; then
    echo "$1 run failed with status $status; its stderr:" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
}

for ((r = 0; r < runs; ++r)); do
  if ((r % 2 == 0)); then
    run plain "$plain"
    run vcmon "$monitored"
  else
    run vcmon "$monitored"
    run plain "$plain"
  fi
done

echo "$mode ping-pong half round-trip, mpiexec -n 2: median over $runs runs of per-run" \
  "medians ($samples samples each)"
awk -v runs="$runs" -v mode="$mode" '
  function sorted(variant, size, v,    n, i, j, t) {
    n = count[variant, size]
    for (i = 1; i <= n; ++i) v[i] = value[variant, size, i]
    for (i = 2; i <= n; ++i)           # insertion sort: n is small
      for (j = i; j > 1 && v[j - 1] > v[j]; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n
  }
  function median(variant, size,    n, v) {
    n = sorted(variant, size, v)
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  function fastest(variant, size,    v) {
    sorted(variant, size, v)
    return v[1]
  }
  function label(bytes) {
    if (bytes >= 1048576) return bytes / 1048576 " MiB"
    if (bytes >= 1024) return bytes / 1024 " KiB"
    return bytes " B"
  }
  FNR == 1 { variant = FILENAME ~ /plain$/ ? "plain" : "vcmon" }
  {
    if (!seen[$1]++) sizes[++size_count] = $1
    value[variant, $1, ++count[variant, $1]] = $2
  }
  END {
    printf "%-8s %12s %12s %7s %11s  %s\n", "size", "plain us", "vcmon us", "ratio", \
      "ratio best", "target (median ratio)"
    for (s = 1; s <= size_count; ++s) {
      size = sizes[s]
      if (count["plain", size] != runs || count["vcmon", size] != runs) {
        print "missing results for size " size > "/dev/stderr"; exit 1
      }
      p = median("plain", size); m = median("vcmon", size)
      target = mode != "blocking" ? 0 : size == 8 ? 1.5 : size == 1048576 ? 1.05 : 0
      verdict = target ? sprintf("<= %.2f %s", target, m / p <= target ? "met" : "MISSED") : ""
      best = fastest("vcmon", size) / fastest("plain", size)
      printf "%-8s %12.3f %12.3f %7.3f %11.3f  %s\n", label(size), p, m, m / p, best, verdict
    }
  }' "$work/plain" "$work/vcmon"
