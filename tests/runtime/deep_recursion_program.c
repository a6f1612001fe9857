/* Recursion far deeper than the activation stack (256 frames): descend(200000), then
 * descend(3), in a thread with a stack large enough for it. The activations beyond the stack
 * are folded: counted exactly under their call sites, their time in the deepest one stored.
 * No MPI. */
#include "hand_instrumented.h"

#include <pthread.h>
#include <stdio.h>

enum { MAIN, CALL_DESCEND, DESCEND, CALL_DESCEND_SELF };
enum { kDepth = 200000 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 30, 1, -1, "main", "main"},
    [CALL_DESCEND] = {VCMON_SITE_CALL, 32, 3, MAIN, "descend", "descend"},
    [DESCEND] = {VCMON_SITE_PROCEDURE, 20, 1, -1, "descend", "descend"},
    [CALL_DESCEND_SELF] = {VCMON_SITE_CALL, 23, 12, DESCEND, "descend", "descend"},
};
VCMON_TEST_UNIT(sites)

/* Under AddressSanitizer: its fake stack for use-after-return checks makes a recursion this
 * deep take minutes instead of a fraction of a second. Read only by the sanitizer runtime. */
const char* __asan_default_options(void);
const char* __asan_default_options(void) {
  return "detect_stack_use_after_return=0";
}

static int descend(int n) {
  PROC_SCOPE(DESCEND);
  int below = 0;
  if (n > 1) {
    CALL(CALL_DESCEND_SELF, below = descend(n - 1));
  }
  return below + 1;
}

static void* run(void* depth_out) {
  int depth = 0;
  CALL(CALL_DESCEND, depth = descend(kDepth));
  CALL(CALL_DESCEND, depth += descend(3));
  *(int*)depth_out = depth;
  return NULL;
}

int main(void) {
  PROC_SCOPE(MAIN);
  /* 200000 frames need more than the 8 MiB a thread gets by default (more still with the
   * sanitizers); untouched stack pages cost nothing. */
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, (size_t)1 << 30);
  pthread_t thread;
  int depth = 0;
  if (pthread_create(&thread, &attributes, run, &depth) != 0) {
    perror("pthread_create");
    return 1;
  }
  pthread_join(thread, NULL);
  return depth == kDepth + 3 ? 0 : 1;
}
