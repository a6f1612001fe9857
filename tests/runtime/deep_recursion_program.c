/* Recursion deeper than the activation stack holds: the extra activations are counted, not
 * stored, and the records around them stay exact. No MPI. */
#include "hand_instrumented.h"

enum { MAIN, CALL_DESCEND, DESCEND, CALL_DESCEND_SELF };
enum { kDepth = 1000 };

static const vcmon_site_desc sites[] = {
    [MAIN] = {VCMON_SITE_PROCEDURE, 30, 1, -1, "main", "main"},
    [CALL_DESCEND] = {VCMON_SITE_CALL, 32, 3, MAIN, "descend", "descend"},
    [DESCEND] = {VCMON_SITE_PROCEDURE, 20, 1, -1, "descend", "descend"},
    [CALL_DESCEND_SELF] = {VCMON_SITE_CALL, 23, 12, DESCEND, "descend", "descend"},
};
VCMON_TEST_UNIT(sites)

static int descend(int n) {
  PROC_SCOPE(DESCEND);
  int below = 0;
  if (n > 1) {
    CALL(CALL_DESCEND_SELF, below = descend(n - 1));
  }
  return below + 1;
}

int main(void) {
  PROC_SCOPE(MAIN);
  int depth = 0;
  CALL(CALL_DESCEND, depth = descend(kDepth));
  CALL(CALL_DESCEND, depth += descend(3));
  return depth == kDepth + 3 ? 0 : 1;
}
