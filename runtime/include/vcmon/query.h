/* vcmon query API: the monitor's records while the program runs (docs/design.md, "Querying a
 * running program"). Plain C, usable from C++; link with libvcmon. A snapshot is a copy: taking one
 * costs the caller (charged to intrusion, so virtual time does not see it), reading it costs
 * nothing more. Example: examples/query_example.c; reference: docs/query.md. */
#ifndef VCMON_QUERY_H
#define VCMON_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "vcmon/probes.h" /* enum vcmon_site_kind */

#ifdef __cplusplus
extern "C" {
#endif

#define VCMON_NO_SITE 0xFFFFFFFFu /* no call site (entered from uninstrumented code), no parent */
#define VCMON_COLLECTIVE (-1)     /* partner of a collective operation's com record */
#define VCMON_ALL_RANKS (-1)      /* rank index meaning every rank of the snapshot */
#define VCMON_NO_CONTEXT ((size_t)-1) /* parent of a context at the top (no caller) */

/* Return codes. */
enum vcmon_query_status {
  VCMON_QUERY_OK = 0,
  VCMON_QUERY_DISABLED = 1,     /* VCMON_DISABLE=1: the monitor records nothing */
  VCMON_QUERY_NOT_RUNNING = 2,  /* a collective query outside MPI_Init .. MPI_Finalize */
  VCMON_QUERY_BAD_ARGUMENT = 3, /* a null pointer, a rank index or site out of range */
  VCMON_QUERY_FAILED = 4        /* the records could not be gathered (see stderr) */
};

/* Times are virtual nanoseconds unless named real. */
typedef struct vcmon_totals {
  uint64_t virtual_ns;      /* virtual time since MPI_Init (or the first probe) */
  uint64_t real_ns;         /* real time over the same span */
  uint64_t intrusion_ns;    /* real - virtual: the monitor's own cost */
  uint64_t transmission_ns; /* over every com record */
  uint64_t sync_delay_ns;
  uint64_t messages; /* com records' counts: calls of communication functions */
  uint64_t bytes;
} vcmon_totals;

typedef struct vcmon_site_info {
  unsigned kind;    /* enum vcmon_site_kind (vcmon/probes.h) */
  const char* file; /* "" for the synthetic sites of MPI calls outside comm statements */
  unsigned line;
  unsigned column;
  const char* name;
  unsigned parent; /* enclosing procedure or loop, VCMON_NO_SITE for none */
} vcmon_site_info;

typedef struct vcmon_proc_record {
  unsigned proc;
  unsigned call_site; /* VCMON_NO_SITE when entered from uninstrumented code */
  uint64_t time_ns;
  uint64_t count;
} vcmon_proc_record;

typedef struct vcmon_loop_record {
  unsigned loop;
  uint64_t time_ns;
  uint64_t count;      /* executions of the loop statement */
  uint64_t iterations; /* over all executions */
} vcmon_loop_record;

typedef struct vcmon_com_record {
  unsigned comm;
  int partner; /* rank in MPI_COMM_WORLD, or VCMON_COLLECTIVE */
  uint64_t transmission_ns;
  uint64_t sync_delay_ns;
  uint64_t count;
  uint64_t bytes;
} vcmon_com_record;

/* One calling context of a rank (docs/runtime.md, "Calling contexts"): a path of sites from a
 * thread's start, with that path's exact records (the threads' contexts merged by path). Which
 * fields a context uses depends on its site's kind: a procedure's activations (count, time_ns,
 * untimed), a loop's executions (count, time_ns, iterations), a call statement's executions
 * (count), a comm statement's operations over all partners (count, transmission in time_ns,
 * sync_delay_ns, bytes). */
typedef struct vcmon_context_record {
  size_t parent; /* index of the enclosing context (listed before it), or VCMON_NO_CONTEXT */
  unsigned site;
  uint64_t count;
  uint64_t time_ns;
  uint64_t untimed;    /* throttled activations: counted, not timed */
  uint64_t iterations; /* over all executions of a loop */
  uint64_t sync_delay_ns;
  uint64_t bytes;
  uint64_t folded; /* activations inside it that got no context of their own; in its time */
} vcmon_context_record;

/* Records of one or several ranks plus the static tables, as a profile would hold them
 * (after MPI_Pcontrol's exclusions). Opaque; free with vcmon_snapshot_free. */
typedef struct vcmon_snapshot vcmon_snapshot;

/* This rank's records now. The calling thread's open procedures and loops count up to now. */
int vcmon_snapshot_local(vcmon_snapshot** out);
/* Every rank's records gathered at `root` (collective over MPI_COMM_WORLD; the monitor's own
 * PMPI traffic, not user communication). *out is the snapshot at root, NULL elsewhere. */
int vcmon_snapshot_gather(int root, vcmon_snapshot** out);
void vcmon_snapshot_free(vcmon_snapshot* snapshot);

/* Ranks held (1 for a local snapshot), the MPI_COMM_WORLD rank of the index-th, and the job's
 * size. */
int vcmon_snapshot_rank_count(const vcmon_snapshot* snapshot);
int vcmon_snapshot_rank(const vcmon_snapshot* snapshot, int index);
int vcmon_snapshot_job_ranks(const vcmon_snapshot* snapshot);

/* Totals of the index-th rank; VCMON_ALL_RANKS: virtual, real and intrusion of the rank that
 * ran longest in virtual time (as the profile's summary line), communication summed. */
int vcmon_snapshot_totals(const vcmon_snapshot* snapshot, int index, vcmon_totals* out);

/* The index-th rank's records: *records points into the snapshot; returns how many. */
size_t vcmon_snapshot_procs(const vcmon_snapshot* snapshot, int index,
                            const vcmon_proc_record** records);
size_t vcmon_snapshot_loops(const vcmon_snapshot* snapshot, int index,
                            const vcmon_loop_record** records);
size_t vcmon_snapshot_coms(const vcmon_snapshot* snapshot, int index,
                           const vcmon_com_record** records);

/* The index-th rank's calling contexts, parents first: *records points into the snapshot;
 * returns how many. VCMON_ALL_RANKS is no rank here (returns 0): contexts are each rank's. */
size_t vcmon_snapshot_contexts(const vcmon_snapshot* snapshot, int index,
                               const vcmon_context_record** records);
/* Indices of the index-th rank's contexts directly under context `context` (VCMON_NO_CONTEXT:
 * the contexts at the top), in list order: *children points into the snapshot; returns how
 * many. */
size_t vcmon_snapshot_context_children(const vcmon_snapshot* snapshot, int index, size_t context,
                                       const size_t** children);
/* Virtual time in a context of the index-th rank: a procedure's or loop's time, a comm
 * statement's transmission plus synchronisation delay, a call statement's the time of what ran
 * under it (the procedure it activated); 0 for an index or context out of range. */
uint64_t vcmon_snapshot_context_time(const vcmon_snapshot* snapshot, int index, size_t context);

/* The static tables: sites are numbered 0 .. site_count - 1. */
unsigned vcmon_snapshot_site_count(const vcmon_snapshot* snapshot);
int vcmon_snapshot_site(const vcmon_snapshot* snapshot, unsigned site, vcmon_site_info* out);
/* The first procedure named `name` (e.g. "main"), or VCMON_NO_SITE. */
unsigned vcmon_snapshot_find_procedure(const vcmon_snapshot* snapshot, const char* name);
/* Sites directly inside `site` (a procedure's or loop's loops, calls and comm statements,
 * the six tables' rows), in id order: *children points into the snapshot; returns how many. */
size_t vcmon_snapshot_children(const vcmon_snapshot* snapshot, unsigned site,
                               const unsigned** children);
/* The procedure a call statement invokes, or VCMON_NO_SITE (indirect or external). */
unsigned vcmon_snapshot_callee(const vcmon_snapshot* snapshot, unsigned call);
/* Virtual time spent at a site on the index-th rank (VCMON_ALL_RANKS: summed): a procedure's
 * time over all its call sites, a loop's time, a call statement's (its callee's time when
 * activated from it), a comm statement's transmission plus synchronisation delay. */
uint64_t vcmon_snapshot_site_time(const vcmon_snapshot* snapshot, int index, unsigned site);

/* The job id vcmon-query knows this run by (MPI_COMM_WORLD rank 0's pid); 0 before
 * MPI_Init. */
unsigned long long vcmon_job_id(void);

/* Live publication of this rank (VCMON_PUBLISH_MS): how often it published and the CPU time
 * its thread spent (charged to intrusion). publishing is 0 when it is off. */
typedef struct vcmon_publication_stats {
  int publishing;
  uint64_t publications;
  uint64_t cpu_ns;
} vcmon_publication_stats;
int vcmon_publication_stats_get(vcmon_publication_stats* out);

#ifdef __cplusplus
}
#endif

#endif /* VCMON_QUERY_H */
