#include "Selection.hpp"

#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <utility>

namespace vcmon::preprocessor {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) {
    return {};
  }
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::invalid_argument problem(std::string_view origin, std::size_t line, const std::string& what) {
  return std::invalid_argument(std::string(origin) + ":" + std::to_string(line) + ": " + what);
}

bool is_identifier(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `stars` are the characters that match any run of characters (also `/` and `::`); `?` matches
// one. Greedy matching with backtracking to the last star: linear in practice.
bool wildcard_match(std::string_view pattern, std::string_view text, std::string_view stars) {
  const auto star = [&](std::size_t p) {
    return p < pattern.size() && stars.find(pattern[p]) != std::string_view::npos;
  };
  std::size_t p = 0, t = 0;
  std::size_t last_star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (star(p)) {
      last_star = p++;
      resume = t;
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (last_star != std::string_view::npos) {
      p = last_star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (star(p)) {
    ++p;
  }
  return p == pattern.size();
}

// A file pattern matches the path as given or any trailing part of it after a `/`: `heat.c`
// matches `src/heat.c`, as in TAU.
bool path_matches(std::string_view pattern, std::string_view path) {
  for (std::size_t from = 0;; ++from) {
    if (wildcard_match(pattern, path.substr(from), "*")) {
      return true;
    }
    from = path.find('/', from);
    if (from == std::string_view::npos) {
      return false;
    }
  }
}

// Type lists compare with blanks only where they separate two words: `char**`, `char **` and
// `char * *` are the same; `unsigned  long` stays two words.
std::string normalise_types(std::string_view text) {
  std::string result;
  bool blank = false;
  for (const char c : trim(text)) {
    if (c == ' ' || c == '\t') {
      blank = true;
      continue;
    }
    if (blank && !result.empty() && is_identifier(result.back()) && is_identifier(c)) {
      result += ' ';
    }
    blank = false;
    result += c;
  }
  return result == "void" ? std::string() : result; // C's `(void)` is `()`
}

// A list entry: as written, or TAU's quoted form, which lets an entry start with `#`
// (`"#compute#"`): a line starting with `#` is a comment.
std::string_view unquote(std::string_view entry, std::string_view origin, std::size_t line) {
  if (entry.front() != '"') {
    return entry;
  }
  const auto close = entry.find('"', 1);
  if (close == std::string_view::npos) {
    throw problem(origin, line, "unterminated quote in '" + std::string(entry) + "'");
  }
  if (close + 1 != entry.size()) {
    throw problem(origin, line, "text after the closing quote in '" + std::string(entry) + "'");
  }
  return trim(entry.substr(1, close - 1));
}

// Where the word that ends at `end` starts: after the last blank outside parentheses and angle
// brackets (`(anonymous namespace)::f` and `Map<int, int>::at` are one word each).
std::size_t word_start(std::string_view text, std::size_t end) {
  int depth = 0;
  for (std::size_t at = end; at-- > 0;) {
    const char c = text[at];
    depth += (c == ')' || c == '>') - (c == '(' || c == '<');
    if (depth == 0 && (c == ' ' || c == '\t')) {
      return at + 1;
    }
  }
  return 0;
}

constexpr std::string_view kOperator = "operator";

// Where the last keyword `operator` in `text` starts, or npos.
std::size_t operator_keyword(std::string_view text) {
  for (std::size_t at = text.rfind(kOperator); at != std::string_view::npos;
       at = at == 0 ? std::string_view::npos : text.rfind(kOperator, at - 1)) {
    const std::size_t end = at + kOperator.size();
    if ((at == 0 || !is_identifier(text[at - 1])) &&
        (end == text.size() || !is_identifier(text[end]))) {
      return at;
    }
  }
  return std::string_view::npos;
}

// The procedure name in what comes before a parameter list: the last word (the return type
// before it is not compared), or an operator's name with its blanks (`A::operator new`).
std::string_view name_in(std::string_view prefix) {
  prefix = trim(prefix);
  const std::size_t keyword = operator_keyword(prefix);
  std::string_view name = prefix.substr(
      word_start(prefix, keyword == std::string_view::npos ? prefix.size() : keyword));
  // `int *make(int)`: the `*` belongs to the return type.
  return name.substr(std::min(name.find_first_not_of("*&"), name.size()));
}

// The `)` that closes the `(` at `open`, or npos.
std::size_t closing(std::string_view text, std::size_t open) {
  int depth = 0;
  for (std::size_t at = open; at < text.size(); ++at) {
    depth += (text[at] == '(') - (text[at] == ')');
    if (depth == 0) {
      return at;
    }
  }
  return std::string_view::npos;
}

// The `(` that opens the parameter list: not `operator()`'s, nor a scope's such as
// `(anonymous namespace)::`.
std::size_t parameters_open(std::string_view text) {
  for (std::size_t open = text.find('('); open != std::string_view::npos;
       open = text.find('(', open + 1)) {
    const std::string_view before = trim(text.substr(0, open));
    const std::size_t keyword = operator_keyword(before);
    if (text.substr(open).starts_with("()") && keyword != std::string_view::npos &&
        keyword + kOperator.size() == before.size()) {
      ++open;
      continue;
    }
    const std::size_t close = closing(text, open);
    if (close != std::string_view::npos && text.substr(close + 1).starts_with("::")) {
      open = close;
      continue;
    }
    return open;
  }
  return std::string_view::npos;
}

enum class Section { Exclude, Include, FileExclude, FileInclude, Instrument };

constexpr std::pair<std::string_view, Section> kSections[] = {
    {"EXCLUDE_LIST", Section::Exclude},          {"INCLUDE_LIST", Section::Include},
    {"FILE_EXCLUDE_LIST", Section::FileExclude}, {"FILE_INCLUDE_LIST", Section::FileInclude},
    {"INSTRUMENT_SECTION", Section::Instrument},
};

// TAU's other BEGIN_INSTRUMENT_SECTION requests (timers, phases, memory and I/O tracking, code
// insertion): a TAU file holding them is still read, the lines are ignored with a warning.
constexpr std::string_view kTauRequests[] = {"file",  "entry",  "exit", "init",   "decl",
                                             "abort", "memory", "io",   "static", "dynamic"};

} // namespace

bool Selection::FileRule::matches(std::string_view path) const {
  return path_matches(pattern, path);
}

bool Selection::RoutineRule::matches(const Procedure& procedure) const {
  if (!wildcard_match(name, procedure.qualified_name, "*#")) {
    return false;
  }
  if (!has_parameters) {
    return true;
  }
  return std::any_of(procedure.parameter_lists.begin(), procedure.parameter_lists.end(),
                     [&](const std::string& list) {
                       return wildcard_match(parameters, normalise_types(list), "#");
                     });
}

bool Selection::LoopsRule::matches(std::string_view path, const Procedure& procedure) const {
  return (!has_file || path_matches(file, path)) && routine.matches(procedure);
}

Selection::RoutineRule Selection::routine_rule(std::size_t line, std::string_view text,
                                               std::string_view origin) {
  RoutineRule rule;
  rule.line = line;
  rule.text = std::string(text);
  // A name copied from a TAU profile may end in its source location, `[{f.c} {3,1}-{9,1}]`:
  // not compared.
  text = trim(text.substr(0, text.find("[{")));
  std::string_view prefix = text;
  if (const std::size_t open = parameters_open(text); open != std::string_view::npos) {
    // Balanced, for function pointer parameters; what follows (TAU's language tag `C`,
    // `const`) is not compared.
    const std::size_t close = closing(text, open);
    if (close == std::string_view::npos) {
      throw problem(origin, line, "unbalanced '(' in '" + std::string(text) + "'");
    }
    prefix = text.substr(0, open);
    rule.has_parameters = true;
    rule.parameters = normalise_types(text.substr(open + 1, close - open - 1));
  }
  rule.name = std::string(name_in(prefix));
  if (rule.name.empty()) {
    throw problem(origin, line, "no procedure name in '" + std::string(text) + "'");
  }
  return rule;
}

Selection::LoopsRule Selection::loops_rule(std::size_t line, std::string_view text,
                                           std::string_view origin) {
  const auto bad = [&](const std::string& what) {
    return problem(origin, line, what + " in '" + std::string(text) + "'");
  };
  LoopsRule rule;
  rule.line = line;
  rule.text = std::string(text);
  bool has_routine = false;
  std::string_view rest = trim(text.substr(std::string_view("loops").size()));
  while (!rest.empty()) {
    std::size_t key_end = 0;
    while (key_end < rest.size() && is_identifier(rest[key_end])) {
      ++key_end;
    }
    const std::string key(rest.substr(0, key_end));
    rest = trim(rest.substr(key_end));
    if (key.empty() || !rest.starts_with('=')) {
      throw bad("expected file=\"...\" or routine=\"...\"");
    }
    rest = trim(rest.substr(1));
    const std::size_t close = rest.starts_with('"') ? rest.find('"', 1) : std::string_view::npos;
    if (close == std::string_view::npos) {
      throw bad("the value of " + key + "= needs quotes");
    }
    const std::string_view value = trim(rest.substr(1, close - 1));
    rest = trim(rest.substr(close + 1));
    if (key == "file" && !rule.has_file) {
      rule.has_file = true;
      rule.file = std::string(value);
    } else if (key == "routine" && !has_routine) {
      has_routine = true;
      rule.routine = routine_rule(line, value, origin);
    } else {
      throw bad("unexpected or repeated '" + key + "='");
    }
  }
  if (!has_routine) {
    throw bad("routine=\"...\" missing");
  }
  return rule;
}

Selection Selection::parse(std::string_view text, std::string_view origin) {
  Selection selection;
  selection.origin_ = std::string(origin);
  const std::pair<std::string_view, Section>* open = nullptr;
  std::size_t open_line = 0;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_number;
    // As in TAU, inside sections too: `#` elsewhere in a line is a wildcard.
    if (line.empty() || line.front() == '#') {
      continue;
    }
    if (line.starts_with("BEGIN_") || line.starts_with("END_")) {
      const bool begin = line.starts_with("BEGIN_");
      const std::string_view name = line.substr(begin ? 6 : 4);
      const auto section = std::find_if(std::begin(kSections), std::end(kSections),
                                        [&](const auto& s) { return s.first == name; });
      if (section == std::end(kSections)) {
        throw problem(origin, line_number, "unknown section '" + std::string(line) + "'");
      }
      if (begin && open != nullptr) {
        throw problem(origin, line_number,
                      "'" + std::string(line) + "' inside BEGIN_" + std::string(open->first) +
                          " opened on line " + std::to_string(open_line));
      }
      if (!begin && open != section) {
        throw problem(origin, line_number, "'" + std::string(line) + "' closes no open section");
      }
      open = begin ? section : nullptr;
      open_line = line_number;
      continue;
    }
    if (open == nullptr) {
      throw problem(origin, line_number,
                    "pattern '" + std::string(line) + "' outside any BEGIN_.../END_... section");
    }
    const auto file_rule = [&] {
      FileRule rule;
      rule.line = line_number;
      rule.text = std::string(line);
      rule.pattern = std::string(unquote(line, origin, line_number));
      return rule;
    };
    const auto procedure_rule = [&] {
      RoutineRule rule = routine_rule(line_number, unquote(line, origin, line_number), origin);
      rule.text = std::string(line); // warnings show it as written, quotes and all
      return rule;
    };
    switch (open->second) {
    case Section::Exclude:
      selection.exclude_procedures_.push_back(procedure_rule());
      break;
    case Section::Include:
      selection.include_procedures_.push_back(procedure_rule());
      break;
    case Section::FileExclude:
      selection.exclude_files_.push_back(file_rule());
      break;
    case Section::FileInclude:
      selection.include_files_.push_back(file_rule());
      break;
    case Section::Instrument: {
      std::size_t word_end = 0;
      while (word_end < line.size() && is_identifier(line[word_end])) {
        ++word_end;
      }
      const std::string_view request = line.substr(0, word_end);
      if (request == "loops") {
        selection.loops_.push_back(loops_rule(line_number, line, origin));
      } else if (std::find(std::begin(kTauRequests), std::end(kTauRequests), request) !=
                 std::end(kTauRequests)) {
        selection.ignored_.push_back({line_number, "TAU's '" + std::string(request) +
                                                       "' request is not supported by vcmon; "
                                                       "line ignored"});
      } else {
        throw problem(origin, line_number,
                      "unknown request '" + std::string(line) +
                          "' in BEGIN_INSTRUMENT_SECTION (vcmon knows 'loops')");
      }
      break;
    }
    }
  }
  if (open != nullptr) {
    throw problem(origin, open_line, "BEGIN_" + std::string(open->first) + " is never closed");
  }
  return selection;
}

Selection Selection::read(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    throw std::invalid_argument("cannot read selection file '" + path +
                                "': " + buffer.getError().message());
  }
  return parse((*buffer)->getBuffer(), path);
}

