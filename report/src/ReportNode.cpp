#include "vcmon/report/ReportNode.hpp"

namespace vcmon::report {

const char* to_string(NodeKind kind) {
  switch (kind) {
  case NodeKind::Program:
    return "program";
  case NodeKind::Procedure:
    return "procedure";
  case NodeKind::Loop:
    return "loop";
  case NodeKind::Comm:
    return "comm";
  case NodeKind::Partner:
    return "partner";
  }
  return "unknown";
}

CommBreakdown CommBreakdown::mean_over(std::size_t ranks) const {
  if (ranks == 0) {
    return {};
  }
  const auto n = static_cast<double>(ranks);
  return {transmission_ns / n, sync_delay_ns / n, bytes / n};
}

} // namespace vcmon::report
