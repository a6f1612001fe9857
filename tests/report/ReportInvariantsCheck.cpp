// Checks the tree invariants (TreeInvariants.hpp) on the profiles real test runs wrote: every
// report of each profile, all ranks and each rank alone. Prints one line per profile and every
// violation, so a failing run names the programs that break them. Usage:
//   report_invariants_check DIRECTORY...   (each holding the one profile of a run)
// Exit status 0 when every profile keeps them.
#include "ProfileInDirectory.hpp"
#include "TreeInvariants.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY...\n", argv[0]);
    return 2;
  }
  int broken = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      const auto profile = vcmon::testing::the_profile_in(argv[i]);
      const auto violations = vcmon::report::testing::profile_invariant_violations(profile);
      std::printf("%s: %s (%s)\n", violations.empty() ? "KEEPS" : "BREAKS", argv[i],
                  profile.meta.command.c_str());
      for (const auto& line : violations) {
        std::printf("  %s\n", line.c_str());
      }
      broken += violations.empty() ? 0 : 1;
    } catch (const std::exception& e) {
      std::printf("UNREADABLE: %s: %s\n", argv[i], e.what());
      ++broken;
    }
  }
  return broken == 0 ? 0 : 1;
}
