/* Probes from several threads at once, in a program that never uses MPI: every activation
 * must be counted exactly (records are never corrupted) and the profile is still written at
 * exit. profile_check's "threads" scenario holds the expected values.
 * With the argument "signals" [PERIOD_US], one thread instead, while a timer signal every 20 us
 * (or PERIOD_US) runs a handler with probes (handlers nest, up to 4 deep): a handler that
 * interrupts a probe has its activation left out, and main's records must stay exact. Before
 * (found 2026-11-30) the handler's probe ran on a frame pushed but not filled in, and the
 * program crashed in about one run of three. profile_check's "Signals" scenario. */
#include "hand_instrumented.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

enum { MAIN, THREAD_BODY, CALL_STEP, STEP, STEP_LOOP, MAIN_CALL_STEP, HANDLER, HANDLER_LOOP };
enum { kThreads = 4, kSteps = 50000, kIterations = 3, kWork = 100, kSignalSteps = 300000 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 40, 1, -1, "main", "main"},
    [THREAD_BODY] = {VCMON_SITE_PROCEDURE, 30, 1, -1, "thread_body", "thread_body"},
    [CALL_STEP] = {VCMON_SITE_CALL, 33, 5, THREAD_BODY, "step", "step"},
    [STEP] = {VCMON_SITE_PROCEDURE, 20, 1, -1, "step", "step"},
    [STEP_LOOP] = {VCMON_SITE_LOOP, 23, 3, STEP, "for", ""},
    [MAIN_CALL_STEP] = {VCMON_SITE_CALL, 62, 5, MAIN, "step", "step"},
    [HANDLER] = {VCMON_SITE_PROCEDURE, 50, 1, -1, "on_alarm", "on_alarm"},
    [HANDLER_LOOP] = {VCMON_SITE_LOOP, 53, 3, HANDLER, "for", ""},
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

static void on_alarm(void) {
  PROC_SCOPE(HANDLER);
  LOOP_SCOPE(HANDLER_LOOP);
  for (int i = 0; i < 2; ++i) {
    vcmon_loop_iter(SITE(HANDLER_LOOP));
    sink = i;
  }
}

/* Nested at most 4 deep: SIGALRM is blocked while a handler runs, and a handler less than 4
 * deep unblocks it around its probes. With SA_NODEFER and a depth count alone, a loaded host
 * (a CI rehearsal beside other tests, 2026-12-02: 16 runs of 20) delivered each new alarm
 * before the interrupted handler's first instruction ran, and the frames overflowed the stack. */
static void take_alarm(int signal) {
  static volatile sig_atomic_t nesting;
  (void)signal;
  if (nesting < 4) {
    ++nesting;
    sigset_t alarm;
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    pthread_sigmask(SIG_UNBLOCK, &alarm, NULL);
    on_alarm();
    pthread_sigmask(SIG_BLOCK, &alarm, NULL);
    --nesting;
  }
}

/* The timer's period: a sanitizer build's probes are about ten times slower, and signals 20 us
 * apart then left main no time. */
static void steps_under_signals(long period_us) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = take_alarm;
  action.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &action, NULL);
  const struct itimerval every = {{0, period_us}, {0, period_us}}, off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &every, NULL);
  for (int s = 0; s < kSignalSteps; ++s) {
    CALL(MAIN_CALL_STEP, step());
  }
  setitimer(ITIMER_REAL, &off, NULL);
}

int main(int argc, char** argv) {
  PROC_SCOPE(MAIN);
  if (argc > 1 && strcmp(argv[1], "signals") == 0) {
    steps_under_signals(argc > 2 ? atol(argv[2]) : 20);
    return 0;
  }
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
