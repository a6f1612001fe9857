#include "FoldableLeaves.hpp"

#include "MpiClassifier.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/Builtins.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace vcmon::preprocessor {

bool FoldableLeaves::is_foldable(const clang::FunctionDecl* function) {
  const clang::FunctionDecl* canonical = function->getCanonicalDecl();
  if (const auto it = known_.find(canonical); it != known_.end()) {
    return it->second;
  }
  // Provisionally not foldable, so that recursion (direct or mutual) ends here as "not".
  known_[canonical] = false;
  const clang::FunctionDecl* definition = nullptr;
  if (!function->hasBody(definition) || definition == nullptr || definition->isMain() ||
      definition->isVariadic()) {
    return false;
  }
  Shape shape;
  measure(definition->getBody(), canonical, shape);
  const bool tiny =
      shape.loops == 0 && shape.statements <= kTinyStatements && shape.nodes <= kTinyNodes;
  // Declared inline by its author, not merely defined in its class: a C++ member kernel with
  // loops stays a procedure of the profile. Clang marks every lambda's call operator inline
  // specified, which no author wrote: a lambda kernel with loops stays one too.
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(definition);
  const bool lambda = method != nullptr && method->getParent()->isLambda();
  const bool small_inline =
      definition->isInlineSpecified() && !lambda && shape.nodes <= kInlineNodes;
  const bool foldable = shape.leaf && (tiny || small_inline);
  known_[canonical] = foldable;
  return foldable;
}

bool FoldableLeaves::allowed_callee(const clang::FunctionDecl* callee,
                                    const clang::FunctionDecl* self) {
  if (callee == nullptr) {
    return false; // through a pointer: anything
  }
  if (callee->getCanonicalDecl() == self) {
    return true;
  }
  if (const unsigned builtin = callee->getBuiltinID(); builtin != 0) {
    return arithmetic_builtin(builtin);
  }
  if (callee->isConstexpr()) {
    return true;
  }
  if (const clang::IdentifierInfo* name = callee->getIdentifier();
      name != nullptr && is_mpi_name(std::string(name->getName()))) {
    return false;
  }
  const clang::SourceLocation where = callee->getCanonicalDecl()->getLocation();
  if (where.isValid() && context_.getSourceManager().isInSystemHeader(where)) {
    return callee->isInlined(); // std::min, vector::operator[]; not a library call
  }
  return is_foldable(callee);
}

bool FoldableLeaves::arithmetic_builtin(unsigned builtin) const {
  // A library builtin names its header; __builtin_expect or __builtin_fabs names none.
  const char* header = context_.BuiltinInfo.getHeaderName(builtin);
  if (header == nullptr) {
    return true;
  }
  const llvm::StringRef name(header);
  return name == "math.h" || name == "complex.h";
}

void FoldableLeaves::measure(const clang::Stmt* stmt, const clang::FunctionDecl* self,
                             Shape& shape) {
  if (stmt == nullptr || !shape.leaf) {
    return;
  }
  if (++shape.nodes > std::max(kTinyNodes, kInlineNodes)) {
    shape.leaf = false;
    return;
  }
  if (!llvm::isa<clang::Expr>(stmt) && !llvm::isa<clang::CompoundStmt>(stmt)) {
    ++shape.statements;
  }
  if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(stmt)) {
    ++shape.loops;
  }
  if (llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::LambdaExpr, clang::CXXNewExpr,
                clang::CXXDeleteExpr, clang::CXXThrowExpr, clang::CXXTryStmt>(stmt)) {
    shape.leaf = false;
    return;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    shape.leaf = allowed_callee(call->getDirectCallee(), self);
  } else if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(stmt)) {
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    shape.leaf = constructor->isTrivial() || allowed_callee(constructor, self);
  }
  for (const clang::Stmt* child : stmt->children()) {
    measure(child, self, shape);
  }
}

} // namespace vcmon::preprocessor
