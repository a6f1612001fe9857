// Which procedures are folded into their callers instead of probed: leaves (calls only to
// arithmetic builtins, constexpr functions, inline library code, themselves and other foldable
// leaves; no
// MPI, no jump back, no allocation or exception) that are either tiny (a few statements and
// no loop) or declared `inline` with a bounded body. Such a procedure costs little, a probe
// pair around it would cost as much, and the probes would stop the compiler from inlining it;
// its cost goes to its callers (docs/instrument.md, "What is probed").
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <unordered_map>

namespace vcmon::preprocessor {

class FoldableLeaves {
public:
  // A tiny leaf: at most this many statements and AST nodes (expressions included), no loop.
  static constexpr unsigned kTinyStatements = 8;
  static constexpr unsigned kTinyNodes = 512;
  // A leaf declared `inline` (the keyword; a member defined in its class is only tiny or not
  // foldable): at most this many nodes, loops allowed. LULESH's per-element helpers
  // (`CalcElemFBHourglassForce`: six loops of 4 and 8 trips, about 650 nodes of 8-term sums) are
  // such: probed, one call per element ran 3.5 times as long. No bound on statements: its
  // straight-line `CalcElemVolume` is 40 short declarations, and a statement count kept it and
  // the one-line wrapper calling it probed, 4 probes per element.
  static constexpr unsigned kInlineNodes = 2048;

  explicit FoldableLeaves(const clang::ASTContext& context) : context_(context) {}

  // False when the definition is not visible in this unit: another unit decides for itself.
  bool is_foldable(const clang::FunctionDecl* function);

private:
  struct Shape {
    bool leaf = true;
    unsigned statements = 0;
    unsigned loops = 0;
    unsigned nodes = 0;
  };

  // `self`: the canonical declaration measured; a call of itself is allowed (a tiny recursive
  // function such as fib costs a probe pair per activation, and deep recursion turns that into
  // most of the run).
  void measure(const clang::Stmt* stmt, const clang::FunctionDecl* self, Shape& shape);
  bool allowed_callee(const clang::FunctionDecl* callee, const clang::FunctionDecl* self);
  // A compiler builtin, or a library one from <math.h>/<complex.h>: not printf or malloc.
  bool arithmetic_builtin(unsigned builtin) const;

  const clang::ASTContext& context_;
  std::unordered_map<const clang::FunctionDecl*, bool> known_; // by canonical declaration
};

} // namespace vcmon::preprocessor
