#!/usr/bin/env bash
# Builds one MPI program plainly and through a vcmon compiler wrapper, runs both under
# `mpiexec -n 2`, and fails unless their exit codes and outputs (each rank's lines in order)
# are identical.
# Usage: run_corpus_program.sh [--separate-compile] SOURCE WRAPPER PLAIN-COMPILER [FLAGS...]
# --separate-compile builds the instrumented program as a Makefile would: -c, then a link.
set -euo pipefail
separate=0
if [ "${1:-}" = --separate-compile ]; then
  separate=1
  shift
fi
source=$1 wrapper=$2 plain=$3
shift 3
flags=("$@")
work=$(mktemp -d "${TMPDIR:-/tmp}/vcmon-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$plain" "${flags[@]}" "$source" -o "$work/plain"
if [ $separate -eq 1 ]; then
  "$wrapper" "${flags[@]}" -c "$source" -o "$work/instrumented.o"
  "$wrapper" "${flags[@]}" "$work/instrumented.o" -o "$work/instrumented"
else
  "$wrapper" "${flags[@]}" "$source" -o "$work/instrumented"
fi

# Runs $1 in its own directory (the monitor may write its profile there); prints the exit
# code, then stdout with each rank's lines kept in order.
run() {
  local dir=$work/run-$(basename "$1")
  mkdir -p "$dir"
  local code=0
  (cd "$dir" && timeout 120 mpiexec -n 2 -prepend-rank "$1" >stdout) || code=$?
  echo "exit $code"
  sort -s -t']' -k1,1 "$dir/stdout"
}

run "$work/plain" >"$work/plain.out"
run "$work/instrumented" >"$work/instrumented.out"
if ! diff -u "$work/plain.out" "$work/instrumented.out"; then
  echo "FAIL: $source behaves differently instrumented" >&2
  exit 1
fi
if [ "$(wc -l <"$work/plain.out")" -lt 2 ]; then
  echo "FAIL: $source printed nothing" >&2
  exit 1
fi
echo "$source: identical output ($(($(wc -l <"$work/plain.out") - 1)) lines)"
