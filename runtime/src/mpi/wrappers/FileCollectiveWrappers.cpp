// Blocking collective file I/O that has a nonblocking twin (MPI-3.1): MPI_File_write_all,
// _write_at_all, _read_all, _read_at_all, and their large-count forms. Such a call waits in MPI
// for the other processes of the file's group, where a process answers no state request. A
// wildcard decision that had to rule such a process out waited for its answer forever when no
// thread could answer for it (a rank on another node: no shared segment): a master gathering
// with MPI_Recv(MPI_ANY_SOURCE) while the workers that had handed in waited in the checkpoint
// write it joins next hung. So, while monitoring, the writes run as their nonblocking twins
// polled by MPI_Test in the layer's wait loop, where the process answers as running, its clock
// going on (the layer does not track the request; the I/O is the program's own time). The twin
// writes the same data with the same result; file I/O is not monitored otherwise.
//
// The reads do not: MPICH 4.0's MPI_File_iread_at_all counts what was asked for in its status,
// not what was read, so a read past the end of the file counted 20 ints where 10 were read
// (transparency.file_collective_counts). A read first waits, polled, until every process has
// entered it (a collective read of nothing, whose count nobody reads), then runs as it is,
// unpolled (UnpolledCallWrapper.hpp); it then waits for nobody outside MPI.
//
// Errors stay the blocking call's: a file handle MPI does not know, or a twin that MPI refuses
// (posted with MPI_ERRORS_RETURN on the file), gives way to the blocking call itself, which
// fails the same way through the program's handler and under its own name; an error in the
// completion goes to the file's handler as the blocking call's would. (Communicators are not
// treated so: setting a communicator's handler, even back to what it was, makes MPICH abort over
// that communicator rather than MPI_COMM_WORLD on a fatal error: transparency.fatal_errors.)
#include "core/FileErrorsReturned.hpp"
#include "mpi/layer/Layer.hpp"
#include "mpi/wrappers/LayerContext.hpp"
#include "mpi/wrappers/PolledRequest.hpp"
#include "mpi/wrappers/UnpolledCallWrapper.hpp"

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
    return wait_polled(*monitor, LayerContext::process(), request, status);
  });
  if (!posted) {
    return pmpi();
  }
  if (rc != MPI_SUCCESS) {
    PMPI_File_call_errhandler(file, rc);
  }
  return rc;
}

// A collective read: once every process of the file's group has entered it, which a
// zero-length nonblocking collective read on the file tells, polled; the read then runs as it
// is (unpolled), waiting for nobody outside it. A file MPI does not know, or one the entry
// cannot read (write-only, sequential), enters in MPI as before.
template <typename Call> int entered_file_read(MPI_File file, Call&& pmpi) {
  Monitor* monitor = Layer::monitor();
  if (monitor != nullptr && known(file)) {
    with_file_errors_returned(file, [&] {
      char nothing = 0;
      MPI_Request entry = MPI_REQUEST_NULL;
      if (PMPI_File_iread_at_all(file, 0, &nothing, 0, MPI_BYTE, &entry) == MPI_SUCCESS) {
        wait_polled(*monitor, LayerContext::process(), entry, MPI_STATUS_IGNORE);
      }
      return MPI_SUCCESS;
    });
  }
  return unpolled(pmpi);
}

} // namespace
} // namespace vcmon::runtime::mpi

using vcmon::runtime::mpi::entered_file_read;
using vcmon::runtime::mpi::polled_file_collective;

#define VCMON_FILE_COLLECTIVE_WRITE(NAME, COUNT)                                                   \
  extern "C" int MPI_File_##NAME(MPI_File fh, const void* buf, COUNT count, MPI_Datatype datatype, \
                                 MPI_Status* status) {                                             \
    return polled_file_collective(                                                                 \
        fh, status,                                                                                \
        [&](MPI_Request* request) {                                                                \
          return PMPI_File_i##NAME(fh, buf, count, datatype, request);                             \
        },                                                                                         \
        [&] { return PMPI_File_##NAME(fh, buf, count, datatype, status); });                       \
  }

#define VCMON_FILE_COLLECTIVE_WRITE_AT(NAME, COUNT)                                                \
  extern "C" int MPI_File_##NAME(MPI_File fh, MPI_Offset offset, const void* buf, COUNT count,     \
                                 MPI_Datatype datatype, MPI_Status* status) {                      \
    return polled_file_collective(                                                                 \
        fh, status,                                                                                \
        [&](MPI_Request* request) {                                                                \
          return PMPI_File_i##NAME(fh, offset, buf, count, datatype, request);                     \
        },                                                                                         \
        [&] { return PMPI_File_##NAME(fh, offset, buf, count, datatype, status); });               \
  }

#define VCMON_FILE_COLLECTIVE_READ(NAME, COUNT)                                                    \
  extern "C" int MPI_File_##NAME(MPI_File fh, void* buf, COUNT count, MPI_Datatype datatype,       \
                                 MPI_Status* status) {                                             \
    return entered_file_read(fh,                                                                   \
                             [&] { return PMPI_File_##NAME(fh, buf, count, datatype, status); });  \
  }

#define VCMON_FILE_COLLECTIVE_READ_AT(NAME, COUNT)                                                 \
  extern "C" int MPI_File_##NAME(MPI_File fh, MPI_Offset offset, void* buf, COUNT count,           \
                                 MPI_Datatype datatype, MPI_Status* status) {                      \
    return entered_file_read(                                                                      \
        fh, [&] { return PMPI_File_##NAME(fh, offset, buf, count, datatype, status); });           \
  }

VCMON_FILE_COLLECTIVE_READ(read_all, int)
VCMON_FILE_COLLECTIVE_READ(read_all_c, MPI_Count)
VCMON_FILE_COLLECTIVE_WRITE(write_all, int)
VCMON_FILE_COLLECTIVE_WRITE(write_all_c, MPI_Count)
VCMON_FILE_COLLECTIVE_READ_AT(read_at_all, int)
VCMON_FILE_COLLECTIVE_READ_AT(read_at_all_c, MPI_Count)
VCMON_FILE_COLLECTIVE_WRITE_AT(write_at_all, int)
VCMON_FILE_COLLECTIVE_WRITE_AT(write_at_all_c, MPI_Count)
