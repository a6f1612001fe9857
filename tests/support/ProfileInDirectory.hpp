// The one profile an MPI test run wrote into its VCMON_OUTPUT directory, for the checkers that
// assert what it holds.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace vcmon::testing {

inline tables::Profile the_profile_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> found;
  for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".vcmon") {
      found.push_back(entry.path());
    }
  }
  if (found.size() != 1) {
    throw std::runtime_error("expected one profile in " + dir.string() + ", found " +
                             std::to_string(found.size()));
  }
  return tables::read_profile_file(found.front());
}

} // namespace vcmon::testing
