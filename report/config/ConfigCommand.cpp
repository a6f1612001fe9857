// vcmon-config: the VCMON_* settings and the values a monitored program started from this
// environment would use, or (--markdown) the table of docs/runtime.md. Exit status 1 when a
// variable is invalid or not a vcmon setting, so that scripts can check an environment.
#include "vcmon/Version.h"
#include "vcmon/tables/Settings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

extern char** environ;

namespace {

using vcmon::tables::Setting;
using vcmon::tables::SettingKind;

struct InEffect {
  std::string value;
  std::string note;
  bool valid = true;
};

InEffect in_effect(const Setting& setting) {
  const char* text = std::getenv(std::string(setting.name).c_str());
  if (text == nullptr || *text == '\0') {
    return {vcmon::tables::default_text(setting), "default", true};
  }
  // The runtime makes VCMON_OUTPUT when it does not exist (and no other directory).
  std::error_code error;
  const bool made_at_start =
      setting.name == "VCMON_OUTPUT" && !std::filesystem::exists(text, error) && !error;
  const bool valid = vcmon::tables::parse_setting(setting, text).has_value() &&
                     (setting.kind != SettingKind::Directory || made_at_start ||
                      vcmon::tables::writable_directory(text));
  if (!valid) {
    return {vcmon::tables::default_text(setting),
            fmt::format("{}={}: expected {}, so the default", setting.name, text,
                        vcmon::tables::expected_values(setting)),
            false};
  }
  return {text,
          made_at_start ? "from the environment; made when the program starts"
                        : "from the environment",
          true};
}

// Prints the settings in effect; false when something in the environment is wrong.
bool print_in_effect() {
  bool all_valid = true;
  std::size_t width = 0;
  for (const Setting& s : vcmon::tables::kSettings) {
    width = std::max(width, s.name.size());
  }
  for (const Setting& s : vcmon::tables::kSettings) {
    const InEffect effect = in_effect(s);
    all_valid = all_valid && effect.valid;
    fmt::print("{:<{}}  {}  ({})\n", s.name, width, effect.value, effect.note);
  }
  for (const std::string& notice : vcmon::tables::unknown_variable_notices(environ)) {
    fmt::print("{}\n", notice);
    all_valid = false;
  }
  return all_valid;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"The VCMON_* settings a monitored program reads, and the values it would use "
               "if started from this environment (exit status 1 when one is invalid or unknown)."};
  app.set_version_flag("--version", "vcmon-config: " VCMON_VERSION_LINE);
  bool markdown = false;
  app.add_flag("--markdown", markdown,
               "print the settings as the Markdown table of docs/runtime.md instead");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; a usage error exits 2, as in vcmon-report and vcmon-query.
    return app.exit(error) == 0 ? 0 : 2;
  }
  if (markdown) {
    fmt::print("{}", vcmon::tables::settings_markdown_table());
    return 0;
  }
  return print_in_effect() ? 0 : 1;
}
