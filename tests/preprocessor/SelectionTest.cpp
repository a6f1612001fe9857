// The selection file format: sections, wildcards, comments and its errors.
#include "Selection.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace vcmon::preprocessor {
namespace {

TEST(Selection, EmptySelectsEverything) {
  const Selection s;
  EXPECT_TRUE(s.selects_procedure("main"));
  EXPECT_TRUE(s.selects_file("a/b.c"));
}

TEST(Selection, ExcludeAndIncludeListsWithWildcards) {
  const Selection s = Selection::parse("# comment\n"
                                       "BEGIN_INCLUDE_LIST\n"
                                       "  solver::*\n"
                                       "main\n"
                                       "END_INCLUDE_LIST\n"
                                       "BEGIN_EXCLUDE_LIST\n"
                                       "solver::*_helper?\n"
                                       "END_EXCLUDE_LIST\n"
                                       "BEGIN_FILE_EXCLUDE_LIST\n"
                                       "*/generated/*\n"
                                       "END_FILE_EXCLUDE_LIST\n",
                                       "sel");
  EXPECT_TRUE(s.selects_procedure("main"));
  EXPECT_TRUE(s.selects_procedure("solver::step"));
  EXPECT_FALSE(s.selects_procedure("solver::step_helper2"));
  EXPECT_TRUE(s.selects_procedure("solver::step_helper"));
  EXPECT_FALSE(s.selects_procedure("other"));
  EXPECT_FALSE(s.selects_file("src/generated/x.c"));
  EXPECT_TRUE(s.selects_file("src/x.c"));
}

TEST(Selection, FileIncludeList) {
  const Selection s =
      Selection::parse("BEGIN_FILE_INCLUDE_LIST\n*.cpp\nEND_FILE_INCLUDE_LIST\n", "sel");
  EXPECT_TRUE(s.selects_file("dir/a.cpp"));
  EXPECT_FALSE(s.selects_file("dir/a.c"));
}

void expect_problem(const char* text, const std::string& message) {
  try {
    Selection::parse(text, "sel");
    ADD_FAILURE() << "no error for: " << text;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(e.what(), message);
  }
}

TEST(Selection, ErrorsNameTheLine) {
  expect_problem("main\n", "sel:1: pattern 'main' outside any BEGIN_.../END_... section");
  expect_problem("\nBEGIN_SOMETHING\n", "sel:2: unknown section 'BEGIN_SOMETHING'");
  expect_problem("BEGIN_EXCLUDE_LIST\nBEGIN_INCLUDE_LIST\n",
                 "sel:2: 'BEGIN_INCLUDE_LIST' inside BEGIN_EXCLUDE_LIST opened on line 1");
  expect_problem("END_EXCLUDE_LIST\n", "sel:1: 'END_EXCLUDE_LIST' closes no open section");
  expect_problem("BEGIN_EXCLUDE_LIST\nx\n", "sel:1: BEGIN_EXCLUDE_LIST is never closed");
}

} // namespace
} // namespace vcmon::preprocessor
