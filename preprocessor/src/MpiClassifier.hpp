// Which MPI functions are communication statements (docs/instrument.md, "What becomes a site"):
// point-to-point, collective, probe, wait and test calls. Set-up and query calls (MPI_Init,
// MPI_Comm_rank, MPI_Wtime, ...) are neither communication statements nor call statements.
#pragma once

#include <optional>
#include <string_view>

namespace vcmon::preprocessor {

enum class MpiCategory { PointToPoint, Collective, Probe, Completion };

// The category of a communication function, or nothing for any other name.
std::optional<MpiCategory> classify_mpi_function(std::string_view name);

// True for names in the MPI namespace (MPI_, PMPI_, MPIX_): never call statements of the program.
bool is_mpi_name(std::string_view name);

} // namespace vcmon::preprocessor
