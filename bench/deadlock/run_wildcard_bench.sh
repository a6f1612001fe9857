#!/usr/bin/env bash
# run_wildcard_bench.sh MPIEXEC MONITORED PLAIN COUNTERS [RUNS] [LATENCY_RUNS]
# Wildcard receives over real MPI (wildcard_mpi_bench.c), two tables:
#  1. master/workers (8 ranks), the figure-4 ring (4 ranks) and an uncontended ping-pong
#     (2 ranks, ANY_SOURCE), each without monitoring (VCMON_DISABLE=1) and under
#     VCMON_DEADLOCK=cycle and =nullmsg at each lookahead, RUNS times (default 3) in rotating
#     order; every monitored run writes into its own VCMON_OUTPUT directory and COUNTERS
#     (wildcard_counters) sums its profile's counters over ranks. Counters are totals over the
#     runs; real times are medians over runs of each run's median.
#  2. the latency an uncontended wildcard receive adds: ping-pong half round trip with
#     ANY_SOURCE and with the specific source, monitored (cycle, the default), VCMON_DISABLE=1
#     and not linked with libvcmon (PLAIN), LATENCY_RUNS times (default 11), the six variants
#     in rotating order so that none always follows another; medians over runs and ratios.
# Environment: MASTER_ROUNDS (10: null messages at 1 us lookahead take about a second per
# decision there), RING_ROUNDS (50), PING_ITERATIONS (10000), PING_SAMPLES (15), LOOKAHEADS
# (null-message lookaheads in ns, "1000 100000"), RUN_TIMEOUT (s, 300), MASTER_RANKS (8) and
# RING_RANKS (4), SCENARIOS (table 1's, "master ring pingpong"), RESULTS_DIR (when set, table
# 1's raw result lines are copied there, one file per row: t1.SCENARIO.STRATEGY.LOOKAHEAD).
# A LATENCY_RUNS argument of 0 leaves table 2 out. Master/workers uses seed = run number, so each run draws
# other sleeps but every strategy the same ones.
# A run that fails or times out is shown as such and makes the exit status 1.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 MPIEXEC MONITORED PLAIN COUNTERS [RUNS] [LATENCY_RUNS]" >&2
  exit 2
fi
mpiexec=$1 monitored=$2 plain=$3 counters=$4 runs=${5:-3} latency_runs=${6:-11}
master_rounds=${MASTER_ROUNDS:-10} ring_rounds=${RING_ROUNDS:-50}
ping_iterations=${PING_ITERATIONS:-10000} ping_samples=${PING_SAMPLES:-15}
lookaheads=${LOOKAHEADS:-1000 100000} run_timeout=${RUN_TIMEOUT:-300}
master_ranks=${MASTER_RANKS:-8} ring_ranks=${RING_RANKS:-4}
scenarios=${SCENARIOS:-master ring pingpong}
# Each run sets what it needs; nothing may leak in from the caller's environment.
unset VCMON_DISABLE VCMON_DEADLOCK VCMON_LOOKAHEAD_NS VCMON_OUTPUT
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

ranks_of() {
  case $1 in master) echo "$master_ranks" ;; ring) echo "$ring_ranks" ;; *) echo 2 ;; esac
}
args_of() {
  case $1 in
  master) echo "master $master_rounds $seed" ;;
  ring) echo "ring $ring_rounds" ;;
  pingpong) echo "pingpong any $ping_iterations $ping_samples" ;;
  ping-specific) echo "pingpong specific $ping_iterations $ping_samples" ;;
  esac
}

# run KEY SCENARIO PROGRAM VAR=VALUE...: one mpiexec run with those variables set; appends its
# "result" line, followed by the summed counters when it wrote a profile, to $work/KEY.
run() {
  local key=$1 scenario=$2 program=$3
  shift 3
  local out="$work/out/$key.$((++run_number))" status=0
  mkdir -p "$out"
  # shellcheck disable=SC2046 # the arguments are words by design
  env VCMON_OUTPUT="$out" "$@" timeout "$run_timeout" "$mpiexec" -n "$(ranks_of "$scenario")" \
    "$program" $(args_of "$scenario") >"$work/stdout" 2>"$work/stderr" || status=$?
  local result
  result=$(grep -m1 '^result ' "$work/stdout" || true)
  if [ $status != 0 ] || [ -z "$result" ]; then
    local why=error
    [ $status != 124 ] || why=timeout
    echo "$key run failed with status $status ($why); stderr:" >&2
    tail -5 "$work/stderr" >&2
    echo "failed status=$status" >>"$work/$key"
    failures=$((failures + 1))
    return
  fi
  if compgen -G "$out/*.vcmon" >/dev/null; then
    result="$result $("$counters" "$out")"
  fi
  echo "$result" >>"$work/$key"
}
run_number=0 seed=1

