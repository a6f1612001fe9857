// Bad input: Clang's diagnostics and no output for a syntax error; one clear line for a
// missing file, a bad option, an unusable output directory or selection file.
#include "ToolRun.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace vcmon::preprocessor::test {
namespace {

namespace fs = std::filesystem;

TEST(BadInput, SyntaxErrorGivesDiagnosticsAndWritesNothing) {
  const TempDir out;
  const CommandResult r = run_instrument("-o " + out.str() + " fig12.c inputs/bad_syntax.c");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("inputs/bad_syntax.c:4:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(out.path())) << "the good file must not be written either";
}

// Exit status 2 for a usage error, 1 for input or output that fails, as in vcmon-report.
void expect_one_line_error(const CommandResult& r, const std::string& about, int status = 1) {
  EXPECT_EQ(r.exit_code, status);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(about), std::string::npos) << r.err;
}

TEST(BadInput, MissingFile) {
  expect_one_line_error(run_instrument("--list-tables no_such_file.c"),
                        "no such file: 'no_such_file.c'");
}

TEST(BadInput, UnknownOption) {
  expect_one_line_error(run_instrument("--frobnicate fig12.c"), "--frobnicate", 2);
}

TEST(BadInput, BadOptionValue) {
  expect_one_line_error(run_instrument("--list-tables --min-lines=many fig12.c"), "many", 2);
}

TEST(BadInput, NoInputFiles) {
  expect_one_line_error(run_instrument("--list-tables"), "no input files", 2);
}

TEST(BadInput, NoOutputDirectory) {
  expect_one_line_error(run_instrument("fig12.c"), "--output-dir", 2);
}

TEST(BadInput, OutputDirectoryThatCannotBeCreated) {
  const TempDir dir;
  { std::ofstream(dir.path() / "plain-file") << "x\n"; }
  expect_one_line_error(
      run_instrument("-o '" + (dir.path() / "plain-file" / "out").string() + "' fig12.c"),
      "cannot create output directory");
  expect_one_line_error(run_instrument("-o '" + (dir.path() / "plain-file").string() + "' fig12.c"),
                        "is not a directory");
}

TEST(BadInput, SelectionFileProblemsNameFileAndLine) {
  expect_one_line_error(run_instrument("--list-tables --selection=inputs/unclosed.sel fig12.c"),
                        "inputs/unclosed.sel:1: BEGIN_EXCLUDE_LIST is never closed");
  expect_one_line_error(run_instrument("--list-tables --selection=nowhere.sel fig12.c"),
                        "cannot read selection file 'nowhere.sel'");
}

TEST(BadInput, SameFileNameTwice) {
  const TempDir out;
  expect_one_line_error(run_instrument("-o " + out.str() + " fig12.c ./fig12.c"),
                        "would both be written as 'fig12.c'");
}

} // namespace
} // namespace vcmon::preprocessor::test
