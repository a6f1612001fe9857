/* Probes from several threads at once, in a program that never uses MPI: every activation
 * must be counted exactly (records are never corrupted) and the profile is still written at
 * exit. profile_check's "threads" scenario holds the expected values. */
#include "hand_instrumented.h"

#include <pthread.h>

enum { MAIN, THREAD_BODY, CALL_STEP, STEP, STEP_LOOP };
enum { kThreads = 4, kSteps = 50000, kIterations = 3, kWork = 100 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 40, 1, -1, "main", "main"},
    [THREAD_BODY] = {VCMON_SITE_PROCEDURE, 30, 1, -1, "thread_body", "thread_body"},
    [CALL_STEP] = {VCMON_SITE_CALL, 33, 5, THREAD_BODY, "step", "step"},
    [STEP] = {VCMON_SITE_PROCEDURE, 20, 1, -1, "step", "step"},
    [STEP_LOOP] = {VCMON_SITE_LOOP, 23, 3, STEP, "for", ""},
};
VCMON_TEST_UNIT(sites)

static volatile int sink;

/* Each iteration does some work of its own. With nothing but probes, four threads on two cores
 * charge about as much intrusion as real time passes (the process has one clock, and the
 * threads' charges add up), and the profile's virtual time came out 0 in some runs. */
static void step(void) {
  PROC_SCOPE(STEP);
  LOOP_SCOPE(STEP_LOOP);
  for (int i = 0; i < kIterations; ++i) {
    vcmon_loop_iter(SITE(STEP_LOOP));
    for (int w = 0; w < kWork; ++w) {
      sink = w;
    }
  }
}

static void* thread_body(void* unused) {
  (void)unused;
  PROC_SCOPE(THREAD_BODY);
  for (int s = 0; s < kSteps; ++s) {
    CALL(CALL_STEP, step());
  }
  return NULL;
}

int main(void) {
  PROC_SCOPE(MAIN);
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    if (pthread_create(&threads[t], NULL, thread_body, NULL) != 0) {
      return 1;
    }
  }
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
  }
  return 0;
}
