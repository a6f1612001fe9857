// The profiles an MPI test run wrote into a directory, read for a GoogleTest checker
// (CheckerArguments.hpp).
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

namespace vcmon::checkers {

// The *.vcmon files in `dir`, sorted by name (none when `dir` is not a directory).
inline std::vector<std::filesystem::path> profiles_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> found;
  if (std::filesystem::is_directory(dir)) {
    for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".vcmon") {
        found.push_back(entry.path());
      }
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// Reads the one profile in `dir` into `profile`; a fatal failure of the calling test unless
// there is exactly one. Call it as ASSERT_NO_FATAL_FAILURE(read_the_profile_in(dir, profile)).
inline void read_the_profile_in(const std::filesystem::path& dir, tables::Profile& profile) {
  ASSERT_TRUE(std::filesystem::is_directory(dir))
      << "expected the run's profile directory " << dir.string();
  const std::vector<std::filesystem::path> found = profiles_in(dir);
  ASSERT_EQ(found.size(), 1u) << "expected exactly one profile (*.vcmon) in " << dir.string();
  profile = tables::read_profile_file(found.front());
}

} // namespace vcmon::checkers
