// The directive a statement is written under: a preprocessor line right before it (`#pragma omp
// parallel for`, continued over lines with backslashes or not; any other `#` line too, as the
// statement may be one branch of a conditional), or a `_Pragma("...")` operator, with only blanks
// and comments between. Such a statement must stay as written: a probe put before it would
// become the directive's statement (docs/instrument.md, "Loops under a directive").
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstddef>
#include <optional>

namespace vcmon::preprocessor {

// The text of the directive right before offset `begin` of `source`, nullopt when none.
std::optional<llvm::StringRef> directive_before(llvm::StringRef source, std::size_t begin);

// How many nested loops a directive binds, its own statement first: the N of a `collapse(N)` or
// `ordered(N)` clause (OpenMP, OpenACC), the larger one, else 1. They must stay perfectly nested.
unsigned loops_bound_by(llvm::StringRef directive);

} // namespace vcmon::preprocessor
