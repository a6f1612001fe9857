#include "StatementDirective.hpp"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
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

// The directive's name, `pragma` of `# pragma omp for`, and the first word after it, `omp`.
std::pair<llvm::StringRef, llvm::StringRef> directive_words(llvm::StringRef line) {
  const auto word = [](llvm::StringRef& rest) {
    rest = rest.ltrim();
    const std::size_t length =
        std::find_if_not(rest.begin(), rest.end(), is_identifier_char) - rest.begin();
    const llvm::StringRef taken = rest.take_front(length);
    rest = rest.drop_front(length);
    return taken;
  };
  llvm::StringRef rest = line.drop_front(1); // the '#'
  const llvm::StringRef name = word(rest);
  return {name, word(rest)};
}

// PragmaDirective is called for `#pragma`, `_Pragma` and `__pragma` alike, also when a macro
// expansion produced them; a `_Pragma` written out in the main file is read from the text.
class PreprocessorFactsRecorder : public clang::PPCallbacks {
public:
  PreprocessorFactsRecorder(clang::Preprocessor& preprocessor, PreprocessorFacts& facts)
      : preprocessor_(preprocessor), facts_(facts) {
    facts_.recorded = true;
  }

  void PragmaDirective(clang::SourceLocation introducer,
                       clang::PragmaIntroducerKind kind) override {
    // The command line's definitions are in by the main file's first pragma: `_OPENMP` is what
    // -fopenmp leaves for the parse (ParseFlags.cpp).
    const clang::LangOptions& language = preprocessor_.getLangOpts();
    facts_.openmp =
        language.OpenMP || language.OpenMPSimd || preprocessor_.isMacroDefined("_OPENMP");
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
    facts_.macro_directives[sources.getFileOffset(use_end)] = "#pragma " + operand.trim().str();
  }

  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    const clang::SourceManager& sources = preprocessor_.getSourceManager();
    const auto [file, first] = sources.getDecomposedLoc(range.getBegin());
    const auto [end_file, last] = sources.getDecomposedLoc(range.getEnd());
    if (file == sources.getMainFileID() && end_file == file && first <= last) {
      facts_.skipped.emplace_back(first, last);
    }
  }

private:
  clang::Preprocessor& preprocessor_;
  PreprocessorFacts& facts_;
};

} // namespace

void record_preprocessor_facts(clang::Preprocessor& preprocessor, PreprocessorFacts& facts) {
  preprocessor.addPPCallbacks(std::make_unique<PreprocessorFactsRecorder>(preprocessor, facts));
}

// Whether a pragma whose text starts with `words` (`omp parallel for`) binds the statement after
// it: `#pragma omp` and `_Pragma("omp ...")` only when the compiler runs OpenMP.
bool pragma_binds(llvm::StringRef words, const PreprocessorFacts& facts) {
  if (!facts.recorded || facts.openmp) {
    return true;
  }
  words = words.ltrim();
  return !(words.consume_front("omp") && (words.empty() || !is_identifier_char(words.front())));
}

std::optional<llvm::StringRef> directive_before(llvm::StringRef source, std::size_t begin,
                                                const PreprocessorFacts& facts) {
  std::size_t end = std::min(begin, source.size());
  for (;;) {
    end = skip_blanks_back(source, end);
    if (end == 0) {
      return std::nullopt;
    }
    if (const auto use = facts.macro_directives.find(end); use != facts.macro_directives.end()) {
      const llvm::StringRef directive(use->second); // `#pragma ...`
      if (!pragma_binds(directive_words(directive).second, facts)) {
        return std::nullopt; // an OpenMP pragma the compiler ignores, right before the statement
      }
      return directive;
    }
    // The last skipped block that starts before `end` (they come in order and never overlap).
    if (const auto after =
            std::partition_point(facts.skipped.begin(), facts.skipped.end(),
                                 [&](const auto& range) { return range.first < end; });
        after != facts.skipped.begin() && end <= std::prev(after)->second) {
      end = std::prev(after)->first; // text the compiler never sees
      continue;
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
        const llvm::StringRef operation = source.slice(*start, end);
        const std::size_t quote = operation.find('"');
        if (!pragma_binds(operation.substr(quote + 1), facts)) {
          end = *start; // as an ignored `#pragma omp` line
          continue;
        }
        return operation;
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
      if (!facts.recorded) {
        return line;
      }
      // Of what the preprocessor ran, only a pragma binds the statement after it; `#endif`,
      // `#else` or `#define` do not, nor `#pragma omp` that the compiler ignores.
      const auto [name, first_word] = directive_words(line);
      if (name == "pragma" && pragma_binds(first_word, facts)) {
        return line;
      }
      end = start;
      continue;
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
