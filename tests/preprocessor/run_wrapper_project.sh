#!/usr/bin/env bash
# Builds wrapper_project/ with CMake twice, with mpicc/mpicxx and with the vcmon wrappers as
# the compilers, runs each program under `mpiexec -n 2`, and fails unless the wrapped
# programs link libvcmon and print what the plain ones print.
# Usage: run_wrapper_project.sh WRAPPER-BIN-DIR
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-wrapper-project.XXXXXX")
trap 'rm -rf "$work"' EXIT

build() {
  cmake -S "$here/wrapper_project" -B "$work/$1" -G Ninja -DCMAKE_C_COMPILER="$2" \
    -DCMAKE_CXX_COMPILER="$3" >"$work/$1.log" 2>&1 || { cat "$work/$1.log"; exit 1; }
  cmake --build "$work/$1" >>"$work/$1.log" 2>&1 || { cat "$work/$1.log"; exit 1; }
}
build plain mpicc mpicxx
build wrapped "$bin/vcmon-mpicc" "$bin/vcmon-mpicxx"

for program in fig12 control_flow exceptions; do
  # grep reads all of ldd's output (grep -q could end the pipe early: SIGPIPE under pipefail).
  if ! ldd "$work/wrapped/$program" | grep libvcmon >/dev/null; then
    echo "FAIL: wrapped $program does not link libvcmon" >&2
    exit 1
  fi
  for variant in plain wrapped; do
    (cd "$work/$variant" && timeout 120 mpiexec -n 2 -prepend-rank "./$program" |
      sort -s -t']' -k1,1 >"$program.out")
  done
  if ! diff -u "$work/plain/$program.out" "$work/wrapped/$program.out"; then
    echo "FAIL: $program behaves differently built through the wrappers" >&2
    exit 1
  fi
  [ -s "$work/plain/$program.out" ] || { echo "FAIL: $program printed nothing" >&2; exit 1; }
done
echo "wrapper project: fig12, control_flow and exceptions identical through the wrappers"
