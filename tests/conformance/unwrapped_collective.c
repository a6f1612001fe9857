/* unwrapped_collective MODE LEVEL [squat]: a master gathers with MPI_Recv(MPI_ANY_SOURCE) while the
 * workers that have handed in their value already wait in a collective the layer did not wrap,
 * which the master joins after its receives: 20 rounds. Rank r sends after r ms, so the master's
 * decision on the last message must rule out every earlier worker, and those wait in:
 *   file         MPI_File_write_at_all (collective MPI-IO: a checkpoint after each round)
 *   read         MPI_File_read_at_all (collective MPI-IO: the workers read their next input)
 *   allreduce_c  MPI_Allreduce_c (an MPI-4 large-count collective)
 *   idup         MPI_Barrier on a communicator made by MPI_Comm_idup (not monitored)
 *   idup_dup     MPI_Allreduce on an MPI_Comm_dup of such a communicator
 *   idup_wait    MPI_Ibarrier on such a communicator, then MPI_Wait
 *   idup_p2p     on such a communicator, MPI_Send to the master (64 KiB: by rendezvous, so it
 *                waits for the master's receive) then MPI_Recv of its answer
 *   idup_waitall the same exchange as MPI_Irecv and MPI_Isend, completed by one MPI_Waitall
 * LEVEL: multiple (MPI_THREAD_MULTIPLE, as many programs ask for whether or not they use
 * threads) or single. `squat`: before MPI_Init every rank takes its stamp segment's name in
 * /dev/shm (as squatted_stamp_segment does), so that the job has no node segment, as ranks on
 * different nodes have none: no thread can answer for another process then.
 *
 * Expected outcome: status 0, the same output with and without vcmon, every run. Before, with
 * MPI_THREAD_MULTIPLE or `squat`: every run hung. The master's decision waited for the waiting
 * workers to say they would not send earlier; inside a call the layer does not wrap they answer
 * nothing, and the thread that answers for a process outside MPI (docs/pmpi.md, "Running ranks
 * answer, or are answered for") did not run with MPI_THREAD_MULTIPLE, and cannot answer across
 * nodes. The file writes now run polled in the layer, and MPI_Allreduce_c is wrapped as
 * MPI_Allreduce is (both since 2026-12-01). Collective reads and the collectives of idup'd
 * communicators and their duplicates hung without a node segment until 2026-12-01 (thirty-first
 * session): they are now entered polled (a read of nothing, a barrier on the communicator). */
#include "rank_log.h"
#include "scratch_file.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { kRounds = 20, kTag = 4, kBlockInts = 16384 };

