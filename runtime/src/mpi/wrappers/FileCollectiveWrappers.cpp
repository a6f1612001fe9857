// Blocking collective file I/O that has a nonblocking twin (MPI-3.1): MPI_File_read_all,
// _write_all, _read_at_all, _write_at_all, and their large-count forms. Such a call waits in MPI
// for the other processes of the file's group, where a process answers no state request. A
// wildcard decision that had to rule such a process out waited for its answer forever when no
// thread could answer for it (a rank on another node: no shared segment): a master gathering
// with MPI_Recv(MPI_ANY_SOURCE) while the workers that had handed in waited in the checkpoint
// write it joins next hung. So, while monitoring, each runs as its nonblocking twin polled by
// MPI_Test in the layer's wait loop, where the process answers as running, its clock going on
// (the I/O is the program's own time). The twin reads and writes the same data with the same
// result; file I/O is not monitored otherwise (docs/pmpi.md).
#include "mpi/control/WaitPolicy.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/requests/RequestsWait.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {
namespace {

// `start` posts the nonblocking twin; `pmpi` is the blocking call itself, for unmonitored runs.
template <typename Start, typename Call>
int polled_file_collective(MPI_Status* status, Start&& start, Call&& pmpi) {
  Monitor* monitor = Layer::monitor();
  if (monitor == nullptr) {
    return pmpi();
  }
  LayerContext& context = LayerContext::process();
  MPI_Request request = MPI_REQUEST_NULL;
  if (const int rc = start(&request); rc != MPI_SUCCESS) {
    return rc;
  }
  // Not a request the layer tracks: the wait describes itself as running, at its clock now.
  const RequestsWait wait(context.pending, context.requests, {~0u, tables::kNoSite},
                          vclock::Moment::now(monitor->clock()).vt, {&request, 1},
                          RequestsWait::Needs::All);
  int rc = MPI_SUCCESS;
  WaitPolicy::wait_until(*monitor, context.control, wait, [&] {
    int done = 0;
    rc = PMPI_Test(&request, &done, status);
    return rc != MPI_SUCCESS || done != 0;
  });
  return rc;
}

} // namespace
} // namespace vcmon::runtime::mpi

using vcmon::runtime::mpi::polled_file_collective;

#define VCMON_FILE_COLLECTIVE(NAME, COUNT, BUFFER)                                                 \
  extern "C" int MPI_File_##NAME(MPI_File fh, BUFFER buf, COUNT count, MPI_Datatype datatype,      \
                                 MPI_Status* status) {                                             \
    return polled_file_collective(                                                                 \
        status,                                                                                    \
        [&](MPI_Request* request) {                                                                \
          return PMPI_File_i##NAME(fh, buf, count, datatype, request);                             \
        },                                                                                         \
        [&] { return PMPI_File_##NAME(fh, buf, count, datatype, status); });                       \
  }

#define VCMON_FILE_COLLECTIVE_AT(NAME, COUNT, BUFFER)                                              \
  extern "C" int MPI_File_##NAME(MPI_File fh, MPI_Offset offset, BUFFER buf, COUNT count,          \
                                 MPI_Datatype datatype, MPI_Status* status) {                      \
    return polled_file_collective(                                                                 \
        status,                                                                                    \
        [&](MPI_Request* request) {                                                                \
          return PMPI_File_i##NAME(fh, offset, buf, count, datatype, request);                     \
        },                                                                                         \
        [&] { return PMPI_File_##NAME(fh, offset, buf, count, datatype, status); });               \
  }

VCMON_FILE_COLLECTIVE(read_all, int, void*)
VCMON_FILE_COLLECTIVE(read_all_c, MPI_Count, void*)
VCMON_FILE_COLLECTIVE(write_all, int, const void*)
VCMON_FILE_COLLECTIVE(write_all_c, MPI_Count, const void*)
VCMON_FILE_COLLECTIVE_AT(read_at_all, int, void*)
VCMON_FILE_COLLECTIVE_AT(read_at_all_c, MPI_Count, void*)
VCMON_FILE_COLLECTIVE_AT(write_at_all, int, const void*)
VCMON_FILE_COLLECTIVE_AT(write_at_all_c, MPI_Count, const void*)
