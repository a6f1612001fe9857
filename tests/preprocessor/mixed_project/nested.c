/* A GNU C nested function: GCC compiles it, Clang (and so vcmon-instrument) rejects it. The
 * wrapper compiles this unit plainly and says so once. */
#include "mixed.h"

int sum_of_squares(int n) {
  int square(int x) {
    return x * x;
  }
  int total = 0;
  for (int i = 0; i < n; ++i) {
    total += square(i);
  }
  return total;
}
