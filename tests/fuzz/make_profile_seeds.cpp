// Writes the seed corpus of fuzz_profile: small valid profiles and single ranks' records, one
// kind per decoding path the target exercises. The bare payloads (payload-*) for the path that
// frames its input as a version-5 payload came from the writers of versions 1 to 5 and stay as
// they are: this writer makes version-7 files, with their job's summary (summary-*) and without
// (profile-*, laid out as version 6 was).
// Usage: make_profile_seeds DIR
#include "SyntheticProfile.hpp"

#include "vcmon/tables/JobSummary.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace {

void write(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  using namespace vcmon::tables;
  const std::filesystem::path dir = argv[1];
  const testing::ProfileShape shapes[] = {{.sites = 6, .ranks = 1, .partners = 1},
                                          {.sites = 20, .ranks = 2, .partners = 1},
                                          {.sites = 40, .ranks = 3, .partners = 2},
                                          // Statements with more partners than the report lists.
                                          {.sites = 12, .ranks = 18, .partners = 17}};
  int n = 0;
  for (const testing::ProfileShape& shape : shapes) {
    const Profile profile = testing::make_synthetic_profile(shape, 1000 + n);
    const std::vector<std::byte> bytes = encode_profile(profile);
    const std::string name = std::to_string(shape.sites) + "-sites";
    write(dir / ("profile-" + name), bytes);
    SummaryReduction reduction(profile.graph, profile.meta.ranks);
    for (const RankRecords& r : profile.ranks) {
      if (const auto problem = reduction.add_rank(r)) {
        throw std::runtime_error(*problem);
      }
    }
    reduction.begin_other_partners(reduction.other_partners_needed());
    for (const RankRecords& r : profile.ranks) {
      reduction.add_other_partners(r);
    }
    const JobSummary summary = reduction.whole_job();
    write(dir / ("summary-" + name), encode_profile(profile, &summary));
    write(dir / ("rank-" + name), encode_rank_records(profile.ranks.back()));
    ++n;
  }
  return 0;
}
