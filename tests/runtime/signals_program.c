/* A timer signal every 20 µs whose handler runs instrumented code (a procedure with a loop),
 * with SA_NODEFER so that handlers nest, while main's probes run: a handler that interrupts a
 * probe has its activation left out; main's records must stay exact and nothing may crash.
 * Before (found 2026-11-30) the handler's probe ran on a frame pushed but not filled in, and
 * the program crashed in every run. profile_check's "Signals" scenario holds the values. */
#include "hand_instrumented.h"

#include <signal.h>
#include <string.h>
#include <sys/time.h>

enum { MAIN, CALL_STEP, STEP, STEP_LOOP, HANDLER, HANDLER_LOOP };
enum { kSteps = 300000, kIterations = 3, kWork = 50 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 40, 1, -1, "main", "main"},
    [CALL_STEP] = {VCMON_SITE_CALL, 45, 5, MAIN, "step", "step"},
    [STEP] = {VCMON_SITE_PROCEDURE, 20, 1, -1, "step", "step"},
    [STEP_LOOP] = {VCMON_SITE_LOOP, 23, 3, STEP, "for", ""},
    [HANDLER] = {VCMON_SITE_PROCEDURE, 30, 1, -1, "on_alarm", "on_alarm"},
    [HANDLER_LOOP] = {VCMON_SITE_LOOP, 33, 3, HANDLER, "for", ""},
};
VCMON_TEST_UNIT(sites)

static volatile int sink;

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

static void on_alarm(int signal) {
  (void)signal;
  PROC_SCOPE(HANDLER);
  LOOP_SCOPE(HANDLER_LOOP);
  for (int i = 0; i < 2; ++i) {
    vcmon_loop_iter(SITE(HANDLER_LOOP));
    sink = i;
  }
}

int main(void) {
  PROC_SCOPE(MAIN);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_alarm;
  action.sa_flags = SA_RESTART | SA_NODEFER;
  sigaction(SIGALRM, &action, NULL);
  const struct itimerval every = {{0, 20}, {0, 20}}, off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &every, NULL);
  for (int s = 0; s < kSteps; ++s) {
    CALL(CALL_STEP, step());
  }
  setitimer(ITIMER_REAL, &off, NULL);
  return 0;
}
