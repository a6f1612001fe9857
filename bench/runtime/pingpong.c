/* Ping-pong between ranks 0 and 1: for each message size, the median over samples of the half
 * round-trip time, printed by rank 0 as "size_bytes half_round_trip_us" lines. The same source
 * is built plain and linked with libvcmon; pingpong_compare.sh runs both and compares.
 * Time is read with clock_gettime, not MPI_Wtime, so that the monitor cannot change the clock
 * the benchmark itself uses.
 * Usage: mpiexec -n 2 pingpong [samples per size, default 15] [blocking|nonblocking] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct size_plan {
  int bytes;
  int round_trips; /* per sample, so that a sample lasts a few milliseconds */
};

static const struct size_plan plans[] = {
    {8, 10000}, {1024, 5000}, {64 * 1024, 100}, {1024 * 1024, 10}};
enum { plan_count = sizeof plans / sizeof plans[0], warm_up_round_trips = 10 };

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Where rank 0 finds the echo of what it sent from `buffer`. */
static const char* echo_of(const char* buffer, int bytes, int rank, int nonblocking) {
  return nonblocking && rank == 0 ? buffer + bytes : buffer;
}

/* Rank 0 sends and waits for the echo; rank 1 echoes. Blocking: Send and Recv. Nonblocking,
 * the usual halo-exchange shape: rank 0 posts its receive, then its send, and waits for both;
 * rank 1 waits for its receive, then sends. */
static void round_trips(int rank, char* buffer, int bytes, int count, int nonblocking) {
  for (int i = 0; i < count; ++i) {
    if (nonblocking) {
      MPI_Request requests[2];
      if (rank == 0) {
        /* The echo lands in the second half of the buffer (echo_of), sized for that. */
        MPI_Irecv(buffer + bytes, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &requests[0]);
        MPI_Isend(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &requests[1]);
        MPI_Status statuses[2]; /* not MPI_STATUSES_IGNORE: GCC warns about MPICH's prototype */
        MPI_Waitall(2, requests, statuses);
      } else {
        MPI_Irecv(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &requests[0]);
        MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
        MPI_Isend(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &requests[1]);
        MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
      }
    } else if (rank == 0) {
      MPI_Send(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int samples = argc > 1 ? atoi(argv[1]) : 15;
  const int nonblocking = argc > 2 && strcmp(argv[2], "nonblocking") == 0;
  if (size != 2 || samples < 1 || (argc > 2 && !nonblocking && strcmp(argv[2], "blocking") != 0)) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 2 %s [samples per size] [blocking|nonblocking]\n",
              argv[0]);
    MPI_Finalize();
    return 2;
  }
  char* buffer = malloc(2 * (size_t)plans[plan_count - 1].bytes);
  double* sample_times = malloc(sizeof(double) * (size_t)samples);
  int wrong_echoes = 0;

  for (int p = 0; p < plan_count; ++p) {
    const int bytes = plans[p].bytes;
    memset(buffer, 0, 2 * (size_t)bytes);
    round_trips(rank, buffer, bytes, warm_up_round_trips, nonblocking);
    for (int s = 0; s < samples; ++s) {
      const char mark = (char)(s + 1);
      if (rank == 0) /* rank 1 must receive the mark and echo it back */
        buffer[0] = buffer[bytes - 1] = mark;
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = now_seconds();
      round_trips(rank, buffer, bytes, plans[p].round_trips, nonblocking);
      sample_times[s] = (now_seconds() - start) / (2.0 * plans[p].round_trips);
      const char* echo = echo_of(buffer, bytes, rank, nonblocking);
      wrong_echoes += echo[0] != mark || echo[bytes - 1] != mark;
    }
    if (rank == 0) {
      qsort(sample_times, (size_t)samples, sizeof(double), compare_doubles);
      printf("%d %.4f\n", bytes, 1e6 * sample_times[samples / 2]);
    }
  }
  free(sample_times);
  free(buffer);
  if (wrong_echoes) {
    fprintf(stderr, "rank %d: %d samples echoed the wrong data\n", rank, wrong_echoes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
