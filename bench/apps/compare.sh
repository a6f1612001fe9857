#!/usr/bin/env bash
# compare.sh MPIEXEC MPICC VCMON_MPICC LIBVCMON_DIR [RUNS=8] [RANKS=2]
# The proxy applications beside this script (cg, hydro, particles, kernels, farm), each built with
# CFLAGS (-O3) three ways and run four ways under `MPIEXEC -n RANKS`:
#   plain         built with MPICC
#   linked        compiled with MPICC, linked with libvcmon ahead of MPI (MPI_* interposed,
#                 no probes)
#   instrumented  built with VCMON_MPICC (probes inserted, libvcmon linked)
#   inject1000    the instrumented build with VCMON_INJECT_PROBE_NS=1000
# RUNS rounds, each running every variant once, in the reverse order of the round before, so
# that no variant always follows another. The monitored variants run with VCMON_WTIME=virtual,
# so that the applications' own MPI_Wtime phase timers read virtual time (real time minus the
# monitor's intrusion), and write their profiles into a temporary directory; every such run
# must write one. Prints, per application, the wall time of each variant and its ratio to
# plain (with the range of the per-round ratios), and per phase the seconds, (variant - plain)
# / plain, and paired: (variant - plain) within each round (both ran in the same round, with
# the same code layout), over plain. Every figure is balanced over the code layouts: the median
# of the rounds of each class, then the mean (bench/stats.awk, balanced). Fails (after
# printing) when a run fails or a `verify` value differs between any two runs.
# Code layout (bench/code_layout.sh): by default each round builds every variant anew with the
# program's code shifted by a different offset (the same offset for the three builds of a
# round), every 4 rounds once at each 16-byte place of a 64-byte line, so that the figures are
# over layouts, not over one layout that may favour either build; RUNS is best a multiple of 4.
# LAYOUT=fixed builds once, unshifted.
# Rank placement (bench/rank_placement.sh): under MPICH's Hydra each round binds the ranks to
# CPUs rotated by the round, the same for all of the round's runs. PLACEMENT=none leaves
# placement to the system.
# Environment: RUNS and RANKS (when not given as arguments, as from the bench_apps target),
# LAYOUT (random, the default, or fixed), PLACEMENT (auto, the default, rotate or none),
# CFLAGS (every build's compiler flags, default -O3; see docs/evaluation.md on -falign-loops),
# APPS (default "cg hydro particles kernels"), APP_ARGS (arguments for every application, default
# none: their default sizes), RUN_TIMEOUT (seconds per run, default 3600: with every probe
# costing 1 us more, a default-size instrumented run may take half an hour).
set -euo pipefail
if [ $# -lt 4 ] || [ $# -gt 6 ]; then
  echo "usage: $0 MPIEXEC MPICC VCMON_MPICC LIBVCMON_DIR [RUNS=8] [RANKS=2]" >&2
  exit 2
fi
mpiexec=$1 mpicc=$2 vcmon_mpicc=$3 libdir=$4 runs=${5:-${RUNS:-8}} ranks=${6:-${RANKS:-2}}
apps=${APPS:-cg hydro particles kernels}
read -r -a app_args <<<"${APP_ARGS:-}"
run_timeout=${RUN_TIMEOUT:-3600}
layout=${LAYOUT:-random}
sources=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../code_layout.sh
source "$sources/../code_layout.sh"
code_layout_valid "$layout" || exit 2
# shellcheck source=../rank_placement.sh
source "$sources/../rank_placement.sh"
rank_placement_valid "${PLACEMENT:-auto}" || exit 2
placement=$(rank_placement_mode "${PLACEMENT:-auto}" "$mpiexec")
# Shared awk helpers: median(v, n), balanced(...), paired_balanced(...).
awk_lib=$(cat "$sources/../stats.awk")
variants=(plain linked instrumented inject1000)

work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-apps.XXXXXX")
trap 'rm -rf "$work"' EXIT

read -r -a cflags <<<"${CFLAGS:--O3}"

# The header makes a pasted table self-describing.
printf '# command:'
printf ' %q' "$0" "$@"
printf '\n'
for setting in RUNS RANKS LAYOUT PLACEMENT CFLAGS APPS APP_ARGS RUN_TIMEOUT; do
  if [ -n "${!setting:-}" ]; then
    echo "# $setting=${!setting}"
  fi
done
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "# machine: nproc $(nproc), $(uname -m), ${cpu:-unknown CPU}; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# compiler: $("$mpicc" --version 2>/dev/null | head -n 1)"

echo "# building in $work" >&2
# The builds load a copy of libvcmon, so that a rebuild of the library while the runs go on
# (they may take long) cannot mix two versions in one table.
mkdir "$work/lib"
cp "$libdir"/libvcmon.so* "$work/lib/"

# build OFFSET: the three builds of every application, their code shifted by OFFSET bytes,
# as $work/APP.VARIANT.OFFSET (built once per offset).
build() {
  local offset=$1
  local pad=$work/pad-$offset.o
  [ -e "$work/built.$offset" ] && return 0
  code_pad "$mpicc" "$offset" "$pad"
  local app source
  for app in $apps; do
    source=$sources/$app.c
    "$mpicc" "${cflags[@]}" "$pad" "$source" -o "$work/$app.plain.$offset" -lm
    "$mpicc" "${cflags[@]}" "$pad" "$source" -o "$work/$app.linked.$offset" -L"$work/lib" \
      -Wl,--no-as-needed -lvcmon -Wl,-rpath,"$work/lib" -lm
    VCMON_LIBDIR=$work/lib "$vcmon_mpicc" "${cflags[@]}" "$pad" "$source" \
      -o "$work/$app.instrumented.$offset" -lm
    # Linked-only must really load libvcmon, or the comparison measures nothing.
    local variant libraries
    for variant in linked instrumented; do
      libraries=$(ldd "$work/$app.$variant.$offset")
      if ! grep -q -F "$work/lib/libvcmon" <<<"$libraries"; then
        echo "FAIL: $app.$variant.$offset does not load libvcmon:" >&2
        echo "$libraries" >&2
        exit 1
      fi
    done
  done
  touch "$work/built.$offset"
}

failed=0
results=$work/results
: >"$results"

# run APP VARIANT ROUND: one run; appends wall, phase and verify records to $results.
run() {
  local app=$1 variant=$2 round=$3
  local offset
  offset=$(code_offset "$round" "$layout")
  local binary=$work/$app.$variant.$offset
  local -a environment=()
  local profiles=$work/profiles-$app-$variant-$round
  case $variant in
  plain) ;;
  linked | instrumented) environment=(VCMON_WTIME=virtual VCMON_OUTPUT="$profiles") ;;
  inject1000)
    binary=$work/$app.instrumented.$offset
    environment=(VCMON_WTIME=virtual VCMON_OUTPUT="$profiles" VCMON_INJECT_PROBE_NS=1000) ;;
  esac
  mkdir -p "$profiles"
  local out=$work/out-$app-$variant-$round err=$work/err-$app-$variant-$round
  local status=0 start end
  local -a bind
  read -r -a bind <<<"$(rank_placement "$round" "$ranks" "$placement")"
  start=$(date +%s.%N)
  (cd "$work" && env ${environment[@]+"${environment[@]}"} timeout -k 5 "$run_timeout" \
    "$mpiexec" ${bind[@]+"${bind[@]}"} -n "$ranks" "$binary" ${app_args[@]+"${app_args[@]}"} \
    </dev/null >"$out" 2>"$err") || status=$?
  end=$(date +%s.%N)
  local seconds
  seconds=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }')
  local problem=""
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    problem="hang (no end within $run_timeout s)"
  elif [ $status -ne 0 ]; then
    problem="exit status $status"
  elif ! grep -q '^phase total ' "$out" || [ "$(grep -c '^verify ' "$out")" -ne 1 ]; then
    problem="no 'phase total' line or not exactly one 'verify' line"
  elif grep -v -q -E '^(#|phase |verify )' "$out"; then
    problem="unexpected lines on stdout"
  elif [ "$variant" != plain ] &&
    [ "$(find "$profiles" -name '*.vcmon' | wc -l)" -ne 1 ]; then
    problem="not exactly one profile in VCMON_OUTPUT (is libvcmon interposing?)"
  fi
  rm -rf "$profiles"
  if [ -n "$problem" ]; then
    echo "--- FAIL: $app $variant round $round: $problem after $seconds s; stdout:"
    head -c 4000 "$out"
    echo "--- stderr:"
    head -c 20000 "$err"
    failed=1
    return
  fi
  echo "wall $app $variant $round $seconds" >>"$results"
  awk -v app="$app" -v variant="$variant" -v round="$round" '
    $1 == "phase" { print "phase", app, variant, round, $2, $3 }
    $1 == "verify" { print "verify", app, variant, round, $2 }' "$out" >>"$results"
}

