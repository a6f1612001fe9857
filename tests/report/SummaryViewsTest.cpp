// The views mpiP users read first, checked against the records they come from: the time split
// per rank, MPI functions by aggregate time and message sizes per call site; and the tree's
// per-node numbers as means over the ranks (the self column, a statement's transmission, sync
// delay and bytes, a partner's imbalance over the ranks that hold it).
#include "ReportProfiles.hpp"
#include "SimulatedProgram.hpp"
#include "TempDir.hpp"
#include "TreeOutline.hpp"

#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/TextRenderer.hpp"

#include <algorithm>
#include <array>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

namespace vcmon::report {
namespace {

using tables::SiteId;

double com_time(const tables::ComRecord& com) {
  return static_cast<double>(com.transmission_ns + com.sync_delay_ns);
}

double main_time(const tables::Profile& profile, const tables::RankRecords& rank) {
  const auto main_proc = profile.graph.find_procedure("main");
  for (const auto& proc : rank.procs) {
    if (proc.proc == *main_proc && proc.call_site == tables::kNoSite) {
      return static_cast<double>(proc.time_ns);
    }
  }
  return static_cast<double>(rank.virtual_ns);
}

std::string text_of(const Report& report) {
  std::ostringstream out;
  TextRenderer().render(report, out);
  return out.str();
}

// Seeded simulated programs, written and read back as vcmon-report reads them.
std::vector<tables::Profile> simulated(std::int32_t ranks) {
  testing::TempDir dir;
  std::vector<tables::Profile> profiles;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    profiles.push_back(dir.round_trip(testing::simulated_program_profile(seed, ranks)));
  }
  return profiles;
}

TEST(TimeSplitReport, ApplicationIsTheProgramAndMpiIsEveryComRecord) {
  for (const auto& profile : simulated(3)) {
    const Report report = build_report(profile);
    const auto& split = report.time_split;
    ASSERT_EQ(split.ranks.size(), profile.ranks.size());
    std::vector<double> application, mpi, percent;
    for (std::size_t i = 0; i < profile.ranks.size(); ++i) {
      const auto& records = profile.ranks[i];
      double expected_mpi = 0;
      for (const auto& com : records.coms) {
        expected_mpi += com_time(com);
      }
      const auto& row = split.ranks[i];
      EXPECT_EQ(row.rank, records.rank);
      EXPECT_DOUBLE_EQ(row.application_ns, main_time(profile, records));
      EXPECT_DOUBLE_EQ(row.mpi_ns, expected_mpi);
      EXPECT_DOUBLE_EQ(row.mpi_percent(), 100 * expected_mpi / row.application_ns);
      application.push_back(row.application_ns);
      mpi.push_back(expected_mpi);
      percent.push_back(row.mpi_percent());
    }
    EXPECT_DOUBLE_EQ(split.application.min,
                     *std::min_element(application.begin(), application.end()));
    EXPECT_DOUBLE_EQ(split.mpi.max, *std::max_element(mpi.begin(), mpi.end()));
    EXPECT_DOUBLE_EQ(split.mpi_percent.mean, (percent[0] + percent[1] + percent[2]) / 3);
    // The program node counts the same application time.
    EXPECT_DOUBLE_EQ(split.application.total, report.tree.root().time.total);
  }
}

TEST(TimeSplitReport, ShowsOnlyTheRankAskedFor) {
  testing::TempDir dir;
  ReportOptions options;
  options.rank = 2;
  const Report report = build_report(dir.round_trip(testing::figure12_profile()), options);
  ASSERT_EQ(report.time_split.ranks.size(), 1u);
  EXPECT_EQ(report.time_split.ranks[0].rank, 2);
  EXPECT_DOUBLE_EQ(report.time_split.mpi.min, report.time_split.mpi.max);
}

TEST(MpiFunctionsReport, SumsEachFunctionOverItsSitesAndRanksCostliestFirst) {
  for (const auto& profile : simulated(4)) {
    struct Expected {
      double time = 0;
      std::uint64_t count = 0;
      std::set<SiteId> sites;
    };
    std::map<std::string, Expected> expected;
    double mpi_total = 0, application_total = 0;
    for (const auto& records : profile.ranks) {
      application_total += main_time(profile, records);
      for (const auto& com : records.coms) {
        auto& function = expected[profile.graph.site(com.comm).name];
        function.time += com_time(com);
        function.count += com.count;
        function.sites.insert(com.comm);
        mpi_total += com_time(com);
      }
    }
    const Report report = build_report(profile);
    ASSERT_EQ(report.mpi_functions.size(), expected.size());
    for (std::size_t i = 0; i < report.mpi_functions.size(); ++i) {
      const auto& f = report.mpi_functions[i];
      SCOPED_TRACE(f.name);
      ASSERT_TRUE(expected.contains(f.name));
      const auto& want = expected[f.name];
      EXPECT_DOUBLE_EQ(f.time_ns, want.time);
      EXPECT_EQ(f.count, want.count);
      EXPECT_EQ(f.sites, want.sites.size());
      EXPECT_DOUBLE_EQ(f.mpi_percent, 100 * want.time / mpi_total);
      EXPECT_DOUBLE_EQ(f.application_percent, 100 * want.time / application_total);
      if (i > 0) {
        EXPECT_GE(report.mpi_functions[i - 1].time_ns, f.time_ns);
      }
    }
  }
}

TEST(MessageSizesReport, CountsBytesAndTheMeanPerStatementMostBytesFirst) {
  for (const auto& profile : simulated(3)) {
    struct Expected {
      std::uint64_t count = 0, bytes = 0, messages = 0, min = ~std::uint64_t{0}, max = 0;
      std::array<std::uint64_t, tables::kSizeClasses> classes{};
    };
    std::map<SiteId, Expected> expected;
    for (const auto& records : profile.ranks) {
      for (const auto& com : records.coms) {
        Expected& e = expected[com.comm];
        e.count += com.count;
        e.bytes += com.bytes;
        e.messages += com.sizes.messages();
        e.min = std::min(e.min, com.sizes.min_bytes);
        e.max = std::max(e.max, com.sizes.max_bytes);
        for (std::size_t c = 0; c < tables::kSizeClasses; ++c) {
          e.classes[c] += com.sizes.classes[c];
        }
      }
    }
    std::erase_if(expected, [](const auto& entry) { return entry.second.bytes == 0; });
    const Report report = build_report(profile);
    ASSERT_EQ(report.message_sizes.size(), expected.size());
    for (std::size_t i = 0; i < report.message_sizes.size(); ++i) {
      const auto& sizes = report.message_sizes[i];
      const Expected& e = expected.at(sizes.site);
      EXPECT_EQ(sizes.name, profile.graph.site(sizes.site).name);
      EXPECT_EQ(sizes.count, e.count);
      EXPECT_EQ(sizes.bytes, e.bytes);
      // Over every rank and partner: the extremes of all, the classes summed.
      ASSERT_TRUE(sizes.sizes_recorded());
      EXPECT_EQ(sizes.sizes.messages(), e.messages);
      EXPECT_EQ(sizes.sizes.min_bytes, e.min);
      EXPECT_EQ(sizes.sizes.max_bytes, e.max);
      EXPECT_EQ(sizes.sizes.classes, e.classes);
      EXPECT_DOUBLE_EQ(sizes.mean_bytes(), double(e.bytes) / double(e.messages));
      if (i > 0) {
        EXPECT_GE(report.message_sizes[i - 1].bytes, sizes.bytes);
      }
    }
  }
}

TEST(TreeMeansReport, PartnerImbalanceIsOverTheRanksHoldingItsRecords) {
  for (const auto& profile : simulated(4)) {
    // (statement, partner) -> the ranks whose records hold it
    std::map<std::pair<SiteId, std::int32_t>, std::set<std::int32_t>> holders;
    for (const auto& records : profile.ranks) {
      for (const auto& com : records.coms) {
        holders[{com.comm, com.partner}].insert(records.rank);
      }
    }
    const Report report = build_report(profile);
    for (const auto& node : report.tree.nodes()) {
      if (node.kind != NodeKind::Partner) {
        EXPECT_EQ(node.time.imbalance_ranks, 4) << node.name;
        continue;
      }
      ASSERT_NE(node.partner, ReportNode::kOtherPartners); // 4 ranks: never beyond 16 partners
      const auto& parent =
          *testing::find_nodes(report.tree, [&](const ReportNode& n) {
             return std::find(n.children.begin(), n.children.end(), node.id) != n.children.end();
           }).at(0);
      const auto held = static_cast<std::int32_t>(holders.at({parent.site, node.partner}).size());
      EXPECT_EQ(node.time.imbalance_ranks, held) << parent.name << " " << node.name;
      if (node.time.total > 0) {
        EXPECT_DOUBLE_EQ(node.time.imbalance(), node.time.max * held / node.time.total);
      }
    }
  }
}

// Two ranks exchange through one statement: 3 us + 1 us on rank 0, 1 us + 3 us on rank 1,
// 800 bytes each. Every number in the statement's row is a mean over the two ranks.
tables::Profile exchange_profile() {
  tables::Profile profile;
  profile.meta.command = "./exchange";
  profile.meta.ranks = 2;
  auto& g = profile.graph;
  const auto main_proc =
      g.add_site(tables::SiteKind::Procedure, {"x.c", 1, 1}, "main", tables::kNoSite, "main");
  const auto send = g.add_site(tables::SiteKind::Comm, {"x.c", 2, 3}, "MPI_Sendrecv", main_proc);
  for (std::int32_t r = 0; r < 2; ++r) {
    tables::RankRecords rec;
    rec.rank = r;
    rec.virtual_ns = 10'000;
    rec.procs = {{main_proc, tables::kNoSite, 10'000, 1}};
    rec.coms = {{send, 1 - r, r == 0 ? 3000u : 1000u, r == 0 ? 1000u : 3000u, 1, 800}};
    profile.ranks.push_back(rec);
  }
  return profile;
}

// The text line holding `label`.
std::string line_with(const std::string& text, const std::string& label) {
  const auto at = text.find(label);
  if (at == std::string::npos) {
    return {};
  }
  const auto begin = text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

TEST(TreeMeansReport, TextShowsTheStatementsMeansAndTheSelfColumn) {
  testing::TempDir dir;
  const std::string text = text_of(build_report(dir.round_trip(exchange_profile())));
  // Means of (3 us, 1 us), (1 us, 3 us) and (800 B, 800 B); sums would read 4 us and 1.56 KiB.
  EXPECT_NE(text.find("MPI_Sendrecv  x.c:2  [mean transmit 2.00 us, sync 2.00 us, 800 B]"),
            std::string::npos)
      << text;
  // Partner rank 1 is rank 0's record alone: over both ranks its mean is half of it, and it is
  // balanced among the one rank that holds it. Its self is its whole mean.
  const auto partner = line_with(text, "rank 1  [mean transmit 1.50 us, sync 500 ns, 400 B]");
  EXPECT_NE(partner.find("2.00 us       0 ns    4.00 us  1.00     0    2.00 us          1 "),
            std::string::npos)
      << text;
  // main's self: 10 us per rank minus the statement's 4 us.
  EXPECT_NE(line_with(text, "└─ main  x.c:1").find("1.00     0    6.00 us          2 "),
            std::string::npos)
      << text;
}

TEST(SummaryReport, TextListsEachRankUpTo32ThenOnlyMinMeanMax) {
  testing::TempDir dir;
  const std::string few = text_of(build_report(dir.round_trip(testing::figure12_profile())));
  for (const char* expected :
       {"Time per rank", "\n       3 ", "\n     min ", "\n    mean ", "\n     max ",
        "MPI functions by aggregate time", "Message sizes per call site"}) {
    EXPECT_NE(few.find(expected), std::string::npos) << expected << "\n" << few;
  }
  const auto many = text_of(build_report(testing::simulated_program_profile(1, 40)));
  const auto begin = many.find("Time per rank"), end = many.find("MPI functions");
  const auto split = many.substr(begin, end - begin);
  EXPECT_NE(split.find("  ... 40 ranks (see --format json or html)\n"), std::string::npos) << split;
  EXPECT_EQ(split.find("\n      39 "), std::string::npos) << split;
  EXPECT_NE(split.find("\n     max "), std::string::npos) << split;
}

// --threshold hides tree nodes and statements, never the summaries of the whole run.
TEST(SummaryReport, ThresholdLeavesTheSummariesWhole) {
  testing::TempDir dir;
  const auto profile = dir.round_trip(testing::figure12_profile());
  ReportOptions options;
  options.threshold_percent = 100;
  const Report all = build_report(profile), filtered = build_report(profile, options);
  EXPECT_TRUE(filtered.statements.empty());
  EXPECT_EQ(filtered.message_sizes.size(), all.message_sizes.size());
  EXPECT_EQ(filtered.mpi_functions.size(), all.mpi_functions.size());
  EXPECT_DOUBLE_EQ(filtered.time_split.mpi.total, all.time_split.mpi.total);
  EXPECT_FALSE(all.message_sizes.empty());
}

TEST(SummaryReport, JsonCarriesTheViewsAndTheMeans) {
  testing::TempDir dir;
  const Report report = build_report(dir.round_trip(testing::figure12_profile()));
  const auto json = JsonRenderer().to_json(report);
  ASSERT_EQ(json["time_split"]["ranks"].size(), 4u);
  EXPECT_DOUBLE_EQ(json["time_split"]["ranks"][3]["mpi_ns"].get<double>(),
                   report.time_split.ranks[3].mpi_ns);
  EXPECT_DOUBLE_EQ(json["time_split"]["mpi_percent"]["max"].get<double>(),
                   report.time_split.mpi_percent.max);
  ASSERT_EQ(json["mpi_functions"].size(), report.mpi_functions.size());
  EXPECT_EQ(json["mpi_functions"][0]["name"], report.mpi_functions[0].name);
  ASSERT_EQ(json["message_sizes"].size(), report.message_sizes.size());
  EXPECT_DOUBLE_EQ(json["message_sizes"][0]["mean_bytes"].get<double>(),
                   report.message_sizes[0].mean_bytes());
  // Every comm node's comm_mean is its comm over the 4 ranks.
  std::vector<const nlohmann::json*> pending{&json["tree"]};
  int comm_nodes = 0;
  while (!pending.empty()) {
    const auto& node = *pending.back();
    pending.pop_back();
    EXPECT_DOUBLE_EQ(node["self_mean_ns"].get<double>(), node["self_ns"].get<double>() / 4);
    if (node.contains("comm")) {
      ++comm_nodes;
      for (const char* key : {"transmission_ns", "sync_delay_ns", "bytes"}) {
        EXPECT_DOUBLE_EQ(node["comm_mean"][key].get<double>(), node["comm"][key].get<double>() / 4);
      }
    }
    for (const auto& child : node["children"]) {
      pending.push_back(&child);
    }
  }
  EXPECT_GT(comm_nodes, 0);
}

} // namespace
} // namespace vcmon::report
