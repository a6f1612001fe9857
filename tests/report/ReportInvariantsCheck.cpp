// Checks the tree invariants (TreeInvariants.hpp) on the profiles real test runs wrote: every
// report of each profile, all ranks and each rank alone. Each profile is an expectation whose
// message names the program and every violation. A GoogleTest program (CheckerArguments.hpp):
//   report_invariants_check --gtest_filter=ReportInvariants.Profiles DIRECTORY...
//   (each DIRECTORY holding the one profile of a run)
#include "CheckerArguments.hpp"
#include "CheckerProfiles.hpp"
#include "TreeInvariants.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace vcmon::checkers;

namespace {

// Expects the profile in `dir` to keep the invariants; a fatal failure of this profile alone
// when it is not there.
void expect_keeps_invariants(const std::string& dir) {
  vcmon::tables::Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(dir, profile));
  const auto violations = vcmon::report::testing::profile_invariant_violations(profile);
  std::string lines;
  for (const auto& line : violations) {
    lines += "  " + line + "\n";
  }
  std::printf("%s: %s (%s)\n%s", violations.empty() ? "KEEPS" : "BREAKS", dir.c_str(),
              profile.meta.command.c_str(), lines.c_str());
  EXPECT_TRUE(violations.empty()) << "expected the reports of " << dir << " ("
                                  << profile.meta.command << ") to keep the tree invariants:\n"
                                  << lines;
}

TEST(ReportInvariants, Profiles) {
  ASSERT_GE(checker_argument_count(), 1u) << "expected at least one profile directory";
  for (const std::string& dir : checker_arguments()) {
    SCOPED_TRACE("profile directory " + dir);
    expect_keeps_invariants(dir);
  }
}

} // namespace
