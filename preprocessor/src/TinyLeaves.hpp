// Which procedures are tiny leaves: no loop, no jump back, a bounded body, and calls only to
// arithmetic builtins, constexpr functions, inline library functions and other tiny leaves. Such a
// procedure costs nanoseconds, and a probe pair around it would cost as much and stop the
// compiler from inlining it; it is folded into its callers instead (docs/instrument.md).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <unordered_map>

namespace vcmon::preprocessor {

class TinyLeaves {
public:
  // Bodies with more AST nodes than this are not tiny: a few lines of arithmetic and branches.
  static constexpr unsigned kMaxNodes = 64;

  explicit TinyLeaves(const clang::ASTContext& context) : context_(context) {}

  // False when the definition is not visible in this unit: another unit decides for itself.
  bool is_tiny_leaf(const clang::FunctionDecl* function);

private:
  bool allowed_callee(const clang::FunctionDecl* callee);
  bool body_is_tiny_leaf(const clang::Stmt* stmt, unsigned& nodes);

  // A compiler builtin, or a library one from <math.h>/<complex.h>: not printf or malloc.
  bool arithmetic_builtin(unsigned builtin) const;

  const clang::ASTContext& context_;
  std::unordered_map<const clang::FunctionDecl*, bool> known_; // by canonical declaration
};

} // namespace vcmon::preprocessor
