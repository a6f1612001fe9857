// Whether a loop nested in another runs exactly once in every iteration of it: then the inner
// loop's executions are the outer loop's iterations, and instrumented code need not count them
// apart. A second counter, incremented in step with the first, made GCC (12, -O2 and -O3) give
// the CG proxy's sparse matrix-vector loop 50% more time on the development machine, while its
// inner loop's machine code stayed the same (docs/evaluation.md).
#pragma once

#include <clang/AST/Stmt.h>

namespace vcmon::preprocessor {

// `inner` is `body` (the outer loop's body), or a statement of `body`, a block, that no
// statement before it can skip: none of them holds a break, continue, return, goto (computed
// or asm), throw or co_return, however deeply nested. A call before it that never returns
// (longjmp, an exception thrown from elsewhere) leaves the outer loop: its last iteration is
// then counted as an execution of `inner` that did not run.
bool runs_once_per_iteration(const clang::Stmt* inner, const clang::Stmt* body);

} // namespace vcmon::preprocessor
