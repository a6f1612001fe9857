/* vcmon probe ABI: what instrumented code calls. Plain C, so instrumented C programs compile
 * with mpicc. Every probe is O(1), allocates nothing and takes no lock on the common path.
 *
 * Site ids are dense: each translation unit registers its static tables once at start-up and
 * receives a base id; the unit's site with local index i has id base + i. */
#ifndef VCMON_PROBES_H
#define VCMON_PROBES_H

#ifdef __cplusplus
extern "C" {
#endif

#define VCMON_PROBE_ABI_VERSION 2u

/* Site kinds; the same values as vcmon::tables::SiteKind. */
enum vcmon_site_kind {
  VCMON_SITE_PROCEDURE = 0,
  VCMON_SITE_LOOP = 1,
  VCMON_SITE_CALL = 2,
  VCMON_SITE_COMM = 3
};

/* How a site is probed; the same values as vcmon::tables::SiteProbing (docs/instrument.md). */
enum vcmon_site_probing {
  VCMON_PROBING_TIMED = 0,   /* entry and exit probes */
  VCMON_PROBING_COUNTED = 1, /* a loop counted in registers, flushed by vcmon_loop_add */
  VCMON_PROBING_FOLDED = 2   /* a tiny leaf procedure or a call of one: never probed */
};

/* One site of a translation unit's static tables. */
typedef struct vcmon_site_desc {
  unsigned kind; /* enum vcmon_site_kind */
  unsigned line;
  unsigned column;
  int parent;         /* local index of the enclosing procedure or loop, -1 for none */
  const char* name;   /* procedure name, callee as written, or MPI function */
  const char* symbol; /* linkage key (see vcmon::tables::Site::symbol); "" when unknown */
  unsigned probing;   /* enum vcmon_site_probing */
} vcmon_site_desc;

/* A translation unit's static tables, emitted by vcmon-instrument. */
typedef struct vcmon_unit_desc {
  unsigned abi_version; /* VCMON_PROBE_ABI_VERSION */
  const char* file;     /* path of the original source file */
  unsigned site_count;
  const vcmon_site_desc* sites;
} vcmon_unit_desc;

/* Called from a constructor in the generated tables source, before main. Stores the unit's
 * base id in *base. */
void vcmon_register_unit(const vcmon_unit_desc* unit, unsigned* base);

/* Procedures. The activating call site is the one most recently entered with
 * vcmon_call_enter on this thread and not yet exited (none when called from
 * uninstrumented code). */
void vcmon_proc_enter(unsigned site);
void vcmon_proc_exit(unsigned site);

/* Loops: enter once per execution of the loop statement, iter once per iteration. */
void vcmon_loop_enter(unsigned site);
void vcmon_loop_iter(unsigned site);
void vcmon_loop_exit(unsigned site);
/* The exit of a timed loop whose iterations the instrumented code counted itself (in a local
 * the compiler keeps in a register): adds them and closes the loop, as vcmon_loop_exit. */
void vcmon_loop_exit_after(unsigned site, unsigned long iterations);
/* A counted loop's executions and iterations, added once when its enclosing timed loop ends. */
void vcmon_loop_add(unsigned site, unsigned long executions, unsigned long iterations);

/* Call statements of procedures defined in the program (also through pointers). */
void vcmon_call_enter(unsigned site);
void vcmon_call_exit(unsigned site);

/* Communication statements: the MPI calls between enter and exit are charged to the site. */
void vcmon_comm_enter(unsigned site);
void vcmon_comm_exit(unsigned site);

/* Scope helpers: instrumented code declares
 *   __attribute__((cleanup(vcmon_scope_end))) vcmon_scope s = vcmon_proc_scope(id);
 * so that every way out of a block (return after its value is evaluated, break, continue,
 * goto, C++ exceptions) runs the exit probe. Works in C (GCC and Clang) and C++. */
typedef struct vcmon_scope {
  unsigned kind; /* enum vcmon_site_kind */
  unsigned site;
} vcmon_scope;

vcmon_scope vcmon_proc_scope(unsigned site);
vcmon_scope vcmon_loop_scope(unsigned site);
vcmon_scope vcmon_call_scope(unsigned site);
vcmon_scope vcmon_comm_scope(unsigned site);
void vcmon_scope_end(vcmon_scope* scope);

#ifdef __cplusplus
}
#endif

#endif /* VCMON_PROBES_H */
