/* Compiles, unless FORCE_ERROR is defined: then the error is on line 6. */
#include <stdio.h>

int main(void) {
#ifdef FORCE_ERROR
  int forced_error = ;
#endif
  for (int i = 0; i < 2; i++)
    printf("%d\n", i);
  return 0;
}
