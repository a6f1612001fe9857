/* Loops that must stay as they are: under an OpenMP pragma (continued over two lines, as a
 * _Pragma operator, with a comment between, the loops a collapse clause binds), reached by a
 * jump from outside (Duff's device, a goto into the loop). Only the loop inside the collapsed
 * nest and the last loop are sites. */
#include <stdio.h>

static void copy(char* to, const char* from, int count) {
  int n = (count + 3) / 4;
  switch (count % 4) {
  case 0:
    do {
      *to++ = *from++;
      /* fall through */
    case 3:
      *to++ = *from++;
      /* fall through */
    case 2:
      *to++ = *from++;
      /* fall through */
    case 1:
      *to++ = *from++;
    } while (--n > 0);
  }
}

int main(void) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 100; i++)
    sum += i;
#pragma omp parallel for \
    reduction(+ : sum)
  for (int i = 0; i < 100; i++)
    sum += i;
  _Pragma("omp parallel for reduction(+ : sum)")
  for (int i = 0; i < 100; i++)
    sum += i;
#pragma omp parallel for reduction(+ : sum)
  /* the pragma's loop */
  // still
  for (int i = 0; i < 100; i++)
    sum += i;
#pragma omp parallel for collapse(2) reduction(+ : sum)
  for (int i = 0; i < 10; i++) {
    for (int j = 0; j < 10; j++) {
      for (int m = 0; m < i; m++)
        sum += m * j;
    }
  }
  int k = 5;
  goto inside;
  while (k > 0) {
  inside:
    k--;
  }
  char out[8] = {0};
  copy(out, "vcmon!!", 7);
  for (int j = 0; j < 3; j++)
    sum += j;
  printf("%.0f %d %s\n", sum, k, out);
  return 0;
}