offsets=""
for ((round = 1; round <= runs; ++round)); do
  offset=$(code_offset "$round" "$layout")
  echo "# round $round/$runs: building with the code shifted by $offset bytes" >&2
  build "$offset"
  offsets+=" $offset"
  order=("${variants[@]}")
  if ((round % 2 == 0)); then
    order=(inject1000 instrumented linked plain)
  fi
  for app in $apps; do
    for variant in "${order[@]}"; do
      echo "# round $round/$runs: $app $variant" >&2
      run "$app" "$variant" "$round"
    done
  done
done

echo "# code offsets of the rounds (bytes):$offsets"
echo "# rank placement: $placement (bench/rank_placement.sh)"
echo "# mpiexec -n $ranks, $runs rounds; each figure balanced over the code layouts (the" \
  "median of the rounds of each place in a cache line, then the mean: bench/code_layout.sh);" \
  "ratio = wall / plain wall [range of the per-round ratios]; phases: s ((variant - plain) /" \
  "plain, ! where that exceeds the plain phase's own noise; paired: (variant - plain) within" \
  "each round, balanced, / plain); plain phases: s [(max - min) / median over the plain runs:" \
  "the phase's own noise]"
for app in $apps; do
  awk -v app="$app" -v variant_list="${variants[*]}" -v classes="$(code_layout_classes)" "$awk_lib"'
    function med(key) { return count[key] == 0 ? "" : balanced(value, round_of, count[key], key, classes) }
    function add(key, x, round) { value[key, ++count[key]] = x; round_of[key, count[key]] = round }
    # (max - min) / median over the rounds, in %: how much the phase varies by itself (-1:
    # unknown).
    function spread(key,    n, i, low, high, m) {
      n = count[key]
      m = med(key)
      if (n == 0 || m == 0) return -1
      low = high = value[key, 1]
      for (i = 2; i <= n; ++i) {
        if (value[key, i] < low) low = value[key, i]
        if (value[key, i] > high) high = value[key, i]
      }
      return 100 * (high - low) / m
    }
    $2 != app { next }
    $1 == "wall" { add("wall" SUBSEP $3, $5, $4); wall[$3, $4] = $5; rounds[$4] = 1 }
    $1 == "phase" {
      if (!(($5) in seen)) { seen[$5] = 1; phases[++phase_count] = $5 }
      add("phase" SUBSEP $3 SUBSEP $5, $6, $4)
      at[$3, $5, $4] = $6
    }
    $1 == "verify" {
      if (!(($5) in verify)) { verify[$5] = 1; distinct++ }
      verify_of[$3, $4] = $5
      if ($4 > last_round) last_round = $4
    }
    END {
      nv = split(variant_list, variants, " ")
      printf "\n== %s: verify", app
      for (v in verify) printf " %s", v
      printf "\n%-18s", ""
      for (k = 1; k <= nv; ++k) printf " %-30s", variants[k]
      printf "\n%-18s", "wall s"
      for (k = 1; k <= nv; ++k) {
        m = med("wall" SUBSEP variants[k])
        printf " %-30s", m == "" ? "-" : sprintf("%.3f", m)
      }
      plain_wall = med("wall" SUBSEP "plain")
      printf "\n%-18s", "ratio to plain"
      for (k = 1; k <= nv; ++k) {
        m = med("wall" SUBSEP variants[k])
        if (m == "" || plain_wall == "" || plain_wall == 0) { printf " %-30s", "-"; continue }
        low = ""; high = ""
        for (r in rounds) {
          if (!((variants[k], r) in wall) || !(("plain", r) in wall)) continue
          q = wall[variants[k], r] / wall["plain", r]
          if (low == "" || q < low) low = q
          if (high == "" || q > high) high = q
        }
        printf " %-30s", sprintf("%.2f [%.2f-%.2f]", m / plain_wall, low, high)
      }
      for (p = 1; p <= phase_count; ++p) {
        printf "\n%-18s", "phase " phases[p]
        base = med("phase" SUBSEP "plain" SUBSEP phases[p])
        noise = spread("phase" SUBSEP "plain" SUBSEP phases[p])
        for (k = 1; k <= nv; ++k) {
          m = med("phase" SUBSEP variants[k] SUBSEP phases[p])
          if (m == "") { printf " %-30s", "-"; continue }
          if (variants[k] == "plain") {
            printf " %-30s", sprintf("%.4f [%s]", m, noise < 0 ? "-" : sprintf("%.0f%%", noise))
            continue
          }
          if (base == "") { printf " %-30s", sprintf("%.4f", m); continue }
          # Signed; "!" where the difference exceeds the noise of the plain phase.
          d = base > 0 ? 100 * (m - base) / base : 0
          difference = base > 0 ? sprintf("%+.1f%%%s", d, noise >= 0 && (d < 0 ? -d : d) > noise ? "!" : "") : "-"
          pd = paired_balanced(at, rounds, variants[k], phases[p], classes, base)
          printf " %-30s", sprintf("%.4f (%s; %s)", m, difference, pd == "" ? "-" : sprintf("%+.1f%%", pd))
        }
      }
      printf "\n"
      if (distinct > 1) {
        for (k = 1; k <= nv; ++k)
          for (r = 1; r <= last_round; ++r)
            if ((variants[k], r) in verify_of)
              printf "verify %s round %d: %s\n", variants[k], r, verify_of[variants[k], r]
        exit 3
      }
    }' "$results" || {
    status=$?
    if [ $status -eq 3 ]; then
      echo "FAIL: $app: the verify values differ between runs"
    else
      echo "FAIL: $app: the table could not be made (awk status $status)"
    fi
    failed=1
  }
done
exit $failed
