#!/usr/bin/env bash
# The test suite: builds everything, runs ctest, then a sanitizer build (clang, address +
# undefined) of the modules without Clang, with the profile reader's fuzz target run for a
# bounded time, and a ThreadSanitizer build of the runtime run under MPI_THREAD_MULTIPLE
# (scripts/tsan.sh). Tests labelled `long` (repetitions beyond the default: 30 runs of 3 ranks
# x 8 threads) are left out: `ctest -L long` in build/ runs them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
(cd "$root/build" && ctest --output-on-failure -j 2 --timeout 300 -LE long)
# ThreadSanitizer over MPI_THREAD_MULTIPLE runs (the runtime and one program only).
"$root/scripts/tsan.sh"

san=$root/build-sanitize
CC=clang-16 CXX=clang++-16 cmake -S "$root" -B "$san" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DVCMON_SANITIZE=ON -DVCMON_FUZZ=ON -DVCMON_BUILD_PREPROCESSOR=OFF -DVCMON_BUILD_BENCH=OFF >/dev/null
cmake --build "$san" -j "$(nproc)"
# MPICH keeps allocations alive past MPI_Finalize; leak checks would report MPICH, not vcmon.
(cd "$san" && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j 2 --timeout 600 -LE long)
"$root/scripts/fuzz.sh" "$san" 60
