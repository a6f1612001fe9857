// --list-tables on real sources parsed by Clang: the figure-12 golden output, and how the
// options and the selection file change the tables.
#include "ToolRun.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace vcmon::preprocessor::test {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

bool has_line(const std::string& text, const std::string& line) {
  for (const std::string& l : lines_of(text)) {
    if (l == line) {
      return true;
    }
  }
  return false;
}

TEST(ListTables, Figure12GivesExactlyTheTenExpectedRows) {
  const CommandResult r = run_instrument("--list-tables fig12.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, read_text(VCMON_TEST_SOURCE_DIR "/fig12.tables"));
  EXPECT_EQ(lines_of(r.out).size(), 10u);
}

TEST(ListTables, PositionsCarryThePathAsGiven) {
  const CommandResult r =
      run_instrument("--list-tables ./preprocessor/fig12.c", VCMON_TEST_SOURCE_DIR "/..");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 10u);
  for (const std::string& line : lines) {
    std::istringstream words(line);
    std::string table, position;
    words >> table;
    while (words >> position) {
      EXPECT_EQ(position.rfind("./preprocessor/fig12.c:", 0), 0u) << line;
    }
  }
}

TEST(ListTables, NoLoopsPutsLoopContentsInTheProcedure) {
  const CommandResult r = run_instrument("--list-tables --no-loops fig12.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& line : lines_of(r.out)) {
    EXPECT_TRUE(line.starts_with("PC ") || line.starts_with("PCom ")) << line;
  }
  EXPECT_TRUE(has_line(r.out, "PCom fig12.c:35:6 fig12.c:40:5")) << r.out;
  EXPECT_TRUE(has_line(r.out, "PC fig12.c:35:6 fig12.c:42:7 fig12.c:47:6")) << r.out;
}

TEST(ListTables, MpiOnlyKeepsCommunicationStatementsOnly) {
  const CommandResult r = run_instrument("--list-tables --mpi-only fig12.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "PCom fig12.c:35:6 fig12.c:37:3\nPCom fig12.c:35:6 fig12.c:40:5\n");
}

// Every call of the procedure but the two MPI_Request_free is a communication statement.
TEST(ListTables, PersistentIsendrecvAndLargeCountCallsAreStatements) {
  const CommandResult r = run_instrument("--list-tables inputs/persistent_and_large_count.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<int> statement_lines;
  for (const std::string& line : lines_of(r.out)) {
    if (line.starts_with("PCom ")) {
      statement_lines.push_back(std::stoi(line.substr(line.rfind(".c:") + 3)));
    }
  }
  EXPECT_EQ(statement_lines, (std::vector<int>{7, 8, 9, 10, 11, 12, 16, 17, 18})) << r.out;
}

TEST(ListTables, MinLinesLeavesShortProceduresAlone) {
  const CommandResult r = run_instrument("--list-tables --min-lines=4 fig12.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // p1, p2 (three lines) and p4 are no longer procedures: calls of them have no callee.
  EXPECT_TRUE(has_line(r.out, "PC fig12.c:14:5 fig12.c:18:3 -")) << r.out;
  EXPECT_TRUE(has_line(r.out, "LC fig12.c:41:5 fig12.c:42:7 -")) << r.out;
  EXPECT_EQ(r.out.find("fig12.c:27:6"), std::string::npos) << r.out;
}

TEST(ListTables, SelectionFileExcludesAProcedureAndWhatItHolds) {
  const CommandResult r = run_instrument("--list-tables --selection=inputs/exclude_p3.sel fig12.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "PC fig12.c:14:5 fig12.c:18:3 fig12.c:27:6\n"
                   "PC fig12.c:14:5 fig12.c:19:3 fig12.c:31:6\n"
                   "PC fig12.c:27:6 fig12.c:28:3 -\n"
                   "PC fig12.c:31:6 fig12.c:32:3 -\n");
}

TEST(ListTables, SelectionFileExcludesAFile) {
  const CommandResult r = run_instrument(
      "--list-tables --selection=inputs/exclude_fig12_file.sel fig12.c inputs/caller.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("fig12.c"), std::string::npos) << r.out;
  EXPECT_TRUE(has_line(r.out, "PL inputs/caller.c:5:5 inputs/caller.c:6:3")) << r.out;
}

TEST(ListTables, CallsResolveAcrossTheGivenFiles) {
  const CommandResult both = run_instrument("--list-tables inputs/caller.c inputs/callee.c");
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(both.out, "PC inputs/caller.c:5:5 inputs/caller.c:8:3 -\n"
                      "PL inputs/caller.c:5:5 inputs/caller.c:6:3\n"
                      "LC inputs/caller.c:6:3 inputs/caller.c:7:5 inputs/callee.c:4:6\n");
  const CommandResult alone = run_instrument("--list-tables inputs/caller.c");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_TRUE(has_line(alone.out, "LC inputs/caller.c:6:3 inputs/caller.c:7:5 -")) << alone.out;
}

TEST(ListTables, RecursionAndFunctionPointersAreCallStatements) {
  const CommandResult r = run_instrument("--list-tables corpus/c_recursion.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // factorial calls itself; is_even and is_odd call each other.
  EXPECT_TRUE(has_line(r.out, "PC corpus/c_recursion.c:7:13 corpus/c_recursion.c:8:27 "
                              "corpus/c_recursion.c:7:13"))
      << r.out;
  EXPECT_TRUE(has_line(r.out, "PC corpus/c_recursion.c:12:12 corpus/c_recursion.c:15:10 "
                              "corpus/c_recursion.c:17:12"))
      << r.out;
  // Through a pointer the callee is known at run time only.
  EXPECT_TRUE(has_line(r.out, "LC corpus/c_recursion.c:47:3 corpus/c_recursion.c:48:20 -"))
      << r.out;
}

TEST(ListTables, MonitorFunctionsAreNoSites) {
  const CommandResult r = run_instrument("--list-tables inputs/monitor_calls.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "PC inputs/monitor_calls.c:7:5 inputs/monitor_calls.c:10:3 "
                   "inputs/monitor_calls.c:5:6\n");
}

TEST(ListTables, ConstexprFunctionsAndLibraryCallsAreNoSites) {
  const CommandResult r = run_instrument("--list-tables corpus/cxx_classes.cpp -- -std=c++20");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("cxx_classes.cpp:12:"), std::string::npos) << "cube is constexpr";
  EXPECT_EQ(r.out.find("cxx_classes.cpp:15:"), std::string::npos) << "twice is consteval";
  // The template is one procedure however many instantiations are called.
  EXPECT_TRUE(has_line(r.out, "PC corpus/cxx_classes.cpp:92:5 corpus/cxx_classes.cpp:118:42 "
                              "corpus/cxx_classes.cpp:75:25"))
      << r.out;
  EXPECT_TRUE(has_line(r.out, "PC corpus/cxx_classes.cpp:92:5 corpus/cxx_classes.cpp:118:59 "
                              "corpus/cxx_classes.cpp:75:25"))
      << r.out;
}

} // namespace
} // namespace vcmon::preprocessor::test
