#!/usr/bin/env bash
# ThreadSanitizer check of libvcmon under MPI_THREAD_MULTIPLE: builds the runtime and the
# conformance suite's threads_multiple program with -fsanitize=thread (clang-16, in
# build-tsan/), runs it RUNS times (default 4) at 2 ranks x 8 threads and 3 ranks x 4 threads,
# and fails on any ThreadSanitizer report or a wrong result. MPICH itself is not instrumented;
# tests/conformance/tsan.supp lists the suppressions and why.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-tsan
runs=${RUNS:-4}
CC=clang-16 CXX=clang++-16 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVCMON_TSAN=ON -DVCMON_BUILD_PREPROCESSOR=OFF -DVCMON_BUILD_REPORT=OFF -DVCMON_BUILD_BENCH=OFF \
  >/dev/null
cmake --build "$build" -j "$(nproc)" --target conformance_threads_multiple_vcmon
program=$build/tests/conformance/conformance_threads_multiple_vcmon
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for run in $(seq 1 "$runs"); do
  for shape in "2 8 3" "3 4 5"; do
    set -- $shape
    out=$work/run.out
    status=0
    (cd "$work" && VCMON_OUTPUT=$work MPIR_CVAR_POLLS_BEFORE_YIELD=1 \
      TSAN_OPTIONS="halt_on_error=0 exitcode=66 suppressions=$root/tests/conformance/tsan.supp" \
      timeout -k 5 300 mpiexec -n "$1" "$program" "$2" "$3" </dev/null >"$out" 2>&1) || status=$?
    reports=$(grep -c "WARNING: ThreadSanitizer" "$out" || true)
    results=$(grep -c "wrong statuses 0" "$out" || true)
    if [ "$status" != 0 ] || [ "$reports" != 0 ] || [ "$results" != $(($1 * $2)) ]; then
      echo "FAIL: run $run, $1 ranks x $2 threads: status $status, $reports ThreadSanitizer reports, $results of $(($1 * $2)) thread results"
      sed -n '1,80p' "$out"
      failed=1
    else
      echo "ok: run $run, $1 ranks x $2 threads"
    fi
  done
done
exit $failed
