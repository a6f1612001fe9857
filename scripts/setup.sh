#!/usr/bin/env bash
# Installs vcmon's build and test dependencies from Debian's packages. Does nothing when
# everything is already there. Needs root (or sudo) only when something is missing.
set -euo pipefail
packages=(build-essential cmake ninja-build mpich libmpich-dev
  clang-16 libclang-16-dev libclang-cpp16-dev libclang-rt-16-dev llvm-16-dev
  libboost-graph-dev zlib1g-dev libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev
  gfortran chromium jq pkg-config libomp-16-dev libotf2-trace-dev otf2-tools gdb)
# gfortran: vcmon-mpifort's test; chromium: the HTML report's browser test; jq: the live query
# test; pkg-config: the installed vcmon.pc's test; libomp-16-dev: the omp.h Clang parses
# OpenMP units with; libotf2-trace-dev, otf2-tools: the event trace the paper's data-volume
# benchmark compares profiles with; gdb: the stacks compare.sh prints of a run that hangs.
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "vcmon setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
