#include "SiteCollector.hpp"

#include "JumpTargets.hpp"
#include "MpiClassifier.hpp"
#include "OncePerIteration.hpp"
#include "StatementDirective.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Index/USRGeneration.h>
#include <clang/Lex/Lexer.h>

#include <cctype>

namespace vcmon::preprocessor {

using tables::kNoSite;
using tables::SiteId;
using tables::SiteKind;

namespace {

// The monitor's C API (probes, queries): `vcmon_` functions are never sites.
bool is_monitor_function(const clang::FunctionDecl* function) {
  const clang::IdentifierInfo* name = function->getIdentifier();
  return name != nullptr && name->getName().startswith("vcmon_");
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The declared operator() of a functor call `f(args)`, whose callee as written is `f`.
bool is_call_operator(const clang::CallExpr* call) {
  const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
  return op != nullptr && op->getOperator() == clang::OO_Call;
}

} // namespace

SiteCollector::SiteCollector(clang::ASTContext& context, std::string file,
                             const CollectorOptions& options, ProbeText probes,
                             const PreprocessorFacts& preprocessor_facts)
    : context_(context), sources_(context.getSourceManager()), file_(std::move(file)),
      options_(options), probes_(std::move(probes)), preprocessor_facts_(preprocessor_facts),
      cplusplus_(context.getLangOpts().CPlusPlus), foldable_leaves_(context) {}

void SiteCollector::collect() {
  // Asked once here too, so that file rules count as matched in a file without procedures.
  options_.selection.selects_file(file_);
  TraverseDecl(context_.getTranslationUnitDecl());
}

// ---- positions and ranges ----

tables::SourcePos SiteCollector::position(clang::SourceLocation loc) const {
  const clang::SourceLocation file_loc = sources_.getFileLoc(loc);
  return {file_, sources_.getSpellingLineNumber(file_loc),
          sources_.getSpellingColumnNumber(file_loc)};
}

std::optional<unsigned> SiteCollector::main_file_offset(clang::SourceLocation loc) const {
  if (!loc.isFileID() || sources_.getFileID(loc) != sources_.getMainFileID()) {
    return std::nullopt;
  }
  return sources_.getFileOffset(loc);
}

std::optional<SiteCollector::FileRange> SiteCollector::file_range(const clang::Stmt* stmt) const {
  const clang::CharSourceRange range =
      clang::Lexer::makeFileCharRange(clang::CharSourceRange::getTokenRange(stmt->getSourceRange()),
                                      sources_, context_.getLangOpts());
  if (range.isInvalid()) {
    return std::nullopt;
  }
  const auto begin = main_file_offset(range.getBegin());
  const auto end = main_file_offset(range.getEnd());
  if (!begin || !end || *end < *begin) {
    return std::nullopt;
  }
  return FileRange{*begin, *end};
}

// The end of a statement ending at `end`, taking in the `;` that terminates expression,
// jump, return and do-while statements (a `;` after a block is an empty statement, which
// may go along harmlessly).
unsigned SiteCollector::statement_end(unsigned end) const {
  const llvm::StringRef text = sources_.getBufferData(sources_.getMainFileID());
  std::size_t i = end;
  while (i < text.size()) {
    if (is_space(text[i])) {
      ++i;
    } else if (text.substr(i).startswith("//")) {
      i = text.find('\n', i);
    } else if (text.substr(i).startswith("/*")) {
      const std::size_t close = text.find("*/", i + 2);
      i = close == llvm::StringRef::npos ? text.size() : close + 2;
    } else {
      break;
    }
  }
  return i < text.size() && text[i] == ';' ? static_cast<unsigned>(i + 1) : end;
}

// ---- procedures ----

SiteId SiteCollector::current_parent() const {
  return scopes_.empty() || unevaluated_depth_ > 0 ? kNoSite : scopes_.back();
}

bool SiteCollector::in_system_header(const clang::Decl* decl) const {
  const clang::SourceLocation loc = decl->getCanonicalDecl()->getLocation();
  return loc.isInvalid() || sources_.isInSystemHeader(loc);
}

std::string SiteCollector::symbol_of(const clang::FunctionDecl* function) const {
  if (const clang::FunctionDecl* pattern = function->getTemplateInstantiationPattern()) {
    function = pattern;
  }
  llvm::SmallString<128> usr;
  if (clang::index::generateUSRForDecl(function, usr)) {
    return {};
  }
  // Internal linkage: the same name in another file is another procedure.
  if (!function->isExternallyVisible()) {
    return file_ + "|" + std::string(usr);
  }
  return std::string(usr);
}

bool SiteCollector::constexpr_as_written(const clang::FunctionDecl* function) const {
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function);
  if (method == nullptr || !method->getParent()->isLambda()) {
    return function->isConstexpr();
  }
  // Since C++17 Clang marks any lambda that could be constexpr as constexpr; only a lambda
  // declared so (between its parameter list and its body) stays untouched. Without a
  // parameter list (`[&] { ... }`) that is between its introducer and its body: the closure
  // type is declared at the introducer. Taking Clang's mark there left such lambdas
  // unprobed.
  const clang::FunctionTypeLoc type = method->getFunctionTypeLoc();
  const clang::Stmt* body = method->getBody();
  if (body == nullptr) {
    return false;
  }
  const clang::SourceLocation declarator_start = type && type.getRParenLoc().isValid()
                                                     ? type.getRParenLoc()
                                                     : method->getParent()->getLocation();
  const auto from = main_file_offset(declarator_start);
  const auto to = main_file_offset(body->getBeginLoc());
  if (!from || !to || *to < *from) {
    return function->isConstexpr();
  }
  const llvm::StringRef declarator =
      sources_.getBufferData(sources_.getMainFileID()).slice(*from, *to);
  for (const llvm::StringRef word : {"constexpr", "consteval"}) {
    for (std::size_t at = declarator.find(word); at != llvm::StringRef::npos;
         at = declarator.find(word, at + 1)) {
      const auto identifier = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      };
      const bool starts = at == 0 || !identifier(declarator[at - 1]);
      const bool ends =
          at + word.size() == declarator.size() || !identifier(declarator[at + word.size()]);
      if (starts && ends) {
        return true;
      }
    }
  }
  return false;
}

