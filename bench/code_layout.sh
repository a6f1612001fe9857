# Sourced by the benchmark drivers that compare a plain and an instrumented build of one
# program (bench/apps/compare.sh, bench/paper/run.sh).
#
# Where the compiler and the linker put a hot loop (its alignment, the branch-predictor and
# op-cache sets it lands in) can change its time by tens of percent, and any change of the code
# around it (probes, or an unrelated edit) moves it: on this project's 2-core AMD EPYC host the
# same vectorised axpy loop, identical instruction for instruction, took 0.37 s or 0.60 s with
# where the function landed (docs/evaluation.md, "Code layout"). One build of each variant
# measures one draw of that effect. So the drivers build both variants anew every round with
# the program's code shifted by a different offset (a pad object linked first), and their
# medians are over layouts, as Stabilizer (Curtsinger and Berger, 2013) randomises them.
#
#   code_layout_valid LAYOUT   succeeds for random or fixed; else says so on stderr
#   code_offset ROUND LAYOUT   the shift of ROUND in bytes: 0 for LAYOUT=fixed, else a
#                              multiple of 16 below 4096 from a fixed sequence (Knuth's
#                              multiplicative hash), so that a table can be made again
#   code_pad CC OFFSET OBJECT  assembles with CC an object that, linked before the program's
#                              objects, shifts its code: at -O3 main goes to .text.startup and
#                              the other functions to .text after it, so main moves by OFFSET
#                              bytes and the rest by twice that

code_layout_valid() {
  if [ "$1" != random ] && [ "$1" != fixed ]; then
    echo "$0: LAYOUT must be random or fixed, not '$1'" >&2
    return 1
  fi
}

code_offset() {
  if [ "$2" = fixed ]; then
    echo 0
  else
    echo $(((($1 * 2654435761) >> 8) % 256 * 16))
  fi
}

code_pad() {
  printf '.section .text.startup,"ax",@progbits\n.skip %d, 0xcc\n.text\n.skip %d, 0xcc\n.section .note.GNU-stack,"",@progbits\n' \
    "$2" "$2" | "$1" -c -x assembler - -o "$3"
}
