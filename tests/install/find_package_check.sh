#!/usr/bin/env bash
# Usage: find_package_check.sh BUILD_DIR USER_PROJECT_DIR MPIEXEC
set -euo pipefail
build=$1
project=$2
mpiexec=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$project" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=TRUE >/dev/null
cmake --build "$scratch/build" >/dev/null

# The same program built by a Makefile user through pkg-config and mpicc.
pc_flags=$(PKG_CONFIG_PATH=$(dirname "$(find "$scratch/prefix" -name vcmon.pc)") \
  pkg-config --cflags --libs vcmon)
# shellcheck disable=SC2086 # the flags are words
mpicc "$project/ring.c" $pc_flags -o "$scratch/ring_pkg_config"

mkdir "$scratch/profiles"
VCMON_OUTPUT=$scratch/profiles timeout 60 "$mpiexec" -n 2 "$scratch/build/user_ring" \
  >"$scratch/stdout" 2>"$scratch/stderr"
grep -qx "ring ok: 2 ranks" "$scratch/stdout" || { cat "$scratch/stdout" "$scratch/stderr"; exit 1; }
profiles=("$scratch"/profiles/*.vcmon)
[ -s "${profiles[0]}" ] || { echo "no profile written in $scratch/profiles" >&2; exit 1; }
mkdir "$scratch/pc_profiles"
VCMON_OUTPUT=$scratch/pc_profiles timeout 60 "$mpiexec" -n 2 "$scratch/ring_pkg_config" \
  >"$scratch/stdout" 2>"$scratch/stderr"
pc_profiles=("$scratch"/pc_profiles/*.vcmon)
[ -s "${pc_profiles[0]}" ] ||
  { echo "the pkg-config build wrote no profile"; cat "$scratch/stderr"; exit 1; } >&2
# Into a file first: under pipefail, grep -q leaving early would fail the report with SIGPIPE.
"$scratch/prefix/bin/vcmon-report" --format json "${profiles[0]}" >"$scratch/report.json"
grep -q '"MPI_Send"' "$scratch/report.json" ||
  { echo "the profile of the installed libvcmon has no MPI_Send record" >&2; exit 1; }
echo "installed vcmon works through find_package (vcmon::vcmon, no Boost) and pkg-config"
