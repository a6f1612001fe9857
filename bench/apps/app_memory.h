/* The proxy applications' buffers: zeroed, with every page already mapped. */
#ifndef VCMON_BENCH_APP_MEMORY_H
#define VCMON_BENCH_APP_MEMORY_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* `count` zeroed elements of `size` bytes; aborts the job with a message naming `program` when
 * memory runs out. Every page is written once here, so that the kernel maps it now and not in
 * whichever timed phase first writes the buffer: on this project's virtual machines a page fault
 * costs about 12 us, and a phase that maps a few thousand pages measured the kernel's
 * variation, not the program's work (docs/evaluation.md, "Page faults, and the two cores"). The
 * writes are volatile: a plain zero fill after calloc would be optimised away. */
static void* allocate_mapped(size_t count, size_t size, const char* program) {
  unsigned char* memory = calloc(count, size);
  if (memory == NULL) {
    fprintf(stderr, "%s: out of memory (%zu x %zu bytes)\n", program, count, size);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return NULL;
  }
  volatile unsigned char* page = memory;
  for (size_t at = 0; at < count * size; at += 4096) {
    page[at] = 0;
  }
  return memory;
}

#endif
