/* Loops under directives that macros expand to (`#define PFOR _Pragma("...")`, the
 * `PRAGMA(x) _Pragma(#x)` idiom): left alone as under a #pragma line, the loops a collapse
 * clause binds too. The loops inside the collapsed nest and the parallel block, and the last
 * loop, are sites. */
#include "macro_pragmas.h"
#include <stdio.h>

#define PFOR _Pragma("omp parallel for reduction(+ : sum)")

int main(void) {
  double sum = 0;
  PFOR
  for (int i = 0; i < 100; i++)
    sum += i;
  PRAGMA(omp parallel for reduction(+ : sum))
  for (int i = 0; i < 100; i++)
    sum += i;
  OMP(parallel for collapse(2) reduction(+ : sum))
  for (int i = 0; i < 10; i++) {
    for (int j = 0; j < 10; j++) {
      for (int m = 0; m < i; m++)
        sum += m * j;
    }
  }
  OMP(parallel reduction(+ : sum))
  {
    for (int j = 0; j < 3; j++)
      sum += j;
  }
  for (int j = 0; j < 3; j++)
    sum += j;
  printf("%.0f\n", sum);
  return 0;
}
