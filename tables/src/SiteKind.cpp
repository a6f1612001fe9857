#include "vcmon/tables/Site.hpp"

namespace vcmon::tables {

const char* to_string(SiteKind kind) {
  switch (kind) {
  case SiteKind::Procedure:
    return "procedure";
  case SiteKind::Loop:
    return "loop";
  case SiteKind::Call:
    return "call";
  case SiteKind::Comm:
    return "comm";
  }
  return "unknown";
}

bool probing_fits(SiteKind kind, SiteProbing probing) {
  return probing == SiteProbing::Timed ||
         (probing == SiteProbing::Counted && kind == SiteKind::Loop) ||
         (probing == SiteProbing::Folded &&
          (kind == SiteKind::Procedure || kind == SiteKind::Call));
}

const char* to_string(SiteProbing probing) {
  switch (probing) {
  case SiteProbing::Timed:
    return "timed";
  case SiteProbing::Counted:
    return "counted";
  case SiteProbing::Folded:
    return "folded";
  }
  return "unknown";
}

} // namespace vcmon::tables
