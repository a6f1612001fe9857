// A program with more call paths than the tree may hold: the report stops growing and says so.
#include "TempDir.hpp"

#include "vcmon/report/Report.hpp"
#include "vcmon/report/TextRenderer.hpp"

#include <gtest/gtest.h>
#include <sstream>

namespace vcmon::report {
namespace {

using tables::SiteKind;

// level0 calls level1 twice, level1 calls level2 twice, ...: 2^depth call paths.
tables::Profile doubling_profile(int depth) {
  tables::Profile profile;
  profile.meta.command = "./paths";
  profile.meta.ranks = 1;
  auto& g = profile.graph;
  const auto none = tables::kNoSite;
  auto name = [](int level) {
    return level == 0 ? std::string("main") : "level" + std::to_string(level);
  };
  std::vector<tables::SiteId> procs, calls;
  for (int level = 0; level <= depth; ++level) {
    const auto line = static_cast<std::uint32_t>(3 * level + 1);
    procs.push_back(
        g.add_site(SiteKind::Procedure, {"paths.c", line, 1}, name(level), none, name(level)));
    if (level < depth) {
      for (std::uint32_t c = 1; c <= 2; ++c) {
        calls.push_back(g.add_site(SiteKind::Call, {"paths.c", line + c, 1}, name(level + 1),
                                   procs.back(), name(level + 1)));
      }
    }
  }
  tables::RankRecords rec;
  rec.virtual_ns = std::uint64_t{1} << (depth + 2);
  rec.procs.push_back({procs[0], none, rec.virtual_ns, 1});
  for (int level = 1; level <= depth; ++level) {
    const auto time = std::uint64_t{1} << (depth + 1 - level);
    const auto count = std::uint64_t{1} << (level - 1);
    for (int c = 0; c < 2; ++c) {
      rec.procs.push_back({procs[level], calls[2 * (level - 1) + c], time, count});
    }
  }
  profile.ranks.push_back(rec);
  return profile;
}

TEST(TreeLimitReport, StopsGrowingAndSaysSo) {
  testing::TempDir dir;
  const Report small = build_report(dir.round_trip(doubling_profile(4)));
  EXPECT_FALSE(small.header.tree_truncated);
  EXPECT_EQ(small.tree.size(), 2u + 2 + 4 + 8 + 16); // program, main, then doubling levels

  const Report large = build_report(dir.round_trip(doubling_profile(20)));
  EXPECT_TRUE(large.header.tree_truncated);
  EXPECT_LT(large.tree.size(), std::size_t{1} << 20);
  EXPECT_GT(large.tree.size(), 1000u);
  std::ostringstream text;
  TextRenderer().render(large, text);
  EXPECT_NE(text.str().find("TREE TRUNCATED"), std::string::npos);
}

} // namespace
} // namespace vcmon::report
