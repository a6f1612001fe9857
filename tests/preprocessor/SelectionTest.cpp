// The selection file language (TAU's select files): sections, wildcards, quoted entries,
// signatures, BEGIN_INSTRUMENT_SECTION's loops, the unmatched-rule warnings and the errors.
// SelectionToolTest.cpp runs the same through vcmon-instrument on real sources.
#include "Selection.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace vcmon::preprocessor {
namespace {

TEST(Selection, EmptySelectsEverything) {
  const Selection s;
  EXPECT_TRUE(s.selects_procedure({"main"}));
  EXPECT_TRUE(s.selects_file("a/b.c"));
  const Selection::Choice choice = s.choose("a/b.c", {"main", {"int, char **"}});
  EXPECT_TRUE(choice.procedure);
  EXPECT_TRUE(choice.loops);
  EXPECT_TRUE(s.warnings().empty());
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
  EXPECT_TRUE(s.selects_procedure({"main"}));
  EXPECT_TRUE(s.selects_procedure({"solver::step"}));
  EXPECT_FALSE(s.selects_procedure({"solver::step_helper2"}));
  EXPECT_TRUE(s.selects_procedure({"solver::step_helper"}));
  EXPECT_FALSE(s.selects_procedure({"other"}));
  EXPECT_FALSE(s.selects_file("src/generated/x.c"));
  EXPECT_TRUE(s.selects_file("src/x.c"));
}

TEST(Selection, FileIncludeList) {
  const Selection s =
      Selection::parse("BEGIN_FILE_INCLUDE_LIST\n*.cpp\nEND_FILE_INCLUDE_LIST\n", "sel");
  EXPECT_TRUE(s.selects_file("dir/a.cpp"));
  EXPECT_FALSE(s.selects_file("dir/a.c"));
}

TEST(Selection, FilePatternsMatchTrailingPartsOfThePathAndKnowNoHash) {
  const Selection s = Selection::parse("BEGIN_FILE_EXCLUDE_LIST\n"
                                       "heat.c\n"
                                       "lib/util?.c\n"
                                       "#.c\n" // a comment line, not a pattern
                                       "\"x#.c\"\n"
                                       "END_FILE_EXCLUDE_LIST\n",
                                       "sel");
  EXPECT_FALSE(s.selects_file("heat.c"));
  EXPECT_FALSE(s.selects_file("/home/u/app/src/heat.c"));
  EXPECT_TRUE(s.selects_file("src/preheat.c"));
  EXPECT_FALSE(s.selects_file("/abs/lib/util2.c"));
  EXPECT_TRUE(s.selects_file("/abs/otherlib/util2.c"));
  EXPECT_TRUE(s.selects_file("a.c"));     // `#` is no wildcard in file lists
  EXPECT_FALSE(s.selects_file("d/x#.c")); // but a character
}

TEST(Selection, HashIsTausRoutineWildcardAndQuotesLetAnEntryStartWithIt) {
  const Selection s = Selection::parse("BEGIN_EXCLUDE_LIST\n"
                                       "void sort_#(int *)\n"
                                       "\"#compute#\"\n"
                                       "  #flux# is a comment: it starts the line\n"
                                       "MPI_#\n"
                                       "void swap_#\n"
                                       "END_EXCLUDE_LIST\n",
                                       "sel");
  EXPECT_FALSE(s.selects_procedure({"sort_ints", {"int *"}}));
  EXPECT_TRUE(s.selects_procedure({"sort_ints", {"int **"}}));
  EXPECT_TRUE(s.selects_procedure({"sort_ints"})); // parameters unknown: no signature matches
  EXPECT_FALSE(s.selects_procedure({"compute"}));
  EXPECT_FALSE(s.selects_procedure({"ns::recompute_all", {"double"}}));
  EXPECT_TRUE(s.selects_procedure({"flux"}));
  EXPECT_FALSE(s.selects_procedure({"MPI_Wrapper::send"}));
  EXPECT_FALSE(s.selects_procedure({"swap_rows", {"double *, int"}}));
}

TEST(Selection, SignaturesAsTauWritesThem) {
  const Selection s = Selection::parse("BEGIN_INCLUDE_LIST\n"
                                       "int main(int, char **) C\n"
                                       "void foo(double*,int)\n"
                                       "double bar(int) C\n"
                                       "void Grid::reset(void)\n"
                                       "int *make(const char *)\n"
                                       "bool Less::operator()(int, int) const\n"
                                       "void Vec::operator delete(void *)\n"
                                       "void cb(void (*)(int), #)\n"
                                       "void cooperator() C\n"
                                       "void *operator new(unsigned long)\n"
                                       "bool operator<(const A &, const A &)\n"
                                       "int step(int) C [{solver.c} {12,1}-{40,1}]\n"
                                       "halo [{halo.c} {3,1}-{9,1}]\n"
                                       "END_INCLUDE_LIST\n",
                                       "sel");
  EXPECT_TRUE(s.selects_procedure({"main", {"int, char **"}}));
  EXPECT_TRUE(s.selects_procedure({"foo", {"double *, int"}}));
  EXPECT_FALSE(s.selects_procedure({"foo", {"float *, int"}}));
  EXPECT_TRUE(s.selects_procedure({"bar", {"int"}}));
  EXPECT_FALSE(s.selects_procedure({"bar", {"int, int"}}));
  EXPECT_FALSE(s.selects_procedure({"bar", {"long"}}));
  // Any alternative spelling Clang gives (as written, desugared) may match.
  EXPECT_TRUE(s.selects_procedure({"bar", {"index_t", "int"}}));
  EXPECT_TRUE(s.selects_procedure({"Grid::reset", {""}}));
  EXPECT_TRUE(s.selects_procedure({"make", {"const char *"}}));
  EXPECT_TRUE(s.selects_procedure({"Less::operator()", {"int, int"}}));
  EXPECT_TRUE(s.selects_procedure({"Vec::operator delete", {"void *"}}));
  EXPECT_TRUE(s.selects_procedure({"cb", {"void (*)(int), double"}}));
  EXPECT_FALSE(s.selects_procedure({"cb", {"void (*)(long), double"}}));
  EXPECT_TRUE(s.selects_procedure({"cooperator", {""}}));
  EXPECT_TRUE(s.selects_procedure({"operator new", {"unsigned long"}}));
  EXPECT_TRUE(s.selects_procedure({"operator<", {"const A &, const A &"}}));
  EXPECT_FALSE(s.selects_procedure({"operator<", {"const B &, const B &"}}));
  EXPECT_TRUE(s.selects_procedure({"step", {"int"}}));
  EXPECT_TRUE(s.selects_procedure({"halo", {""}}));
}

// Names as vcmon-report --suggest-selection writes them (qualified names) keep matching whole:
// parentheses, blanks and angle brackets in them are no signature.
TEST(Selection, QualifiedNamesWithParenthesesAndBlanks) {
  const Selection s = Selection::parse("BEGIN_EXCLUDE_LIST\n"
                                       "(anonymous namespace)::helper\n"
                                       "void (anonymous namespace)::pack(int)\n"
                                       "Map<int, int>::at\n"
                                       "Functor::operator()\n"
                                       "Pool::operator new\n"
                                       "main::lambda@12:15\n"
                                       "END_EXCLUDE_LIST\n",
                                       "sel");
  for (const char* name : {"(anonymous namespace)::helper", "Map<int, int>::at",
                           "Functor::operator()", "Pool::operator new", "main::lambda@12:15"}) {
    EXPECT_FALSE(s.selects_procedure({name, {"int"}})) << name;
  }
  EXPECT_FALSE(s.selects_procedure({"(anonymous namespace)::pack", {"int"}}));
  EXPECT_TRUE(s.selects_procedure({"(anonymous namespace)::pack", {"long"}}));
  EXPECT_TRUE(s.selects_procedure({"Pool::operator delete", {"void *"}}));
  EXPECT_TRUE(s.warnings().empty());
}

TEST(Selection, LoopsOnlyInTheRoutinesOfTheInstrumentSection) {
  const Selection s =
      Selection::parse("BEGIN_EXCLUDE_LIST\n"
                       "\"#_kernel\"\n"
                       "END_EXCLUDE_LIST\n"
                       "BEGIN_INSTRUMENT_SECTION\n"
                       "loops file=\"solver.c\" routine=\"int main(int, char **) C\"\n"
                       "loops routine = \"#flux#\"\n"
                       "END_INSTRUMENT_SECTION\n",
                       "sel");
  const auto choose = [&](const char* file, const Procedure& p) {
    const Selection::Choice c = s.choose(file, p);
    return std::make_pair(c.procedure, c.loops);
  };
  using Both = std::pair<bool, bool>;
  EXPECT_EQ(choose("src/solver.c", {"main", {"int, char **"}}), Both(true, true));
  EXPECT_EQ(choose("src/other.c", {"main", {"int, char **"}}), Both(true, false));
  EXPECT_EQ(choose("src/other.c", {"compute_flux", {"double *"}}), Both(true, true));
  EXPECT_EQ(choose("src/other.c", {"init", {""}}), Both(true, false));
  EXPECT_EQ(choose("src/other.c", {"dot_kernel", {""}}), Both(false, false));
  // Named by a loops line: a site despite the exclude list, for its loops need one.
  EXPECT_EQ(choose("src/other.c", {"flux_kernel", {""}}), Both(true, true));
}

TEST(Selection, FileExclusionWinsOverLoops) {
  const Selection s = Selection::parse("BEGIN_FILE_EXCLUDE_LIST\nold.c\nEND_FILE_EXCLUDE_LIST\n"
                                       "BEGIN_INSTRUMENT_SECTION\nloops routine=\"main\"\n"
                                       "END_INSTRUMENT_SECTION\n",
                                       "sel");
  EXPECT_FALSE(s.choose("old.c", {"main"}).procedure);
  EXPECT_TRUE(s.choose("new.c", {"main"}).loops);
}

TEST(Selection, WarnsOfEveryRuleThatMatchedNothingAndOfIgnoredTauRequests) {
  const Selection s = Selection::parse("BEGIN_EXCLUDE_LIST\n"
                                       "helper\n"
                                       "\"#nowhere#(int)\"\n"
                                       "END_EXCLUDE_LIST\n"
                                       "BEGIN_FILE_EXCLUDE_LIST\n"
                                       "*.so\n"
                                       "a.c\n"
                                       "END_FILE_EXCLUDE_LIST\n"
                                       "BEGIN_INSTRUMENT_SECTION\n"
                                       "memory file=\"a.c\" routine=\"main\"\n"
                                       "loops file=\"b.c\" routine=\"main\"\n"
                                       "loops routine=\"main\"\n"
                                       "END_INSTRUMENT_SECTION\n",
                                       "select.tau");
  // A match counts whatever the outcome: `helper` of an excluded file too.
  EXPECT_FALSE(s.choose("a.c", {"main", {""}}).procedure);
  s.choose("a.c", {"helper", {"int"}});
  EXPECT_EQ(s.warnings(), (std::vector<std::string>{
                              "select.tau:3: rule '\"#nowhere#(int)\"' matched nothing",
                              "select.tau:6: rule '*.so' matched nothing",
                              "select.tau:10: TAU's 'memory' request is not supported by vcmon; "
                              "line ignored",
                              "select.tau:11: rule 'loops file=\"b.c\" routine=\"main\"' matched "
                              "nothing",
                          }));
  s.choose("lib/b.c", {"main", {""}});
  EXPECT_EQ(s.warnings().size(), 3u);
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

TEST(Selection, ErrorsOfTheTauForms) {
  expect_problem("BEGIN_EXCLUDE_LIST\n\"#foo\n", "sel:2: unterminated quote in '\"#foo'");
  expect_problem("BEGIN_EXCLUDE_LIST\n\"#foo\" bar\n",
                 "sel:2: text after the closing quote in '\"#foo\" bar'");
  expect_problem("BEGIN_INCLUDE_LIST\nvoid foo(int\n", "sel:2: unbalanced '(' in 'void foo(int'");
  expect_problem("BEGIN_INCLUDE_LIST\n(int)\n", "sel:2: no procedure name in '(int)'");
  expect_problem("BEGIN_INSTRUMENT_SECTION\nloops file=\"a.c\"\n",
                 "sel:2: routine=\"...\" missing in 'loops file=\"a.c\"'");
  expect_problem("BEGIN_INSTRUMENT_SECTION\nloops routine=main\n",
                 "sel:2: the value of routine= needs quotes in 'loops routine=main'");
  expect_problem("BEGIN_INSTRUMENT_SECTION\nloops line=\"3\" routine=\"f\"\n",
                 "sel:2: unexpected or repeated 'line=' in 'loops line=\"3\" routine=\"f\"'");
  expect_problem("BEGIN_INSTRUMENT_SECTION\nloops routine=\"f\" oops\n",
                 "sel:2: expected file=\"...\" or routine=\"...\" in 'loops routine=\"f\" oops'");
  expect_problem("BEGIN_INSTRUMENT_SECTION\nunroll routine=\"f\"\n",
                 "sel:2: unknown request 'unroll routine=\"f\"' in BEGIN_INSTRUMENT_SECTION "
                 "(vcmon knows 'loops')");
}

} // namespace
} // namespace vcmon::preprocessor
