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
# Where in a 64-byte line a hot loop starts can matter most: on this host on 2026-11-30 the
# multiply of bench/paper took 0.70 s or 1.05 s with that alone, in either build. A driver's
# estimate is fair only when each build's loops meet every such place equally often, so the
# offsets are balanced: ROUND's offset modulo 64 is 16 * ((ROUND - 1) mod 4), and any 4
# consecutive rounds put every loop of either build once at each 16-byte place of its line
# (code_layout_classes). The rest of the offset, a multiple of 64, is drawn.
#
#   code_layout_valid LAYOUT   succeeds for random or fixed; else says so on stderr
#   code_offset ROUND LAYOUT   the shift of ROUND in bytes: 0 for LAYOUT=fixed, else below
#                              4096: 16 * ((ROUND - 1) mod 4) plus a multiple of 64 from a
#                              fixed sequence (Knuth's multiplicative hash), so that a table can
#                              be made again
#   code_layout_classes        how many rounds make one of each place (4)
#   code_pad CC OFFSET OBJECT  assembles with CC an object that, linked before the program's
#                              objects, shifts its code: at -O3 main goes to .text.startup and
#                              the other functions to .text after it; main moves by OFFSET bytes
#                              and the rest by OFFSET plus OFFSET's multiple of 64, so that both
#                              keep OFFSET's place in a line (each 64 bytes more: an empty .skip
#                              draws a warning). The linker puts each section at
#                              its own alignment: flags that raise it above 16 bytes
#                              (-falign-loops=64, -falign-functions=64) round every shift to
#                              that, and the hot loops stay where they were in every round.

code_layout_valid() {
  if [ "$1" != random ] && [ "$1" != fixed ]; then
    echo "$0: LAYOUT must be random or fixed, not '$1'" >&2
    return 1
  fi
}

code_layout_classes() {
  echo 4
}

code_offset() {
  if [ "$2" = fixed ]; then
    echo 0
  else
    echo $(((($1 * 2654435761) >> 8) % 64 * 64 + ($1 - 1) % 4 * 16))
  fi
}

code_pad() {
  printf '.section .text.startup,"ax",@progbits\n.skip %d, 0xcc\n.text\n.skip %d, 0xcc\n.section .note.GNU-stack,"",@progbits\n' \
    $(($2 + 64)) $(($2 / 64 * 64 + 64)) | "$1" -c -x assembler - -o "$3"
}