std::string SiteCollector::procedure_name(const clang::FunctionDecl* function) const {
  return function->getQualifiedNameAsString();
}

std::vector<std::string> SiteCollector::parameter_lists(const clang::FunctionDecl* function) const {
  const clang::PrintingPolicy policy(context_.getLangOpts());
  std::vector<std::string> lists;
  for (const bool desugared : {false, true}) {
    std::string list;
    for (const clang::ParmVarDecl* parameter : function->parameters()) {
      const clang::QualType type = parameter->getType(); // arrays and functions decayed
      list += (list.empty() ? "" : ", ") +
              (desugared ? type.getCanonicalType() : type).getAsString(policy);
    }
    if (function->isVariadic()) {
      list += list.empty() ? "..." : ", ...";
    }
    if (lists.empty() || lists.back() != list) {
      lists.push_back(std::move(list));
    }
  }
  return lists;
}

const clang::CompoundStmt* SiteCollector::probe_block(const clang::FunctionDecl* function) const {
  clang::Stmt* body = function->getBody();
  if (const auto* try_block = llvm::dyn_cast_or_null<clang::CXXTryStmt>(body)) {
    return try_block->getTryBlock(); // function-try-block: the probe opens the try block
  }
  return llvm::dyn_cast_or_null<clang::CompoundStmt>(body);
}

std::optional<SiteId> SiteCollector::add_procedure(const clang::FunctionDecl* function,
                                                   const clang::CompoundStmt* body,
                                                   clang::SourceLocation name_loc,
                                                   std::string name) {
  if (constexpr_as_written(function)) {
    return std::nullopt; // compile-time use must keep working
  }
  if (is_monitor_function(function)) {
    return std::nullopt; // the monitor's own code never measures itself
  }
  const auto open = main_file_offset(body->getLBracLoc());
  const auto close = main_file_offset(body->getRBracLoc());
  if (!open || !close) {
    return std::nullopt;
  }
  const unsigned lines = sources_.getSpellingLineNumber(body->getRBracLoc()) -
                         sources_.getSpellingLineNumber(body->getLBracLoc()) + 1;
  if (lines < options_.min_lines) {
    return std::nullopt;
  }
  if (folds(function)) {
    return graph_.add_site(SiteKind::Procedure, position(name_loc), name, kNoSite,
                           symbol_of(function), tables::SiteProbing::Folded);
  }
  const SiteId id =
      graph_.add_site(SiteKind::Procedure, position(name_loc), name, kNoSite, symbol_of(function));
  edits_.open(*open + 1, 2 * order_++, probes_.procedure_entry(id));
  return id;
}

