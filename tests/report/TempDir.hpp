// A fresh directory under $TMPDIR for one test, removed with everything in it afterwards.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <filesystem>

namespace vcmon::report::testing {

class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

  // Writes `profile` with the real writer and reads it back, as vcmon-report would.
  tables::Profile round_trip(const tables::Profile& profile) const;

private:
  std::filesystem::path path_;
};

} // namespace vcmon::report::testing
