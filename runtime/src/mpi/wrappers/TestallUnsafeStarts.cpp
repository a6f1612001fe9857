// The calls that start requests MPICH's MPI_Testall mishandles: MPI_Grequest_start, MPI-IO's
// nonblocking reads and writes, MPI_Psend_init and MPI_Precv_init. Untimed, as before they were
// wrapped (the program's own time); their requests are noted for the completion calls
// (TestallUnsafeRequests).
#include "mpi/requests/TestallUnsafeRequests.hpp"

#include <mpi.h>

using vcmon::runtime::mpi::TestallUnsafeRequests;

namespace {

int noted(int rc, const MPI_Request* request) {
  if (rc == MPI_SUCCESS) {
    TestallUnsafeRequests::process().started(*request);
  }
  return rc;
}

} // namespace

extern "C" int MPI_Grequest_start(MPI_Grequest_query_function* query_fn,
                                  MPI_Grequest_free_function* free_fn,
                                  MPI_Grequest_cancel_function* cancel_fn, void* extra_state,
                                  MPI_Request* request) {
  return noted(PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request), request);
}

#define VCMON_FILE_NONBLOCKING(NAME, BUFFER, COUNT)                                                \
  extern "C" int MPI_File_##NAME(MPI_File fh, BUFFER buf, COUNT count, MPI_Datatype datatype,      \
                                 MPI_Request* request) {                                           \
    return noted(PMPI_File_##NAME(fh, buf, count, datatype, request), request);                    \
  }
#define VCMON_FILE_NONBLOCKING_AT(NAME, BUFFER, COUNT)                                             \
  extern "C" int MPI_File_##NAME(MPI_File fh, MPI_Offset offset, BUFFER buf, COUNT count,          \
                                 MPI_Datatype datatype, MPI_Request* request) {                    \
    return noted(PMPI_File_##NAME(fh, offset, buf, count, datatype, request), request);            \
  }

VCMON_FILE_NONBLOCKING(iread, void*, int)
VCMON_FILE_NONBLOCKING(iread_c, void*, MPI_Count)
VCMON_FILE_NONBLOCKING(iread_all, void*, int)
VCMON_FILE_NONBLOCKING(iread_all_c, void*, MPI_Count)
VCMON_FILE_NONBLOCKING(iread_shared, void*, int)
VCMON_FILE_NONBLOCKING(iread_shared_c, void*, MPI_Count)
VCMON_FILE_NONBLOCKING(iwrite, const void*, int)
VCMON_FILE_NONBLOCKING(iwrite_c, const void*, MPI_Count)
VCMON_FILE_NONBLOCKING(iwrite_all, const void*, int)
VCMON_FILE_NONBLOCKING(iwrite_all_c, const void*, MPI_Count)
VCMON_FILE_NONBLOCKING(iwrite_shared, const void*, int)
VCMON_FILE_NONBLOCKING(iwrite_shared_c, const void*, MPI_Count)
VCMON_FILE_NONBLOCKING_AT(iread_at, void*, int)
VCMON_FILE_NONBLOCKING_AT(iread_at_c, void*, MPI_Count)
VCMON_FILE_NONBLOCKING_AT(iread_at_all, void*, int)
VCMON_FILE_NONBLOCKING_AT(iread_at_all_c, void*, MPI_Count)
VCMON_FILE_NONBLOCKING_AT(iwrite_at, const void*, int)
VCMON_FILE_NONBLOCKING_AT(iwrite_at_c, const void*, MPI_Count)
VCMON_FILE_NONBLOCKING_AT(iwrite_at_all, const void*, int)
VCMON_FILE_NONBLOCKING_AT(iwrite_at_all_c, const void*, MPI_Count)

#undef VCMON_FILE_NONBLOCKING
#undef VCMON_FILE_NONBLOCKING_AT

extern "C" int MPI_Psend_init(const void* buf, int partitions, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                              MPI_Info info, MPI_Request* request) {
  return noted(PMPI_Psend_init(buf, partitions, count, datatype, dest, tag, comm, info, request),
               request);
}

extern "C" int MPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                              int source, int tag, MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) {
  return noted(PMPI_Precv_init(buf, partitions, count, datatype, source, tag, comm, info, request),
               request);
}