bool SiteCollector::folds(const clang::FunctionDecl* function) {
  return options_.fold_leaves && foldable_leaves_.is_foldable(function);
}

template <typename Traverse>
bool SiteCollector::traverse_function_body(const clang::CompoundStmt* body, SiteId site,
                                           Traverse traverse) {
  pending_bodies_.push_back({body, site});
  const bool go_on = traverse();
  pending_bodies_.pop_back();
  return go_on;
}

bool SiteCollector::TraverseDecl(clang::Decl* decl) {
  if (decl == nullptr) {
    return true;
  }
  // Only the main file's declarations: headers are not the given files, and skipping them
  // keeps the pass cheap.
  if (!llvm::isa<clang::TranslationUnitDecl>(decl) &&
      !sources_.isInMainFile(sources_.getExpansionLoc(decl->getLocation()))) {
    return true;
  }
  auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl);
  if (function == nullptr || !function->doesThisDeclarationHaveABody() || function->isImplicit() ||
      function->isDefaulted()) {
    return Base::TraverseDecl(decl);
  }
  if (function->isConstexpr()) {
    return true; // untouched, and nothing inside it is a site
  }
  const clang::CompoundStmt* body = probe_block(function);
  std::string name = procedure_name(function);
  const Selection::Choice choice =
      options_.selection.choose(file_, {name, parameter_lists(function)});
  SiteId site = kNoSite;
  if (body != nullptr && choice.procedure) {
    site = add_procedure(function, body, function->getLocation(), name).value_or(kNoSite);
  }
  procedures_.push_back({std::move(name), choice.loops});
  const bool go_on = traverse_function_body(body, site, [&] { return Base::TraverseDecl(decl); });
  procedures_.pop_back();
  return go_on;
}

bool SiteCollector::TraverseLambdaExpr(clang::LambdaExpr* lambda, DataRecursionQueue*) {
  const clang::CXXMethodDecl* call_operator = lambda->getCallOperator();
  if (unevaluated_depth_ > 0 || constexpr_as_written(call_operator)) {
    return true; // untouched: it may be used at compile time
  }
  const tables::SourcePos where = position(lambda->getBeginLoc());
  std::string name = "lambda@" + std::to_string(where.line) + ":" + std::to_string(where.column);
  if (!procedures_.empty()) {
    name = procedures_.back().name + "::" + name;
  }
  const clang::CompoundStmt* body = lambda->getCompoundStmtBody();
  const Selection::Choice choice =
      options_.selection.choose(file_, {name, parameter_lists(call_operator)});
  SiteId site = kNoSite;
  if (choice.procedure) {
    site = add_procedure(call_operator, body, lambda->getBeginLoc(), name).value_or(kNoSite);
  }
  procedures_.push_back({std::move(name), choice.loops});
  const bool go_on =
      traverse_function_body(body, site, [&] { return Base::TraverseLambdaExpr(lambda, nullptr); });
  procedures_.pop_back();
  return go_on;
}

bool SiteCollector::TraverseCompoundStmt(clang::CompoundStmt* stmt, DataRecursionQueue*) {
  const bool function_body = !pending_bodies_.empty() && pending_bodies_.back().body == stmt;
  const auto open = main_file_offset(stmt->getLBracLoc());
  // A block after a #pragma line (an OpenMP parallel region) may run on several threads: a
  // loop in it must not count into locals of a loop outside.
  const bool region = function_body || (open && directive_before(*open));
  if (function_body) {
    scopes_.push_back(pending_bodies_.back().site);
  }
  const bool go_on =
      region ? counted_into(kNoSite, [&] { return Base::TraverseCompoundStmt(stmt, nullptr); })
             : Base::TraverseCompoundStmt(stmt, nullptr);
  if (function_body) {
    scopes_.pop_back();
  }
  return go_on;
}

template <typename Traverse> bool SiteCollector::counted_into(SiteId loop, Traverse traverse) {
  count_into_.push_back(loop);
  const bool go_on = traverse();
  count_into_.pop_back();
  return go_on;
}

std::optional<llvm::StringRef> SiteCollector::directive_before(unsigned begin) const {
  return preprocessor::directive_before(sources_.getBufferData(sources_.getMainFileID()), begin,
                                        preprocessor_facts_);
}

