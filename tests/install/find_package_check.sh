#!/usr/bin/env bash
# Usage: find_package_check.sh BUILD_DIR USER_PROJECT_DIR MPIEXEC
set -euo pipefail
build=$1
project=$2
mpiexec=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$project" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/build" >/dev/null

mkdir "$scratch/profiles"
VCMON_OUTPUT=$scratch/profiles timeout 60 "$mpiexec" -n 2 "$scratch/build/user_ring" \
  >"$scratch/stdout" 2>"$scratch/stderr"
grep -qx "ring ok: 2 ranks" "$scratch/stdout" || { cat "$scratch/stdout" "$scratch/stderr"; exit 1; }
profiles=("$scratch"/profiles/*.vcmon)
[ -s "${profiles[0]}" ] || { echo "no profile written in $scratch/profiles" >&2; exit 1; }
# Into a file first: under pipefail, grep -q leaving early would fail the report with SIGPIPE.
"$scratch/prefix/bin/vcmon-report" --format json "${profiles[0]}" >"$scratch/report.json"
grep -q '"MPI_Send"' "$scratch/report.json" ||
  { echo "the profile of the installed libvcmon has no MPI_Send record" >&2; exit 1; }
echo "installed vcmon works through find_package"
