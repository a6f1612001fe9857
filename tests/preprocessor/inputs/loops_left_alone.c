/* Loops that must stay as they are: under an OpenMP pragma, reached by a jump from outside
 * (Duff's device, a goto into the loop). Only the last loop is a site. */
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
