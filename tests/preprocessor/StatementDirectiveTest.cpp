// The directive before a statement, read from the text as the compiler will see it or recorded
// as Clang expands macros, and how many nested loops it binds.
#include "StatementDirective.hpp"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/Tooling.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace vcmon::preprocessor {
namespace {

// The directive before the loop `for (;;)` of `source`, or "(none)".
std::string directive_of_loop(const std::string& source) {
  const auto directive = directive_before(source, source.find("for (;;)"));
  return directive ? directive->str() : "(none)";
}

TEST(StatementDirective, PragmaLineRightBefore) {
  EXPECT_EQ(directive_of_loop("int x;\n#pragma omp parallel for\n  for (;;) {}\n"),
            "#pragma omp parallel for");
}

TEST(StatementDirective, PragmaContinuedOverLines) {
  EXPECT_EQ(directive_of_loop("x = 1;\n#pragma omp parallel for \\\n    reduction(+ : s)\n"
                              "for (;;) {}\n"),
            "#pragma omp parallel for \\\n    reduction(+ : s)");
}

TEST(StatementDirective, CommentsBetweenDirectiveAndStatement) {
  EXPECT_EQ(directive_of_loop("#pragma omp for\n  /* a\n block */\n  // a line\n  for (;;) {}"),
            "#pragma omp for");
  EXPECT_EQ(directive_of_loop("#pragma omp for // why\nfor (;;) {}"), "#pragma omp for // why");
}

TEST(StatementDirective, PragmaOperator) {
  EXPECT_EQ(directive_of_loop("x = 1; _Pragma(\"omp parallel for\") for (;;) {}"),
            "_Pragma(\"omp parallel for\")");
  EXPECT_EQ(directive_of_loop("x = 1;\n  _Pragma ( \"omp for \\\"q\\\"\" )\n  for (;;) {}"),
            "_Pragma ( \"omp for \\\"q\\\"\" )");
}

TEST(StatementDirective, StatementsAndCallsAreNoDirective) {
  EXPECT_EQ(directive_of_loop("x = 1;\nfor (;;) {}"), "(none)");
  EXPECT_EQ(directive_of_loop("x = 1; // #pragma in a comment\nfor (;;) {}"), "(none)");
  EXPECT_EQ(directive_of_loop("if (ok(\"s\"))\nfor (;;) {}"), "(none)");
  EXPECT_EQ(directive_of_loop("my_Pragma(\"s\")\nfor (;;) {}"), "(none)");
  EXPECT_EQ(directive_of_loop("for (;;) {}"), "(none)");
  // A backslash at the end of an ordinary line joins nothing to a directive.
  EXPECT_EQ(directive_of_loop("#define A 1\nx = 1; \\\nfor (;;) {}"), "(none)");
}

TEST(StatementDirective, UnparsedAnyPreprocessorLineCounts) {
  // Without knowing what the preprocessor ran, the statement may be one branch of a
  // conditional: it stays as written.
  EXPECT_EQ(directive_of_loop("#ifdef FAST\nfor (;;) {}\n#endif\n"), "#ifdef FAST");
}

TEST(StatementDirective, LoopsBound) {
  EXPECT_EQ(loops_bound_by("#pragma omp parallel for"), 1U);
  EXPECT_EQ(loops_bound_by("#pragma omp parallel for collapse(3) reduction(+ : s)"), 3U);
  EXPECT_EQ(loops_bound_by("#pragma omp for collapse ( 2 )"), 2U);
  EXPECT_EQ(loops_bound_by("#pragma omp for ordered(2) collapse(1)"), 2U);
  EXPECT_EQ(loops_bound_by("#pragma omp for ordered"), 1U);
  EXPECT_EQ(loops_bound_by("#pragma acc parallel loop collapse(2)"), 2U);
  EXPECT_EQ(loops_bound_by("_Pragma(\"omp parallel for collapse(2)\")"), 2U);
  EXPECT_EQ(loops_bound_by("#pragma omp for mycollapse(4)"), 1U);
}

// Parses a C unit as vcmon-instrument does, recording what its preprocessor did.
class RecordingPreprocessorFacts : public clang::SyntaxOnlyAction {
public:
  explicit RecordingPreprocessorFacts(PreprocessorFacts& facts) : facts_(facts) {}

