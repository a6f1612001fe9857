#!/usr/bin/env bash
# profile_scale.sh BENCH REPORT [RANKS] [SITES] [RUNS]
# A synthetic profile of RANKS ranks (default 100000) x SITES sites (default 1000) written through
# the writer's pieces with its summary (bench_profile_scale write), then read back RUNS times
# (default 3): one rank, the last (`rank`), every rank one at a time (`scan`), and with the real
# vcmon-report REPORT: the whole job as text (`report`, from the summary) and the last rank alone
# (`report-rank`), under GNU time. Prints each step's median seconds with min-max and its peak
# RSS. The file (about 2 GB at the defaults) goes to a temporary directory under
# ${TMPDIR:-/tmp}, removed at the end.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 BENCH REPORT [RANKS] [SITES] [RUNS]" >&2
  exit 2
fi
bench=$1 report=$2 ranks=${3:-100000} sites=${4:-1000} runs=${5:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stats=$(cat "$(dirname "$0")/../stats.awk")

"$bench" write "$work" "$ranks" "$sites" >>"$work/results"
for ((run = 1; run <= runs; ++run)); do
  "$bench" rank "$work/scale.vcmon" $((ranks - 1)) >>"$work/results"
  "$bench" scan "$work/scale.vcmon" >>"$work/results"
  /usr/bin/time -f "step=report seconds=%e rss_kib=%M" -a -o "$work/results" \
    "$report" "$work/scale.vcmon" >"$work/report.txt"
  /usr/bin/time -f "step=report-rank seconds=%e rss_kib=%M" -a -o "$work/results" \
    "$report" --rank $((ranks - 1)) "$work/scale.vcmon" >"$work/rank.txt"
done
echo "report: $(wc -l <"$work/report.txt") lines;" \
  "--rank $((ranks - 1)): $(wc -l <"$work/rank.txt") lines"

awk "$stats"'
  { step = field($0, "step"); if (!(step in n)) order[++steps] = step
    i = ++n[step]; sec[step, i] = field($0, "seconds"); rss[step, i] = field($0, "rss_kib") / 1024
    if (field($0, "bytes") != "") bytes = field($0, "bytes")
    if (field($0, "summary_bytes") != "") summary = field($0, "summary_bytes") }
  END {
    printf "%d ranks x %s sites, %.0f MB, summary %.1f MB\n", '"$ranks"', '"$sites"',
      bytes / 1e6, summary / 1e6
    printf "%-11s %30s %22s\n", "step", "seconds median [min-max]", "peak RSS MiB median"
    for (k = 1; k <= steps; ++k) {
      s = order[k]; lo = hi = sec[s, 1]
      for (i = 1; i <= n[s]; ++i) { v[i] = sec[s, i]; w[i] = rss[s, i]; if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
      printf "%-11s %16.3f [%.3f-%.3f] %22.1f\n", s, median(v, n[s]), lo, hi, median(w, n[s])
    }
  }' "$work/results"
