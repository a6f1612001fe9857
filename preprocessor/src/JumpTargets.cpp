#include "JumpTargets.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

namespace vcmon::preprocessor {
namespace {

class JumpTargetFinder : public clang::RecursiveASTVisitor<JumpTargetFinder> {
  using Base = clang::RecursiveASTVisitor<JumpTargetFinder>;

public:
  bool found = false;

  bool VisitLabelStmt(clang::LabelStmt*) {
    found = true;
    return false;
  }
  bool VisitSwitchCase(clang::SwitchCase*) {
    found = switch_depth_ == 0;
    return !found;
  }
  bool TraverseSwitchStmt(clang::SwitchStmt* stmt, DataRecursionQueue* = nullptr) {
    ++switch_depth_;
    const bool go_on = Base::TraverseSwitchStmt(stmt, nullptr);
    --switch_depth_;
    return go_on;
  }
  // Labels inside a lambda are not reachable from the enclosing function.
  bool TraverseLambdaExpr(clang::LambdaExpr*, DataRecursionQueue* = nullptr) { return true; }

private:
  unsigned switch_depth_ = 0;
};

} // namespace

bool has_jump_target(const clang::Stmt* stmt) {
  JumpTargetFinder finder;
  finder.TraverseStmt(const_cast<clang::Stmt*>(stmt));
  return finder.found;
}

} // namespace vcmon::preprocessor
