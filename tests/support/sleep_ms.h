/* Sleeps `ms` milliseconds of real time, resuming after a signal: the MPI test programs make
 * a rank late by a known amount with it. */
#ifndef VCMON_TESTS_SLEEP_MS_H
#define VCMON_TESTS_SLEEP_MS_H

#include <time.h>

static inline void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

#endif
