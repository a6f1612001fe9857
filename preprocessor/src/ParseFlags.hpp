// The flags every parse gets beyond the user's: Clang's builtin headers, MPI's include path
// (as mpicc would give it) and silence about flags a parse does not use (-c, -l, ...).
#pragma once

#include <clang/Tooling/ArgumentsAdjusters.h>

namespace vcmon::preprocessor {

clang::tooling::ArgumentsAdjuster parse_flags_adjuster();

} // namespace vcmon::preprocessor
