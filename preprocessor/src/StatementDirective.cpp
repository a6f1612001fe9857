#include "StatementDirective.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>

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

// PragmaDirective is called for `#pragma`, `_Pragma` and `__pragma` alike, also when a macro
// expansion produced them; a `_Pragma` written out in the main file is read from the text.
class MacroDirectiveRecorder : public clang::PPCallbacks {
public:
  MacroDirectiveRecorder(clang::Preprocessor& preprocessor, MacroDirectives& directives)
      : preprocessor_(preprocessor), directives_(directives) {}

  void PragmaDirective(clang::SourceLocation introducer,
                       clang::PragmaIntroducerKind kind) override {
    if (kind != clang::PIK__Pragma || !introducer.isMacroID()) {
      return;
    }
    // Handle_Pragma has just entered a lexer over the destringized operand, which is not read
    // yet: its buffer holds the directive's text, and its locations are expanded from the
    // operator (`_Pragma` to `)`). Clang 16 has no other PreprocessorLexer than Lexer.
    const auto* lexer = static_cast<const clang::Lexer*>(preprocessor_.getCurrentLexer());
    if (lexer == nullptr || !lexer->isPragmaLexer()) {
      return;
    }
    const clang::SourceManager& sources = preprocessor_.getSourceManager();
    const clang::LangOptions& language = preprocessor_.getLangOpts();
    clang::SourceLocation use_end =
        sources.getImmediateExpansionRange(lexer->getFileLoc()).getEnd(); // the `)`
    // Its `)` must be the use's last token, at every level of expansion: not so in a macro
    // argument that goes on with the statement (`TIMED(PFOR for (...) ...)`).
    if (use_end.isMacroID() &&
        !clang::Lexer::isAtEndOfMacroExpansion(use_end, sources, language, &use_end)) {
      return;
    }
    use_end = clang::Lexer::getLocForEndOfToken(use_end, 0, sources, language);
    if (use_end.isInvalid() || sources.getFileID(use_end) != sources.getMainFileID()) {
      return; // a use in a header: none of the main file's statements follow it
    }
    const llvm::StringRef operand(lexer->getBufferLocation(),
                                  lexer->getBuffer().end() - lexer->getBufferLocation());
    directives_[sources.getFileOffset(use_end)] = "#pragma " + operand.trim().str();
  }

private:
  clang::Preprocessor& preprocessor_;
  MacroDirectives& directives_;
};

} // namespace

void record_macro_directives(clang::Preprocessor& preprocessor, MacroDirectives& directives) {
  preprocessor.addPPCallbacks(std::make_unique<MacroDirectiveRecorder>(preprocessor, directives));
}

std::optional<llvm::StringRef> directive_before(llvm::StringRef source, std::size_t begin,
                                                const MacroDirectives& from_macros) {
  std::size_t end = std::min(begin, source.size());
  for (;;) {
    end = skip_blanks_back(source, end);
    if (end == 0) {
      return std::nullopt;
    }
    if (const auto use = from_macros.find(end); use != from_macros.end()) {
      return llvm::StringRef(use->second);
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
