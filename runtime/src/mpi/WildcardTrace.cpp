#include "mpi/WildcardTrace.hpp"

#include "mpi/MpiFunctionTable.hpp"

#include <cstdio>
#include <string>

namespace vcmon::runtime::mpi {
namespace {
std::FILE* trace = nullptr;
} // namespace

void WildcardTrace::open(const Monitor& monitor) {
  const std::string& dir = monitor.config().wildcard_trace_dir;
  if (dir.empty()) {
    return;
  }
  const std::string path = dir + "/wildcard." + std::to_string(monitor.world_rank()) + ".txt";
  trace = std::fopen(path.c_str(), "w");
  if (trace == nullptr) {
    std::fprintf(stderr, "vcmon: VCMON_TRACE_WILDCARD: cannot write %s\n", path.c_str());
  }
}

void WildcardTrace::record(unsigned function, int source, int tag, std::uint64_t arrival_ns,
                           bool broke_cycle) {
  if (trace != nullptr) {
    std::fprintf(trace, "%s %d %d %llu %d\n", mpi_function_name(function), source, tag,
                 static_cast<unsigned long long>(arrival_ns), broke_cycle ? 1 : 0);
  }
}

void WildcardTrace::close() {
  if (trace != nullptr) {
    std::fclose(trace);
    trace = nullptr;
  }
}

} // namespace vcmon::runtime::mpi
