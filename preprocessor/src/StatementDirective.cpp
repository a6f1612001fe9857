#include "StatementDirective.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace vcmon::preprocessor {
namespace {

constexpr std::size_t npos = llvm::StringRef::npos;

bool is_blank(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Where the physical line holding the character at `at` (not a newline) starts.
std::size_t start_of_line(llvm::StringRef source, std::size_t at) {
  const std::size_t newline = source.rfind('\n', at);
  return newline == npos ? 0 : newline + 1;
}

// Skips blanks backwards from `end`.
std::size_t skip_blanks_back(llvm::StringRef source, std::size_t end) {
  while (end > 0 && is_blank(source[end - 1])) {
    --end;
  }
  return end;
}

// Where a `_Pragma ( "..." )` that ends at `end` (after its ')') starts.
std::optional<std::size_t> pragma_operator_ending_at(llvm::StringRef source, std::size_t end) {
  std::size_t at = skip_blanks_back(source, end - 1);
  if (at == 0 || source[at - 1] != '"') {
    return std::nullopt;
  }
  at -= 1; // the closing quote
  do {
    if (at == 0) {
      return std::nullopt;
    }
    --at;
  } while (source[at] != '"' || (at > 0 && source[at - 1] == '\\'));
  at = skip_blanks_back(source, at);
  if (at == 0 || source[at - 1] != '(') {
    return std::nullopt;
  }
  at = skip_blanks_back(source, at - 1);
  constexpr llvm::StringRef keyword = "_Pragma";
  if (at < keyword.size() || source.substr(at - keyword.size(), keyword.size()) != keyword) {
    return std::nullopt;
  }
  at -= keyword.size();
  if (at > 0 && is_identifier_char(source[at - 1])) {
    return std::nullopt;
  }
  return at;
}

} // namespace

std::optional<llvm::StringRef> directive_before(llvm::StringRef source, std::size_t begin) {
  std::size_t end = std::min(begin, source.size());
  for (;;) {
    end = skip_blanks_back(source, end);
    if (end == 0) {
      return std::nullopt;
    }
    const llvm::StringRef before = source.substr(0, end);
    if (before.endswith("*/")) {
      const std::size_t open = before.drop_back(2).rfind("/*");
      if (open == npos) {
        return std::nullopt;
      }
      end = open; // a block comment
      continue;
    }
    if (source[end - 1] == ')') {
      if (const auto start = pragma_operator_ending_at(source, end)) {
        return source.slice(*start, end);
      }
    }
    std::size_t start = start_of_line(source, end - 1);
    if (source.slice(start, end).ltrim().startswith("//")) {
      end = start; // a comment line
      continue;
    }
    // The logical line: physical lines joined by a backslash at their end.
    while (start > 0) {
      const std::size_t previous = start_of_line(source, start - 1);
      if (!source.slice(previous, start - 1).rtrim().endswith("\\")) {
        break;
      }
      start = previous;
    }
    const llvm::StringRef line = source.slice(start, end).ltrim();
    if (line.startswith("#")) {
      return line;
    }
    return std::nullopt;
  }
}

unsigned loops_bound_by(llvm::StringRef directive) {
  unsigned bound = 1;
  for (const llvm::StringRef clause : std::array<llvm::StringRef, 2>{"collapse", "ordered"}) {
    for (std::size_t at = directive.find(clause); at != npos;
         at = directive.find(clause, at + clause.size())) {
      if (at > 0 && is_identifier_char(directive[at - 1])) {
        continue;
      }
      llvm::StringRef rest = directive.substr(at + clause.size()).ltrim();
      if (!rest.consume_front("(")) {
        continue;
      }
      rest = rest.ltrim();
      unsigned loops = 0;
      if (rest.consumeInteger(10, loops)) {
        continue;
      }
      bound = std::max(bound, loops);
    }
  }
  return bound;
}

} // namespace vcmon::preprocessor
