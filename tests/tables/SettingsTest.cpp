// The VCMON_* settings table: how values parse, what an invalid one is told, which name a
// misspelt one is taken for.
#include "vcmon/tables/Settings.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace {

using namespace vcmon::tables;

TEST(Settings, NamesAreUniqueAndEveryOneIsAVcmonVariable) {
  std::set<std::string_view> names;
  for (const Setting& s : kSettings) {
    EXPECT_TRUE(s.name.starts_with("VCMON_")) << s.name;
    EXPECT_TRUE(names.insert(s.name).second) << s.name << " twice";
    EXPECT_FALSE(s.effect.empty()) << s.name;
  }
}

TEST(Settings, EveryDefaultIsAValueTheSettingTakes) {
  for (const Setting& s : kSettings) {
    if (s.kind != SettingKind::Directory) {
      EXPECT_EQ(parse_setting(s, default_text(s)), s.default_value) << s.name;
    } else {
      EXPECT_FALSE(s.unset.empty()) << s.name;
    }
  }
}

TEST(Settings, IntegersParseWithinTheirRangeOnly) {
  const Setting& lookahead = setting("VCMON_LOOKAHEAD_NS");
  EXPECT_EQ(parse_setting(lookahead, "1"), 1);
  EXPECT_EQ(parse_setting(lookahead, "1000000000"), 1'000'000'000);
  EXPECT_EQ(parse_setting(lookahead, "0"), std::nullopt);
  EXPECT_EQ(parse_setting(lookahead, "1000000001"), std::nullopt);
  EXPECT_EQ(parse_setting(lookahead, "12abc"), std::nullopt);
  EXPECT_EQ(parse_setting(lookahead, " 5"), std::nullopt);
  EXPECT_EQ(parse_setting(lookahead, "99999999999999999999"), std::nullopt);
  EXPECT_EQ(parse_setting(setting("VCMON_TEST_CLOCK_OFFSET_NS"), "-3600000000000"),
            -3'600'000'000'000);
}

TEST(Settings, ChoicesParseToTheirIndex) {
  const Setting& log = setting("VCMON_LOG");
  EXPECT_EQ(parse_setting(log, "error"), 0);
  EXPECT_EQ(parse_setting(log, "debug"), 3);
  EXPECT_EQ(parse_setting(log, "Debug"), std::nullopt);
  EXPECT_EQ(parse_setting(log, ""), std::nullopt);
  EXPECT_EQ(default_text(log), "info");
}

TEST(Settings, AnInvalidValueIsToldWhatWasExpectedAndWhatIsUsed) {
  EXPECT_EQ(
      rejection(setting("VCMON_INJECT_PROBE_NS"), "abc"),
      "VCMON_INJECT_PROBE_NS=abc: expected nanoseconds from 0 to 1000000000; using default 0");
  EXPECT_EQ(rejection(setting("VCMON_LOG"), "loud"),
            "VCMON_LOG=loud: expected error, warning, info or debug; using default info");
  EXPECT_EQ(rejection(setting("VCMON_DISABLE"), "yes"),
            "VCMON_DISABLE=yes: expected 0 or 1; using default 0");
  EXPECT_EQ(rejection(setting("VCMON_OUTPUT"), "/dev/null/x"),
            "VCMON_OUTPUT=/dev/null/x: expected a writable directory; using default (the "
            "working directory)");
}

TEST(Settings, AMisspeltNameIsTakenForTheClosestSetting) {
  EXPECT_EQ(closest_setting("VCMON_OUTPT").name, "VCMON_OUTPUT");
  EXPECT_EQ(closest_setting("VCMON_DEADLOCK_TIMEOUT").name, "VCMON_DEADLOCK_TIMEOUT_MS");
  EXPECT_EQ(closest_setting("VCMON_PUBLISH").name, "VCMON_PUBLISH_MS");
}

TEST(Settings, TheToolsVariablesAreKnownButAreNoSettings) {
  EXPECT_TRUE(known_variable("VCMON_STRICT"));
  EXPECT_TRUE(known_variable("VCMON_INSTRUMENT_FLAGS"));
  EXPECT_TRUE(known_variable("VCMON_OUTPUT"));
  EXPECT_FALSE(known_variable("VCMON_OUTPT"));
  for (const std::string_view tool : kToolVariables) {
    EXPECT_EQ(std::ranges::find(kSettings, tool, &Setting::name), std::end(kSettings)) << tool;
  }
}

TEST(Settings, TheMarkdownTableHasARowPerSetting) {
  const std::string table = settings_markdown_table();
  std::size_t rows = 0;
  for (std::size_t at = table.find("\n| `"); at != std::string::npos;
       at = table.find("\n| `", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, std::size(kSettings));
  EXPECT_NE(table.find("| `VCMON_LOOKAHEAD_NS` | 1 … 1000000000 | `1000` | `nullmsg` only"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| `VCMON_OUTPUT` | a writable directory | (the working directory) |"),
            std::string::npos)
      << table;
}

} // namespace
