#!/usr/bin/env bash
# finalize_scaling.sh MPIEXEC PROGRAM [RUNS] [RANKS...]
# The time MPI_Finalize takes (rank 0's wall clock around it: the profile written together) and
# rank 0's peak RSS as the job grows, for finalize_scaling.c (2001 sites), with each way the
# ranks write the profile (VCMON_PROFILE_IO=mpiio, gather). RUNS runs (default 3) per rank count
# (default 8 16 32 64; oversubscribed on a small machine). Prints medians with min-max and the
# profile's size, then each measure at the most ranks over the fewest (flat: within 1.10).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 MPIEXEC PROGRAM [RUNS] [RANKS...]" >&2
  exit 2
fi
mpiexec=$1 program=$2 runs=${3:-3}
shift $(($# < 3 ? $# : 3))
rank_counts=("$@")
[ ${#rank_counts[@]} -gt 0 ] || rank_counts=(8 16 32 64)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stats=$(cat "$(dirname "$0")/../stats.awk")

for io in mpiio gather; do
  for ranks in "${rank_counts[@]}"; do
    for ((run = 1; run <= runs; ++run)); do
      rm -rf "$work/profiles" && mkdir "$work/profiles"
      if ! VCMON_OUTPUT="$work/profiles" VCMON_PROFILE_IO=$io MPIR_CVAR_POLLS_BEFORE_YIELD=1 \
        timeout 900 "$mpiexec" -n "$ranks" "$program" >"$work/stdout" 2>"$work/stderr"; then
        echo "$io at $ranks ranks failed; its stderr:" >&2
        cat "$work/stderr" >&2
        exit 1
      fi
      bytes=$(stat -c %s "$work"/profiles/*.vcmon)
      echo "io=$io ranks=$ranks $(grep finalize_ns= "$work/stdout") bytes=$bytes" >>"$work/results"
    done
  done
done

awk "$stats"'
  { key = field($0, "io") " " field($0, "ranks"); if (!(key in n)) order[++keys] = key
    i = ++n[key]; fin[key, i] = field($0, "finalize_ns") / 1e6
    rss[key, i] = field($0, "rss_kib") / 1024; size[key] = field($0, "bytes") }
  function summary(store, key,    v, i, lo, hi) {
    lo = hi = store[key, 1]
    for (i = 1; i <= n[key]; ++i) { v[i] = store[key, i]; if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
    med[key] = median(v, n[key])
    return sprintf("%9.1f [%.1f-%.1f]", med[key], lo, hi)
  }
  END {
    printf "%-7s %6s %28s %24s %14s\n", "io", "ranks", "MPI_Finalize ms median [min-max]", "rank 0 peak RSS MiB", "profile bytes"
    for (k = 1; k <= keys; ++k) {
      key = order[k]; split(key, part, " ")
      f = summary(fin, key); fm[key] = med[key]; r = summary(rss, key); rm[key] = med[key]
      printf "%-7s %6d %28s %24s %14d\n", part[1], part[2], f, r, size[key]
      if (!(part[1] in first)) first[part[1]] = key
      last[part[1]] = key
    }
    for (io in first) {
      a = first[io]; b = last[io]
      printf "%s: most/fewest ranks: MPI_Finalize x%.2f, peak RSS x%.2f, profile x%.2f\n", io, fm[b] / fm[a], rm[b] / rm[a], size[b] / size[a]
    }
  }' "$work/results"
