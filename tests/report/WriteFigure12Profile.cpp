// Writes the figure-12 test profile to the path given, for tests that drive vcmon-report from
// a script.
#include "ReportProfiles.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PROFILE\n", argv[0]);
    return 2;
  }
  try {
    vcmon::tables::write_profile_file(vcmon::report::testing::figure12_profile(), argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
