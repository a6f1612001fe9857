// Writes the figure-12 test profile (A) and a copy with p4 3x slower (B) to the paths given, for
// tests that drive vcmon-report --diff from a script.
#include "DiffProfiles.hpp"
#include "ReportProfiles.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s A B\n", argv[0]);
    return 2;
  }
  try {
    vcmon::tables::write_profile_file(vcmon::report::testing::figure12_profile(), argv[1]);
    vcmon::tables::write_profile_file(vcmon::report::testing::figure12_slow_p4(3), argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
