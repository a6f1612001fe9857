// The JSON output conforms to docs/report-schema.json, and the checker catches what does not.
#include "JoinedLines.hpp"
#include "JsonSchemaChecker.hpp"
#include "ReportProfiles.hpp"
#include "SimulatedProgram.hpp"
#include "TempDir.hpp"

#include "vcmon/report/JsonRenderer.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace vcmon::report {
namespace {

using nlohmann::json;

json schema() {
  std::ifstream in(VCMON_REPORT_SCHEMA);
  EXPECT_TRUE(in) << "cannot open " << VCMON_REPORT_SCHEMA;
  return json::parse(in);
}

json rendered(const tables::Profile& profile, const ReportOptions& options = {}) {
  testing::TempDir dir;
  std::ostringstream out;
  JsonRenderer().render(build_report(dir.round_trip(profile), options), out);
  return json::parse(out.str());
}

using testing::joined_lines;

TEST(JsonReport, EveryProfileConformsToTheSchema) {
  const testing::JsonSchemaChecker checker(schema());
  ReportOptions filtered;
  filtered.rank = 1;
  filtered.site = SiteSelector::parse("fig12.c:14");
  for (const auto& document :
       {rendered(testing::figure12_profile()), rendered(testing::figure12_profile(), filtered),
        rendered(testing::factorial_profile()), rendered(testing::even_odd_profile()),
        rendered(testing::simulated_program_profile(3, 5))}) {
    EXPECT_EQ(joined_lines(checker.problems(document)), "");
  }
}

// A profile of format 1 (tests/tables/data) still gives every section.
TEST(JsonReport, OldProfilesGiveEverySection) {
  const testing::JsonSchemaChecker checker(schema());
  const auto profile =
      tables::read_profile_file(VCMON_TABLES_TEST_DATA "/synthetic-12-sites.v1-profile");
  const json document = JsonRenderer().to_json(build_report(profile));
  EXPECT_EQ(joined_lines(checker.problems(document)), "");
  EXPECT_EQ(document["header"]["tree_source"], "sites"); // no contexts before format 6
  EXPECT_FALSE(document["sites"].empty());
  EXPECT_EQ(document["time_split"]["ranks"].size(), profile.ranks.size());
  EXPECT_FALSE(document["mpi_functions"].empty());
  EXPECT_FALSE(document["message_sizes"].empty());
  for (const json& sizes : document["message_sizes"]) { // format 3 brought the sizes
    EXPECT_FALSE(sizes["sizes_recorded"].get<bool>());
    EXPECT_EQ(sizes["mean_bytes"].get<double>(),
              sizes["bytes"].get<double>() / sizes["count"].get<double>());
  }
}

TEST(JsonReport, CarriesTheVersionTreeAndHotPath) {
  const json document = rendered(testing::figure12_profile());
  EXPECT_EQ(document["schema"], "vcmon-report");
  EXPECT_EQ(document["version"], kReportSchemaVersion);
  EXPECT_EQ(document["tree"]["children"][0]["name"], "main");
  EXPECT_EQ(document["hot_path"].back()["name"], "p4");
  EXPECT_EQ(document["hot_path"].back()["call_position"]["line"], 14);
  EXPECT_EQ(document["matrix"]["cells"].size(), 8u);
}

TEST(JsonReport, CheckerRejectsMissingKeysWrongTypesAndStrayKeys) {
  const testing::JsonSchemaChecker checker(schema());
  json document = rendered(testing::figure12_profile());
  document["tree"]["children"][0].erase("time");
  document["header"]["ranks"] = "four";
  document["matrix"]["cells"][0]["colour"] = "red";
  document["tree"]["kind"] = "forest";
  const auto problems = joined_lines(checker.problems(document));
  EXPECT_NE(problems.find("/tree/children/0: lacks required key time"), std::string::npos)
      << problems;
  EXPECT_NE(problems.find("/header/ranks: is string"), std::string::npos) << problems;
  EXPECT_NE(problems.find("/matrix/cells/0: unexpected key colour"), std::string::npos) << problems;
  EXPECT_NE(problems.find("/tree: matches none of anyOf"), std::string::npos) << problems;
}

TEST(JsonReport, CheckerRefusesKeywordsItDoesNotImplement) {
  const testing::JsonSchemaChecker checker(json{{"type", "string"}, {"pattern", "^a"}});
  EXPECT_THROW(checker.problems("abc"), std::invalid_argument);
}

} // namespace
} // namespace vcmon::report
