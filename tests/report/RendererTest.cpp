// Text and HTML renderings of the figure-12 report.
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include "vcmon/report/HtmlRenderer.hpp"
#include "vcmon/report/TextRenderer.hpp"

#include <gtest/gtest.h>
#include <regex>
#include <sstream>

namespace vcmon::report {
namespace {

std::string text_of(const Report& report) {
  std::ostringstream out;
  TextRenderer().render(report, out);
  return out.str();
}

Report figure12(const ReportOptions& options = {}) {
  testing::TempDir dir;
  return build_report(dir.round_trip(testing::figure12_profile()), options);
}

TEST(TextRenderer, ShowsHeaderHotPathTreeAndCommunication) {
  const std::string text = text_of(figure12());
  for (const char* expected :
       {"command        ./fig12", "ranks          4 (4 in this report) on 1 host: node1",
        "Hot path", "Top-down profile", "Communication statements", "Communication matrix",
        "p4  fig12.c:15  called at fig12.c:14  ~   <== tune here",
        "└─ p3  fig12.c:8  called at fig12.c:7"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  }
}

TEST(TextRenderer, TreeColumnsAlign) {
  const std::string text = text_of(figure12());
  const auto start = text.find("Top-down profile");
  const auto end = text.find("Communication statements");
  std::istringstream tree(text.substr(start, end - start));
  std::string line;
  while (std::getline(tree, line) && line.find("%total") == std::string::npos) {
    // the title and its legend
  }
  const auto site_column = line.find("site");
  int rows = 0;
  while (std::getline(tree, line) && !line.empty()) {
    // Every row's percentage ends at the same column and the tree starts under "site".
    EXPECT_EQ(line.find('%'), 8u) << line;
    EXPECT_EQ(line.substr(site_column - 2, 2), "  ") << line;
    ++rows;
  }
  EXPECT_GT(rows, 10);
}

TEST(TextRenderer, NamesFiltersAndPartialProfiles) {
  testing::TempDir dir;
  auto profile = testing::figure12_profile();
  profile.meta.partial = true;
  profile.meta.partial_reason = "rank 2 received SIGTERM";
  ReportOptions options;
  options.rank = 2;
  options.threshold_percent = 5;
  const std::string text = text_of(build_report(dir.round_trip(profile), options));
  EXPECT_NE(text.find("PARTIAL PROFILE: rank 2 received SIGTERM"), std::string::npos) << text;
  EXPECT_NE(text.find("filters        rank 2, threshold 5%"), std::string::npos) << text;
}

TEST(HtmlRenderer, IsOneSelfContainedPage) {
  testing::TempDir dir;
  auto profile = testing::figure12_profile();
  profile.meta.command = "./fig12 </script><script>alert(1)</script>";
  std::ostringstream out;
  HtmlRenderer().render(build_report(dir.round_trip(profile)), out);
  const std::string html = out.str();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // Nothing is fetched: no external scripts, styles, images or links.
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=)")));
  EXPECT_EQ(html.find("http://"), std::string::npos);
  // The command reaches the page as data only: its markup cannot close the data element.
  EXPECT_EQ(html.find("</script><script>alert"), std::string::npos);
  EXPECT_NE(html.find(R"(\u003c/script>\u003cscript>alert(1))"), std::string::npos);
  EXPECT_NE(html.find("\"name\":\"p4\""), std::string::npos);
}

} // namespace
} // namespace vcmon::report
