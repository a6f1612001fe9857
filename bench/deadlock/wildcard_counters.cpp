// Sums the monitor counters of the profiles given (files, or directories holding *.vcmon
// files) over all their ranks, for run_wildcard_bench.sh. Prints one line:
//   profiles=N ranks=N decisions=N cycle_breaks=N control_messages=N safety_wait_ns=N
// Exit status 1 when a path holds no profile or one does not read.
#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <vector>

namespace fs = std::filesystem;
using namespace vcmon::tables;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PROFILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  try {
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
      const fs::path path = argv[i];
      const std::size_t before = files.size();
      if (fs::is_directory(path)) {
        for (const fs::directory_entry& entry : fs::directory_iterator(path)) {
          if (entry.path().extension() == ".vcmon") {
            files.push_back(entry.path());
          }
        }
      } else {
        files.push_back(path);
      }
      if (files.size() == before) {
        std::fprintf(stderr, "%s: no .vcmon profile in %s\n", argv[0], argv[i]);
        return 1;
      }
    }
    std::uint64_t ranks = 0;
    MonitorCounters sum;
    for (const fs::path& file : files) {
      const Profile profile = read_profile_file(file);
      for (const RankRecords& records : profile.ranks) {
        ++ranks;
        add_sums(sum, records.counters);
      }
    }
    std::printf("profiles=%zu ranks=%llu decisions=%llu cycle_breaks=%llu control_messages=%llu "
                "safety_wait_ns=%llu\n",
                files.size(), static_cast<unsigned long long>(ranks),
                static_cast<unsigned long long>(sum.wildcard_decisions),
                static_cast<unsigned long long>(sum.cycle_breaks),
                static_cast<unsigned long long>(sum.control_messages),
                static_cast<unsigned long long>(sum.safety_wait_ns));
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.what());
    return 1;
  }
}
