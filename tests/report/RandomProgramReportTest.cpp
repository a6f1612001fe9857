// Random programs from the tables module's generator (calls in every direction, recursive
// components, indirect and external calls): every report renders, its JSON conforms, and
// recursion never adds time twice.
#include "JsonSchemaChecker.hpp"
#include "SyntheticProfile.hpp"
#include "TempDir.hpp"

#include "vcmon/report/HtmlRenderer.hpp"
#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/TextRenderer.hpp"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace vcmon::report {
namespace {

TEST(RandomProgramReport, RendersConformsAndCountsRecursionOnce) {
  std::ifstream schema_file(VCMON_REPORT_SCHEMA);
  const testing::JsonSchemaChecker checker(nlohmann::json::parse(schema_file));
  testing::TempDir dir;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto profile = dir.round_trip(tables::testing::make_synthetic_profile({150, 3, 2}, seed));
    const Report report = build_report(profile);
    ASSERT_FALSE(report.tree.empty());

    for (const auto& node : report.tree.nodes()) {
      double children = 0;
      for (const auto child : node.children) {
        children += report.tree.node(child).counted_ns;
      }
      if (node.recursive) {
        EXPECT_DOUBLE_EQ(node.counted_ns, children);
      } else if (node.outside_main) {
        EXPECT_EQ(node.counted_ns, 0); // a root other than main adds nothing to the program
      } else {
        EXPECT_DOUBLE_EQ(node.counted_ns, node.time.total);
      }
    }
    // The walk only ever steps to the child adding the most (unfiltered: index == id).
    for (std::size_t i = 1; i < report.hot_path.size(); ++i) {
      double most = 0;
      for (const auto child : report.tree.node(report.hot_path[i - 1].id).children) {
        most = std::max(most, report.tree.node(child).counted_ns);
      }
      EXPECT_GT(report.hot_path[i].counted_ns, 0);
      EXPECT_DOUBLE_EQ(report.hot_path[i].counted_ns, most);
    }

    std::ostringstream json, text, html;
    JsonRenderer().render(report, json);
    TextRenderer().render(report, text);
    HtmlRenderer().render(report, html);
    const auto problems = checker.problems(nlohmann::json::parse(json.str()));
    EXPECT_TRUE(problems.empty()) << problems.front();
    EXPECT_NE(text.str().find("Top-down profile"), std::string::npos);
    EXPECT_NE(html.str().find("</html>"), std::string::npos);
  }
}

} // namespace
} // namespace vcmon::report
