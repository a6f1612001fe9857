// The directive a statement is written under: a `#pragma` line right before it (`#pragma omp
// parallel for`, continued over lines with backslashes or not), or a `_Pragma("...")` operator,
// with only blanks, comments and preprocessor lines that bind nothing between (`#endif`,
// `#define`, a conditional block the preprocessor skipped); or a macro use that expands to a
// `_Pragma` operator. Such a statement must stay as written: a probe put before it would become
// the directive's statement (docs/instrument.md, "Loops under a directive").
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace vcmon::preprocessor {

// What the preprocessor did in the main file that its text alone does not tell.
struct PreprocessorFacts {
  // The directives that macro uses expand to, by the offset where the use ends: `PFOR` after
  // `#define PFOR _Pragma("omp parallel for")`, `PRAGMA(omp for)` after `#define PRAGMA(x)
  // _Pragma(#x)`. Their text reads as no directive, so they are recorded as the preprocessor
  // runs them, as `#pragma ...`. Only uses whose last token ends a `_Pragma` operator count: a
  // use that goes on after it holds the directive's statement itself.
  std::map<std::size_t, std::string> macro_directives;
  // The byte ranges [first, second) of conditional blocks the preprocessor skipped, in the
  // order of the file (they never overlap).
  std::vector<std::pair<std::size_t, std::size_t>> skipped;
  // Recorded by a preprocessor run. Without that, every `#` line before a statement counts as
  // its directive, as the statement may be one branch of a conditional.
  bool recorded = false;
  // `#pragma omp` lines bind their statement: OpenMP (or OpenMP SIMD) is on. Off, the compiler
  // ignores them, and a loop after one is instrumented as any other.
  bool openmp = false;
};

// Records into `facts`, from now on, what the preprocessor does in the main file. `facts` must
// outlive the parse.
void record_preprocessor_facts(clang::Preprocessor& preprocessor, PreprocessorFacts& facts);

// The text of the directive right before offset `begin` of `source`, nullopt when none.
// `facts`: those recorded for `source` (record_preprocessor_facts).
std::optional<llvm::StringRef> directive_before(llvm::StringRef source, std::size_t begin,
                                                const PreprocessorFacts& facts = {});

// How many nested loops a directive binds, its own statement first: the N of a `collapse(N)` or
// `ordered(N)` clause (OpenMP, OpenACC), the larger one, else 1. They must stay perfectly nested.
unsigned loops_bound_by(llvm::StringRef directive);

} // namespace vcmon::preprocessor
