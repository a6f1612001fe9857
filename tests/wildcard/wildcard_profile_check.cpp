// Checks the monitor counters (tables::MonitorCounters) of the one profile in a directory.
// Usage:
//   wildcard_profile_check DIR CONDITION...
// A CONDITION is <rank|all>:<counter><op><value>, e.g. 1:cycle_breaks>=1 or
// all:control_messages>=1 ("all": the sum over the ranks), with counter one of
// wildcard_decisions, cycle_breaks, control_messages, safety_wait_ns and op one of >=, <=, ==.
// Prints every rank's counters and each condition; exit status 0 when all conditions hold.
#include "ProfileInDirectory.hpp"
#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

using namespace vcmon::tables;
using vcmon::testing::the_profile_in;

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

bool holds(const Profile& profile, const std::string& condition) {
  const std::size_t colon = condition.find(':');
  const std::size_t op_at = condition.find_first_of("<>=", colon + 1);
  if (colon == std::string::npos || op_at == std::string::npos || op_at + 2 > condition.size() ||
      condition[op_at + 1] != '=') {
    throw std::runtime_error("bad condition " + condition);
  }
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
  if (!found) {
    throw std::runtime_error("no records of rank " + who);
  }
  const bool ok = op == ">="   ? value >= expected
                  : op == "<=" ? value <= expected
                  : op == "==" ? value == expected
                               : throw std::runtime_error("bad operator in " + condition);
  std::printf("%s: %s%s is %llu\n", ok ? "ok" : "FAILED", condition.c_str(),
              who == "all" ? " (sum over ranks)" : "", static_cast<unsigned long long>(value));
  return ok;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s DIR <rank|all>:<counter><op><value>...\n", argv[0]);
    return 2;
  }
  try {
    const Profile profile = the_profile_in(argv[1]);
    for (const RankRecords& r : profile.ranks) {
      std::printf("rank %d: wildcard_decisions %llu, cycle_breaks %llu, control_messages %llu, "
                  "safety_wait_ns %llu\n",
                  r.rank, static_cast<unsigned long long>(r.counters.wildcard_decisions),
                  static_cast<unsigned long long>(r.counters.cycle_breaks),
                  static_cast<unsigned long long>(r.counters.control_messages),
                  static_cast<unsigned long long>(r.counters.safety_wait_ns));
    }
    bool ok = true;
    for (int i = 2; i < argc; ++i) {
      ok = holds(profile, argv[i]) && ok;
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAILED: %s\n", e.what());
  }
  return 1;
}
