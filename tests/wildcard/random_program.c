/* Runs the random communication programs of random_generator.h for seeds FIRST..LAST (default
 * 1..200) in one MPI job on 4 ranks, an MPI_Barrier between programs. Every message is checked
 * (seed, phase, sender and tag as generated), and every rank's per-sender counts at the end of
 * each phase; a phase ending in MPI_Allreduce also sums the wildcard receives. With the monitor
 * and VCMON_TRACE_WILDCARD, wildcard_trace_check then reads what each rank decided. Rank 0
 * prints "random: N programs, all checks passed". */
#include "random_generator.h"
#include "vcmon/probes.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The static table vcmon-instrument would emit: the loop of work(). */
static const vcmon_site_desc sites[] = {{VCMON_SITE_LOOP, 32, 3, -1, "for", "", VCMON_PROBING_TIMED}};
static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, __FILE__, 1, sites};
static unsigned work_loop;
__attribute__((constructor)) static void register_unit(void) {
  vcmon_register_unit(&unit, &work_loop);
}

static void sleep_us(unsigned us) {
  struct timespec t = {us / 1000000u, (long)(us % 1000000u) * 1000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

/* Sleeps, not spins: the tests oversubscribe two cores. Loop probes make injected cost count. */
static void work(unsigned us, int iterations) {
  vcmon_loop_enter(work_loop);
  for (int i = 0; i < iterations; ++i) {
    vcmon_loop_iter(work_loop);
    sleep_us(us / (unsigned)iterations);
  }
  vcmon_loop_exit(work_loop);
}

static void fail(const rg_program* program, int phase, int rank, const char* what, int a, int b) {
  fprintf(stderr, "random_program: seed %u phase %d rank %d: %s (%d, expected %d)\n", program->seed,
          phase, rank, what, a, b);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Takes one RG_TAG_W message as the generator says and returns its source. */
static int wildcard_receive(int method, int* buf) {
  MPI_Status status;
  if (method == RG_RECV) {
    MPI_Recv(buf, RG_MSG_INTS, MPI_INT, MPI_ANY_SOURCE, RG_TAG_W, MPI_COMM_WORLD, &status);
  } else {
    if (method == RG_PROBE) {
      MPI_Probe(MPI_ANY_SOURCE, RG_TAG_W, MPI_COMM_WORLD, &status);
    } else {
      int found = 0;
      for (;;) {
        MPI_Iprobe(MPI_ANY_SOURCE, RG_TAG_W, MPI_COMM_WORLD, &found, &status);
        if (found) {
          break;
        }
        sleep_us(50);
      }
    }
    const int probed = status.MPI_SOURCE;
    MPI_Recv(buf, RG_MSG_INTS, MPI_INT, probed, RG_TAG_W, MPI_COMM_WORLD, &status);
    if (status.MPI_SOURCE != probed) {
      fprintf(stderr, "random_program: probed source %d, received from %d\n", probed,
              status.MPI_SOURCE);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  if (status.MPI_TAG != RG_TAG_W) {
    fprintf(stderr, "random_program: wildcard receive got tag %d\n", status.MPI_TAG);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return status.MPI_SOURCE;
}

static void run_phase(const rg_program* program, int p, int rank) {
  const rg_phase* phase = &program->phases[p];
  const rg_rank_phase* mine = &phase->ranks[rank];
  int payload[RG_MAX_SENDS][RG_MSG_INTS];
  MPI_Request requests[RG_MAX_SENDS];
  work(mine->work_us, mine->work_iterations);
  for (int i = 0; i < mine->send_count; ++i) {
    if (mine->sends[i].work_us != 0) {
      work(mine->sends[i].work_us, 1);
    }
    payload[i][0] = (int)program->seed;
    payload[i][1] = p;
    payload[i][2] = rank;
    payload[i][3] = i;
    MPI_Isend(payload[i], RG_MSG_INTS, MPI_INT, mine->sends[i].to, mine->sends[i].tag,
              MPI_COMM_WORLD, &requests[i]);
  }
  int w_from[RG_RANKS] = {0}, x_from[RG_RANKS] = {0};
  int w_received = 0;
  for (int i = 0; i < mine->recv_count; ++i) {
    const rg_recv* recv = &mine->recvs[i];
    if (recv->work_us != 0) {
      work(recv->work_us, 1);
    }
    int buf[RG_MSG_INTS] = {-1, -1, -1, -1};
    int source;
    if (recv->from == RG_WILDCARD) {
      source = wildcard_receive(recv->method, buf);
      ++w_from[source];
      ++w_received;
    } else {
      MPI_Recv(buf, RG_MSG_INTS, MPI_INT, recv->from, RG_TAG_X, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      source = recv->from;
      ++x_from[source];
    }
    if (buf[0] != (int)program->seed) {
      fail(program, p, rank, "message of another seed", buf[0], (int)program->seed);
    }
    if (buf[1] != p) {
      fail(program, p, rank, "message of another phase", buf[1], p);
    }
    if (buf[2] != source) {
      fail(program, p, rank, "payload's sender is not the source", buf[2], source);
    }
  }
  for (int s = 0; s < RG_RANKS; ++s) {
    if (w_from[s] != rg_messages(phase, s, rank, RG_TAG_W)) {
      fail(program, p, rank, "wildcard messages from one sender", w_from[s],
           rg_messages(phase, s, rank, RG_TAG_W));
    }
    if (x_from[s] != rg_messages(phase, s, rank, RG_TAG_X)) {
      fail(program, p, rank, "exchange messages from one sender", x_from[s],
           rg_messages(phase, s, rank, RG_TAG_X));
    }
  }
  /* A statuses array, not MPI_STATUSES_IGNORE: GCC's -Wstringop-overflow takes MPICH's access
   * attribute on MPI_Waitall to mean the ignore constant must hold count statuses. */
  MPI_Status statuses[RG_MAX_SENDS];
  MPI_Waitall(mine->send_count, requests, statuses);
  if (phase->allreduce) {
    int total = 0;
    MPI_Allreduce(&w_received, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (total != phase->w_messages) {
      fail(program, p, rank, "wildcard receives of all ranks", total, phase->w_messages);
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const unsigned first = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1u;
  const unsigned last = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 200u;
  if (size != RG_RANKS || first == 0 || last < first) {
    if (rank == 0) {
      fprintf(stderr, "usage: mpiexec -n %d %s [FIRST_SEED LAST_SEED]\n", RG_RANKS, argv[0]);
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const double start = MPI_Wtime();
  for (unsigned seed = first; seed <= last; ++seed) {
    rg_program program;
    rg_generate(&program, seed);
    for (int p = 0; p < program.phase_count; ++p) {
      run_phase(&program, p, rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) {
    printf("random: %u programs, all checks passed (%.1f s)\n", last - first + 1,
           MPI_Wtime() - start);
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
