// Which files and procedures get instrumented, and in which procedures loops are sites: a
// selection file in TAU's select-file language (docs/instrument.md, "Selection file").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace vcmon::preprocessor {

// A procedure as the selection sees it.
struct Procedure {
  std::string_view qualified_name; // `ns::Class::method`, `main::lambda@12:15`
  // Its parameter list spelled by Clang, types only (`int, char **`): as written and desugared.
  // Empty when unknown, and then no rule with a parameter list matches it.
  std::vector<std::string> parameter_lists = {};
};

class Selection {
public:
  // Everything selected.
  Selection() = default;

  // Parses a selection file's text; `origin` names it in error messages. Throws
  // std::invalid_argument with "ORIGIN:LINE: problem" on bad input.
  static Selection parse(std::string_view text, std::string_view origin);
  // Reads and parses a file; throws std::invalid_argument when it cannot be read or parsed.
  static Selection read(const std::string& path);

  // A file, by path as given, is selected when it matches the file include list, if there is
  // one, and not the file exclude list.
  bool selects_file(std::string_view path) const;
  // Procedures likewise, by the include and exclude lists.
  bool selects_procedure(const Procedure& procedure) const;

  // What happens to one procedure of a file.
  struct Choice {
    bool procedure = false; // a site, unless left alone for another reason (--min-lines)
    bool loops = false;     // its loops may be sites
  };
  // A procedure named by a `loops` line is a site even when the lists leave it out (its loops
  // need it); with `loops` lines, only the procedures they name have loop sites.
  Choice choose(std::string_view file, const Procedure& procedure) const;

  // After a run: the lines ignored (TAU requests vcmon does not implement) and the rules that
  // matched no file or procedure of any query, each "ORIGIN:LINE: ...", in line order.
  std::vector<std::string> warnings() const;

private:
  struct Rule {
    std::size_t line = 0;
    std::string text;             // as written, for the warnings
    mutable bool matched = false; // a query is logically const; this only feeds warnings()
  };
  // A file pattern: `*` any run of characters, `?` one.
  struct FileRule : Rule {
    std::string pattern;
    bool matches(std::string_view path) const;
  };
  // A routine: a name pattern (`*`, `?` and TAU's `#`) and, when the rule gives a parameter
  // list, a pattern for it (`#` and `?`; `*` is a pointer there).
  struct RoutineRule : Rule {
    std::string name;
    bool has_parameters = false;
    std::string parameters; // normalised (see Selection.cpp)
    bool matches(const Procedure& procedure) const;
  };
  // `loops [file="F"] routine="R"` of BEGIN_INSTRUMENT_SECTION.
  struct LoopsRule : Rule {
    bool has_file = false;
    std::string file;
    RoutineRule routine;
    bool matches(std::string_view path, const Procedure& procedure) const;
  };
  struct Note {
    std::size_t line;
    std::string text;
  };

  static RoutineRule routine_rule(std::size_t line, std::string_view text, std::string_view origin);
  static LoopsRule loops_rule(std::size_t line, std::string_view text, std::string_view origin);
  // Whether `text` matches the include list (if any) and not the exclude list; every rule of
  // both is tried, so that each records whether it matched.
  template <typename Rules, typename Text>
  static bool selects(const Rules& include, const Rules& exclude, const Text& text);

  std::string origin_;
  std::vector<RoutineRule> include_procedures_, exclude_procedures_;
  std::vector<FileRule> include_files_, exclude_files_;
  std::vector<LoopsRule> loops_;
  std::vector<Note> ignored_;
};

} // namespace vcmon::preprocessor
