#!/usr/bin/env bash
# The demo: builds and installs vcmon, instruments the bundled MPI programs with
# vcmon-mpicc, runs them under `mpiexec -n 4`, and reports their profiles.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${VCMON_BUILD_DIR:-$root/build}
stage=$build/stage
out=$build/demo

"$root/scripts/build.sh" >/dev/null
cmake --install "$build" --prefix "$stage" >/dev/null
export PATH=$stage/bin:$PATH
mkdir -p "$out"
cd "$out"

for program in fig12 matmul; do
  echo "== $program: instrument and compile with vcmon-mpicc"
  vcmon-mpicc -O2 -o "$program" "$root/examples/$program.c"
  echo "== $program: run under mpiexec -n 4"
  rm -rf "$out/$program-profiles" && mkdir "$out/$program-profiles"
  VCMON_OUTPUT=$out/$program-profiles timeout 300 mpiexec -n 4 "./$program"
  profile=$(ls "$out/$program-profiles"/*.vcmon)
  echo "== $program: vcmon-report $profile"
  vcmon-report --depth 8 "$profile"
  vcmon-report --format html -o "$out/$program.html" "$profile"
  echo "(HTML report: $out/$program.html)"
  echo
done
