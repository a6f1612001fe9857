// MPI's include path, as `mpicc -show` reports it, so that sources parse as mpicc would
// compile them without any flag given.
#pragma once

#include <string>
#include <vector>

namespace vcmon::preprocessor {

// "-isystem DIR" pairs for each -I of `mpicc -show` (system, so the MPI header's declarations
// are library functions, never procedures of the program). Empty when mpicc is not found.
std::vector<std::string> mpi_include_flags();

} // namespace vcmon::preprocessor
