#include "mpi/layer/CallDescription.hpp"

#include "core/MpiFunctionTable.hpp"

#include "core/RankRecordsCollector.hpp"

namespace vcmon::runtime::mpi {

std::string describe_call(Monitor& monitor, unsigned function, tables::SiteId site) {
  const std::string name =
      function < mpi_function_count() ? mpi_function_name(function) : std::string("MPI");
  if (site < kSyntheticCommBase) {
    const tables::ProgramGraph graph = monitor.registry().program_graph({});
    if (site < graph.size()) {
      const tables::Site& entry = graph.sites()[site];
      return name + " at " + entry.pos.file + ":" + std::to_string(entry.pos.line);
    }
  }
  return name;
}

} // namespace vcmon::runtime::mpi
