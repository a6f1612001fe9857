# awk helpers the benchmark drivers' tables share (bench/apps/compare.sh, bench/paper/run.sh,
# bench/deadlock/run_wildcard_bench.sh), read into their awk programs as text: mawk, Debian's
# awk, cannot mix -f files with a program given on the command line.
#   field(line, key)   the value of `key=value` among the blank-separated words of `line`
#   sort_values(v, n)  sorts v[1..n] in place (insertion sort: a handful of runs)
#   median(v, n)       the median of v[1..n] (sorts it)
#   balanced_mean(m, n)
#                      the mean of m[0..n-1] that are not "": the medians of the rounds of each
#                      class of code layout (bench/code_layout.sh), each class once
#   balanced(value, round_of, n, key, classes)
#                      a build's estimate from value[key, 1..n], measured in rounds
#                      round_of[key, i]: the median of each class of rounds ((round - 1) mod
#                      classes), then their mean; each build met every place of its loops in a
#                      cache line equally often (bench/code_layout.sh)
#   paired_balanced(at, rounds, variant, name, classes, base)
#                      the difference at[variant, name, r] - at["plain", name, r] of each round,
#                      its median within each class of rounds ((round - 1) mod classes), the
#                      mean over the classes, as % of `base`. Differences, not ratios: where a
#                      layout makes one build's loop 0.62 s and the other's 1.05 s, the ratios
#                      +69% and -41% of two rounds average to +14%, the differences to 0
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
function balanced_mean(m, n,    c, sum, k) {
  sum = 0; k = 0
  for (c = 0; c < n; ++c)
    if (m[c] != "") { sum += m[c]; ++k }
  return k == 0 ? "" : sum / k
}
function balanced(value, round_of, n, key, classes,    c, i, k, v, m) {
  for (c = 0; c < classes; ++c) {
    k = 0
    delete v
    for (i = 1; i <= n; ++i)
      if ((round_of[key, i] - 1) % classes == c) v[++k] = value[key, i]
    m[c] = k == 0 ? "" : median(v, k)
  }
  return balanced_mean(m, classes)
}
function paired_balanced(at, rounds, variant, name, classes, base,    r, n, d, d_round, mean) {
  n = 0
  for (r in rounds)
    if (((variant, name, r) in at) && (("plain", name, r) in at)) {
      d["d", ++n] = at[variant, name, r] - at["plain", name, r]
      d_round["d", n] = r
    }
  mean = balanced(d, d_round, n, "d", classes)
  return mean == "" || base <= 0 ? "" : 100 * mean / base
}
