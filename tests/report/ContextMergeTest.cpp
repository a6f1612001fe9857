// Merges of consecutive blocks of ranks, absorbed in block order, are the merge of the ranks
// added one by one (tables/include/vcmon/tables/ContextMerge.hpp): vcmon-report merges blocks on
// several threads, the runtime over a binomial tree of ranks (docs/report.md, "The tree").
#include "SyntheticProfile.hpp"
#include "TempDir.hpp"

#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportError.hpp"
#include "vcmon/tables/ContextMerge.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileParts.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <gtest/gtest.h>
#include <random>
#include <set>

namespace vcmon::report {
namespace {

using tables::ContextMerge;

constexpr std::size_t kSites = 40;

// A program's calling contexts: node i's parent (index + 1, 0 at the top) and site.
struct PathTree {
  std::vector<std::uint32_t> parent;
  std::vector<tables::SiteId> site;
};

PathTree random_path_tree(std::size_t nodes, std::mt19937_64& random) {
  PathTree tree;
  std::vector<std::set<tables::SiteId>> child_sites(nodes + 1);
  while (tree.parent.size() < nodes) {
    const auto parent = static_cast<std::uint32_t>(random() % (tree.parent.size() + 1));
    const auto site = static_cast<tables::SiteId>(random() % kSites);
    // One node per path: siblings have different sites.
    if (child_sites[parent].insert(site).second) {
      tree.parent.push_back(parent);
      tree.site.push_back(site);
    }
  }
  return tree;
}

// Values that tie often (0 and a few small ones) or are up to 2^40 ns (18 minutes): summed over
// the test's ranks they stay below 2^53, where doubles hold every integer.
std::uint64_t random_value(std::mt19937_64& random) {
  if (random() % 2 == 0) {
    return random() % 3 * 1000;
  }
  return random() % (std::uint64_t{1} << 40);
}

// One rank's contexts: a random subset of `tree` closed under parents, listed in a random order
// with parents first, as the profile holds them.
std::vector<tables::ContextRecord> random_rank(const PathTree& tree, std::mt19937_64& random) {
  std::vector<tables::ContextRecord> contexts;
  std::vector<std::uint32_t> listed_at(tree.parent.size()); // tree node -> index + 1 in contexts
  std::vector<std::uint32_t> listable;                      // tree nodes whose parent is listed
  auto offer_children = [&](std::uint32_t parent) {
    for (std::uint32_t i = 0; i < tree.parent.size(); ++i) {
      if (tree.parent[i] == parent && random() % 4 != 0) {
        listable.push_back(i);
      }
    }
  };
  offer_children(0);
  while (!listable.empty()) {
    const std::size_t pick = random() % listable.size();
    const std::uint32_t node = listable[pick];
    listable.erase(listable.begin() + static_cast<std::ptrdiff_t>(pick));
    tables::ContextRecord c;
    c.parent = tree.parent[node] == 0 ? 0 : listed_at[tree.parent[node] - 1];
    c.site = tree.site[node];
    c.count = random() % 4;
    c.time_ns = random_value(random);
    c.untimed = random() % 3;
    c.iterations = random_value(random);
    c.sync_delay_ns = random_value(random);
    c.bytes = random_value(random);
    c.folded = random() % 2;
    contexts.push_back(c);
    listed_at[node] = static_cast<std::uint32_t>(contexts.size());
    offer_children(node + 1);
  }
  return contexts;
}

void expect_same(const ContextMerge& blocks, const ContextMerge& one_by_one) {
  ASSERT_EQ(blocks.nodes().size(), one_by_one.nodes().size());
  for (std::size_t i = 0; i < blocks.nodes().size(); ++i) {
    // Exactly equal, sums included: the grouping of the additions must not round them.
    EXPECT_EQ(blocks.nodes()[i], one_by_one.nodes()[i]) << "node " << i;
  }
  EXPECT_EQ(blocks.children(), one_by_one.children());
}

std::string error_of(auto&& action) {
  try {
    action();
  } catch (const ReportError& e) {
    return e.what();
  } catch (const tables::ProfileError& e) {
    return e.what();
  }
  return "no error";
}

// `profile` as the runtime's ranks write it, each rank's records as they are: unlike
// write_profile_file, nothing refuses an inconsistent profile.
std::vector<std::byte> encode_unchecked(const tables::Profile& profile) {
  std::vector<std::byte> bytes = tables::encode_profile_head(profile.meta, profile.graph);
  std::vector<std::vector<std::byte>> records;
  std::vector<tables::RankSectionSize> sections;
  for (const tables::RankRecords& r : profile.ranks) {
    records.push_back(tables::encode_rank_records(r));
    sections.push_back(tables::rank_section_size(r.rank, records.back()));
  }
  const std::vector<std::byte> index = tables::encode_rank_index(bytes.size(), sections);
  bytes.insert(bytes.end(), index.begin(), index.end());
  for (const std::vector<std::byte>& r : records) {
    bytes.insert(bytes.end(), r.begin(), r.end());
  }
  return bytes;
}

TEST(ContextMerge, SpreadAbsorbedIsTheSpreadOfTheRanksAddedOneByOne) {
  // Ties in the maximum (ranks 1, 2 and 4), zeros, and a rank without the context (3).
  const std::vector<std::pair<std::int32_t, double>> values = {{0, 5}, {1, 7}, {2, 7},
                                                               {4, 7}, {5, 0}, {6, 2}};
  ContextMerge::Spread one_by_one;
  for (const auto& [rank, value] : values) {
    one_by_one.add(rank, value);
  }
  for (std::size_t split = 0; split <= values.size(); ++split) {
    ContextMerge::Spread earlier;
    ContextMerge::Spread later;
    for (std::size_t i = 0; i < values.size(); ++i) {
      (i < split ? earlier : later).add(values[i].first, values[i].second);
    }
    earlier.absorb(later);
    EXPECT_EQ(earlier, one_by_one) << "split before value " << split;
    EXPECT_EQ(earlier.max_rank, 1);
  }
}

TEST(ContextMerge, BlocksAbsorbedInOrderAreTheRanksAddedOneByOne) {
  constexpr std::int32_t kRanks = 60;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 random(seed);
    const PathTree tree = random_path_tree(30 + random() % 50, random);
    std::vector<std::vector<tables::ContextRecord>> ranks;
    for (std::int32_t r = 0; r < kRanks; ++r) {
      // Some ranks list the same contexts as the rank before, as ranks of one job mostly do.
      ranks.push_back(r > 0 && random() % 3 == 0 ? ranks.back() : random_rank(tree, random));
    }
    ContextMerge one_by_one;
    for (std::int32_t r = 0; r < kRanks; ++r) {
      ASSERT_FALSE(one_by_one.add_rank(r, ranks[static_cast<std::size_t>(r)], kSites));
    }
    for (const std::size_t blocks : {1, 2, 3, 7, kRanks}) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", " << blocks << " blocks");
      ContextMerge absorbed;
      for (std::size_t b = 0; b < blocks; ++b) {
        ContextMerge block;
        for (std::size_t r = kRanks * b / blocks; r < kRanks * (b + 1) / blocks; ++r) {
          ASSERT_FALSE(block.add_rank(static_cast<std::int32_t>(r), ranks[r], kSites));
        }
        absorbed.absorb(block);
      }
      expect_same(absorbed, one_by_one);