# Table 1: every (scenario, strategy) once per round, the order rotated round by round.
configs=()
for scenario in $scenarios; do
  configs+=("$scenario plain" "$scenario cycle")
  for lookahead in $lookaheads; do configs+=("$scenario nullmsg $lookahead"); done
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for ((r = 0; r < runs; ++r)); do
  seed=$((r + 1))
  for ((i = 0; i < ${#configs[@]}; ++i)); do
    read -r scenario strategy lookahead <<<"${configs[(i + r) % ${#configs[@]}]}"
    key="t1.$scenario.$strategy.${lookahead:--}"
    case $strategy in
    plain) run "$key" "$scenario" "$monitored" VCMON_DISABLE=1 ;;
    cycle) run "$key" "$scenario" "$monitored" VCMON_DEADLOCK=cycle ;;
    nullmsg) run "$key" "$scenario" "$monitored" VCMON_DEADLOCK=nullmsg \
      VCMON_LOOKAHEAD_NS="$lookahead" ;;
    esac
  done
done

# Table 2: six ping-pong variants, rotated (none when LATENCY_RUNS is 0).
variants=("vcmon any" "vcmon specific" "disabled any" "disabled specific" "unlinked any"
  "unlinked specific")
for ((r = 0; r < latency_runs; ++r)); do
  for ((i = 0; i < ${#variants[@]}; ++i)); do
    read -r build source <<<"${variants[(i + r) % ${#variants[@]}]}"
    scenario=$([ "$source" = any ] && echo pingpong || echo ping-specific)
    case $build in
    vcmon) run "t2.$build.$source" "$scenario" "$monitored" VCMON_DEADLOCK=cycle ;;
    disabled) run "t2.$build.$source" "$scenario" "$monitored" VCMON_DISABLE=1 ;;
    unlinked) run "t2.$build.$source" "$scenario" "$plain" ;;
    esac
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Shared awk helpers: field(line, key), median(v, n).
awk_lib=$(cat "$(dirname "${BASH_SOURCE[0]}")/../stats.awk")

echo
[ -z "${RESULTS_DIR:-}" ] || cp "$work"/t1.* "$RESULTS_DIR"/
echo "Table 1: wildcard receives over MPI ($runs runs per row; master $master_ranks ranks," \
  "$master_rounds rounds, ring $ring_ranks ranks, $ring_rounds rounds, ping-pong $ping_iterations x $((ping_samples + 1)) + 100" \
  "round trips)." \
  "Counters summed over ranks and runs; times: median over runs of per-run medians"
for scenario in $scenarios; do
  for key in "t1.$scenario.plain.-" "t1.$scenario.cycle.-" \
    $(for l in $lookaheads; do echo "t1.$scenario.nullmsg.$l"; done); do
    if [ -f "$work/$key" ]; then awk -v key="$key" '{ print key, $0 }' "$work/$key"; fi
  done
