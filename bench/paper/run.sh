#!/usr/bin/env bash
# run.sh BUILD_DIR: the source paper's three results (Li & Zhang), measured on this machine in
# one invocation (docs/evaluation.md, "The paper's evaluation, reproduced"):
#  1. Stage tolerance. matmul_stages.c (master/worker C = A x B; stages initialise, distribute,
#     compute, collect with MPI_ANY_SOURCE, merge, each timed by the program with MPI_Wtime and
#     with the real clock) built plain with MPICC and instrumented with vcmon-mpicc (default
#     selection). TOLERANCE_RUNS rounds, each running plain, the instrumented binary under
#     VCMON_DISABLE=1, and monitored with every injected probe cost (VCMON_INJECT_PROBE_NS)
#     once, the order reversed every other round; monitored runs set VCMON_WTIME=virtual, so
#     MPI_Wtime reads virtual time. Both builds are made anew every round with the program's
#     code shifted by another offset (LAYOUT=random, the default; LAYOUT=fixed: unshifted), the
#     offsets balanced so that every 4 rounds put each build's loops once at each 16-byte place
#     of a 64-byte line (bench/code_layout.sh); under MPICH's Hydra all runs of a round bind the
#     ranks to the same CPUs, rotated from round to round (PLACEMENT=auto, the default; none:
#     unbound; bench/rank_placement.sh). Every figure of a build is balanced: the median of
#     the rounds of each place, then the mean over the 4 places. Per stage: the plain time
#     (and its own spread, (max - min) / median), the real and virtual times, the signed
#     tolerance (virtual - plain) / plain of those and paired (the same balance of the
#     difference virtual - plain within each round, where both ran one after the other with
#     the same offset and placement, over the balanced plain: the targets are judged on it), how far the virtual time moves with
#     the injected cost; wall overhead with the range of the per-round ratios.
#  2. Data volume. pipeline_loop.c instrumented, for each rank count and iteration count: the
#     profile's size against an OTF2 trace of the same events (trace_volume), and the paper's
#     own comparison (its 4 loop statements: 144 B of records against a 31.25 KB trace).
#  3. Control messages. bench/deadlock/run_wildcard_bench.sh's master/worker and ring
#     scenarios at each rank count, cycle breaking (VCMON_DEADLOCK=cycle) against null messages
#     (VCMON_DEADLOCK=nullmsg): control messages and safety wait per run, medians over runs.
# Fails (after printing) when a run fails, a monitored run writes no profile or a `verify` value
# differs. A target missed is printed as MISSED, not a failure: these are measurements.
# Environment (defaults in brackets): MPIEXEC [mpiexec], MPICC [mpicc], CFLAGS (both builds)
# [-O3; not -falign-loops=64, which aligns main's section to 64 bytes, so that every round's
# code offset (bench/code_layout.sh) leaves the hot loops where they were: docs/evaluation.md,
# "Loop alignment"], RUNS (runs per cell of table 3) [5], SECTIONS ["tolerance volume
# control"]; stage tolerance: TOLERANCE_RUNS (rounds, best a multiple of 4) [16, or RUNS when
# that is set], LAYOUT
# [random], PLACEMENT [auto], RANKS [2],
# ORDER [1536], TILES [8], CHECKS [40], INJECT_NS ["0 1000 10000 100000"]; data volume:
# VOLUME_RUNS (RANKS:ITERATIONS pairs) ["2:200 2:2000 2:20000", then 200 and 2000 iterations on
# 3 to 8 ranks: on 3 or more ranks a monitored 20000-iteration run takes seconds to minutes on 2
# cores, see docs/evaluation.md]; control messages:
# CONTROL_RANKS ["2 4 6 8"], LOOKAHEAD (null-message lookahead in ns) [100000; see below],
# MASTER_ROUNDS [10], RING_ROUNDS [50]; RUN_TIMEOUT (s per run) [600]. The lookahead is 100 us,
# not vcmon's 1 us: at 1 us a null-message decision on 8 ranks takes half a second (a run, 40 s),
# and a larger lookahead means fewer null messages, the harder comparison for cycle breaking.
# A full run takes about 4 minutes on 2 cores; a quick one (about a minute): RUNS=3 ORDER=768
# VOLUME_RUNS="2:200 2:2000 4:200 4:2000" CONTROL_RANKS="2 4".
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
sources=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../code_layout.sh
source "$sources/../code_layout.sh"
# shellcheck source=../rank_placement.sh
source "$sources/../rank_placement.sh"
mpiexec=${MPIEXEC:-mpiexec} mpicc=${MPICC:-mpicc}
read -r -a cflags <<<"${CFLAGS:--O3}"
runs=${RUNS:-5} sections=${SECTIONS:-tolerance volume control}
tolerance_runs=${TOLERANCE_RUNS:-${RUNS:-16}}
ranks=${RANKS:-2} order=${ORDER:-1536} tiles=${TILES:-8} checks=${CHECKS:-40}
read -r -a injections <<<"${INJECT_NS:-0 1000 10000 100000}"
default_volume_runs="2:200 2:2000 2:20000 $(for n in 3 4 5 6 7 8; do echo "$n:200 $n:2000"; done)"
volume_runs=${VOLUME_RUNS:-$default_volume_runs}
control_ranks=${CONTROL_RANKS:-2 4 6 8} lookahead=${LOOKAHEAD:-100000}
run_timeout=${RUN_TIMEOUT:-600}
layout=${LAYOUT:-random}
rank_placement_valid "${PLACEMENT:-auto}" || exit 2
placement=$(rank_placement_mode "${PLACEMENT:-auto}" "$mpiexec")
code_layout_valid "$layout" || exit 2
vcmon_mpicc=$build/bin/vcmon-mpicc
trace_volume=$build/bench/paper/paper_trace_volume
for needed in "$vcmon_mpicc" "$build/runtime/libvcmon.so" "$trace_volume" \
  "$build/bench/deadlock/wildcard_mpi_bench" "$build/bench/deadlock/wildcard_counters"; do
  if [ ! -e "$needed" ]; then
    echo "$0: $needed is missing: build the bench_paper target's dependencies first" >&2
    exit 2
  fi
