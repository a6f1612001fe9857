// The directive before a statement, read from the text as the compiler will see it, and how
// many nested loops it binds.
#include "StatementDirective.hpp"

#include <gtest/gtest.h>

#include <string>

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

TEST(StatementDirective, AnyPreprocessorLineCounts) {
  // The statement may be one branch of a conditional: it stays as written.
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

} // namespace
} // namespace vcmon::preprocessor
