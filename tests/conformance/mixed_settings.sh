#!/usr/bin/env bash
# mixed_settings.sh MPIEXEC PLAIN MONITORED SETTING PROFILES [ARG...]
# A setting the ranks must share (docs/runtime.md, "Settings the ranks must share") given to
# the first rank only: runs PLAIN on 3 ranks, then MONITORED as `MPIEXEC -n 1 env SETTING
# MONITORED : -n 2 MONITORED` (each with ARG...) in an empty directory, and fails unless the
# monitored job ends with status 0 within 60 s, prints exactly the plain run's standard output,
# says once on stderr that the setting differs between the ranks, and leaves PROFILES profiles
# (0: the job ran unmonitored). Before the agreement, each of these jobs hung.
set -u
if [ $# -lt 5 ]; then
  echo "usage: $0 MPIEXEC PLAIN MONITORED SETTING PROFILES [ARG...]" >&2
  exit 2
fi
mpiexec=$1 plain=$2 monitored=$3 setting=$4 profiles=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

if ! timeout 60 "$mpiexec" -n 3 "$plain" "$@" >plain.out 2>plain.err; then
  echo "FAIL: the plain run failed" >&2
  cat plain.err >&2
  exit 1
fi
timeout 60 "$mpiexec" -n 1 env "$setting" "$monitored" "$@" : -n 2 "$monitored" "$@" \
  >monitored.out 2>monitored.err
status=$?
failed=0
if [ "$status" -eq 124 ]; then
  echo "FAIL: the monitored job hung (60 s) with $setting on rank 0 only" >&2
  failed=1
elif [ "$status" -ne 0 ]; then
  echo "FAIL: the monitored job ended with status $status" >&2
  failed=1
fi
if ! diff plain.out monitored.out >&2; then
  echo "FAIL: the monitored job printed something else (above: plain, then monitored)" >&2
  failed=1
fi
name=${setting%%=*}
said=$(grep -c "^vcmon: $name differs between the ranks" monitored.err)
if [ "$said" -ne 1 ]; then
  echo "FAIL: stderr says $said times that $name differs between the ranks, not once" >&2
  failed=1
fi
written=$(find . -maxdepth 1 -name '*.vcmon' | wc -l)
if [ "$written" -ne "$profiles" ]; then
  echo "FAIL: $written profiles written, expected $profiles" >&2
  failed=1
fi
if [ "$failed" -ne 0 ]; then
  echo "--- monitored stderr" >&2
  cat monitored.err >&2
  exit 1
fi
echo "ok: $setting on rank 0 only: same output, said once, $written profiles"
