#!/usr/bin/env bash
# Runs every libFuzzer target of a VCMON_FUZZ build for a bounded time each, starting from
# the committed profile seeds (every target reads profiles).
# Usage: scripts/fuzz.sh BUILD_DIR [SECONDS]
set -euo pipefail
build=$1
seconds=${2:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
seeds=$root/tests/fuzz/corpus/profile
targets=("$build"/tests/fuzz/fuzz_*)
if [ ! -x "${targets[0]}" ]; then
  echo "no fuzz targets in $build/tests/fuzz" >&2
  exit 1
fi
for target in "${targets[@]}"; do
  corpus=$(mktemp -d)
  echo "fuzzing $(basename "$target") for ${seconds}s"
  "$target" -max_total_time="$seconds" -max_len=65536 "$corpus" "$seeds" 2>&1 | tail -n 2
  rm -rf "$corpus"
done
