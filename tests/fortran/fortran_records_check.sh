#!/usr/bin/env bash
# fortran_records_check.sh WRAPPER_DIR REPORT MPIEXEC SOURCE: builds a Fortran MPI program with
# vcmon-mpifort, runs it on 2 ranks and checks that its profile holds point-to-point records
# (MPI_Send, MPI_Recv, with their partners) and a collective one (MPI_Allreduce).
set -euo pipefail
wrappers=$1 report=$2 mpiexec=$3 source=$4
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$wrappers/vcmon-mpifort" -O1 "$source" -o "$scratch/ring"
mkdir "$scratch/profiles"
VCMON_OUTPUT=$scratch/profiles timeout 60 "$mpiexec" -n 2 "$scratch/ring" >"$scratch/out"
grep -qx "ring ok: 2 ranks, sum 1" "$scratch/out" || { cat "$scratch/out"; exit 1; }
profiles=("$scratch"/profiles/*.vcmon)
[ ${#profiles[@]} -eq 1 ] && [ -s "${profiles[0]}" ] ||
  { echo "expected one profile in $scratch/profiles" >&2; exit 1; }
"$report" --format json "${profiles[0]}" >"$scratch/report.json"
for function in MPI_Send MPI_Recv MPI_Allreduce; do
  count=$(jq --arg f "$function" '[.. | objects | select(.name? == $f)] | length' \
    "$scratch/report.json")
  [ "$count" -gt 0 ] || { echo "no $function record in the Fortran program's profile" >&2; exit 1; }
done
echo "Fortran program: MPI_Send, MPI_Recv and MPI_Allreduce recorded"
