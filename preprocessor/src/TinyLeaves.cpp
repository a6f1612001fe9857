#include "TinyLeaves.hpp"

#include "MpiClassifier.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/Builtins.h>
#include <clang/Basic/SourceManager.h>

namespace vcmon::preprocessor {

bool TinyLeaves::is_tiny_leaf(const clang::FunctionDecl* function) {
  const clang::FunctionDecl* canonical = function->getCanonicalDecl();
  if (const auto it = known_.find(canonical); it != known_.end()) {
    return it->second;
  }
  // Provisionally not a leaf, so that recursion (direct or mutual) ends here as "not a leaf".
  known_[canonical] = false;
  const clang::FunctionDecl* definition = nullptr;
  if (!function->hasBody(definition) || definition == nullptr || definition->isMain() ||
      definition->isVariadic()) {
    return false;
  }
  unsigned nodes = 0;
  const bool leaf = body_is_tiny_leaf(definition->getBody(), nodes);
  known_[canonical] = leaf;
  return leaf;
}

bool TinyLeaves::allowed_callee(const clang::FunctionDecl* callee) {
  if (callee == nullptr) {
    return false; // through a pointer: anything
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
  return is_tiny_leaf(callee);
}

bool TinyLeaves::arithmetic_builtin(unsigned builtin) const {
  // A library builtin names its header; __builtin_expect or __builtin_fabs names none.
  const char* header = context_.BuiltinInfo.getHeaderName(builtin);
  if (header == nullptr) {
    return true;
  }
  const llvm::StringRef name(header);
  return name == "math.h" || name == "complex.h";
}

bool TinyLeaves::body_is_tiny_leaf(const clang::Stmt* stmt, unsigned& nodes) {
  if (stmt == nullptr) {
    return true;
  }
  if (++nodes > kMaxNodes) {
    return false;
  }
  if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt,
                clang::GotoStmt, clang::IndirectGotoStmt, clang::LambdaExpr, clang::CXXNewExpr,
                clang::CXXDeleteExpr, clang::CXXThrowExpr, clang::CXXTryStmt>(stmt)) {
    return false;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    if (!allowed_callee(call->getDirectCallee())) {
      return false;
    }
  } else if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(stmt)) {
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    if (!constructor->isTrivial() && !allowed_callee(constructor)) {
      return false;
    }
  }
  for (const clang::Stmt* child : stmt->children()) {
    if (!body_is_tiny_leaf(child, nodes)) {
      return false;
    }
  }
  return true;
}

} // namespace vcmon::preprocessor
