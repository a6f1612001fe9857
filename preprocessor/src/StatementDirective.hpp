// The directive a statement is written under: a preprocessor line right before it (`#pragma omp
// parallel for`, continued over lines with backslashes or not; any other `#` line too, as the
// statement may be one branch of a conditional), or a `_Pragma("...")` operator, with only blanks
// and comments between; or a macro use that expands to a `_Pragma` operator (MacroDirectives).
// Such a statement must stay as written: a probe put before it would become the directive's
// statement (docs/instrument.md, "Loops under a directive").
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace clang {
class Preprocessor;
} // namespace clang

namespace vcmon::preprocessor {

// The directives that macro uses of the main file expand to, by the offset where the use ends:
// `PFOR` after `#define PFOR _Pragma("omp parallel for")`, `PRAGMA(omp for)` after
// `#define PRAGMA(x) _Pragma(#x)`. Their text reads as no directive, so they are recorded as
// the preprocessor runs them, as `#pragma ...`. Only uses whose last token ends a `_Pragma`
// operator count: a use that goes on after it holds the directive's statement itself.
using MacroDirectives = std::map<std::size_t, std::string>;

// Records into `directives`, from now on, the directives macro uses of the main file expand to.
// `directives` must outlive the parse.
void record_macro_directives(clang::Preprocessor& preprocessor, MacroDirectives& directives);

// The text of the directive right before offset `begin` of `source`, nullopt when none.
// `from_macros`: the directives recorded for `source` (record_macro_directives).
std::optional<llvm::StringRef> directive_before(llvm::StringRef source, std::size_t begin,
                                                const MacroDirectives& from_macros = {});

// How many nested loops a directive binds, its own statement first: the N of a `collapse(N)` or
// `ordered(N)` clause (OpenMP, OpenACC), the larger one, else 1. They must stay perfectly nested.
unsigned loops_bound_by(llvm::StringRef directive);

} // namespace vcmon::preprocessor
