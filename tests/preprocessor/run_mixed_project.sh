#!/usr/bin/env bash
# run_mixed_project.sh make|cmake BIN-DIR REPORT MPIEXEC: builds mixed_project/ (a plain unit, an
# MPI unit, a GCC nested function, an OpenMP unit) with vcmon-mpicc through its Makefile or its
# CMakeLists.txt, and fails unless
#   - the build gives exactly one warning: vcmon's, for nested.c (compiled without probes);
#   - the program runs on 2 ranks of 2 OpenMP threads and prints the plain program's line;
#   - its profile has records of every other unit (main.c, halo.c, omp_kernel.c with the loop of
#     its parallel region on both threads) and none of nested.c;
#   - built again with VCMON_STRICT=1, the build stops at nested.c and links nothing.
set -euo pipefail
how=$1 bin=$2 report=$3 mpiexec=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-mixed-$how.XXXXXX")
trap 'rm -rf "$work"' EXIT
rounds=20

# build LOG: builds the project (the binary: $program), all messages into LOG; status as the
# build tool's.
case "$how" in
make)
  cp -r "$here/mixed_project" "$work/src"
  program=$work/src/mixed
  build() { make -C "$work/src" CC="$bin/vcmon-mpicc" mixed >"$1" 2>&1; }
  clean() { make -C "$work/src" clean >/dev/null; } ;;
cmake)
  program=$work/build/mixed
  cmake -S "$here/mixed_project" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$bin/vcmon-mpicc" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log" >&2; exit 1; }
  build() { cmake --build "$work/build" >"$1" 2>&1; }
  clean() { cmake --build "$work/build" --target clean >/dev/null; } ;;
*)
  echo "usage: $0 make|cmake BIN-DIR REPORT MPIEXEC" >&2
  exit 2 ;;
esac

build "$work/build.log" || { cat "$work/build.log" >&2; echo "FAIL: $how build failed" >&2; exit 1; }
warnings=$(grep -c 'warning:' "$work/build.log" || true)
if [ "$warnings" != 1 ] ||
  ! grep -q 'vcmon-mpicc: warning: .*nested\.c compiled without vcmon probes: .*nested\.c:6:.*error' \
    "$work/build.log"; then
  cat "$work/build.log" >&2
  echo "FAIL: $how build: $warnings warnings, want exactly vcmon's one for nested.c" >&2
  exit 1
fi

mkdir "$work/profiles"
(cd "$work" && OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive VCMON_OUTPUT=$work/profiles \
  timeout 60 "$mpiexec" -n 2 "$program" >run.out)
grep -qx "mixed: 2 ranks, $rounds rounds, total 21660.0" "$work/run.out" ||
  { cat "$work/run.out" >&2; echo "FAIL: unexpected output" >&2; exit 1; }
profiles=("$work"/profiles/*.vcmon)
[ ${#profiles[@]} -eq 1 ] && [ -s "${profiles[0]}" ] ||
  { echo "FAIL: expected one profile in $work/profiles" >&2; exit 1; }
"$report" --format json "${profiles[0]}" >"$work/report.json"

# records UNIT KIND: how many KIND nodes of the tree lie in UNIT (a file name).
records() {
  jq --arg unit "$1" --arg kind "$2" '[.tree | .. | objects | select(.kind? == $kind and
    (.position.file? // "" | test("(^|/)" + ($unit | gsub("\\."; "\\.")) + "$")))] | length' \
    "$work/report.json"
}
for unit in main.c halo.c omp_kernel.c; do
  [ "$(records "$unit" procedure)" -gt 0 ] ||
    { echo "FAIL: no procedure record of $unit" >&2; exit 1; }
done
[ "$(records halo.c comm)" -gt 0 ] ||
  { echo "FAIL: no communication statement record of halo.c" >&2; exit 1; }
[ "$(records nested.c procedure)" = 0 ] && [ "$(records nested.c loop)" = 0 ] ||
  { echo "FAIL: records of nested.c, which was compiled without probes" >&2; exit 1; }
# The OpenMP region's loop: executed by both threads of both ranks every round.
loop_count=$(jq '[.tree | .. | objects | select(.kind? == "loop" and
  (.position.file? // "" | test("(^|/)omp_kernel\\.c$"))) | .count] | add // 0' "$work/report.json")
[ "$loop_count" = $((2 * 2 * rounds)) ] ||
  { echo "FAIL: omp_kernel.c's loop ran $loop_count times, want $((2 * 2 * rounds))" >&2; exit 1; }
echo "$how: one warning (nested.c); main.c, halo.c, omp_kernel.c recorded, region loop x$loop_count"

clean
rm -f "$program"
if VCMON_STRICT=1 build "$work/strict.log"; then
  echo "FAIL: VCMON_STRICT=1 $how build succeeded" >&2
  exit 1
fi
grep -q 'nested\.c could not be instrumented (VCMON_STRICT=1)' "$work/strict.log" ||
  { cat "$work/strict.log" >&2; echo "FAIL: strict build did not name nested.c" >&2; exit 1; }
[ ! -e "$program" ] || { echo "FAIL: strict build linked the program" >&2; exit 1; }
echo "$how: VCMON_STRICT=1 stops the build at nested.c"
