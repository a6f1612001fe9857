#!/usr/bin/env bash
# The demo: instruments the bundled MPI programs, runs them under `mpiexec -n 4`, and
# reports their profiles.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" -DVCMON_BUILD_TESTS=OFF -DVCMON_BUILD_BENCH=OFF
echo "vcmon demo: not yet — the instrument/run/report pipeline lands with the preprocessor, runtime and report issues." >&2