done
# Nothing of the caller's monitor settings may leak into the runs.
unset VCMON_DISABLE VCMON_DEADLOCK VCMON_LOOKAHEAD_NS VCMON_OUTPUT VCMON_WTIME \
  VCMON_INJECT_PROBE_NS

work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-paper.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0

printf '# command:'
printf ' %q' "$0" "$@"
printf '\n'
for setting in RUNS TOLERANCE_RUNS LAYOUT PLACEMENT SECTIONS RANKS ORDER TILES CHECKS INJECT_NS VOLUME_RUNS \
  CONTROL_RANKS \
  LOOKAHEAD MASTER_ROUNDS RING_ROUNDS; do
  if [ -n "${!setting:-}" ]; then
    echo "# $setting=${!setting}"
  fi
done
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "# machine: nproc $(nproc), $(uname -m), ${cpu:-unknown CPU}; $(date -u '+%Y-%m-%d %H:%M UTC')"
mpi_version=$("$mpiexec" --version 2>/dev/null | awk '/Version:/ { print "MPICH", $2; exit }')
echo "# compiler: $("$mpicc" --version 2>/dev/null | head -n 1); flags: ${cflags[*]}; $mpi_version"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# Builds a copy of libvcmon into the binaries, so that a rebuild during the runs cannot mix two
# versions in one table (as bench/apps/compare.sh does).
mkdir "$work/lib"
cp "$build"/runtime/libvcmon.so* "$work/lib/"
instrumented_build() { # INPUTS... OUTPUT
  local output=${*: -1}
  VCMON_LIBDIR=$work/lib "$vcmon_mpicc" "${cflags[@]}" "${@:1:$#-1}" -o "$output" -lm
  # Not `ldd | grep -q`: under pipefail, grep leaving at the first match can kill ldd with
  # SIGPIPE and fail the check.
  local libraries
  libraries=$(ldd "$output")
  if ! grep -q -F "$work/lib/libvcmon" <<<"$libraries"; then
    echo "FAIL: $output does not load libvcmon" >&2
    exit 1
  fi
}

