/* What vcmon-instrument emits for a translation unit, written by hand so that the runtime is
 * tested on its own: the unit's site table, its registration before main, and the probes
 * around procedures, loops, calls and communication statements. */
#ifndef VCMON_TESTS_HAND_INSTRUMENTED_H
#define VCMON_TESTS_HAND_INSTRUMENTED_H

#include "vcmon/probes.h"

#define VCMON_TEST_UNIT(site_table)                                                                \
  static unsigned unit_base;                                                                       \
  static const vcmon_unit_desc unit_desc = {VCMON_PROBE_ABI_VERSION, __FILE__,                     \
                                            sizeof(site_table) / sizeof((site_table)[0]),          \
                                            (site_table)};                                         \
  __attribute__((constructor)) static void register_unit(void) {                                   \
    vcmon_register_unit(&unit_desc, &unit_base);                                                   \
  }

/* Global id of the unit's site with local index i. */
#define SITE(i) (unit_base + (i))

/* Exit probes run on every way out of the block, as the preprocessor arranges. */
#define PROC_SCOPE(i)                                                                              \
  __attribute__((cleanup(vcmon_scope_end), unused)) vcmon_scope proc_scope =                       \
      vcmon_proc_scope(SITE(i))
#define LOOP_SCOPE(i)                                                                              \
  __attribute__((cleanup(vcmon_scope_end), unused)) vcmon_scope loop_scope =                       \
      vcmon_loop_scope(SITE(i))

#define CALL(i, statement)                                                                         \
  do {                                                                                             \
    vcmon_call_enter(SITE(i));                                                                     \
    statement;                                                                                     \
    vcmon_call_exit(SITE(i));                                                                      \
  } while (0)

#define COMM(i, statement)                                                                         \
  do {                                                                                             \
    vcmon_comm_enter(SITE(i));                                                                     \
    statement;                                                                                     \
    vcmon_comm_exit(SITE(i));                                                                      \
  } while (0)

#endif
