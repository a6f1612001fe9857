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

} // namespace vcmon::report
