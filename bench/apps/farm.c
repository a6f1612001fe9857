/* farm: a master hands out tasks and takes their results with MPI_Waitsome over receives from
 * MPI_ANY_SOURCE, so that its order of results is the monitored wildcard order; the workers
 * compute each task (uneven: a task's size depends on its number) and send its result back.
 * Two phases (and their total) run the same farm, differing in how a worker sends a result:
 *   isend   MPI_Isend, then MPI_Wait
 *   issend  MPI_Issend, then slices of work between MPI_Test calls until it completes (a worker
 *           overlapping its handshake with the master with useful work)
 * A worker's slices run for as long as the send takes in real time, so the `issend` phase shows
 * what a late match costs a program that polls while computing (docs/evaluation.md, "A task
 * farm"). Needs at least 2 ranks; the wildcard order only matters from 3.
 * Usage: mpiexec -n P farm [tasks per phase, default 120] [work units per task, default 40]
 * stdout (rank 0): "phase NAME SECONDS" per phase (max over ranks), then "verify SUM", the sum
 * of every task's result, whichever worker computed it; other lines start with '#'. */
#include "app_arguments.h"
#include "app_results.h"
#include <mpi.h>
#include <stdio.h>

enum phase { phase_isend, phase_issend, phase_total, phase_count };
static const char* const phase_names[phase_count] = {"isend", "issend", "total"};
static double phase_seconds[phase_count];

enum { tag_task = 1, tag_result = 2, no_task = -1, posted_receives = 4 };

/* About `units` times 10 microseconds of arithmetic; its value depends on `seed` only. */
static double compute(int units, int seed) {
  double sum = 0.0;
  for (int i = 0; i < units * 4000; ++i) {
    sum += (double)((i ^ seed) % 7) * 0.5;
  }
  return sum;
}

/* Where the workers' slices of work go: read by nobody, so that the compiler keeps them. */
static volatile double slices_sink;

static double task_result(int task, int units) {
  return compute(units * (1 + task % 5), task);
}

/* Hands out `tasks` tasks in order to whichever worker answered first; returns the sum of the
 * results. */
static double master(MPI_Comm farm, int workers, int tasks) {
  int next = 0;
  for (int w = 1; w <= workers; ++w) {
    int task = next < tasks ? next++ : no_task;
    MPI_Send(&task, 1, MPI_INT, w, tag_task, farm);
  }
  MPI_Request requests[posted_receives];
  double results[posted_receives];
  for (int k = 0; k < posted_receives; ++k) {
    MPI_Irecv(&results[k], 1, MPI_DOUBLE, MPI_ANY_SOURCE, tag_result, farm, &requests[k]);
  }
  double sum = 0.0;
  for (int done = 0; done < tasks;) {
    int completed, indices[posted_receives];
    MPI_Status statuses[posted_receives];
    MPI_Waitsome(posted_receives, requests, &completed, indices, statuses);
    for (int j = 0; j < completed; ++j) {
      const int k = indices[j];
      sum += results[k];
      ++done;
      int task = next < tasks ? next++ : no_task;
      MPI_Send(&task, 1, MPI_INT, statuses[j].MPI_SOURCE, tag_task, farm);
      MPI_Irecv(&results[k], 1, MPI_DOUBLE, MPI_ANY_SOURCE, tag_result, farm, &requests[k]);
    }
  }
  for (int k = 0; k < posted_receives; ++k) {
    MPI_Cancel(&requests[k]);
    MPI_Wait(&requests[k], MPI_STATUS_IGNORE);
  }
  return sum;
}

static void worker(MPI_Comm farm, int units, int synchronous) {
  for (;;) {
    int task;
    MPI_Recv(&task, 1, MPI_INT, 0, tag_task, farm, MPI_STATUS_IGNORE);
    if (task == no_task) {
      return;
    }
    double result = task_result(task, units);
    MPI_Request request;
    if (synchronous) {
      MPI_Issend(&result, 1, MPI_DOUBLE, 0, tag_result, farm, &request);
      int sent = 0;
      while (!sent) {
        slices_sink += compute(2, task); /* the worker's own work while the master answers */
        MPI_Test(&request, &sent, MPI_STATUS_IGNORE);
      }
    } else {
      MPI_Isend(&result, 1, MPI_DOUBLE, 0, tag_result, farm, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int tasks = positive_argument(argc, argv, 1, 120);
  const int units = positive_argument(argc, argv, 2, 40);
  if (ranks < 2 || tasks < 1 || units < 1) {
    if (rank == 0) {
      fprintf(stderr, "usage: mpiexec -n P (P >= 2) farm [tasks >= 1] [work units >= 1]\n");
    }
    MPI_Finalize();
    return 1;
  }
  MPI_Comm farm;
  MPI_Comm_dup(MPI_COMM_WORLD, &farm);
  double verify = 0.0;
  const double start_all = MPI_Wtime();
  for (int p = phase_isend; p <= phase_issend; ++p) {
    MPI_Barrier(farm);
    const double start = MPI_Wtime();
    if (rank == 0) {
      verify += master(farm, ranks - 1, tasks);
    } else {
      worker(farm, units, p == phase_issend);
    }
    phase_seconds[p] = MPI_Wtime() - start;
  }
  phase_seconds[phase_total] = MPI_Wtime() - start_all;
  if (rank == 0) {
    printf("# farm: %d tasks per phase, %d work units, %d ranks\n", tasks, units, ranks);
  }
  print_results(phase_count, phase_names, phase_seconds, verify);
  MPI_Comm_free(&farm);
  MPI_Finalize();
  return 0;
}
