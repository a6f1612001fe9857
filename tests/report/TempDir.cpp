#include "TempDir.hpp"

#include <stdexcept>
#include <string>
#include <system_error>
#include <unistd.h>

namespace vcmon::report::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "vcmon-report-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary directory from " + pattern);
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

tables::Profile TempDir::round_trip(const tables::Profile& profile) const {
  const auto file = path_ / "round-trip.vcmon";
  tables::write_profile_file(profile, file);
  return tables::read_profile_file(file);
}

} // namespace vcmon::report::testing