static void spin_ms(double ms) {
  const double start = MPI_Wtime();
  while (MPI_Wtime() - start < ms / 1000.0) {
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "file";
  const int multiple = argc <= 2 || strcmp(argv[2], "multiple") == 0;
  const int squat = argc > 3 && strcmp(argv[3], "squat") == 0;
  char squatted[128];
  snprintf(squatted, sizeof squatted, "/dev/shm/vcmon-stamps-%u-%ld", (unsigned)getuid(),
           (long)getpid());
  if (squat && mkdir(squatted, 0700) != 0) {
    perror(squatted);
    return 1;
  }
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int file = strcmp(mode, "file") == 0, read = strcmp(mode, "read") == 0;
  const int idup_dup = strcmp(mode, "idup_dup") == 0, idup_wait = strcmp(mode, "idup_wait") == 0;
  const int idup_waitall = strcmp(mode, "idup_waitall") == 0;
  const int idup_p2p = idup_waitall || strcmp(mode, "idup_p2p") == 0;
  const int idup = idup_dup || idup_wait || idup_p2p || strcmp(mode, "idup") == 0;
  if (!file && !read && !idup && strcmp(mode, "allreduce_c") != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: unwrapped_collective "
                      "file|read|allreduce_c|idup|idup_dup|idup_wait|idup_p2p|idup_waitall "
                      "[multiple|single [squat]]\n");
    MPI_Finalize();
    return 2;
  }
  MPI_File fh = file || read ? open_scratch_file("unwrapped_collective") : MPI_FILE_NULL;
  if (read) { /* every rank's input for every round */
    int inputs[kRounds];
    for (int round = 0; round < kRounds; ++round)
      inputs[round] = 7 * round + rank;
    MPI_File_write_at_all(fh, (MPI_Offset)(rank * kRounds * sizeof(int)), inputs, kRounds, MPI_INT,
                          MPI_STATUS_IGNORE);
  }
  MPI_Comm copy = MPI_COMM_NULL;
  if (idup) {
    MPI_Request made;
    MPI_Comm_idup(MPI_COMM_WORLD, &copy, &made);
    MPI_Wait(&made, MPI_STATUS_IGNORE);
    if (idup_dup) {
      MPI_Comm made_copy = copy;
      MPI_Comm_dup(made_copy, &copy);
      MPI_Comm_free(&made_copy);
    }
  }
  long long gathered = 0, combined = 0;
  for (int round = 0; round < kRounds; ++round) {
    const int value = 100 * round + rank;
    if (rank == 0) {
      for (int taken = 1; taken < size; ++taken) {
        int in = -1;
        MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        gathered += in;
      }
    } else {
      spin_ms(rank);
      MPI_Send(&value, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    }
    if (file) {
      MPI_File_write_at_all(fh, (MPI_Offset)((round * size + rank) * sizeof value), &value, 1,
                            MPI_INT, MPI_STATUS_IGNORE);
    } else if (read) {
      int input = -1;
      MPI_Status status;
      MPI_File_read_at_all(fh, (MPI_Offset)((rank * kRounds + round) * sizeof input), &input, 1,
                           MPI_INT, &status);
      int got = -1;
      MPI_Get_count(&status, MPI_INT, &got);
      combined += 1000 * got + input;
    } else if (idup_dup) {
      long long sum = 0, mine = value;
      MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, copy);
      combined += sum;
    } else if (idup_wait) {
      MPI_Request barrier;
      MPI_Ibarrier(copy, &barrier);
      MPI_Wait(&barrier, MPI_STATUS_IGNORE);
    } else if (idup_p2p) {
      static int block[kBlockInts];
      MPI_Status status;
      int got = -1;
      if (rank == 0) {
        for (int worker = 1; worker < size; ++worker) {
          MPI_Recv(block, kBlockInts, MPI_INT, worker, kTag, copy, &status);
          MPI_Get_count(&status, MPI_INT, &got);
          combined += got + block[0] + block[kBlockInts - 1] + status.MPI_SOURCE;
          for (int i = 0; i < kBlockInts; ++i)
            block[i] = value + worker + i;
          MPI_Send(block, kBlockInts, MPI_INT, worker, kTag, copy);
        }
      } else {
        for (int i = 0; i < kBlockInts; ++i)
          block[i] = value - i;
        if (idup_waitall) {
          static int answer[kBlockInts];
          MPI_Request requests[2];
          MPI_Status statuses[2];
          MPI_Irecv(answer, kBlockInts, MPI_INT, 0, kTag, copy, &requests[0]);
          MPI_Isend(block, kBlockInts, MPI_INT, 0, kTag, copy, &requests[1]);
          MPI_Waitall(2, requests, statuses);
          memcpy(block, answer, sizeof answer);
          status = statuses[0];
        } else {
          MPI_Send(block, kBlockInts, MPI_INT, 0, kTag, copy);
          MPI_Recv(block, kBlockInts, MPI_INT, 0, kTag, copy, &status);
        }
        MPI_Get_count(&status, MPI_INT, &got);
        combined += got + block[0] + block[kBlockInts - 1] + status.MPI_SOURCE + status.MPI_TAG;
      }
    } else if (idup) {
      MPI_Barrier(copy);
    } else {
      long long sum = 0, mine = value;
      MPI_Allreduce_c(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      combined += sum;
    }
  }
  if (file) {
    int written[kRounds * 64] = {0};
    const int count = kRounds * size < kRounds * 64 ? kRounds * size : kRounds * 64;
    MPI_File_read_at_all(fh, 0, written, rank == 0 ? count : 0, MPI_INT, MPI_STATUS_IGNORE);
    for (int i = 0; rank == 0 && i < count; ++i)
      combined += written[i];
  }
  if (file || read)
    MPI_File_close(&fh);
  if (idup)
    MPI_Comm_free(&copy);
  rank_log("%s: gathered %lld, combined %lld", mode, gathered, combined);
  rank_log_print();
  MPI_Finalize();
  if (squat)
    rmdir(squatted);
  return 0;
}
