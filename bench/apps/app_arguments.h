/* The proxy applications' command line: a positive int argument or its default. */
#ifndef VCMON_BENCH_APP_ARGUMENTS_H
#define VCMON_BENCH_APP_ARGUMENTS_H

#include <stdlib.h>

/* argv[index] as an int from 1 to 10000000, `fallback` when absent, -1 when malformed. */
static int positive_argument(int argc, char** argv, int index, int fallback) {
  if (argc <= index) {
    return fallback;
  }
  char* end;
  const long value = strtol(argv[index], &end, 10);
  if (*end != '\0' || value < 1 || value > 10000000) {
    return -1;
  }
  return (int)value;
}

#endif
