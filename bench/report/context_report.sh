#!/usr/bin/env bash
# context_report.sh BENCH REPORT [RANKS] [CONTEXTS] [RUNS]
# Writes a synthetic profile of RANKS ranks (default 1024) x CONTEXTS calling contexts per rank
# (default 100000) with BENCH (bench_report_contexts), then reports it as text with the real
# vcmon-report RUNS times (default 5), and prints the median wall and CPU seconds with min-max
# and the median peak RSS (GNU time). Target (issue 13): <= 5 s. The file goes to a temporary
# directory under ${TMPDIR:-/tmp}, removed at the end.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 BENCH REPORT [RANKS] [CONTEXTS] [RUNS]" >&2
  exit 2
fi
bench=$1 report=$2 ranks=${3:-1024} contexts=${4:-100000} runs=${5:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stats=$(cat "$(dirname "$0")/../stats.awk")

"$bench" "$work" "$ranks" "$contexts"
for ((run = 1; run <= runs; ++run)); do
  /usr/bin/time -f 'seconds=%e cpu=%U+%S rss_kib=%M' -o "$work/time" \
    "$report" "$work/contexts.vcmon" -o "$work/report.txt"
  cat "$work/time" >>"$work/results"
done
echo "report: $(wc -l <"$work/report.txt") lines, $(du -k "$work/report.txt" | cut -f1) KiB;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"

awk "$stats"'
  { i = ++n; wall[i] = field($0, "seconds"); split(field($0, "cpu"), c, "+")
    cpu[i] = c[1] + c[2]; rss[i] = field($0, "rss_kib") / 1024 }
  END {
    lo = hi = wall[1]
    for (i = 1; i <= n; ++i) { if (wall[i] < lo) lo = wall[i]; if (wall[i] > hi) hi = wall[i] }
    clo = chi = cpu[1]
    for (i = 1; i <= n; ++i) { if (cpu[i] < clo) clo = cpu[i]; if (cpu[i] > chi) chi = cpu[i] }
    printf "vcmon-report as text, %d runs: wall median %.2f s [%.2f-%.2f], cpu median %.2f s " \
      "[%.2f-%.2f], peak RSS median %.0f MiB (target <= 5 s)\n", n, median(wall, n), lo, hi,
      median(cpu, n), clo, chi, median(rss, n)
  }' "$work/results"
