// Reads the one profile a tests/mpi program wrote (tables::read_profile_file) and checks one
// rank's communication records against what the PMPI layer must have measured. Usage:
//   pmpi_profile_check <dir> delay <rank> <MPI function> <partner|coll> <expected ms> <tolerance
//   ms>
//       the com record of that synthetic site and partner has sync delay = expected ± tolerance
//   pmpi_profile_check <dir> records <rank> <MPI function> <partner|coll> <count> <bytes>
//       ... has exactly that count and bytes
//   pmpi_profile_check <dir> sizes <rank> <MPI function> <partner|coll> <min> <max>
//       ... has every operation a message, the smallest and largest of that size, and each in
//       a size class between theirs
//   pmpi_profile_check <dir> offset <rank> <expected ns> <tolerance ns>
//       the rank's estimated clock offset to rank 0
//   pmpi_profile_check <dir> transmission <rank> <MPI function> <partner|coll> <at most ms>
// Exit status 0 when the check holds.
#include "ProfileInDirectory.hpp"
#include "vcmon/tables/Profile.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

using namespace vcmon::tables;
using vcmon::testing::the_profile_in;

namespace {

const RankRecords& rank_records(const Profile& profile, int rank) {
  for (const RankRecords& r : profile.ranks) {
    if (r.rank == rank) {
      return r;
    }
  }
  throw std::runtime_error("no records of rank " + std::to_string(rank));
}

// The com record of the synthetic site of MPI function `function` (an uninstrumented call).
const ComRecord& com_record(const Profile& profile, const RankRecords& records,
                            const std::string& function, const std::string& partner_arg) {
  const std::int32_t partner =
      partner_arg == "coll" ? ComRecord::kCollective : std::stoi(partner_arg);
  for (const ComRecord& com : records.coms) {
    const Site& site = profile.graph.site(com.comm);
    if (site.name == function && site.pos.file.empty() && com.partner == partner) {
      return com;
    }
  }
  throw std::runtime_error("rank " + std::to_string(records.rank) + " has no record of " +
                           function + " with partner " + partner_arg);
}

double ms(std::uint64_t ns) {
  return static_cast<double>(ns) / 1e6;
}

bool check(const std::vector<std::string>& args) {
  const Profile profile = the_profile_in(args.at(0));
  const std::string& what = args.at(1);
  const RankRecords& records = rank_records(profile, std::stoi(args.at(2)));
  if (what == "offset") {
    const double expected = std::stod(args.at(3));
    const double tolerance = std::stod(args.at(4));
    const double offset = static_cast<double>(records.clock_offset_ns);
    std::printf("rank %d: clock offset %.0f ns, expected %.0f ± %.0f\n", records.rank, offset,
                expected, tolerance);
    return std::abs(offset - expected) <= tolerance;
  }
  const ComRecord& com = com_record(profile, records, args.at(3), args.at(4));
  std::printf("rank %d %s partner %s: count %llu, bytes %llu, sync delay %.3f ms, "
              "transmission %.3f ms\n",
              records.rank, args.at(3).c_str(), args.at(4).c_str(),
              static_cast<unsigned long long>(com.count),
              static_cast<unsigned long long>(com.bytes), ms(com.sync_delay_ns),
              ms(com.transmission_ns));
  if (what == "delay") {
    const double expected = std::stod(args.at(5));
    const double tolerance = std::stod(args.at(6));
    return std::abs(ms(com.sync_delay_ns) - expected) <= tolerance;
  }
  if (what == "records") {
    return com.count == std::stoull(args.at(5)) && com.bytes == std::stoull(args.at(6));
  }
  if (what == "sizes") {
    const std::uint64_t least = std::stoull(args.at(5));
    const std::uint64_t most = std::stoull(args.at(6));
    std::uint64_t between = 0;
    for (std::size_t c = size_class(least); c <= size_class(most); ++c) {
      between += com.size_classes[c];
    }
    std::printf("messages %llu (%llu in the classes from %llu to %llu B), %llu to %llu B\n",
                static_cast<unsigned long long>(com.messages()),
                static_cast<unsigned long long>(between), static_cast<unsigned long long>(least),
                static_cast<unsigned long long>(most),
                static_cast<unsigned long long>(com.min_bytes),
                static_cast<unsigned long long>(com.max_bytes));
    return com.messages() == com.count && between == com.count && com.min_bytes == least &&
           com.max_bytes == most;
  }
  if (what == "transmission") {
    return ms(com.transmission_ns) <= std::stod(args.at(5));
  }
  throw std::runtime_error("unknown check " + what);
}

} // namespace

int main(int argc, char** argv) {
  try {
    if (check({argv + 1, argv + argc})) {
      return 0;
    }
    std::fprintf(stderr, "FAILED\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAILED: %s\n", e.what());
  }
  return 1;
}