template <typename Rules, typename Text>
bool Selection::selects(const Rules& include, const Rules& exclude, const Text& text) {
  bool included = include.empty(), excluded = false;
  for (const auto& rule : include) {
    if (rule.matches(text)) {
      rule.matched = included = true;
    }
  }
  for (const auto& rule : exclude) {
    if (rule.matches(text)) {
      rule.matched = excluded = true;
    }
  }
  return included && !excluded;
}

bool Selection::selects_file(std::string_view path) const {
  return selects(include_files_, exclude_files_, path);
}

bool Selection::selects_procedure(const Procedure& procedure) const {
  return selects(include_procedures_, exclude_procedures_, procedure);
}

Selection::Choice Selection::choose(std::string_view file, const Procedure& procedure) const {
  const bool file_selected = selects_file(file);
  const bool listed = selects_procedure(procedure);
  bool loops_named = false;
  for (const LoopsRule& rule : loops_) {
    if (rule.matches(file, procedure)) {
      rule.matched = loops_named = true;
    }
  }
  Choice choice;
  choice.procedure = file_selected && (listed || loops_named);
  choice.loops = choice.procedure && (loops_.empty() || loops_named);
  return choice;
}

std::vector<std::string> Selection::warnings() const {
  std::vector<Note> notes = ignored_;
  const auto unmatched = [&](const auto& rules) {
    for (const Rule& rule : rules) {
      if (!rule.matched) {
        notes.push_back({rule.line, "rule '" + rule.text + "' matched nothing"});
      }
    }
  };
  unmatched(include_procedures_);
  unmatched(exclude_procedures_);
  unmatched(include_files_);
  unmatched(exclude_files_);
  unmatched(loops_);
  std::stable_sort(notes.begin(), notes.end(),
                   [](const Note& a, const Note& b) { return a.line < b.line; });
  std::vector<std::string> lines;
  for (const Note& note : notes) {
    lines.push_back(origin_ + ":" + std::to_string(note.line) + ": " + note.text);
  }
  return lines;
}

} // namespace vcmon::preprocessor
