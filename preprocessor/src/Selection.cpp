#include "Selection.hpp"

#include <llvm/Support/MemoryBuffer.h>

#include <stdexcept>

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

bool wildcard_match(std::string_view pattern, std::string_view text) {
  // Greedy matching with backtracking to the last `*`: linear in practice.
  std::size_t p = 0, t = 0;
  std::size_t star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') {
    ++p;
  }
  return p == pattern.size();
}

} // namespace

bool Selection::PatternList::matches(std::string_view text) const {
  for (const std::string& p : patterns) {
    if (wildcard_match(p, text)) {
      return true;
    }
  }
  return false;
}

Selection Selection::parse(std::string_view text, std::string_view origin) {
  Selection selection;
  struct Section {
    std::string_view name;
    PatternList Selection::*list;
  };
  const Section sections[] = {
      {"EXCLUDE_LIST", &Selection::exclude_procedures_},
      {"INCLUDE_LIST", &Selection::include_procedures_},
      {"FILE_EXCLUDE_LIST", &Selection::exclude_files_},
      {"FILE_INCLUDE_LIST", &Selection::include_files_},
  };
  const Section* open = nullptr;
  std::size_t open_line = 0;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') {
      continue;
    }
    if (line.starts_with("BEGIN_") || line.starts_with("END_")) {
      const bool begin = line.starts_with("BEGIN_");
      const std::string_view name = line.substr(begin ? 6 : 4);
      const Section* section = nullptr;
      for (const Section& s : sections) {
        if (s.name == name) {
          section = &s;
        }
      }
      if (section == nullptr) {
        throw problem(origin, line_number, "unknown section '" + std::string(line) + "'");
      }
      if (begin && open != nullptr) {
        throw problem(origin, line_number,
                      "'" + std::string(line) + "' inside BEGIN_" + std::string(open->name) +
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
    (selection.*(open->list)).patterns.emplace_back(line);
  }
  if (open != nullptr) {
    throw problem(origin, open_line, "BEGIN_" + std::string(open->name) + " is never closed");
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

bool Selection::selects(const PatternList& include, const PatternList& exclude,
                        std::string_view text) {
  if (!include.patterns.empty() && !include.matches(text)) {
    return false;
  }
  return !exclude.matches(text);
}

bool Selection::selects_procedure(std::string_view qualified_name) const {
  return selects(include_procedures_, exclude_procedures_, qualified_name);
}

bool Selection::selects_file(std::string_view path) const {
  return selects(include_files_, exclude_files_, path);
}

} // namespace vcmon::preprocessor