// ---- loops ----

bool SiteCollector::loop_can_be_wrapped(const clang::Stmt* loop, const clang::Stmt* body,
                                        unsigned begin) const {
  if (loop == attributed_) {
    return false; // [[attribute]] and #pragma loop hints must stay on the loop itself
  }
  // A loop right after a directive (OpenMP, unroll, ivdep) must stay the directive's statement.
  return !directive_before(begin) && !has_jump_target(body);
}

template <typename Traverse>
bool SiteCollector::traverse_loop(clang::Stmt* loop, clang::Stmt* body,
                                  clang::SourceLocation keyword, const char* name,
                                  Traverse traverse) {
  const SiteId parent = current_parent();
  // A loop left alone may be an OpenMP loop, run by several threads: no loop inside it counts
  // into locals of a loop outside.
  const auto left_alone = [&] { return counted_into(kNoSite, traverse); };
  // The loops a directive binds stay perfectly nested: a probe between the loops of a
  // collapse(2) nest made GCC reject the file ("not enough perfectly nested loops").
  unsigned bound = bound_loops_;
  if (const auto offset = main_file_offset(keyword); bound == 0 && offset) {
    if (const auto directive = directive_before(*offset)) {
      bound = loops_bound_by(*directive);
    }
  }
  if (bound > 0) {
    const unsigned outer = bound_loops_;
    bound_loops_ = bound - 1;
    const bool go_on = left_alone();
    bound_loops_ = outer;
    return go_on;
  }
  if (parent == kNoSite || !options_.loops || !options_.call_statements || !keyword.isFileID() ||
      graph_.site(parent).probing == tables::SiteProbing::Folded || procedures_.empty() ||
      !procedures_.back().loops) {
    // loops written inside macros, of a folded procedure, or of one the selection's `loops`
    // lines do not name
    return left_alone();
  }
  const auto range = file_range(loop);
  const auto keyword_offset = main_file_offset(keyword);
  if (!range || !keyword_offset || range->begin != *keyword_offset ||
      !loop_can_be_wrapped(loop, body, range->begin)) {
    return left_alone();
  }
  const auto* block = llvm::dyn_cast<clang::CompoundStmt>(body);
  std::optional<unsigned> block_open;
  if (block != nullptr) {
    block_open = main_file_offset(block->getLBracLoc());
  }
  std::optional<FileRange> body_range;
  if (!block_open) {
    body_range = file_range(body);
    if (!body_range) {
      return left_alone();
    }
  }
  const bool countable = !count_into_.empty() && count_into_.back() == parent;
  // Counting into `parent` means traversing its body now.
  const bool once_per_parent_iteration =
      countable && !loop_bodies_.empty() && runs_once_per_iteration(loop, loop_bodies_.back());

  const SiteId id = graph_.add_site(SiteKind::Loop, position(keyword), name, parent);
  const std::uint64_t order = 2 * order_++;
  scopes_.push_back(id);
  loop_bodies_.push_back(body);
  const bool go_on = counted_into(id, traverse);
  loop_bodies_.pop_back();
  scopes_.pop_back();

  // Known only now that the body has been read: a loop nested right in a timed loop, with no
  // probed call inside, is counted in registers (docs/instrument.md, "What is probed").
  const bool counted = options_.count_inner_loops && countable &&
                       graph_.site(parent).kind == SiteKind::Loop &&
                       !loops_with_probed_calls_.contains(id);
  std::vector<CountedLoop> inner_counted;
  if (const auto it = undeclared_counted_.find(id); it != undeclared_counted_.end()) {
    inner_counted = std::move(it->second);
    undeclared_counted_.erase(it);
  }
  if (counted) {
    graph_.set_probing(id, tables::SiteProbing::Counted);
    const CountedLoop self{id, once_per_parent_iteration ? std::optional(parent) : std::nullopt};
    // Declared before the loops counted inside it: their counters may read its iterations.
    std::vector<CountedLoop>& outer = undeclared_counted_[parent];
    outer.push_back(self);
    outer.insert(outer.end(), inner_counted.begin(), inner_counted.end());
    edits_.open(range->begin, order, probes_.counted_loop_open(self));
  } else {
    edits_.open(range->begin, order, probes_.loop_open(id, inner_counted));
    mark_loops_with_probed_call(parent); // its probes sit in every loop around it
  }
  edits_.close(statement_end(range->end), order, ProbeText::loop_close());
  if (block_open) {
    edits_.open(*block_open + 1, order + 1, probes_.iteration(id, counted));
  } else {
    edits_.open(body_range->begin, order + 1, probes_.iteration_open(id, counted));
    edits_.close(statement_end(body_range->end), order + 1, ProbeText::iteration_close());
  }
  return go_on;
}

