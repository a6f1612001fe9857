/* A program that installs its own SIGTERM handler after MPI_Init and, as libraries do, chains
 * to the handler it replaced when that is a function; it logs the dispositions it finds, sends
 * itself SIGTERM, and carries on with wildcard traffic. Before (2026-11-30): it found vcmon's
 * handler in place of the default, chained to it, and vcmon wrote a partial profile and ended
 * the process with SIGTERM (exit 15) where the plain program went on. */
#include "rank_log.h"

#include <signal.h>
#include <string.h>

static struct sigaction replaced;
static volatile sig_atomic_t terms;

static void on_term(int signal) {
  ++terms;
  if (replaced.sa_handler != SIG_DFL && replaced.sa_handler != SIG_IGN)
    replaced.sa_handler(signal);
}

static const char* disposition(int signal) {
  struct sigaction current;
  sigaction(signal, NULL, &current);
  return current.sa_handler == SIG_DFL   ? "default"
         : current.sa_handler == SIG_IGN ? "ignored"
                                         : "a handler";
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = require_ranks(2);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  rank_log("after MPI_Init: SIGTERM %s, SIGINT %s", disposition(SIGTERM), disposition(SIGINT));

  struct sigaction own;
  memset(&own, 0, sizeof own);
  own.sa_handler = on_term;
  sigemptyset(&own.sa_mask);
  own.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &own, &replaced);
  rank_log("replaced %s; SIGTERM now %s",
           replaced.sa_handler == SIG_DFL ? "the default" : "a handler", disposition(SIGTERM));
  raise(SIGTERM);
  /* signal() too, for SIGINT: it returns what it replaced. */
  const int int_default = signal(SIGINT, SIG_IGN) == SIG_DFL;
  raise(SIGINT);

  long sum = 0;
  if (rank == 0) {
    for (int i = 1; i < size; ++i) {
      int value;
      MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += value;
    }
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  sigaction(SIGTERM, &replaced, NULL);
  rank_log("SIGTERM handled %d time(s), SIGINT replaced the default: %d, ignored; sum %ld; "
           "SIGTERM restored to %s",
           (int)terms, int_default, sum, disposition(SIGTERM));
  rank_log_print();
  MPI_Finalize();
  return 0;
}
