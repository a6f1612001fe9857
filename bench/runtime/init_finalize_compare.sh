#!/usr/bin/env bash
# init_finalize_compare.sh MPIEXEC PLAIN MONITORED REPORT [RUNS] [RANKS...]
# A program that only calls MPI_Init and MPI_Finalize (init_finalize.c), plain MPICH against the
# same program linked with libvcmon, side by side: for each rank count (default 2 and 4), RUNS
# rounds (default 7), each running both builds (which goes first alternates). Per run: the wall
# time of the whole mpiexec, each rank's own measured main (the plain build's truth), and, for
# the monitored build, main's virtual time per rank from its profile (REPORT is vcmon-report).
# The table gives medians over runs (of the means over ranks) with min-max, and checks the start-up
# targets (docs/runtime.md, "Start-up and shutdown"): main's virtual time within 10 % or 20 ms
# (whichever is larger) of the plain main, and the monitored wall time at most 1.3x the plain one.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 MPIEXEC PLAIN MONITORED REPORT [RUNS] [RANKS...]" >&2
  exit 2
fi
mpiexec=$1 plain=$2 monitored=$3 report=$4 runs=${5:-7}
shift $(($# < 5 ? $# : 5))
rank_counts=("$@")
[ ${#rank_counts[@]} -gt 0 ] || rank_counts=(2 4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# mean_of: the mean of the numbers on standard input.
mean_of() { awk '{ s += $1; n++ } END { if (n) printf "%.0f\n", s / n; else print "nan" }'; }

# run VARIANT PROGRAM RANKS: appends "wall_ns main_ns [virtual_main_ns]" to $work/VARIANT.RANKS
run() {
  local variant=$1 program=$2 ranks=$3 status=0
  rm -rf "$work/profiles" && mkdir "$work/profiles"
  local start end
  start=$(date +%s%N)
  VCMON_OUTPUT="$work/profiles" timeout 120 "$mpiexec" -n "$ranks" "$program" \
    >"$work/stdout" 2>"$work/stderr" || status=$?
  end=$(date +%s%N)
  if [ $status != 0 ]; then
    echo "$variant run at $ranks ranks failed with status $status; its stderr:" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  local main virtual=""
  main=$(awk '$1 == "main_ns" { print $3 }' "$work/stdout" | mean_of)
  if [ "$variant" = vcmon ]; then
    local profile
    profile=$(ls "$work"/profiles/*.vcmon)
    virtual=$("$report" --format json "$profile" | grep -o '"application_ns": [0-9.]*' |
      awk '{ print $2 }' | mean_of)
  fi
  echo "$((end - start)) $main $virtual" >>"$work/$variant.$ranks"
}

# stat FILE COLUMN: "median min max" of a column, in ms.
stat() {
  awk -v c="$2" '{ print $c / 1e6 }' "$1" | sort -g |
    awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                              printf "%.1f %.1f %.1f\n", m, v[1], v[NR] }'
}

echo "MPI_Init + MPI_Finalize only, $runs runs per build and rank count (median [min-max], ms)"
printf '%-6s %-22s %-22s %-22s %-8s %-22s %-7s\n' ranks "plain main" "monitored main (VT)" \
  "monitored main (real)" "VT err" "wall plain / vcmon" "wall x"
for ranks in "${rank_counts[@]}"; do
  for ((r = 0; r < runs; ++r)); do
    if ((r % 2 == 0)); then
      run plain "$plain" "$ranks"
      run vcmon "$monitored" "$ranks"
    else
      run vcmon "$monitored" "$ranks"
      run plain "$plain" "$ranks"
    fi
  done
  read -r pm pmin pmax < <(stat "$work/plain.$ranks" 2)
  read -r vm vmin vmax < <(stat "$work/vcmon.$ranks" 3)
  read -r rm rmin rmax < <(stat "$work/vcmon.$ranks" 2)
  read -r pw _ _ < <(stat "$work/plain.$ranks" 1)
  read -r mw _ _ < <(stat "$work/vcmon.$ranks" 1)
  verdict=$(awk -v p="$pm" -v v="$vm" -v pw="$pw" -v mw="$mw" 'BEGIN {
    d = v - p; if (d < 0) d = -d; tol = p * 0.1 > 20 ? p * 0.1 : 20;
    printf "%+.1f%% %s|%.2f %s", (v - p) / p * 100, d <= tol ? "ok" : "MISS",
           mw / pw, mw / pw <= 1.3 ? "ok" : "MISS" }')
  printf '%-6s %-22s %-22s %-22s %-8s %-22s %-7s\n' "$ranks" "$pm [$pmin-$pmax]" \
    "$vm [$vmin-$vmax]" "$rm [$rmin-$rmax]" "${verdict%%|*}" "$pw / $mw" "${verdict##*|}"
done
echo "VT err: main's virtual time against the plain main (target: within 10 % or 20 ms);"
echo "wall x: monitored / plain wall time of the whole mpiexec (target: at most 1.3)."
