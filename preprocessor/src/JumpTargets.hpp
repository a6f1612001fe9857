// Whether a statement holds a jump target that a jump from outside it could reach: a label,
// or a `case`/`default` of a switch outside. Wrapping such a loop in a block with a scope
// declaration would let the jump bypass the declaration.
#pragma once

#include <clang/AST/Stmt.h>

namespace vcmon::preprocessor {

bool has_jump_target(const clang::Stmt* stmt);

} // namespace vcmon::preprocessor
