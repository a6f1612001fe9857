// Writes the figure-12 test profile to the path given, for tests that drive vcmon-report from
// a script; with P4_CALLS, p4 is called that often per rank in loop2 in the same time (small and
// very frequent, for --suggest-selection).
#include "ReportProfiles.hpp"

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s PROFILE [P4_CALLS]\n", argv[0]);
    return 2;
  }
  try {
    using namespace vcmon::report::testing;
    const auto profile =
        argc == 3 ? figure12_frequent_p4(std::stoull(argv[2])) : figure12_profile();
    vcmon::tables::write_profile_file(profile, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
