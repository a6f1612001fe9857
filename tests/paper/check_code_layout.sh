#!/usr/bin/env bash
# bench/code_layout.sh and bench/stats.awk, as the benchmark drivers use them: every 4 rounds
# put a program's functions once at each 16-byte place of a 64-byte line (main in
# .text.startup and a function in .text alike), and balanced and paired_balanced weigh every
# class of layout once, and differences, not ratios. Usage: check_code_layout.sh CC
set -euo pipefail
cc=$1
bench=$(cd "$(dirname "$0")/../../bench" && pwd)
source "$bench/code_layout.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/program.c" <<'PROGRAM'
__attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
int main(int argc, char** argv) { (void)argv; return helper(argc) == 4 ? 0 : 1; }
PROGRAM
failed=0
# The address of `symbol` in `binary`, modulo 64.
place() { echo $((0x$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }') % 64)); }
declare -A seen_main seen_helper
for round in 1 2 3 4 5 6 7 8; do
  offset=$(code_offset "$round" random)
  if [ $((offset % 64)) -ne $(((round - 1) % 4 * 16)) ] || [ "$offset" -ge 4096 ]; then
    echo "FAIL: round $round: offset $offset"
    failed=1
  fi
  code_pad "$cc" "$offset" "$work/pad.o"
  "$cc" -O3 "$work/pad.o" "$work/program.c" -o "$work/program.$round"
  "$work/program.$round" || { echo "FAIL: round $round: the padded program fails"; failed=1; }
  seen_main[$(((round - 1) / 4)),$(place "$work/program.$round" main)]=1
  seen_helper[$(((round - 1) / 4)),$(place "$work/program.$round" helper)]=1
done
for half in 0 1; do
  for kind in main helper; do
    declare -n seen=seen_$kind
    places=0
    for key in "${!seen[@]}"; do [[ $key == $half,* ]] && places=$((places + 1)); done
    if [ "$places" -ne 4 ]; then
      echo "FAIL: rounds $((4 * half + 1))-$((4 * half + 4)) put $kind at $places places of a line, not 4"
      failed=1
    fi
  done
done
[ "$(code_offset 3 fixed)" = 0 ] || { echo "FAIL: LAYOUT=fixed shifts"; failed=1; }
# Two classes of layout, rounds 1-4: plain 1.0 and 0.6 s, the variant 0.6 and 1.0 s. Balanced,
# both take 0.8 s and their paired difference is 0 (the mean of the per-round ratios, +69% and
# -41%, would say +14%).
result=$(awk "$(cat "$bench/stats.awk")"'
  BEGIN {
    at["plain", "s", 1] = 1.0; at["v", "s", 1] = 0.6; at["plain", "s", 3] = 1.0; at["v", "s", 3] = 0.6
    at["plain", "s", 2] = 0.6; at["v", "s", 2] = 1.0; at["plain", "s", 4] = 0.6; at["v", "s", 4] = 1.0
    for (r = 1; r <= 4; ++r) {
      rounds[r] = 1
      value["plain", r] = at["plain", "s", r]; round_of["plain", r] = r
    }
    printf "%.6f %.6f\n", balanced(value, round_of, 4, "plain", 2),
      paired_balanced(at, rounds, "v", "s", 2, 0.8)
  }')
if [ "$result" != "0.800000 0.000000" ]; then
  echo "FAIL: balanced and paired_balanced gave '$result', not '0.800000 0.000000'"
  failed=1
fi
[ $failed -eq 0 ] && echo "ok: balanced code layouts and paired differences"
exit $failed
