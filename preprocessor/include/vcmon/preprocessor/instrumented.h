/* What vcmon-instrument's output includes: the probe ABI and the short forms the inserted
 * probes are written with. Plain C and C++; includes no system header, so feature-test macros
 * the instrumented file defines still come first.
 *
 * Every macro takes the unit's base (an extern unsigned set at start-up by the generated
 * tables source) and the site's local index, a literal, which also names the scope variable
 * so nested scopes never shadow one another. */
#ifndef VCMON_PREPROCESSOR_INSTRUMENTED_H
#define VCMON_PREPROCESSOR_INSTRUMENTED_H

#include "vcmon/probes.h"

/* Hidden: a shared library's probes use its own units' bases, never another library's with the
 * same source built in. */
#ifdef __cplusplus
#define VCMON_UNIT_BASE_DECL(base) extern "C" unsigned base __attribute__((visibility("hidden")))
#else
#define VCMON_UNIT_BASE_DECL(base) extern unsigned base __attribute__((visibility("hidden")))
#endif

/* Declarations whose cleanup runs on every way out of the enclosing block: return (after its
 * value is evaluated), break, continue, goto, C++ exceptions. */
#define VCMON_SCOPE_DECL(var, open, base, index)                                                   \
  vcmon_scope var __attribute__((cleanup(vcmon_scope_end), unused)) = open((base) + (index))

#define VCMON_PROC_SCOPE(base, index)                                                              \
  VCMON_SCOPE_DECL(vcmon_proc_##index, vcmon_proc_scope, base, index)
#define VCMON_CALL_SCOPE(base, index)                                                              \
  VCMON_SCOPE_DECL(vcmon_call_##index, vcmon_call_scope, base, index)
#define VCMON_COMM_SCOPE(base, index)                                                              \
  VCMON_SCOPE_DECL(vcmon_comm_##index, vcmon_comm_scope, base, index)

/* Loops count their iterations in a local of the instrumented function, not with a call: after
 * the cleanup below is inlined the count lives in a register (or becomes the trip count), so
 * the loop body keeps its machine code and still vectorises. A timed loop's exit hands the
 * count over; a counted loop (nested, with no call inside) keeps executions and iterations in
 * a local of its enclosing timed loop, flushed once when that loop ends. __inline__ and
 * unsigned long: also C89. */
typedef struct vcmon_timed_loop {
  unsigned site;
  unsigned long iterations;
} vcmon_timed_loop;

static __inline__ vcmon_timed_loop vcmon_timed_loop_open(unsigned site) {
  vcmon_timed_loop loop;
  vcmon_loop_enter(site);
  loop.site = site;
  loop.iterations = 0;
  return loop;
}

static __inline__ void vcmon_timed_loop_close(vcmon_timed_loop* loop) {
  vcmon_loop_exit_after(loop->site, loop->iterations);
}

typedef struct vcmon_counted_loop {
  unsigned site;
  unsigned long executions;
  unsigned long iterations;
  /* A loop that runs once in every iteration of its enclosing loop counts no executions: they
   * are that loop's iterations, read here when both are done (OncePerIteration.hpp says why). */
  const unsigned long* executions_of;
} vcmon_counted_loop;

static __inline__ vcmon_counted_loop vcmon_counted_loop_open(unsigned site,
                                                             const unsigned long* executions_of) {
  vcmon_counted_loop loop;
  loop.site = site;
  loop.executions = 0;
  loop.iterations = 0;
  loop.executions_of = executions_of;
  return loop;
}

static __inline__ void vcmon_counted_loop_flush(vcmon_counted_loop* loop) {
  const unsigned long executions = loop->executions_of ? *loop->executions_of : loop->executions;
  if (executions != 0) {
    vcmon_loop_add(loop->site, executions, loop->iterations);
  }
}

/* Opens a timed loop: the declaration before the loop statement. */
#define VCMON_LOOP_SCOPE(base, index)                                                              \
  vcmon_timed_loop vcmon_loop_##index __attribute__((cleanup(vcmon_timed_loop_close), unused)) =   \
      vcmon_timed_loop_open((base) + (index))
/* The counters of a counted loop, declared after its enclosing timed loop's scope; for one
 * that runs once in every iteration of the loop it is in (this timed loop, or a counted loop
 * declared before it), only its iterations: its cleanup runs before that loop's. */
#define VCMON_COUNTED_LOOP_DECL(base, index, executions_of)                                        \
  vcmon_counted_loop vcmon_counted_##index                                                         \
      __attribute__((cleanup(vcmon_counted_loop_flush), unused)) =                                 \
          vcmon_counted_loop_open((base) + (index), executions_of)
#ifdef __cplusplus
#define VCMON_COUNTED_LOOP(base, index) VCMON_COUNTED_LOOP_DECL(base, index, __null)
#else
#define VCMON_COUNTED_LOOP(base, index)                                                            \
  VCMON_COUNTED_LOOP_DECL(base, index, (const unsigned long*)0)
#endif
#define VCMON_COUNTED_LOOP_EACH_TIMED(base, index, outer)                                          \
  VCMON_COUNTED_LOOP_DECL(base, index, &vcmon_loop_##outer.iterations)
#define VCMON_COUNTED_LOOP_EACH_COUNTED(base, index, outer)                                        \
  VCMON_COUNTED_LOOP_DECL(base, index, &vcmon_counted_##outer.iterations)

/* Declarations, not statements, so that C89 code keeps its declarations first. */
#define VCMON_LOOP_ITER(base, index)                                                               \
  int vcmon_iter_##index __attribute__((unused)) = (++vcmon_loop_##index.iterations, 0)
#define VCMON_COUNTED_RUN(base, index)                                                             \
  int vcmon_run_##index __attribute__((unused)) = (++vcmon_counted_##index.executions, 0)
#define VCMON_COUNTED_ITER(base, index)                                                            \
  int vcmon_iter_##index __attribute__((unused)) = (++vcmon_counted_##index.iterations, 0)

#ifdef __cplusplus
/* A call whose value is an object or a reference cannot go through a statement expression
 * (it would be copied). There the scope is a temporary written as the left operand of a comma:
 * it closes at the end of the full-expression, so on any exit, and keeps the call's type,
 * value category and temporary lifetime extension. The cast to void rules out a user-defined
 * operator comma. */
class vcmon_scope_guard {
public:
  explicit vcmon_scope_guard(vcmon_scope scope) : scope_(scope) {}
  ~vcmon_scope_guard() { vcmon_scope_end(&scope_); }

private:
  vcmon_scope_guard(const vcmon_scope_guard&);
  vcmon_scope_guard& operator=(const vcmon_scope_guard&);
  vcmon_scope scope_;
};
#define VCMON_CALL_GUARD(base, index) (void)vcmon_scope_guard(vcmon_call_scope((base) + (index))),
#define VCMON_COMM_GUARD(base, index) (void)vcmon_scope_guard(vcmon_comm_scope((base) + (index))),
#endif

#endif /* VCMON_PREPROCESSOR_INSTRUMENTED_H */
