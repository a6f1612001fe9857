/* Callbacks of a generalized request (MPI_Grequest_start) that holds no data. */
#pragma once

#include <mpi.h>

/* What a query_fn reports for such a request: no data, not cancelled, tag `tag`. */
static inline void set_empty_status(MPI_Status* status, int tag) {
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = tag;
}

static inline int free_nothing(void* extra) {
  (void)extra;
  return MPI_SUCCESS;
}

static inline int cancel_nothing(void* extra, int complete) {
  (void)extra;
  (void)complete;
  return MPI_SUCCESS;
}
