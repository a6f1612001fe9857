// Runs MPI-IO calls with MPI_ERRORS_RETURN as a file's error handler, the program's given back
// after: the monitor's own calls (its profile file) and the calls it makes for the program's
// (a collective read or write run as its nonblocking twin) must see their errors, whatever
// handler the program chose, without the program's handler seeing them.
#pragma once

#include <mpi.h>

namespace vcmon::runtime {

// Runs `call` with MPI_ERRORS_RETURN as `file`'s error handler (MPI_FILE_NULL: the one files
// open with); returns what `call` returns.
template <typename Call> auto with_file_errors_returned(MPI_File file, Call&& call) {
  MPI_Errhandler programs_handler = MPI_ERRHANDLER_NULL;
  PMPI_File_get_errhandler(file, &programs_handler);
  PMPI_File_set_errhandler(file, MPI_ERRORS_RETURN);
  const auto result = call();
  PMPI_File_set_errhandler(file, programs_handler);
  if (programs_handler != MPI_ERRORS_RETURN && programs_handler != MPI_ERRORS_ARE_FATAL) {
    PMPI_Errhandler_free(&programs_handler); // the reference get_errhandler added
  }
  return result;
}

} // namespace vcmon::runtime
