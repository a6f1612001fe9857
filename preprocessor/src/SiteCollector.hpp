// Finds the sites of one translation unit's main file (docs/instrument.md, "What becomes a site")
// and the probe insertions for them, in one pass over the AST.
#pragma once

#include "FoldableLeaves.hpp"
#include "ProbeText.hpp"
#include "Selection.hpp"
#include "SourceEdits.hpp"
#include "StatementDirective.hpp"

#include "vcmon/tables/ProgramGraph.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace vcmon::preprocessor {

struct CollectorOptions {
  bool loops = true;           // false with --no-loops
  bool call_statements = true; // false with --mpi-only
  unsigned min_lines = 0;      // procedures whose body spans fewer lines are left alone
  // Tiny and inline leaf procedures and calls of them are folded, not probed
  // (FoldableLeaves); false with --probe-all.
  bool fold_leaves = true;
  // Loops nested in a loop with no probed call inside are counted, not timed; false with
  // --probe-all.
  bool count_inner_loops = true;
  Selection selection;
};

class SiteCollector : public clang::RecursiveASTVisitor<SiteCollector> {
  using Base = clang::RecursiveASTVisitor<SiteCollector>;

public:
  // `file` is the main file's path as given: site positions carry it, and internal-linkage
  // symbols are qualified by it. `preprocessor_facts`: those of the main file, recorded as it was
  // parsed (record_preprocessor_facts).
  SiteCollector(clang::ASTContext& context, std::string file, const CollectorOptions& options,
                ProbeText probes, const PreprocessorFacts& preprocessor_facts);

  // Collects the main file's sites and their probe insertions.
  void collect();

  const tables::ProgramGraph& graph() const { return graph_; }
  const SourceEdits& edits() const { return edits_; }

  // Templates: one site per definition (the pattern), never per instantiation.
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(clang::Decl* decl);
  bool TraverseLambdaExpr(clang::LambdaExpr* lambda, DataRecursionQueue* = nullptr);
  bool TraverseCompoundStmt(clang::CompoundStmt* stmt, DataRecursionQueue* = nullptr);
  bool TraverseForStmt(clang::ForStmt* stmt, DataRecursionQueue* = nullptr);
  bool TraverseCXXForRangeStmt(clang::CXXForRangeStmt* stmt, DataRecursionQueue* = nullptr);
  bool TraverseWhileStmt(clang::WhileStmt* stmt, DataRecursionQueue* = nullptr);
  bool TraverseDoStmt(clang::DoStmt* stmt, DataRecursionQueue* = nullptr);
  bool TraverseAttributedStmt(clang::AttributedStmt* stmt, DataRecursionQueue* = nullptr);
  bool VisitCallExpr(clang::CallExpr* call);

  // Operands that are never evaluated hold no call statements.
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr* expr,
                                        DataRecursionQueue* = nullptr);
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr* expr, DataRecursionQueue* = nullptr);
  bool TraverseCXXTypeidExpr(clang::CXXTypeidExpr* expr, DataRecursionQueue* = nullptr);
  bool TraverseRequiresExpr(clang::RequiresExpr* expr, DataRecursionQueue* = nullptr);
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc loc);
  bool TraverseTypeOfExprTypeLoc(clang::TypeOfExprTypeLoc loc);
  bool TraverseStaticAssertDecl(clang::StaticAssertDecl* decl);
  bool TraverseVarDecl(clang::VarDecl* decl);

private:
  struct PendingBody {
    const clang::CompoundStmt* body;
    tables::SiteId site; // kNoSite: the body is left alone
  };
  struct FileRange {
    unsigned begin, end; // offsets in the main file, end exclusive
  };

  template <typename Traverse> bool unevaluated(Traverse traverse);
  template <typename Traverse>
  bool traverse_function_body(const clang::CompoundStmt* body, tables::SiteId site,
                              Traverse traverse);
  template <typename Traverse>
  bool traverse_loop(clang::Stmt* loop, clang::Stmt* body, clang::SourceLocation keyword,
                     const char* name, Traverse traverse);

  tables::SiteId current_parent() const;
  std::optional<tables::SiteId> add_procedure(const clang::FunctionDecl* function,
                                              const clang::CompoundStmt* body,
                                              clang::SourceLocation name_loc, std::string name);
  const clang::CompoundStmt* probe_block(const clang::FunctionDecl* function) const;
  std::string procedure_name(const clang::FunctionDecl* function) const;
  // Its parameter types as the selection compares them: as written, then desugared.
  std::vector<std::string> parameter_lists(const clang::FunctionDecl* function) const;
  bool constexpr_as_written(const clang::FunctionDecl* function) const;
  std::string symbol_of(const clang::FunctionDecl* function) const;
  bool in_system_header(const clang::Decl* decl) const;
  bool loop_can_be_wrapped(const clang::Stmt* loop, const clang::Stmt* body, unsigned begin) const;
  // The directive right before offset `begin` (StatementDirective), if any.
  std::optional<llvm::StringRef> directive_before(unsigned begin) const;
  // Traverses with `loop` as the loop that loops met directly inside may count into
  // (kNoSite: none, e.g. in a procedure body, a loop left alone, a block after a #pragma).
  template <typename Traverse> bool counted_into(tables::SiteId loop, Traverse traverse);
  bool folds(const clang::FunctionDecl* function);
  // A call or communication statement that probes sits in every loop it is nested in.
  void mark_loops_with_probed_call(tables::SiteId parent);

  tables::SourcePos position(clang::SourceLocation loc) const;
  std::optional<FileRange> file_range(const clang::Stmt* stmt) const;
  std::optional<unsigned> main_file_offset(clang::SourceLocation loc) const;
  unsigned statement_end(unsigned end) const;

  clang::ASTContext& context_;
  clang::SourceManager& sources_;
  std::string file_;
  const CollectorOptions& options_;
  ProbeText probes_;
  const PreprocessorFacts& preprocessor_facts_;
  bool cplusplus_;

  tables::ProgramGraph graph_;
  SourceEdits edits_;
  std::uint64_t order_ = 0;
  std::vector<PendingBody> pending_bodies_;
  std::vector<tables::SiteId> scopes_; // innermost procedure or loop; kNoSite when left alone
  struct ProcedureScope {
    std::string name;
    bool loops; // its loops may be sites (Selection::Choice)
  };
  std::vector<ProcedureScope> procedures_; // innermost last
  unsigned unevaluated_depth_ = 0;
  const clang::Stmt* attributed_ = nullptr;
  // Loops nested next that a directive above binds (collapse(N): N - 1 below its own loop).
  unsigned bound_loops_ = 0;
  std::set<std::pair<unsigned, unsigned>> wrapped_calls_; // a macro argument expanded twice
  FoldableLeaves foldable_leaves_;
  std::unordered_set<tables::SiteId> loops_with_probed_calls_; // in their bodies, at any depth
  std::vector<tables::SiteId> count_into_;                     // see counted_into
  // Counted loops whose nearest timed enclosing loop is not decided yet, by their enclosing
  // loop: the timed loop that takes them declares their counters.
  std::unordered_map<tables::SiteId, std::vector<CountedLoop>> undeclared_counted_;
  std::vector<const clang::Stmt*> loop_bodies_; // of the loops being traversed, innermost last
};

} // namespace vcmon::preprocessor
