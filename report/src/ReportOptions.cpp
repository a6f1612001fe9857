#include "vcmon/report/ReportOptions.hpp"

#include "vcmon/report/ReportError.hpp"

#include <charconv>
#include <fmt/format.h>

namespace vcmon::report {

SiteSelector SiteSelector::parse(std::string_view text) {
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) {
    throw ReportError(fmt::format("site '{}' is not FILE:LINE", text));
  }
  SiteSelector selector;
  selector.file = std::string(text.substr(0, colon));
  const auto digits = text.substr(colon + 1);
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), selector.line);
  if (error != std::errc{} || end != digits.data() + digits.size() || selector.line == 0) {
    throw ReportError(fmt::format("site '{}': LINE must be a positive number", text));
  }
  return selector;
}

bool SiteSelector::matches(std::string_view site_file, std::uint32_t site_line) const {
  if (site_line != line || site_file.size() < file.size()) {
    return false;
  }
  if (site_file == file) {
    return true;
  }
  // A trailing path component: "fig12.c" matches "src/fig12.c" but not "xfig12.c".
  const auto tail = site_file.substr(site_file.size() - file.size());
  return tail == file && site_file[site_file.size() - file.size() - 1] == '/';
}

} // namespace vcmon::report
