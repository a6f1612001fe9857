// Blocking collective file I/O that has a nonblocking twin (MPI-3.1): MPI_File_read_all,
// _write_all, _read_at_all, _write_at_all, and their large-count forms. Such a call waits in MPI
// for the other processes of the file's group, where a process answers no state request. A
// wildcard decision that had to rule such a process out waited for its answer forever when no
// thread could answer for it (a rank on another node: no shared segment): a master gathering
// with MPI_Recv(MPI_ANY_SOURCE) while the workers that had handed in waited in the checkpoint
// write it joins next hung. So, while monitoring, each runs as its nonblocking twin polled by
// MPI_Test in the layer's wait loop, where the process answers as running, its clock going on
// (the layer does not track the request; the I/O is the program's own time). The twin reads and
// writes the same data with the same result; file I/O is not monitored otherwise.
//
// Errors stay the blocking call's: a file handle MPI does not know, or a twin that MPI refuses
// (posted with MPI_ERRORS_RETURN on the file), gives way to the blocking call itself, which
// fails the same way through the program's handler and under its own name; an error in the
// completion goes to the file's handler as the blocking call's would. (Communicators are not
// treated so: setting a communicator's handler, even back to what it was, makes MPICH abort over
// that communicator rather than MPI_COMM_WORLD on a fatal error: transparency.fatal_errors.)
#include "core/FileErrorsReturned.hpp"
#include "mpi/control/WaitPolicy.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/requests/RequestsWait.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "vcmon/vclock/Moment.hpp"

#include <mpi.h>

namespace vcmon::runtime::mpi {
namespace {

// Whether MPI knows `file`, asked without raising an error: MPI raises a bad handle's on
// MPI_FILE_NULL's handler, which would name this call, not the program's.
bool known(MPI_File file) {
  return with_file_errors_returned(MPI_FILE_NULL, [&] {
           MPI_Group group = MPI_GROUP_NULL;
           const int rc = PMPI_File_get_group(file, &group);
           if (rc == MPI_SUCCESS) {
             PMPI_Group_free(&group);
           }
           return rc;
         }) == MPI_SUCCESS;
}

// `twin` posts the nonblocking twin (it takes the request to fill); `pmpi` is the blocking call.
template <typename Twin, typename Call>
int polled_file_collective(MPI_File file, MPI_Status* status, Twin&& twin, Call&& pmpi) {
  Monitor* monitor = Layer::monitor();
  if (monitor == nullptr || !known(file)) {
    return pmpi();
  }
  bool posted = false;
  const int rc = with_file_errors_returned(file, [&] {
    MPI_Request request = MPI_REQUEST_NULL;
    if (twin(&request) != MPI_SUCCESS) {
      return MPI_SUCCESS;
    }
    posted = true;
    LayerContext& context = LayerContext::process();
    const RequestsWait wait(context.pending, context.requests, {~0u, tables::kNoSite},
                            vclock::Moment::now(monitor->clock()).vt, {&request, 1},
                            RequestsWait::Needs::All);
    int tested = MPI_SUCCESS;
    WaitPolicy::wait_until(*monitor, context.control, wait, [&] {
      int done = 0;
      tested = PMPI_Test(&request, &done, status);
      return tested != MPI_SUCCESS || done != 0;
    });
    return tested;
  });
  if (!posted) {
    return pmpi();
  }
  if (rc != MPI_SUCCESS) {
    PMPI_File_call_errhandler(file, rc);
  }
  return rc;
}

} // namespace
} // namespace vcmon::runtime::mpi

using vcmon::runtime::mpi::polled_file_collective;

#define VCMON_FILE_COLLECTIVE(NAME, COUNT, BUFFER)                                                 \
  extern "C" int MPI_File_##NAME(MPI_File fh, BUFFER buf, COUNT count, MPI_Datatype datatype,      \
                                 MPI_Status* status) {                                             \
    return polled_file_collective(                                                                 \
        fh, status,                                                                                \
        [&](MPI_Request* request) {                                                                \
          return PMPI_File_i##NAME(fh, buf, count, datatype, request);                             \
        },                                                                                         \
        [&] { return PMPI_File_##NAME(fh, buf, count, datatype, status); });                       \
  }

#define VCMON_FILE_COLLECTIVE_AT(NAME, COUNT, BUFFER)                                              \
  extern "C" int MPI_File_##NAME(MPI_File fh, MPI_Offset offset, BUFFER buf, COUNT count,          \
                                 MPI_Datatype datatype, MPI_Status* status) {                      \
    return polled_file_collective(                                                                 \
        fh, status,                                                                                \
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
