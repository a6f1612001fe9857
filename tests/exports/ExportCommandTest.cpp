// The real vcmon-report binary with the export formats: what it writes is what the renderers
// write, to standard output or -o FILE, and an unknown format is refused naming the valid ones.
#include "ExportChecks.hpp"
#include "ReportCommandRun.hpp"
#include "ReportProfiles.hpp"
#include "TempDir.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>

namespace vcmon::report {
namespace {

namespace fs = std::filesystem;

using testing::CommandResult;
using testing::slurp;

class ReportExportCommand : public ::testing::Test {
protected:
  ReportExportCommand() : profile(dir / "fig12.vcmon") {
    tables::write_profile_file(testing::figure12_profile(), profile);
  }

  CommandResult run(const std::string& arguments) const {
    return testing::run_report(dir.path(), arguments);
  }

  testing::TempDir dir;
  fs::path profile;
};

TEST_F(ReportExportCommand, WritesEachFormatAsItsRendererDoes) {
  const Report report = build_report(tables::read_profile_file(profile));
  const std::vector<std::pair<std::string, std::string>> formats = {
      {"hatchet", testing::render_hatchet(report)},
      {"speedscope", testing::render_speedscope(report)},
      {"folded", testing::render_folded(report)}};
  for (const auto& [format, expected] : formats) {
    SCOPED_TRACE(format);
    const CommandResult r = run(profile.string() + " --format " + format);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_EQ(r.out, expected);

    const auto file = dir / ("fig12." + format);
    const CommandResult to_file =
        run(profile.string() + " --format " + format + " -o " + file.string());
    EXPECT_EQ(to_file.status, 0) << to_file.err;
    EXPECT_TRUE(to_file.out.empty());
    EXPECT_EQ(slurp(file), expected);
  }
}

TEST_F(ReportExportCommand, FiltersApplyToTheExports) {
  const CommandResult r = run(profile.string() + " --format folded --depth 1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "program;main 978\n"); // main holds everything below it: 977.5 us
}

TEST_F(ReportExportCommand, AnUnknownFormatIsRefusedNamingTheValidOnes) {
  for (const std::string format : {"xml", "Hatchet", "flamegraph", ""}) {
    SCOPED_TRACE(format);
    const CommandResult r = run(profile.string() + " --format '" + format + "'");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("vcmon-report: --format", 0), 0u) << r.err;
    for (const char* valid : {"text", "json", "html", "hatchet", "speedscope", "folded"}) {
      EXPECT_NE(r.err.find(valid), std::string::npos) << valid << " not named in " << r.err;
    }
  }
}

TEST_F(ReportExportCommand, HelpNamesTheFormats) {
  const CommandResult r = run("--help");
  EXPECT_EQ(r.status, 0);
  for (const char* format : {"hatchet", "speedscope", "folded"}) {
    EXPECT_NE(r.out.find(format), std::string::npos) << format;
  }
}

} // namespace
} // namespace vcmon::report