      // Both go on alike: another rank, then one repeating a path of its own.
      ContextMerge absorbed_more = absorbed;
      ContextMerge one_by_one_more = one_by_one;
      const auto next = random_rank(tree, random);
      ASSERT_FALSE(absorbed_more.add_rank(kRanks, next, kSites));
      ASSERT_FALSE(one_by_one_more.add_rank(kRanks, next, kSites));
      expect_same(absorbed_more, one_by_one_more);
      auto repeating = ranks.back();
      if (repeating.empty()) {
        continue;
      }
      repeating.push_back(repeating[random() % repeating.size()]);
      const std::string error =
          absorbed_more.add_rank(kRanks + 1, repeating, kSites).value_or("no error");
      EXPECT_NE(error.find("repeats the path of an earlier context"), std::string::npos) << error;
      EXPECT_EQ(error, one_by_one_more.add_rank(kRanks + 1, repeating, kSites).value_or("none"));
    }
  }
}

TEST(ContextMerge, ReadingRanksInBlocksGivesTheReportAndTheErrorOfReadingThemOneByOne) {
  tables::testing::ProfileShape shape;
  shape.sites = 60;
  shape.ranks = 40;
  const tables::Profile profile = tables::testing::make_synthetic_profile(shape, 7);
  testing::TempDir dir;
  const auto path = dir / "blocks.vcmon";
  tables::write_profile_file(profile, path);
  EXPECT_EQ(JsonRenderer().to_json(build_report(tables::ProfileReader(path))),
            JsonRenderer().to_json(build_report(profile)));
  for (const std::int32_t rank : {0, 1, 2, 21, 39}) { // --rank: one block, any position
    ReportOptions one;
    one.rank = rank;
    EXPECT_EQ(JsonRenderer().to_json(build_report(tables::ProfileReader(path), one)),
              JsonRenderer().to_json(build_report(profile, one)))
        << "rank " << rank;
  }

  // Ranks whose last context repeats an earlier one's path, in several blocks whatever the
  // number of threads: the error is the first of them's, as one by one.
  for (const std::vector<std::size_t>& repeating :
       std::vector<std::vector<std::size_t>>{{9, 23, 38}, {23, 38}, {38}, {0, 39}}) {
    tables::Profile corrupt = profile;
    for (const std::size_t r : repeating) {
      corrupt.ranks[r].contexts.push_back(corrupt.ranks[r].contexts.back());
    }
    tables::write_profile_file(corrupt, path);
    const std::string expected = error_of([&] { build_report(corrupt); });
    EXPECT_EQ(expected.rfind("rank " + std::to_string(repeating.front()) + ": ", 0), 0u)
        << expected;
    EXPECT_EQ(error_of([&] { build_report(tables::ProfileReader(path)); }), expected);
  }
}

TEST(ContextMerge, AReaderErrorAboutARankComesBeforeTheMergeErrorAboutIt) {
  tables::testing::ProfileShape shape;
  shape.sites = 60;
  shape.ranks = 8;
  tables::Profile profile = tables::testing::make_synthetic_profile(shape, 7);
  // Rank 5 repeats a path, which only the merge sees, and names a partner outside the run,
  // which the reader finds after decoding the whole rank, contexts included.
  tables::RankRecords& rank = profile.ranks[5];
  rank.contexts.push_back(rank.contexts.back());
  ASSERT_FALSE(rank.coms.empty());
  rank.coms.front().partner = 99;
  const std::vector<std::byte> bytes = encode_unchecked(profile);
  const std::string expected = error_of([&] { tables::decode_profile(bytes); });
  EXPECT_NE(expected.find("corrupt profile: rank 5: com record"), std::string::npos) << expected;
  EXPECT_EQ(error_of([&] { build_report(tables::ProfileReader(bytes)); }), expected);
  // The partner put right, the merge's error is the one left.
  rank.coms.front().partner = 0;
  const std::vector<std::byte> repeating = encode_unchecked(profile);
  EXPECT_EQ(error_of([&] { build_report(tables::ProfileReader(repeating)); }),
            error_of([&] { build_report(profile); }));
}

} // namespace
} // namespace vcmon::report