  bool BeginSourceFileAction(clang::CompilerInstance& compiler) override {
    record_preprocessor_facts(compiler.getPreprocessor(), facts_);
    return clang::SyntaxOnlyAction::BeginSourceFileAction(compiler);
  }

private:
  PreprocessorFacts& facts_;
};

// What the preprocessor did in `source`, parsed by Clang as input.c beside `headers` (name,
// text), with `flags` after -std=c11.
PreprocessorFacts parsed_facts(const std::string& source,
                               const clang::tooling::FileContentMappings& headers = {},
                               const std::vector<std::string>& flags = {}) {
  PreprocessorFacts facts;
  std::vector<std::string> args{"-std=c11"};
  args.insert(args.end(), flags.begin(), flags.end());
  EXPECT_TRUE(clang::tooling::runToolOnCodeWithArgs(
      std::make_unique<RecordingPreprocessorFacts>(facts), source, args, "input.c",
      "statement-directive-test", std::make_shared<clang::PCHContainerOperations>(), headers))
      << source;
  return facts;
}

// The directive before the first `statement` of `source`, parsed by Clang, or "(none)".
std::string directive_of_parsed(const std::string& source, const std::string& statement,
                                const clang::tooling::FileContentMappings& headers = {},
                                const std::vector<std::string>& flags = {}) {
  const PreprocessorFacts facts = parsed_facts(source, headers, flags);
  const auto directive = directive_before(source, source.find(statement), facts);
  return directive ? directive->str() : "(none)";
}

// -fopenmp as vcmon-instrument parses it (ParseFlags.cpp).
const std::vector<std::string> kOpenMp{"-D_OPENMP=201511"};

// HPCCG's kernels: a loop after a pragma that a conditional leaves out. Left alone, its inner
// loop was timed per iteration of the outer one, and the CG solver took 3.5 times as long.
TEST(StatementDirective, APragmaTheConditionalLeavesOutBindsNothing) {
  const std::string source = "void f(double* y, int n) {\n"
                             "#ifdef USING_OMP\n"
                             "#pragma omp parallel for\n"
                             "#endif\n"
                             "  for (int i = 0; i < n; ++i) y[i] = 0;\n"
                             "}\n";
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, kOpenMp), "(none)");
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, {"-DUSING_OMP", kOpenMp[0]}),
            "#pragma omp parallel for");
}

TEST(StatementDirective, TheBranchTakenDecides) {
  const std::string source = "void f(double* y, int n) {\n"
                             "#if FAST\n"
                             "#pragma GCC ivdep\n"
                             "#else\n"
                             "  y[0] = 1;\n"
                             "#endif\n"
                             "  for (int i = 0; i < n; ++i) y[i] = 0;\n"
                             "}\n";
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, {"-DFAST=1"}), "#pragma GCC ivdep");
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, {"-DFAST=0"}), "(none)");
}

// LULESH built without OpenMP: its `#pragma omp` lines are there, and the compiler ignores them.
TEST(StatementDirective, OpenMpPragmasBindOnlyWithOpenMp) {
  const std::string source = "void f(double* y, int n) {\n"
                             "#pragma omp parallel for firstprivate(n)\n"
                             "  for (int i = 0; i < n; ++i) y[i] = 0;\n"
                             "}\n";
  EXPECT_EQ(directive_of_parsed(source, "for (int i"), "(none)");
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, kOpenMp),
            "#pragma omp parallel for firstprivate(n)");
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, {"-fopenmp-simd"}),
            "#pragma omp parallel for firstprivate(n)");
}

TEST(StatementDirective, DefinitionsBindNothing) {
  EXPECT_EQ(directive_of_parsed("void f(double* y, int n) {\n"
                                "#define AT(i) y[i]\n"
                                "  for (int i = 0; i < n; ++i) AT(i) = 0;\n"
                                "#undef AT\n"
                                "}\n",
                                "for (int i"),
            "(none)");
}

// A loop after a macro that expands to a `_Pragma`: its text reads as no directive, and a probe
// put between made GCC reject the copy, so the unit lost every probe. Without OpenMP the
// compiler ignores it, as `#pragma omp` lines.
TEST(StatementDirective, ObjectLikeMacroOfAPragma) {
  const std::string source = "#define PFOR _Pragma(\"omp parallel for\")\n"
                             "#define IVDEP _Pragma(\"GCC ivdep\")\n"
                             "void f(int* a) {\n"
                             "  PFOR\n"
                             "  /* the loop */ for (int i = 0; i < 4; ++i) a[i] = i;\n"
                             "  IVDEP\n"
                             "  while (a[0]) --a[0];\n"
                             "}\n";
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, kOpenMp), "#pragma omp parallel for");
  EXPECT_EQ(directive_of_parsed(source, "for (int i"), "(none)");
  EXPECT_EQ(directive_of_parsed(source, "while"), "#pragma GCC ivdep");
}

// A `_Pragma` operator written out: the same rule.
TEST(StatementDirective, PragmaOperatorOfOpenMpBindsOnlyWithOpenMp) {
  const std::string source = "void f(int* a) {\n"
                             "  _Pragma(\"omp parallel for\")\n"
                             "  for (int i = 0; i < 4; ++i) a[i] = i;\n"
                             "  _Pragma(\"ompx_unknown\")\n"
                             "  while (a[0]) --a[0];\n"
                             "}\n";
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, kOpenMp),
            "_Pragma(\"omp parallel for\")");
  EXPECT_EQ(directive_of_parsed(source, "for (int i"), "(none)");
  EXPECT_EQ(directive_of_parsed(source, "while"), "_Pragma(\"ompx_unknown\")");
}

