# Sourced by the benchmark drivers that compare a plain and an instrumented build of one
# program (bench/apps/compare.sh, bench/paper/run.sh).
#
# Where a rank runs can change its time more than anything the monitor does: on this project's
# 2-core virtual machine the two CPUs did not run the same kernel equally fast (the matrix
# multiply of bench/paper: 0.68 s on CPU 0 against 0.91-1.05 s on CPU 1 under taskset, a
# scalar loop alike on both), and an unpinned rank landed on either from run to run, so a
# stage took 0.67 s or 1.6 s and a plain and a monitored run of one round could be compared
# across placements (docs/evaluation.md, "Page faults, and the two cores"). With
# PLACEMENT=rotate every run of a round binds rank i to CPU (i + round) mod CPUs, the same for
# every variant of the round, and successive rounds go through the rotations: a round's
# variants are compared on one placement, and the medians are over placements. Binding uses
# MPICH Hydra's `-bind-to user:LIST`; PLACEMENT=auto (the default) rotates under Hydra and
# leaves placement to the system otherwise, as PLACEMENT=none does.
#
#   rank_placement_valid PLACEMENT           succeeds for auto, rotate or none
#   rank_placement_mode PLACEMENT MPIEXEC    rotate or none: what auto means with this mpiexec
#   rank_placement ROUND RANKS MODE          the mpiexec arguments of ROUND's runs (words on
#                                            stdout; none for MODE none)

rank_placement_valid() {
  case $1 in
  auto | rotate | none) ;;
  *)
    echo "$0: PLACEMENT must be auto, rotate or none, not '$1'" >&2
    return 1
    ;;
  esac
}

rank_placement_mode() {
  if [ "$1" != auto ]; then
    echo "$1"
  elif "$2" --version 2>/dev/null | grep -q HYDRA; then
    echo rotate
  else
    echo none
  fi
}

rank_placement() {
  if [ "$3" = rotate ]; then
    local cpus list="" i
    cpus=$(nproc)
    for ((i = 0; i < $2; ++i)); do
      list+="${list:+,}$(((i + $1) % cpus))"
    done
    echo "-bind-to user:$list"
  fi
}
