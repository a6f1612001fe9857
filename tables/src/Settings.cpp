#include "vcmon/tables/Settings.hpp"

#include <algorithm>
#include <charconv>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace vcmon::tables {
namespace {

std::span<const std::string_view> choices_of(const Setting& setting) {
  const auto end = std::ranges::find(setting.choices, std::string_view{});
  return {setting.choices.begin(), end};
}

// "a, b or c"
std::string listed(std::span<const std::string_view> words, std::string_view separator,
                   std::string_view last_separator) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) {
      text += i + 1 == words.size() ? last_separator : separator;
    }
    text += words[i];
  }
  return text;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string markdown_values(const Setting& setting) {
  switch (setting.kind) {
  case SettingKind::Integer:
    return std::to_string(setting.min) + " … " + std::to_string(setting.max);
  case SettingKind::Choice: {
    std::string text;
    for (const std::string_view choice : choices_of(setting)) {
      text += (text.empty() ? "`" : ", `") + std::string(choice) + "`";
    }
    return text;
  }
  case SettingKind::Directory:
    return "a writable directory";
  }
  return {};
}

std::string markdown_default(const Setting& setting) {
  return setting.kind == SettingKind::Directory ? default_text(setting)
                                                : "`" + default_text(setting) + "`";
}

} // namespace

std::optional<std::int64_t> parse_setting(const Setting& setting, std::string_view text) {
  switch (setting.kind) {
  case SettingKind::Integer: {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < setting.min ||
        value > setting.max) {
      return std::nullopt;
    }
    return value;
  }
  case SettingKind::Choice: {
    const auto choices = choices_of(setting);
    const auto found = std::ranges::find(choices, text);
    if (found == choices.end()) {
      return std::nullopt;
    }
    return found - choices.begin();
  }
  case SettingKind::Directory:
    return text.empty() ? std::nullopt : std::optional<std::int64_t>(0);
  }
  return std::nullopt;
}

std::string expected_values(const Setting& setting) {
  switch (setting.kind) {
  case SettingKind::Integer:
    return std::string(setting.unit) + " from " + std::to_string(setting.min) + " to " +
           std::to_string(setting.max);
  case SettingKind::Choice:
    return listed(choices_of(setting), ", ", " or ");
  case SettingKind::Directory:
    return "a writable directory";
  }
  return {};
}

std::string default_text(const Setting& setting) {
  switch (setting.kind) {
  case SettingKind::Integer:
    return std::to_string(setting.default_value);
  case SettingKind::Choice:
    return std::string(setting.choices.at(static_cast<std::size_t>(setting.default_value)));
  case SettingKind::Directory:
    return "(" + std::string(setting.unset) + ")";
  }
  return {};
}

std::string rejection(const Setting& setting, std::string_view text) {
  return std::string(setting.name) + "=" + std::string(text) + ": expected " +
         expected_values(setting) + "; using default " + default_text(setting);
}

bool known_variable(std::string_view name) {
  return std::ranges::find(kSettings, name, &Setting::name) != std::end(kSettings) ||
         std::ranges::find(kToolVariables, name) != std::end(kToolVariables);
}

std::vector<std::string> unknown_variable_notices(const char* const* environment) {
  std::vector<std::string> notices;
  for (const char* const* entry = environment; *entry != nullptr; ++entry) {
    const std::string_view variable(*entry);
    const std::string_view name = variable.substr(0, variable.find('='));
    if (name.starts_with("VCMON_") && !known_variable(name)) {
      notices.push_back(std::string(name) + " is not a vcmon setting; ignored (did you mean " +
                        std::string(closest_setting(name).name) + "?)");
    }
  }
  return notices;
}

bool writable_directory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
         ::access(path.c_str(), W_OK | X_OK) == 0;
}

const Setting& closest_setting(std::string_view name) {
  return *std::ranges::min_element(kSettings, {},
                                   [&](const Setting& s) { return edit_distance(name, s.name); });
}

std::string settings_markdown_table() {
  std::string table = "| variable | values | default | effect |\n|---|---|---|---|\n";
  for (const Setting& s : kSettings) {
    table += "| `" + std::string(s.name) + "` | " + markdown_values(s) + " | " +
             markdown_default(s) + " | " + std::string(s.effect) + " |\n";
  }
  return table;
}

} // namespace vcmon::tables
