#include "MpiClassifier.hpp"

#include "vcmon/tables/MpiFunctions.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace vcmon::preprocessor {
namespace {

using Entry = std::pair<std::string_view, MpiCategory>;
constexpr auto P2P = MpiCategory::PointToPoint;
constexpr auto Coll = MpiCategory::Collective;
constexpr auto Probe = MpiCategory::Probe;
constexpr auto Done = MpiCategory::Completion;

// The communication statements of vcmon/tables/MpiFunctions.hpp, sorted by name so that
// lookup is a binary search.
constexpr auto kCommunicationFunctions = [] {
  std::array entries{
#define VCMON_P2P(NAME) Entry{"MPI_" #NAME, P2P}, Entry{"MPI_" #NAME "_c", P2P},
#define VCMON_PROBE(NAME) Entry{"MPI_" #NAME, Probe},
#define VCMON_START(NAME) Entry{"MPI_" #NAME, P2P},
#define VCMON_COMPLETION(NAME) Entry{"MPI_" #NAME, Done},
#define VCMON_COLLECTIVE(NAME, lower)                                                              \
  Entry{"MPI_" #NAME, Coll}, Entry{"MPI_I" #lower, Coll}, Entry{"MPI_" #NAME "_init", Coll},
#define VCMON_COLLECTIVE_C(NAME, lower)                                                            \
  Entry{"MPI_" #NAME "_c", Coll}, Entry{"MPI_I" #lower "_c", Coll},                                \
      Entry{"MPI_" #NAME "_init_c", Coll},
      VCMON_MPI_POINT_TO_POINT(VCMON_P2P) VCMON_MPI_PROBES(VCMON_PROBE)
          VCMON_MPI_STARTS(VCMON_START) VCMON_MPI_COMPLETION(VCMON_COMPLETION)
              VCMON_MPI_COLLECTIVES(VCMON_COLLECTIVE)
                  VCMON_MPI_COUNTED_COLLECTIVES(VCMON_COLLECTIVE_C)
#undef VCMON_P2P
#undef VCMON_PROBE
#undef VCMON_START
#undef VCMON_COMPLETION
#undef VCMON_COLLECTIVE
#undef VCMON_COLLECTIVE_C
  };
  std::ranges::sort(entries, {}, &Entry::first);
  return entries;
}();

static_assert(std::ranges::adjacent_find(kCommunicationFunctions, {}, &Entry::first) ==
                  kCommunicationFunctions.end(),
              "a function is listed twice in vcmon/tables/MpiFunctions.hpp");

} // namespace

std::optional<MpiCategory> classify_mpi_function(std::string_view name) {
  const auto* it = std::ranges::lower_bound(kCommunicationFunctions, name, {}, &Entry::first);
  if (it == kCommunicationFunctions.end() || it->first != name) {
    return std::nullopt;
  }
  return it->second;
}

bool is_mpi_name(std::string_view name) {
  return name.starts_with("MPI_") || name.starts_with("PMPI_") || name.starts_with("MPIX_");
}

} // namespace vcmon::preprocessor