done | awk "$awk_lib"'
  function flush(    strategy, lookahead, parts, ctrl, wait, extra) {
    if (current == "") return
    split(current, parts, ".")
    strategy = parts[3]; lookahead = parts[4] == "-" ? "-" : parts[4] " ns"
    if (failed) {
      printf "| %s | %s | %s | %d of %d runs FAILED | | | | | |\n", parts[2], strategy, lookahead,
        failed, failed + n
    } else if (strategy == "plain") {
      printf "| %s | plain (VCMON_DISABLE=1) | - | %d | - | - | - | - | %.1f (p90 %.1f) |%s\n",
        parts[2], receives, median(med, n), median(p90, n), order(parts[2])
    } else {
      ctrl = receives ? control / receives : 0
      wait = decisions ? sprintf("%.1f us", safety / decisions / 1000) : "- (0 decisions)"
      printf "| %s | %s | %s | %d | %d | %.3f | %d | %s | %.1f (p90 %.1f) |%s\n", parts[2],
        strategy, lookahead, receives, decisions, ctrl, breaks, wait, median(med, n),
        median(p90, n), order(parts[2])
      control_total[parts[2], strategy, parts[4]] = control
      if (strategy == "nullmsg") baselines[++baseline_count] = parts[2] SUBSEP parts[4]
    }
    n = receives = decisions = control = breaks = safety = failed = in_order = pairs = 0
  }
  function order(scenario) {
    if (scenario != "master") return " |"
    return pairs ? sprintf(" %.0f%% in sleep order |", 100 * in_order / pairs) : " - (1 worker) |"
  }
  BEGIN {
    print "| scenario | strategy | lookahead | wildcard receives | decisions | control msgs per wildcard receive | cycle breaks | mean safety wait per decision | median real time per wildcard receive, us | consecutive results in sleep order (chance: 50%) |"
    print "|---|---|---|---|---|---|---|---|---|---|"
  }
  $1 != current { flush(); current = $1 }
  $2 == "failed" { ++failed; next }
  {
    line = $0
    ++n
    med[n] = field(line, "median_recv_us"); p90[n] = field(line, "p90_recv_us")
    receives += field(line, "receives"); decisions += field(line, "decisions")
    control += field(line, "control_messages"); breaks += field(line, "cycle_breaks")
    safety += field(line, "safety_wait_ns")
    in_order += field(line, "in_order_pairs"); pairs += field(line, "pairs")
  }
  END {
    flush()
    print ""
    print "Target: cycle sends at most a tenth of the baseline'"'"'s control messages"
    for (i = 1; i <= baseline_count; ++i) {
      split(baselines[i], parts, SUBSEP)
      if (!((parts[1], "cycle", "-") in control_total)) continue
      c = control_total[parts[1], "cycle", "-"]; b = control_total[parts[1], "nullmsg", parts[2]]
      verdict = b == 0 && c == 0 ? "n/a (no control messages counted)" : \
        c == 0 ? "met (cycle sent none)" : 10 * c <= b ? sprintf("met (1/%.1f)", b / c) : \
        sprintf("MISSED (1/%.1f)", b / c)
      printf "  %s, lookahead %s ns: cycle %d vs null messages %d: %s\n", parts[1], parts[2], c,
        b, verdict
    }
  }'

if ((latency_runs > 0)); then
  echo
  echo "Table 2: uncontended 8-byte ping-pong, rank 0 receiving from ANY_SOURCE or from rank 1;" \
    "median over $latency_runs runs of each run's median (${ping_samples} samples of" \
    "$ping_iterations round trips); monitored = libvcmon, VCMON_DEADLOCK=cycle"
  for key in vcmon.any vcmon.specific disabled.any disabled.specific unlinked.any \
    unlinked.specific; do
    if [ -f "$work/t2.$key" ]; then awk -v key="$key" '{ print key, $0 }' "$work/t2.$key"; fi
  done | awk "$awk_lib"'
    $2 == "failed" { ++failed[$1]; next }
    { half[$1, ++n[$1]] = field($0, "half_rtt_us"); recv[$1, n[$1]] = field($0, "median_recv_us") }
    function med_of(what, key,    v, i) {
      for (i = 1; i <= n[key]; ++i) v[i] = what == "half" ? half[key, i] : recv[key, i]
      return n[key] ? median(v, n[key]) : 0
    }
    END {
      print "| source | monitored half RTT, us | VCMON_DISABLE=1, us | unlinked, us | monitored / disabled | monitored / unlinked | median receive, monitored / disabled, us |"
      print "|---|---|---|---|---|---|---|"
      for (s = 1; s <= 2; ++s) {
        source = s == 1 ? "any" : "specific"
        m = med_of("half", "vcmon." source); d = med_of("half", "disabled." source)
        u = med_of("half", "unlinked." source)
        note = failed["vcmon." source] + failed["disabled." source] + failed["unlinked." source]
        printf "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f / %.3f |%s\n",
          source == "any" ? "MPI_ANY_SOURCE" : "rank 1", m, d, u, d ? m / d : 0, u ? m / u : 0,
          med_of("recv", "vcmon." source), med_of("recv", "disabled." source),
          note ? sprintf(" %d runs FAILED", note) : ""
        mon[source] = m; dis[source] = d
      }
      printf "Added by the wildcard: monitored %+.3f us (any / specific = %.3f), disabled %+.3f us" \
        " (%.3f); monitored any / disabled any = %.3f\n",
        mon["any"] - mon["specific"], mon["specific"] ? mon["any"] / mon["specific"] : 0,
        dis["any"] - dis["specific"], dis["specific"] ? dis["any"] / dis["specific"] : 0,
        dis["any"] ? mon["any"] / dis["any"] : 0
    }'
fi

[ "$failures" = 0 ] || { echo "$failures runs failed" >&2; exit 1; }
