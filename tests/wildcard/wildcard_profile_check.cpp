// Checks the monitor counters (tables::MonitorCounters) of the one profile in a directory.
// A GoogleTest program (CheckerArguments.hpp):
//   wildcard_profile_check --gtest_filter=WildcardProfile.Counters DIR CONDITION...
// A CONDITION is <rank|all>:<counter><op><value>, e.g. 1:cycle_breaks>=1 or
// all:control_messages>=1 ("all": the sum over the ranks), with counter one of
// wildcard_decisions, cycle_breaks, control_messages, safety_wait_ns and op one of >=, <=, ==.
// Prints every rank's counters and each condition; each condition is an expectation.
#include "CheckerArguments.hpp"
#include "CheckerProfiles.hpp"
#include "vcmon/tables/Profile.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

using namespace vcmon::tables;
using namespace vcmon::checkers;

namespace {

std::uint64_t counter(const MonitorCounters& counters, const std::string& name) {
  if (name == "wildcard_decisions") {
    return counters.wildcard_decisions;
  }
  if (name == "cycle_breaks") {
    return counters.cycle_breaks;
  }
  if (name == "control_messages") {
    return counters.control_messages;
  }
  if (name == "safety_wait_ns") {
    return counters.safety_wait_ns;
  }
  throw std::runtime_error("unknown counter " + name);
}

// Expects `condition` of the profile's counters; a fatal failure of this condition when it is
// malformed or names a rank without records.
void expect_holds(const Profile& profile, const std::string& condition) {
  const std::size_t colon = condition.find(':');
  const std::size_t op_at = condition.find_first_of("<>=", colon + 1);
  ASSERT_TRUE(colon != std::string::npos && op_at != std::string::npos &&
              op_at + 2 <= condition.size() && condition[op_at + 1] == '=')
      << "expected a condition <rank|all>:<counter><op><value>, got " << condition;
  const std::string who = condition.substr(0, colon);
  const std::string name = condition.substr(colon + 1, op_at - colon - 1);
  const std::string op = condition.substr(op_at, 2);
  const std::uint64_t expected = std::stoull(condition.substr(op_at + 2));
  std::uint64_t value = 0;
  bool found = false;
  for (const RankRecords& r : profile.ranks) {
    if (who == "all" || std::to_string(r.rank) == who) {
      value += counter(r.counters, name);
      found = true;
    }
  }
  ASSERT_TRUE(found) << condition << ": expected records of rank " << who;
  const std::string what = condition + (who == "all" ? " (sum over ranks)" : "");
  std::printf("%s is %llu\n", what.c_str(), static_cast<unsigned long long>(value));
  if (op == ">=") {
    EXPECT_GE(value, expected) << "expected " << what;
  } else if (op == "<=") {
    EXPECT_LE(value, expected) << "expected " << what;
  } else if (op == "==") {
    EXPECT_EQ(value, expected) << "expected " << what;
  } else {
    ADD_FAILURE() << "expected an operator >=, <= or == in " << condition;
  }
}

TEST(WildcardProfile, Counters) {
  ASSERT_GE(checker_argument_count(), 2u)
      << "expected DIR and at least one <rank|all>:<counter><op><value>";
  Profile profile;
  ASSERT_NO_FATAL_FAILURE(read_the_profile_in(checker_argument(0), profile));
  for (const RankRecords& r : profile.ranks) {
    std::printf("rank %d: wildcard_decisions %llu, cycle_breaks %llu, control_messages %llu, "
                "safety_wait_ns %llu\n",
                r.rank, static_cast<unsigned long long>(r.counters.wildcard_decisions),
                static_cast<unsigned long long>(r.counters.cycle_breaks),
                static_cast<unsigned long long>(r.counters.control_messages),
                static_cast<unsigned long long>(r.counters.safety_wait_ns));
  }
  for (std::size_t i = 1; i < checker_argument_count(); ++i) {
    SCOPED_TRACE("condition " + checker_argument(i));
    expect_holds(profile, checker_argument(i));
  }
}

} // namespace
