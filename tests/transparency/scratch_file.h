/* A file for one job's collective I/O: /tmp/NAME.PID, PID rank 0's, opened by every rank of
 * MPI_COMM_WORLD for reading and writing and deleted when closed. Collective. */
#ifndef VCMON_TESTS_TRANSPARENCY_SCRATCH_FILE_H
#define VCMON_TESTS_TRANSPARENCY_SCRATCH_FILE_H

#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static inline MPI_File open_scratch_file(const char* name) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int pid = rank == 0 ? (int)getpid() : 0;
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char path[128];
  snprintf(path, sizeof path, "/tmp/%s.%d", name, pid);
  MPI_File file = MPI_FILE_NULL;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &file);
  return file;
}

#endif
