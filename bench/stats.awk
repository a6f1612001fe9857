# awk helpers the benchmark drivers' tables share (bench/apps/compare.sh, bench/paper/run.sh,
# bench/deadlock/run_wildcard_bench.sh), read into their awk programs as text: mawk, Debian's
# awk, cannot mix -f files with a program given on the command line.
#   field(line, key)   the value of `key=value` among the blank-separated words of `line`
#   sort_values(v, n)  sorts v[1..n] in place (insertion sort: a handful of runs)
#   median(v, n)       the median of v[1..n] (sorts it)
#   paired_median(at, rounds, variant, name)
#                      the median over the rounds r of rounds[] of 100 * (at[variant, name, r] -
#                      at["plain", name, r]) / at["plain", name, r], in %: a paired estimate, as
#                      both ran in the same round, one after the other, with the same code
#                      layout, so that what the host does between rounds cancels ("" when no
#                      round has both)
function field(line, key,    n, i, kv, parts) {
  n = split(line, parts, " ")
  for (i = 1; i <= n; ++i) {
    split(parts[i], kv, "=")
    if (kv[1] == key) return kv[2]
  }
  return ""
}
function sort_values(v, n,    i, j, t) {
  for (i = 2; i <= n; ++i)
    for (j = i; j > 1 && v[j - 1] > v[j]; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
}
function median(v, n) {
  sort_values(v, n)
  return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function paired_median(at, rounds, variant, name,    r, n, d) {
  n = 0
  for (r in rounds)
    if (((variant, name, r) in at) && (("plain", name, r) in at) && at["plain", name, r] > 0)
      d[++n] = 100 * (at[variant, name, r] - at["plain", name, r]) / at["plain", name, r]
  return n == 0 ? "" : median(d, n)
}
