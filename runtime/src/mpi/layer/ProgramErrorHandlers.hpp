// The error handlers a program makes for its communicators are called for the program's calls
// only. The layer looks at requests to learn whether they are done (MPI_Request_get_status in
// its wait loops, MPI_Test of the receive it posts for a deferred wildcard one), and MPI raises
// a failed request's error at every such look: a handler the program made was called twice for
// a truncated receive completed by MPI_Wait, three times with MPI_ANY_SOURCE, where plain MPI
// calls it once. So MPI_Comm_create_errhandler gives MPI a forwarder of the layer's in place of
// the program's function, which calls that function unless this thread is inside one of the
// layer's looks (a Look scope). The call that completes the request for the program raises the
// error as MPI would. Predefined handlers (MPI_ERRORS_ARE_FATAL, MPI_ERRORS_ABORT) still act at
// the first look: the program aborts either way.
#pragma once

#include <mpi.h>

namespace vcmon::runtime::mpi {

class ProgramErrorHandlers {
public:
  // While one lives on this thread, a program's error handler that MPI calls does nothing.
  class Look {
  public:
    Look() { ++looking_; }
    ~Look() { --looking_; }
    Look(const Look&) = delete;
    Look& operator=(const Look&) = delete;
  };

  // MPI_Comm_create_errhandler for the program: `function` is called through a forwarder.
  static int create(MPI_Comm_errhandler_function* function, MPI_Errhandler* handler);
  // Whether this thread is inside one of the layer's looks.
  static bool looking() { return looking_ > 0; }

private:
  static inline thread_local int looking_ = 0;
};

// Whether `request` is done, as the layer looks at it: MPI_Request_get_status, raising no
// handler of the program's. An inactive or null request is done, as MPI says.
inline bool request_done(MPI_Request request) {
  const ProgramErrorHandlers::Look look;
  int done = 0;
  PMPI_Request_get_status(request, &done, MPI_STATUS_IGNORE);
  return done != 0;
}

} // namespace vcmon::runtime::mpi
