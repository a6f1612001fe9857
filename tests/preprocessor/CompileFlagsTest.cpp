// Where the compile flags come from: none (MPI's include path only), after `--`, or a
// compilation database (-p BUILD-DIR).
#include "ToolRun.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace vcmon::preprocessor::test {
namespace {

const std::string kNeedsFlagTables =
    "PC inputs/needs_flag.c:6:5 inputs/needs_flag.c:7:3 inputs/needs_flag.c:5:6\n";

TEST(CompileFlags, MpiHeaderIsFoundWithoutFlags) {
  const CommandResult r = run_instrument("--list-tables fig12.c");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CompileFlags, FlagsAfterDoubleDashReachTheParse) {
  const CommandResult without = run_instrument("--list-tables inputs/needs_flag.c");
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_NE(without.err.find("compile me with"), std::string::npos) << without.err;
  const CommandResult with =
      run_instrument("--list-tables inputs/needs_flag.c -- -DVCMON_TEST_FLAG=2");
  EXPECT_EQ(with.exit_code, 0) << with.err;
  EXPECT_EQ(with.out, kNeedsFlagTables);
}

// -fopenmp: the unit is parsed as its text reads (a loop in a parallel region's block is a
// site, as without OpenMP), with _OPENMP defined and Clang's omp.h (libomp-16-dev).
TEST(CompileFlags, OpenmpUnitParsesAsTextWithOpenmpDefined) {
  const CommandResult r = run_instrument("--list-tables inputs/openmp_region.c -- -fopenmp");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "PC inputs/openmp_region.c:6:8 inputs/openmp_region.c:16:3 -\n"
                   "PL inputs/openmp_region.c:6:8 inputs/openmp_region.c:11:5\n");
}

TEST(CompileFlags, CompilationDatabaseGivesEachFileItsFlags) {
  const TempDir build;
  std::ofstream(build.path() / "compile_commands.json")
      << "[{\"directory\": \"" VCMON_TEST_SOURCE_DIR "\",\n"
         "  \"command\": \"cc -DVCMON_TEST_FLAG=2 -c inputs/needs_flag.c -o needs_flag.o\",\n"
         "  \"file\": \"inputs/needs_flag.c\"}]\n";
  const CommandResult r =
      run_instrument("--list-tables -p " + build.str() + " inputs/needs_flag.c");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kNeedsFlagTables);

  // Without files: every file of the database, by the path it gives.
  const CommandResult all = run_instrument("--list-tables -p " + build.str());
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(all.out,
            "PC " VCMON_TEST_SOURCE_DIR "/inputs/needs_flag.c:6:5 " VCMON_TEST_SOURCE_DIR
            "/inputs/needs_flag.c:7:3 " VCMON_TEST_SOURCE_DIR "/inputs/needs_flag.c:5:6\n");

  const CommandResult missing = run_instrument("--list-tables -p " + build.str() + " fig12.c");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(count_lines(missing.err), 1u) << missing.err;
  EXPECT_NE(missing.err.find("'fig12.c' has no entry in"), std::string::npos) << missing.err;
}

TEST(CompileFlags, MissingCompilationDatabaseIsOneLine) {
  const TempDir empty;
  const CommandResult r = run_instrument("--list-tables -p " + empty.str() + " fig12.c");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("no compile_commands.json in"), std::string::npos) << r.err;
}

} // namespace
} // namespace vcmon::preprocessor::test
