// What the user asked to see: the filters of vcmon-report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcmon::report {

// A source position given as FILE:LINE; FILE matches a site's file exactly or as a trailing
// path component ("fig12.c" matches "/src/app/fig12.c").
struct SiteSelector {
  std::string file;
  std::uint32_t line = 0;

  static SiteSelector parse(std::string_view text); // throws ReportError
  bool matches(std::string_view site_file, std::uint32_t site_line) const;
};

struct ReportOptions {
  std::optional<std::int32_t> rank;   // only this rank's records
  std::optional<std::uint32_t> depth; // levels shown below the program node
  double threshold_percent = 0;       // hide nodes below this share of the program's time
  std::optional<SiteSelector> site;   // only the subtrees at this site, with their ancestors
  // The whole job's view from the profile's summary section when it has one (reduced in the
  // job); false: reduced here from every rank's section, which gives the same report.
  bool use_summary = true;
};

} // namespace vcmon::report
