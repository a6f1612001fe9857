// --format speedscope: speedscope's file format, field by field against its schema, and the
// samples rebuilding the tree the Hatchet export writes.
#include "ExportChecks.hpp"
#include "HandMadeReports.hpp"
#include "ReportProfiles.hpp"
#include "SimulatedProgram.hpp"
#include "TempDir.hpp"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <tuple>

namespace vcmon::report {
namespace {

using testing::Json;

// The weight of every path of frame names and of every path it starts: a node's inclusive
// time as the samples give it.
std::map<std::string, std::int64_t> weight_by_prefix(const Json& file) {
  std::map<std::string, std::int64_t> weights;
  const Json& frames = file["shared"]["frames"];
  const Json& profile = file["profiles"][0];
  for (std::size_t s = 0; s < profile["samples"].size(); ++s) {
    std::string path;
    for (const auto& index : profile["samples"][s]) {
      path +=
          (path.empty() ? "" : ";") + frames[index.get<std::size_t>()]["name"].get<std::string>();
      weights[path] += profile["weights"][s].get<std::int64_t>();
    }
  }
  return weights;
}

// The same from the Hatchet export: the inclusive time of the nodes at each path.
std::map<std::string, std::int64_t> hatchet_by_path(const Report& report) {
  std::map<std::string, std::int64_t> weights;
  for (const auto& node : testing::flatten_hatchet(Json::parse(testing::render_hatchet(report)))) {
    weights[node.path] += node.inclusive;
  }
  return weights;
}

TEST(ReportExportSpeedscope, Figure12ConformsToTheSchema) {
  testing::TempDir dir;
  const Report report = build_report(dir.round_trip(testing::figure12_profile()));
  const Json file = Json::parse(testing::render_speedscope(report));
  const auto problems = testing::speedscope_problems(file);
  EXPECT_TRUE(problems.empty()) << problems.front();
  EXPECT_EQ(file["$schema"], "https://www.speedscope.app/file-format-schema.json");
  EXPECT_EQ(file["exporter"], "vcmon-report");
  EXPECT_EQ(file["activeProfileIndex"], 0);
  ASSERT_EQ(file["profiles"].size(), 1u); // the mean over the ranks
  const Json& profile = file["profiles"][0];
  EXPECT_EQ(profile["type"], "sampled");
  EXPECT_EQ(profile["unit"], "nanoseconds");
  EXPECT_EQ(profile["startValue"], 0);
  EXPECT_EQ(profile["endValue"], 977500); // the program's mean inclusive time
  EXPECT_EQ(profile["name"], file["name"]);
  EXPECT_NE(profile["name"].get<std::string>().find("mean over 4 ranks"), std::string::npos);

  // Shared frames: one per name and position, with the position speedscope shows.
  const Json& frames = file["shared"]["frames"];
  std::set<std::tuple<std::string, std::string, std::int64_t>> seen;
  std::size_t p4 = 0;
  for (const auto& frame : frames) {
    EXPECT_TRUE(seen.emplace(frame["name"], frame.value("file", ""), frame.value("line", 0)).second)
        << frame.dump();
    if (frame["name"] == "p4") {
      ++p4;
      EXPECT_EQ(frame["file"], "fig12.c");
      EXPECT_EQ(frame["line"], 15);
    }
  }
  EXPECT_EQ(p4, 1u); // four activations, one frame: the sandwich view gathers them
  EXPECT_EQ(frames[0], Json::parse(R"({"name": "program"})"));
  for (const auto& sample : profile["samples"]) {
    EXPECT_EQ(sample[0], 0); // every stack starts at the program
  }
  EXPECT_EQ(weight_by_prefix(file), hatchet_by_path(report));
}

TEST(ReportExportSpeedscope, SamplesRebuildTheTreeOfRandomPrograms) {
  testing::TempDir dir;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Report report = build_report(
        dir.round_trip(testing::simulated_program_profile(seed, 1 + static_cast<int>(seed % 4))));
    const Json file = Json::parse(testing::render_speedscope(report));
    const auto problems = testing::speedscope_problems(file);
    EXPECT_TRUE(problems.empty()) << problems.front();
    // These programs keep the tree's invariant: nothing is clamped, so the samples give every
    // node exactly the inclusive time the Hatchet export writes.
    const auto samples = weight_by_prefix(file);
    for (const auto& [path, inclusive] : hatchet_by_path(report)) {
      const auto found = samples.find(path);
      EXPECT_EQ(found == samples.end() ? 0 : found->second, inclusive) << path;
    }
  }
}

TEST(ReportExportSpeedscope, ThreadsBrokenTreesAndRecursion) {
  const Json threads = Json::parse(testing::render_speedscope(testing::threads_report()));
  EXPECT_TRUE(testing::speedscope_problems(threads).empty());
  EXPECT_EQ(threads["profiles"][0]["endValue"], 4000000); // program 1 ms + worker 3 ms
  EXPECT_EQ(weight_by_prefix(threads).at("worker"), 3000000);

  // Weights cannot be negative: main's -0.5 ms is written as nothing, p keeps its 1.5 ms.
  const Json broken = Json::parse(testing::render_speedscope(testing::broken_report()));
  const auto problems = testing::speedscope_problems(broken);
  EXPECT_TRUE(problems.empty()) << problems.front();
  EXPECT_EQ(broken["profiles"][0]["endValue"], 1500000);
  EXPECT_EQ(broken["profiles"][0]["weights"], Json::parse("[1500000]"));

  const auto recursion =
      weight_by_prefix(Json::parse(testing::render_speedscope(testing::recursion_report())));
  EXPECT_EQ(recursion.at("program;main;fact"), 900000);
  EXPECT_EQ(recursion.at("program;main;fact;fact"), 100000);
  EXPECT_EQ(recursion.at("program;main;fact;fact;MPI_Send app.c:5;rank 1"), 100000);
  EXPECT_EQ(recursion.count("program;main;loop app.c:8"), 0u); // no time of its own
}

TEST(ReportExportSpeedscope, OneRanksProfileSaysWhichRank) {
  testing::TempDir dir;
  ReportOptions options;
  options.rank = 2;
  const Json file = Json::parse(testing::render_speedscope(
      build_report(dir.round_trip(testing::figure12_profile()), options)));
  EXPECT_TRUE(testing::speedscope_problems(file).empty());
  EXPECT_NE(file["name"].get<std::string>().find("rank 2"), std::string::npos) << file["name"];
  EXPECT_EQ(file["profiles"][0]["endValue"], 1020000); // rank 2: 850 us x 1.2
}

} // namespace
} // namespace vcmon::report
