#include "OncePerIteration.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

namespace vcmon::preprocessor {
namespace {

// Conservative: a break or continue of a loop or switch nested in `stmt` counts too.
bool may_jump(const clang::Stmt* stmt) {
  if (stmt == nullptr) {
    return false;
  }
  if (llvm::isa<clang::BreakStmt, clang::ContinueStmt, clang::ReturnStmt, clang::GotoStmt,
                clang::IndirectGotoStmt, clang::CXXThrowExpr, clang::CoreturnStmt>(stmt)) {
    return true;
  }
  if (const auto* assembly = llvm::dyn_cast<clang::GCCAsmStmt>(stmt);
      assembly != nullptr && assembly->isAsmGoto()) {
    return true;
  }
  for (const clang::Stmt* child : stmt->children()) {
    if (may_jump(child)) {
      return true;
    }
  }
  return false;
}

} // namespace

bool runs_once_per_iteration(const clang::Stmt* inner, const clang::Stmt* body) {
  if (inner == body) {
    return true;
  }
  const auto* block = llvm::dyn_cast<clang::CompoundStmt>(body);
  if (block == nullptr) {
    return false;
  }
  for (const clang::Stmt* statement : block->body()) {
    if (statement == inner) {
      return true;
    }
    if (may_jump(statement)) {
      return false;
    }
  }
  return false;
}

} // namespace vcmon::preprocessor