TEST(StatementDirective, PragmaMacroIdiomAndMacrosOfIt) {
  const std::string definitions = "#define PRAGMA(x) _Pragma(#x)\n"
                                  "#define OMP(directive) PRAGMA(omp directive)\n";
  EXPECT_EQ(directive_of_parsed(definitions + "void f(int* a) {\n"
                                              "  PRAGMA(omp parallel for collapse(2))\n"
                                              "  for (int i = 0; i < 4; ++i)\n"
                                              "    for (int j = 0; j < 4; ++j) a[i] += j;\n"
                                              "}\n",
                                "for (int i", {}, kOpenMp),
            "#pragma omp parallel for collapse(2)");
  EXPECT_EQ(loops_bound_by("#pragma omp parallel for collapse(2)"), 2U);
  EXPECT_EQ(directive_of_parsed(definitions + "void f(int* a) {\n"
                                              "  OMP(parallel) { a[0] = 1; }\n"
                                              "}\n",
                                "{ a[0]", {}, kOpenMp),
            "#pragma omp parallel");
}

// Where the macro is defined does not matter; a use in a header is none of the main file's.
TEST(StatementDirective, MacroDirectiveOfAHeader) {
  const clang::tooling::FileContentMappings headers{{"omp_macros.h",
                                                     "#define PFOR _Pragma(\"omp parallel for\")\n"
                                                     "static void g(int* a) {\n"
                                                     "  PFOR\n"
                                                     "  for (int i = 0; i < 4; ++i) a[i] = i;\n"
                                                     "}\n"}};
  const std::string source = "#include \"omp_macros.h\"\n"
                             "void f(int* a) {\n"
                             "  g(a);\n"
                             "  PFOR for (int i = 0; i < 4; ++i) a[i] = i;\n"
                             "}\n";
  EXPECT_EQ(directive_of_parsed(source, "for (int i", headers, kOpenMp),
            "#pragma omp parallel for");
  EXPECT_EQ(parsed_facts(source, headers).macro_directives.size(), 1U);
}

TEST(StatementDirective, MacroDirectiveInAMacroArgument) {
  const std::string definitions = "#define PFOR _Pragma(\"omp parallel for\")\n"
                                  "#define SAME(x) x\n";
  // The whole argument: the use ends with the pragma.
  EXPECT_EQ(directive_of_parsed(definitions + "void f(int* a) {\n"
                                              "  SAME(PFOR)\n"
                                              "  for (int i = 0; i < 4; ++i) a[i] = i;\n"
                                              "}\n",
                                "for (int i", {}, kOpenMp),
            "#pragma omp parallel for");
  // The statement in the argument too: the use is no directive of what follows it.
  EXPECT_EQ(directive_of_parsed(definitions + "void f(int* a) {\n"
                                              "  SAME(PFOR for (int i = 0; i < 4; ++i) a[i] = i;)\n"
                                              "  while (a[0]) --a[0];\n"
                                              "}\n",
                                "while"),
            "(none)");
}

// The use holds the directive's loop: what follows it is the loop's body.
TEST(StatementDirective, MacroOfAPragmaAndMoreIsNoDirective) {
  EXPECT_EQ(directive_of_parsed("#define PFOR_EACH(i, n) _Pragma(\"omp parallel for\") \\\n"
                                "  for (int i = 0; i < (n); ++i)\n"
                                "void f(int* a) {\n"
                                "  PFOR_EACH(i, 4) { a[i] = i; }\n"
                                "}\n",
                                "{ a[i]"),
            "(none)");
}

// A directive from a macro in a loop's body is its statement's, never the loop's.
TEST(StatementDirective, MacroDirectiveInALoopBodyIsNotTheLoops) {
  const std::string source = "#define PFOR _Pragma(\"omp parallel for\")\n"
                             "void f(int* a) {\n"
                             "  for (int k = 0; k < 2; ++k) {\n"
                             "    PFOR\n"
                             "    for (int i = 0; i < 4; ++i) a[i] += k;\n"
                             "  }\n"
                             "}\n";
  EXPECT_EQ(directive_of_parsed(source, "for (int k"), "(none)");
  EXPECT_EQ(directive_of_parsed(source, "{\n    PFOR"), "(none)");
  EXPECT_EQ(directive_of_parsed(source, "for (int i", {}, kOpenMp), "#pragma omp parallel for");
}

} // namespace
} // namespace vcmon::preprocessor