void SiteCollector::mark_loops_with_probed_call(SiteId parent) {
  for (SiteId at = parent; at != kNoSite && graph_.site(at).kind == SiteKind::Loop;
       at = graph_.site(at).parent) {
    loops_with_probed_calls_.insert(at);
  }
}

bool SiteCollector::TraverseForStmt(clang::ForStmt* stmt, DataRecursionQueue*) {
  return traverse_loop(stmt, stmt->getBody(), stmt->getForLoc(), "for",
                       [&] { return Base::TraverseForStmt(stmt, nullptr); });
}

bool SiteCollector::TraverseCXXForRangeStmt(clang::CXXForRangeStmt* stmt, DataRecursionQueue*) {
  return traverse_loop(stmt, stmt->getBody(), stmt->getForLoc(), "range-for",
                       [&] { return Base::TraverseCXXForRangeStmt(stmt, nullptr); });
}

bool SiteCollector::TraverseWhileStmt(clang::WhileStmt* stmt, DataRecursionQueue*) {
  return traverse_loop(stmt, stmt->getBody(), stmt->getWhileLoc(), "while",
                       [&] { return Base::TraverseWhileStmt(stmt, nullptr); });
}

bool SiteCollector::TraverseDoStmt(clang::DoStmt* stmt, DataRecursionQueue*) {
  return traverse_loop(stmt, stmt->getBody(), stmt->getDoLoc(), "do",
                       [&] { return Base::TraverseDoStmt(stmt, nullptr); });
}

bool SiteCollector::TraverseAttributedStmt(clang::AttributedStmt* stmt, DataRecursionQueue*) {
  attributed_ = stmt->getSubStmt();
  return Base::TraverseAttributedStmt(stmt, nullptr);
}

// ---- call and communication statements ----

bool SiteCollector::VisitCallExpr(clang::CallExpr* call) {
  const SiteId parent = current_parent();
  if (parent == kNoSite || llvm::isa<clang::UserDefinedLiteral>(call)) {
    return true;
  }
  const clang::Expr* callee = call->getCallee()->IgnoreParenImpCasts();
  std::string name;
  std::string symbol;
  bool communication = false;
  bool folded = false;
  if (const clang::FunctionDecl* function = call->getDirectCallee()) {
    name = function->getNameAsString();
    if (function->getBuiltinID() != 0 || llvm::isa<clang::CXXDestructorDecl>(function) ||
        is_monitor_function(function)) {
      return true;
    }
    if (is_mpi_name(name)) {
      communication = classify_mpi_function(name).has_value();
      if (!communication) {
        return true;
      }
    } else if (constexpr_as_written(function) || in_system_header(function)) {
      return true; // not a procedure of the program
    } else {
      const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function);
      const auto* member = llvm::dyn_cast<clang::MemberExpr>(callee);
      const bool dynamic = method != nullptr && method->isVirtual() && member != nullptr &&
                           !member->hasQualifier() && !method->hasAttr<clang::FinalAttr>() &&
                           !method->getParent()->hasAttr<clang::FinalAttr>();
      if (!dynamic) {
        symbol = symbol_of(function); // a virtual call's callee is known at run time only
        folded = folds(function);
      }
    }
  } else if (const auto* lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(callee)) {
    // A call in a template whose arguments depend on the template's parameters.
    name = lookup->getName().getAsString();
    if (is_mpi_name(name)) {
      communication = classify_mpi_function(name).has_value();
      if (!communication) {
        return true;
      }
    } else {
      const clang::FunctionDecl* only = nullptr;
      bool in_program = false;
      for (const clang::NamedDecl* candidate : lookup->decls()) {
        const clang::FunctionDecl* function = candidate->getAsFunction();
        if (function != nullptr && !constexpr_as_written(function) && !in_system_header(function)) {
          in_program = true;
        }
        only = lookup->getNumDecls() == 1 ? function : nullptr;
      }
      if (!in_program) {
        return true;
      }
      if (only != nullptr) {
        symbol = symbol_of(only);
      }
    }
  } else if (callee->isTypeDependent() || llvm::isa<clang::CXXPseudoDestructorExpr>(callee)) {
    return true; // a member of a dependent type: unknown until instantiation
  } else if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(callee)) {
    name = ref->getNameInfo().getAsString(); // a function pointer
  } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(callee)) {
    name = member->getMemberNameInfo().getAsString();
  } else {
    name = "(indirect)";
  }
  if (!communication && !options_.call_statements) {
    return true;
  }

  const auto range = file_range(call);
  if (!range || !wrapped_calls_.insert({range->begin, range->end}).second) {
    return true; // inside a macro body (left alone), or already wrapped
  }
  clang::SourceLocation name_loc = call->getBeginLoc();
  if (is_call_operator(call)) {
    name_loc = call->getArg(0)->getExprLoc();
  } else if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call)) {
    name_loc = op->getOperatorLoc();
  } else if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(callee)) {
    name_loc = ref->getLocation();
  } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(callee)) {
    name_loc = member->getMemberLoc();
  } else if (const auto* lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(callee)) {
    name_loc = lookup->getNameLoc();
  }

  if (folded) {
    graph_.add_site(SiteKind::Call, position(name_loc), name, parent, symbol,
                    tables::SiteProbing::Folded);
    return true;
  }
  const SiteId id = graph_.add_site(communication ? SiteKind::Comm : SiteKind::Call,
                                    position(name_loc), name, parent, symbol);
  mark_loops_with_probed_call(parent);
  const std::uint64_t order = 2 * order_++;
  // A statement expression keeps the scope to the call itself; C++ objects and references
  // would be copied by it, so they take the guard temporary.
  const bool statement_expression =
      !cplusplus_ || (!call->isTypeDependent() && call->isPRValue() &&
                      !call->getType()->isRecordType() && !call->getType()->isDependentType());
  if (statement_expression) {
    edits_.open(range->begin, order, probes_.call_open(id, communication));
    edits_.close(range->end, order, ProbeText::call_close());
  } else {
    edits_.open(range->begin, order, probes_.guard_open(id, communication));
    edits_.close(range->end, order, ProbeText::guard_close());
  }
  return true;
}

