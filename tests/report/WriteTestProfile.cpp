// Writes a test profile to the path given, for tests that drive vcmon-report from a script:
//   figure12 PROFILE [P4_CALLS]   the figure-12 profile; with P4_CALLS, p4 is called that often
//                                 per rank in loop2 in the same time (small and very frequent,
//                                 for --suggest-selection)
//   ring PROFILE RANKS            RANKS ranks sending around a ring (ReportProfiles.hpp)
#include "ReportProfiles.hpp"

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  const std::string kind = argc > 1 ? argv[1] : "";
  if (!((kind == "figure12" && (argc == 3 || argc == 4)) || (kind == "ring" && argc == 4))) {
    std::fprintf(stderr, "usage: %s figure12 PROFILE [P4_CALLS] | ring PROFILE RANKS\n", argv[0]);
    return 2;
  }
  try {
    using namespace vcmon::report::testing;
    const auto profile = kind == "ring" ? ring_profile(std::stoi(argv[3]))
                         : argc == 4    ? figure12_frequent_p4(std::stoull(argv[3]))
                                        : figure12_profile();
    vcmon::tables::write_profile_file(profile, argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
