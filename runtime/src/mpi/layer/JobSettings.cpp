#include "mpi/layer/JobSettings.hpp"

#include "core/Log.hpp"
#include "core/YieldingCompletion.hpp"
#include "vcmon/tables/Settings.hpp"

#include <mpi.h>

#include <array>
#include <string>
#include <string_view>

namespace vcmon::runtime::mpi {
namespace {

// A Choice setting of tables::kSettings that the ranks must share.
struct SharedChoice {
  std::string_view name;
  int mine;           // this rank's choice (an index into the setting's choices)
  int when_differing; // the choice every rank takes when the ranks' choices differ
};

int default_choice(std::string_view name) {
  return static_cast<int>(tables::setting(name).default_value);
}

std::string choice_name(std::string_view setting, int choice) {
  return std::string(tables::setting(setting).choices[static_cast<std::size_t>(choice)]);
}

} // namespace

bool agree_on_job_settings(Monitor& monitor) {
  const Config& config = monitor.config();
  const std::array<SharedChoice, 3> shared = {{
      {"VCMON_DISABLE", monitor.enabled() ? 0 : 1, 1}, // a rank without monitoring cannot start it
      {"VCMON_DEADLOCK", static_cast<int>(config.deadlock), default_choice("VCMON_DEADLOCK")},
      {"VCMON_PROFILE_IO", static_cast<int>(config.profile_io), default_choice("VCMON_PROFILE_IO")},
  }};
  // One reduction gives every choice's least and greatest value across the ranks: the minimum
  // of the choices and of their negations.
  constexpr std::size_t count = shared.size();
  std::array<int, 2 * count> mine{};
  std::array<int, 2 * count> least{};
  for (std::size_t i = 0; i < count; ++i) {
    mine[i] = shared[i].mine;
    mine[count + i] = -shared[i].mine;
  }
  if (yielding(PMPI_Iallreduce, mine.data(), least.data(), static_cast<int>(mine.size()), MPI_INT,
               MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) {
    log_line(LogLevel::Error, "the ranks could not compare their settings; each keeps its own");
    return monitor.enabled();
  }
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::array<int, count> agreed{};
  for (std::size_t i = 0; i < count; ++i) {
    const int lowest = least[i];
    const int highest = -least[count + i];
    agreed[i] = lowest == highest ? lowest : shared[i].when_differing;
    if (lowest != highest && rank == 0) {
      const std::string_view name = shared[i].name;
      log_line(LogLevel::Warning,
               "%.*s differs between the ranks (%s on some, %s on others): every rank uses %s; "
               "set it alike for all ranks (docs/runtime.md, \"Settings the ranks must share\")",
               static_cast<int>(name.size()), name.data(), choice_name(name, lowest).c_str(),
               choice_name(name, highest).c_str(), choice_name(name, agreed[i]).c_str());
    }
  }
  const bool monitored = agreed[0] == 0;
  monitor.adopt_job_settings(monitored, static_cast<DeadlockMode>(agreed[1]),
                             static_cast<ProfileIo>(agreed[2]));
  return monitored;
}

} // namespace vcmon::runtime::mpi