# Shared awk helpers: field(line, key), sort_values(v, n), median(v, n), balanced_mean(m, n),
# balanced(...), paired_balanced(...).
awk_lib=$(cat "$sources/../stats.awk")

# run_program OUT ERR RANKS BINARY ARGS... (environment from the caller, and MPIEXEC_BIND: extra
# mpiexec arguments, the round's rank placement): one mpiexec run under the timeout; prints its
# wall seconds; returns its status.
run_program() {
  local out=$1 err=$2 n=$3 start end status=0
  shift 3
  local -a bind
  read -r -a bind <<<"${MPIEXEC_BIND:-}"
  start=$(date +%s.%N)
  timeout -k 5 "$run_timeout" "$mpiexec" ${bind[@]+"${bind[@]}"} -n "$n" "$@" </dev/null \
    >"$out" 2>"$err" || status=$?
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f\n", e - s }'
  return $status
}

report_failure() { # WHAT OUT ERR
  echo "--- FAIL: $1; stdout:"
  head -c 3000 "$2"
  echo "--- stderr:"
  head -c 6000 "$3"
  failed=1
}

# ---------------------------------------------------------------------------------------------
stage_tolerance() {
  echo
  echo "## 1. Stage tolerance: matmul_stages, order $order, $tiles x $tiles tiles, mpiexec -n" \
    "$ranks (1 master, $((ranks - 1)) worker(s)), $tolerance_runs rounds"
  # disabled: the instrumented binary under VCMON_DISABLE=1, which separates what the
  # instrumented build's own code changes from what the monitor does.
  local variants=(plain disabled) variant round results=$work/tolerance
  for ns in "${injections[@]}"; do variants+=("inject$ns"); done
  : >"$results"
  local offsets=""
  for ((round = 1; round <= tolerance_runs; ++round)); do
    # Both builds anew each round, their code shifted (bench/code_layout.sh).
    local offset plain instrumented
    offset=$(code_offset "$round" "$layout")
    offsets+=" $offset"
    plain=$work/matmul.plain.$offset instrumented=$work/matmul.instrumented.$offset
    if [ ! -e "$instrumented" ]; then
      code_pad "$mpicc" "$offset" "$work/pad-$offset.o"
      "$mpicc" "${cflags[@]}" "$work/pad-$offset.o" "$sources/matmul_stages.c" -o "$plain" -lm
      instrumented_build "$work/pad-$offset.o" "$sources/matmul_stages.c" "$instrumented"
    fi
    local MPIEXEC_BIND
    MPIEXEC_BIND=$(rank_placement "$round" "$ranks" "$placement")
    local order_of_round=("${variants[@]}")
    if ((round % 2 == 0)); then
      order_of_round=()
      for ((i = ${#variants[@]} - 1; i >= 0; --i)); do order_of_round+=("${variants[i]}"); done
    fi
    for variant in "${order_of_round[@]}"; do
      echo "# stage tolerance: round $round/$tolerance_runs, $variant" >&2
      local out=$work/out.$variant.$round err=$work/err.$variant.$round seconds status=0
      local profiles=$work/profiles.$variant.$round
      mkdir -p "$profiles"
      if [ "$variant" = plain ]; then
        seconds=$(run_program "$out" "$err" "$ranks" "$plain" "$order" "$tiles" \
          "$checks") || status=$?
      elif [ "$variant" = disabled ]; then
        seconds=$(VCMON_DISABLE=1 run_program "$out" "$err" "$ranks" \
          "$instrumented" "$order" "$tiles" "$checks") || status=$?
      else
        seconds=$(VCMON_WTIME=virtual VCMON_OUTPUT=$profiles \
          VCMON_INJECT_PROBE_NS=${variant#inject} run_program "$out" "$err" "$ranks" \
          "$instrumented" "$order" "$tiles" "$checks") || status=$?
      fi
      if [ $status -ne 0 ]; then
        report_failure "matmul_stages $variant round $round: exit status $status" "$out" "$err"
        continue
      fi
      if [[ $variant == inject* ]] && [ "$(find "$profiles" -name '*.vcmon' | wc -l)" -ne 1 ]; then
        report_failure "matmul_stages $variant round $round: not exactly one profile" "$out" "$err"
        continue
      fi
      rm -rf "$profiles"
      echo "wall $variant $round $seconds" >>"$results"
      awk -v variant="$variant" -v round="$round" '
        $1 == "phase" || $1 == "verify" { print $1, variant, round, $2, $3 }' "$out" >>"$results"
    done
  done
  echo "# code offsets of the rounds (bytes, bench/code_layout.sh):$offsets"
  echo "# rank placement: $placement (bench/rank_placement.sh)"
  echo "# load average after stage tolerance: $(cut -d' ' -f1-3 /proc/loadavg)"
  awk -v classes="$(code_layout_classes)" "$awk_lib"'
    function add(key, x, round) { value[key, ++count[key]] = x; round_of[key, count[key]] = round }
    function med(key,    v, i) {
      if (count[key] == 0) return ""
      for (i = 1; i <= count[key]; ++i) v[i] = value[key, i]
      return median(v, count[key])
    }
    function central(key) { return balanced(value, round_of, count[key], key, classes) }
    function spread(key,    v, i, n, m) {   # (max - min) / median, in %
      n = count[key]; m = med(key)
      if (n == 0 || m == 0) return ""
      for (i = 1; i <= n; ++i) v[i] = value[key, i]
      sort_values(v, n)
      return 100 * (v[n] - v[1]) / m
    }
    $1 == "wall" { add("wall" SUBSEP $2, $4, $3); wall[$2, $3] = $4; rounds[$3] = 1
                   if (!($2 in seen_variant)) { seen_variant[$2] = 1; variants[++nv] = $2 } }
    $1 == "phase" {
      name = $4; real = sub(/\.real$/, "", name)
      if (!(name in seen_stage)) { seen_stage[name] = 1; stages[++ns] = name }
      add((real ? "real" : "wtime") SUBSEP $2 SUBSEP name, $5, $3)
      if (!real) at[$2, name, $3] = $5
    }
    $1 == "verify" { verify[$4] = 1 }
    END {
      distinct = 0
      for (v in verify) ++distinct
      # Variants in the order of the first round (plain first).
      printf "verify values: %d distinct (", distinct
      for (v in verify) printf " %s", v
      printf " )\n\n"
      printf "| stage | plain s [own spread] |"
      for (k = 2; k <= nv; ++k) printf " %s: real s | virtual s | tolerance |", label(variants[k])
      printf "\n|---|---|"
      for (k = 2; k <= nv; ++k) printf "---|---|---|"
      printf "\n"
      for (s = 1; s <= ns; ++s) {
        base = central("wtime" SUBSEP "plain" SUBSEP stages[s])
        printf "| %s | %.4f [%.0f%%] |", stages[s], base, spread("wtime" SUBSEP "plain" SUBSEP stages[s])
        for (k = 2; k <= nv; ++k) {
          r = central("real" SUBSEP variants[k] SUBSEP stages[s])
          v = central("wtime" SUBSEP variants[k] SUBSEP stages[s])
          t = base > 0 ? 100 * (v - base) / base : 0
          # 0 when no round has both
          pt = paired_balanced(at, rounds, variants[k], stages[s], classes, base) + 0
          printf " %.4f | %.4f | %+.1f%%; %+.1f%% |", r, v, t, pt
          if (stages[s] != "total") {
            a = t < 0 ? -t : t
            if (a > worst_of_medians[k]) { worst_of_medians[k] = a; worst_stage_of_medians[k] = stages[s] }
            a = pt < 0 ? -pt : pt
            if (a > worst[k]) { worst[k] = a; worst_stage[k] = stages[s] }
            # How far the virtual time moves with the injected cost, against no injection.
            v0 = central("wtime" SUBSEP "inject0" SUBSEP stages[s])
            g = v0 > 0 ? 100 * (v - v0) / v0 : 0
            g = g < 0 ? -g : g
            if (g > growth[k]) { growth[k] = g; growth_stage[k] = stages[s] }
          }
        }
        printf "\n"
      }
      plain_wall = central("wall" SUBSEP "plain")
      printf "| wall (mpiexec) | %.3f s |", plain_wall
      for (k = 2; k <= nv; ++k) {
        low = high = ""
        for (r in rounds) {
          if (!((variants[k], r) in wall) || !(("plain", r) in wall)) continue
          q = wall[variants[k], r] / wall["plain", r]
          if (low == "" || q < low) low = q
          if (high == "" || q > high) high = q
        }
        m = central("wall" SUBSEP variants[k])
        printf " %.3f s | | %.3fx [%.3f-%.3f] |", m, m / plain_wall, low, high
        ratio[k] = m / plain_wall
      }
      printf "\n\nTargets (tolerance = |virtual - plain| within each round, balanced over the" \
        " code layouts, / the balanced plain time, over the five stages; in parentheses" \
        " |virtual - plain| / plain of the balanced times; in brackets |virtual - virtual" \
        " with nothing injected| / the latter):\n"
      for (k = 2; k <= nv; ++k) {
        if (variants[k] == "disabled") {
          printf "  %s: differs from plain by up to %.1f%% (%s) (%.1f%% (%s)): the instrumented" \
            " build itself\n", label(variants[k]), worst[k], worst_stage[k],
            worst_of_medians[k], worst_stage_of_medians[k]
          continue
        }
        limit = variants[k] == "inject0" ? 2 : variants[k] == "inject10000" ? 3 : ""
        printf "  %s: max tolerance %.1f%% (%s) (%.1f%% (%s))", label(variants[k]), worst[k],
          worst_stage[k], worst_of_medians[k], worst_stage_of_medians[k]
        if (variants[k] != "inject0")
          printf " [%.1f%% (%s)]", growth[k], growth_stage[k]
        if (limit != "")
          printf ", target <= %d%%: %s", limit, (worst[k] <= limit ? "met" : "MISSED")
        printf "\n"
      }
      for (k = 2; k <= nv; ++k)
        if (variants[k] == "inject0")
          printf "  wall overhead, default selection: %+.1f%%, target <= 2%%: %s\n",
            100 * (ratio[k] - 1), (ratio[k] <= 1.02 ? "met" : "MISSED")
      if (distinct > 1) exit 3
    }
    function label(variant,    ns) {
      if (variant == "disabled") return "VCMON_DISABLE=1"
      ns = substr(variant, 7) + 0
      return ns == 0 ? "monitored" : ns < 1000 ? "+" ns " ns/probe" : "+" ns / 1000 " us/probe"
    }' "$results" || {
    echo "FAIL: stage tolerance: the verify values differ, or the table could not be made"
    failed=1
  }
}

# ---------------------------------------------------------------------------------------------
data_volume() {
  echo
  echo "## 2. Data volume: pipeline_loop (4 communication statements and a call in a loop)," \
    "profile against an OTF2 trace of the same events"
  instrumented_build "$sources/pipeline_loop.c" "$work/pipeline.instrumented"
  local results=$work/volume n iterations pair
  : >"$results"
  for pair in $volume_runs; do
    n=${pair%%:*} iterations=${pair#*:}
    echo "# data volume: $n ranks, $iterations iterations" >&2
    local profiles=$work/volume-profiles out=$work/out.volume err=$work/err.volume status=0
    rm -rf "$profiles" "$work/trace"
    mkdir -p "$profiles"
    VCMON_OUTPUT=$profiles run_program "$out" "$err" "$n" "$work/pipeline.instrumented" \
      "$iterations" >/dev/null || status=$?
    local profile
    profile=$(find "$profiles" -name '*.vcmon')
    if [ $status -ne 0 ] || [ "$(wc -w <<<"$profile")" -ne 1 ]; then
      report_failure "pipeline_loop, $n ranks, $iterations iterations (status $status," \
        "profiles: $profile)" "$out" "$err"
      continue
    fi
    local sizes
    if ! sizes=$("$trace_volume" "$profile" "$work/trace" 2>"$err"); then
      report_failure "trace_volume on $profile" /dev/null "$err"
      continue
    fi
    echo "ranks_run=$n iterations=$iterations $sizes" >>"$results"
    rm -rf "$work/trace"
  done
  awk "$awk_lib"'
    {
      n = field($0, "ranks_run"); it = field($0, "iterations")
      if (!(n in seen_n)) { seen_n[n] = 1; ns[++nn] = n }
      if (!(it in seen_it)) { seen_it[it] = 1; its[++ni] = it }
      profile[n, it] = field($0, "profile_bytes"); records[n, it] = field($0, "records_bytes")
      record_count[n, it] = field($0, "records")
      events[n, it] = field($0, "events"); trace[n, it] = field($0, "trace_bytes")
      loop_bytes[n, it] = field($0, "loop_records_bytes")
      loop_statements[n, it] = field($0, "loop_statements")
      paper_trace[n, it] = field($0, "paper_trace_bytes")
    }
    END {
      print "| ranks | iterations | dynamic records | profile file B | of it dynamic records B | trace events | OTF2 trace B | trace / profile |"
      print "|---|---|---|---|---|---|---|---|"
      for (a = 1; a <= nn; ++a)
        for (b = 1; b <= ni; ++b) {
          n = ns[a]; it = its[b]
          if (!((n, it) in profile)) continue
          printf "| %d | %d | %d | %d | %d | %d | %d | %.0fx |\n", n, it, record_count[n, it],
            profile[n, it], records[n, it], events[n, it], trace[n, it], trace[n, it] / profile[n, it]
        }
      printf "\nTargets: profile flat in the iteration count (within 1%%), trace linear in it:\n"
      for (a = 1; a <= nn; ++a) {
        n = ns[a]; low = high = ""; first = last = ""; record_low = record_high = ""
        for (b = 1; b <= ni; ++b) {
          it = its[b]
          if (!((n, it) in profile)) continue
          if (record_low == "" || record_count[n, it] < record_low) record_low = record_count[n, it]
          if (record_high == "" || record_count[n, it] > record_high) record_high = record_count[n, it]
          if (low == "" || profile[n, it] < low) low = profile[n, it]
          if (high == "" || profile[n, it] > high) high = profile[n, it]
          if (first == "") first = it
          last = it
        }
        if (low == "") continue
        growth = 100 * (high - low) / low
        printf "  %d ranks: %s dynamic records at every length; profile %d-%d B (%.2f%%): %s;" \
          " trace x%.1f for x%.0f iterations\n", n, (record_low == record_high ? record_low : \
          record_low "-" record_high), low, high, growth, (growth <= 1 ? "met" : "MISSED"),
          trace[n, last] / trace[n, first], last / first
      }
      # The paper: 4 statements in a 200-iteration loop, on one process.
      for (a = 1; a <= nn; ++a)
        if (loop_statements[ns[a], 200] == 4) {
          n = ns[a]
          printf "\nThe paper'"'"'s example (one process, its 4 loop statements, 200 iterations; %d ranks):" \
            " com records %d B (paper: 144 B); a 20-byte start and end record per operation %d B" \
            " = %.2f KB (paper: 31.25 KB)\n", n, loop_bytes[n, 200], paper_trace[n, 200],
            paper_trace[n, 200] / 1024
          for (b = 1; b <= ni; ++b)
              if ((n, its[b]) in loop_bytes)
              printf "  at %d iterations: com records %d B, 20-byte trace %d B\n", its[b],
                loop_bytes[n, its[b]], paper_trace[n, its[b]]
          break
        }
    }' "$results"
}

# ---------------------------------------------------------------------------------------------
control_messages() {
  echo
  echo "## 3. Control messages: wildcard receives, cycle breaking (VCMON_DEADLOCK=cycle) against" \
    "null messages (VCMON_DEADLOCK=nullmsg, lookahead $lookahead ns), $runs runs per cell"
  local n results=$work/control
  mkdir -p "$results"
  for n in $control_ranks; do
    echo "# control messages: $n ranks" >&2
    mkdir -p "$results/$n"
    if ! SCENARIOS="master ring" MASTER_RANKS=$n RING_RANKS=$n LOOKAHEADS=$lookahead \
      RESULTS_DIR=$results/$n RUN_TIMEOUT=$run_timeout \
      "$sources/../deadlock/run_wildcard_bench.sh" "$mpiexec" \
      "$build/bench/deadlock/wildcard_mpi_bench" "$build/bench/deadlock/wildcard_mpi_bench_plain" \
      "$build/bench/deadlock/wildcard_counters" "$runs" 0 >"$work/control.log" 2>&1; then
      report_failure "run_wildcard_bench.sh with $n ranks" "$work/control.log" /dev/null
    fi
  done
  for n in $control_ranks; do
    for file in "$results/$n"/t1.*; do
      [ -e "$file" ] || continue
      awk -v n="$n" -v key="$(basename "$file")" '{ print "ranks=" n, "key=" key, $0 }' "$file"
    done
  done | awk "$awk_lib"'
    $3 == "failed" { failures[field($0, "key"), field($0, "ranks")]++; next }
    {
      key = field($0, "key"); n = field($0, "ranks")
      split(key, parts, "."); scenario = parts[2]; strategy = parts[3]
      if (strategy == "plain") next
      if (!(scenario in seen_s)) { seen_s[scenario] = 1; scenarios[++nsc] = scenario }
      if (!(n in seen_n)) { seen_n[n] = 1; ns[++nn] = n }
      i = ++count[scenario, strategy, n]
      control[scenario, strategy, n, i] = field($0, "control_messages")
      decisions = field($0, "decisions")
      wait[scenario, strategy, n, i] = decisions ? field($0, "safety_wait_ns") / decisions / 1000 : 0
      receives[scenario, strategy, n] = field($0, "receives")
    }
    function med(what, scenario, strategy, n,    v, i, c) {
      c = count[scenario, strategy, n]
      for (i = 1; i <= c; ++i) v[i] = what == "control" ? control[scenario, strategy, n, i] : wait[scenario, strategy, n, i]
      return c ? median(v, c) : ""
    }
    function range(what, scenario, strategy, n,    v, i, c) {
      c = count[scenario, strategy, n]
      for (i = 1; i <= c; ++i) v[i] = what == "control" ? control[scenario, strategy, n, i] : wait[scenario, strategy, n, i]
      sort_values(v, c)
      return what == "control" ? sprintf("%d-%d", v[1], v[c]) : sprintf("%.0f-%.0f", v[1], v[c])
    }
    END {
      print "| scenario | ranks | wildcard receives per run | cycle: control msgs [min-max] | cycle: safety wait per decision, us | null msgs: control msgs [min-max] | null msgs: safety wait per decision, us | null / cycle |"
      print "|---|---|---|---|---|---|---|---|"
      for (s = 1; s <= nsc; ++s)
        for (a = 1; a <= nn; ++a) {
          sc = scenarios[s]; n = ns[a]
          c = med("control", sc, "cycle", n); b = med("control", sc, "nullmsg", n)
          printf "| %s | %d | %d | %s [%s] | %.0f [%s] | %s [%s] | %.0f [%s] | %s |\n", sc, n,
            receives[sc, "cycle", n], c, range("control", sc, "cycle", n),
            med("wait", sc, "cycle", n), range("wait", sc, "cycle", n), b,
            range("control", sc, "nullmsg", n), med("wait", sc, "nullmsg", n),
            range("wait", sc, "nullmsg", n),
            (c > 0 ? sprintf("%.1f", b / c) : (b > 0 ? "cycle sent none" : "-"))
        }
      printf "\nTarget: cycle breaking <= 1/10 of the null messages'"'"' control messages on master/worker:\n"
      for (a = 1; a <= nn; ++a) {
        n = ns[a]; c = med("control", "master", "cycle", n); b = med("control", "master", "nullmsg", n)
        verdict = c == 0 && b == 0 ? "n/a (neither sent any)" : 10 * c <= b ? "met" : "MISSED"
        printf "  %d ranks: cycle %s, null messages %s (medians per run): %s\n", n, c, b, verdict
      }
      for (k in failures) { split(k, p, SUBSEP); printf "  FAILED runs: %s at %s ranks: %d\n", p[1], p[2], failures[k] }
    }'
}

for section in $sections; do
  case $section in
  tolerance) stage_tolerance ;;
  volume) data_volume ;;
  control) control_messages ;;
  *) echo "$0: unknown section $section (tolerance, volume, control)" >&2; exit 2 ;;
  esac
done
echo
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%H:%M UTC')"
exit $failed
