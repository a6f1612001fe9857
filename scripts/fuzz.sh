#!/usr/bin/env bash
# Runs every libFuzzer target of a VCMON_FUZZ build for a bounded time each.
# Usage: scripts/fuzz.sh BUILD_DIR SECONDS
set -euo pipefail
build=$1
seconds=${2:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
found=0
for target in "$build"/tests/fuzz/fuzz_*; do
  [ -x "$target" ] || continue
  found=1
  name=$(basename "$target")
  corpus=$(mktemp -d)
  seeds="$root/tests/fuzz/corpus/${name#fuzz_}"
  echo "fuzzing $name for ${seconds}s"
  "$target" -max_total_time="$seconds" -max_len=65536 "$corpus" ${seeds:+$( [ -d "$seeds" ] && echo "$seeds")} 2>&1 | tail -n 3
  rm -rf "$corpus"
done
if [ $found -eq 0 ]; then
  echo "no fuzz targets in $build" >&2
  exit 1
fi
