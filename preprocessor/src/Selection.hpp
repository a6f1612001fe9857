// Which files and procedures get instrumented: include and exclude lists read from a selection
// file in the style of TAU's (docs/instrument.md, "Selection file").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vcmon::preprocessor {

class Selection {
public:
  // Everything selected.
  Selection() = default;

  // Parses a selection file's text; `origin` names it in error messages. Throws
  // std::invalid_argument with "ORIGIN:LINE: problem" on bad input.
  static Selection parse(std::string_view text, std::string_view origin);
  // Reads and parses a file; throws std::invalid_argument when it cannot be read or parsed.
  static Selection read(const std::string& path);

  // A procedure (its qualified name) is selected when it matches the include list, if there is
  // one, and does not match the exclude list. Files likewise, by path as given.
  bool selects_procedure(std::string_view qualified_name) const;
  bool selects_file(std::string_view path) const;

private:
  // Shell-style wildcards: `*` matches any run of characters (also `/` and `::`), `?` one.
  struct PatternList {
    std::vector<std::string> patterns;
    bool matches(std::string_view text) const;
  };
  static bool selects(const PatternList& include, const PatternList& exclude,
                      std::string_view text);

  PatternList include_procedures_, exclude_procedures_, include_files_, exclude_files_;
};

} // namespace vcmon::preprocessor