// ---- unevaluated operands ----

template <typename Traverse> bool SiteCollector::unevaluated(Traverse traverse) {
  ++unevaluated_depth_;
  const bool go_on = traverse();
  --unevaluated_depth_;
  return go_on;
}

bool SiteCollector::TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr* expr,
                                                     DataRecursionQueue*) {
  return unevaluated([&] { return Base::TraverseUnaryExprOrTypeTraitExpr(expr, nullptr); });
}

bool SiteCollector::TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr* expr, DataRecursionQueue*) {
  return unevaluated([&] { return Base::TraverseCXXNoexceptExpr(expr, nullptr); });
}

bool SiteCollector::TraverseCXXTypeidExpr(clang::CXXTypeidExpr* expr, DataRecursionQueue*) {
  if (expr->isPotentiallyEvaluated()) {
    return Base::TraverseCXXTypeidExpr(expr, nullptr);
  }
  return unevaluated([&] { return Base::TraverseCXXTypeidExpr(expr, nullptr); });
}

bool SiteCollector::TraverseRequiresExpr(clang::RequiresExpr* expr, DataRecursionQueue*) {
  return unevaluated([&] { return Base::TraverseRequiresExpr(expr, nullptr); });
}

bool SiteCollector::TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc loc) {
  return unevaluated([&] { return Base::TraverseDecltypeTypeLoc(loc); });
}

bool SiteCollector::TraverseTypeOfExprTypeLoc(clang::TypeOfExprTypeLoc loc) {
  return unevaluated([&] { return Base::TraverseTypeOfExprTypeLoc(loc); });
}

bool SiteCollector::TraverseVarDecl(clang::VarDecl* decl) {
  if (decl->isConstexpr()) {
    // A constant initializer: what it calls is constexpr, and a lambda it holds may be
    // called at compile time.
    return unevaluated([&] { return Base::TraverseVarDecl(decl); });
  }
  return Base::TraverseVarDecl(decl);
}

bool SiteCollector::TraverseStaticAssertDecl(clang::StaticAssertDecl* decl) {
  return unevaluated([&] { return Base::TraverseStaticAssertDecl(decl); });
}

} // namespace vcmon::preprocessor
