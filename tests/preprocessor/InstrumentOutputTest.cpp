// What vcmon-instrument writes: deterministic, compilable, pointing at the original lines,
// and never written over an input or a file it did not write.
#include "ToolRun.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace vcmon::preprocessor::test {
namespace {

namespace fs = std::filesystem;

const std::string kProbeIncludes =
    "-I'" VCMON_PREPROCESSOR_INCLUDE_DIR "' -I'" VCMON_RUNTIME_INCLUDE_DIR "'";

TEST(InstrumentOutput, SameInputGivesByteIdenticalOutput) {
  const TempDir first, second;
  for (const TempDir* dir : {&first, &second}) {
    for (const char* args : {" fig12.c", " corpus/cxx_lambdas.cpp -- -std=c++20"}) {
      const CommandResult r = run_instrument("-o " + dir->str() + args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  for (const char* name :
       {"fig12.c", "fig12.c.vcmon-tables.c", "cxx_lambdas.cpp", "cxx_lambdas.cpp.vcmon-tables.c"}) {
    const std::string a = read_text(first.path() / name);
    EXPECT_FALSE(a.empty()) << name;
    EXPECT_EQ(a, read_text(second.path() / name)) << name;
  }
}

TEST(InstrumentOutput, KeepsEveryOriginalLineOnItsLine) {
  const TempDir out;
  ASSERT_EQ(run_instrument("-o " + out.str() + " fig12.c").exit_code, 0);
  const std::string original = read_text(VCMON_TEST_SOURCE_DIR "/fig12.c");
  const std::string copy = read_text(out.path() / "fig12.c");
  const std::string marker = "#line 1 \"fig12.c\"\n";
  const auto body = copy.find(marker);
  ASSERT_NE(body, std::string::npos) << copy;
  EXPECT_EQ(count_lines(copy.substr(body + marker.size())), count_lines(original));
  EXPECT_NE(copy.find("VCMON_PROC_SCOPE"), std::string::npos);
}

TEST(InstrumentOutput, CompilerErrorsNameTheOriginalFileAndLine) {
  const TempDir out;
  ASSERT_EQ(run_instrument("-o " + out.str() + " inputs/error_on_demand.c").exit_code, 0);
  const CommandResult compile = run_command("mpicc -DFORCE_ERROR " + kProbeIncludes + " -c '" +
                                            (out.path() / "error_on_demand.c").string() + "' -o '" +
                                            (out.path() / "x.o").string() + "'");
  EXPECT_NE(compile.exit_code, 0);
  EXPECT_NE(compile.err.find("inputs/error_on_demand.c:6:"), std::string::npos) << compile.err;
}

// Every corpus program, instrumented, compiles as cleanly as the original (-Wpedantic -Werror).
TEST(InstrumentOutput, CorpusCompilesWithoutWarnings) {
  const TempDir out;
  for (const auto& entry : fs::directory_iterator(VCMON_TEST_SOURCE_DIR "/corpus")) {
    const std::string name = entry.path().filename().string();
    const bool cxx = entry.path().extension() == ".cpp";
    const std::string flags = cxx ? " -std=c++20" : "";
    const CommandResult r =
        run_instrument("-o " + out.str() + " corpus/" + name + (cxx ? " --" + flags : ""));
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    for (const std::string& file : {name, name + ".vcmon-tables.c"}) {
      const CommandResult compile = run_command(
          std::string(cxx ? "mpicxx" : "mpicc") + flags + " -Wall -Wextra -Wpedantic -Werror " +
          kProbeIncludes + " -iquote corpus -c '" + (out.path() / file).string() + "' -o '" +
          (out.path() / (file + ".o")).string() + "'");
      EXPECT_EQ(compile.exit_code, 0) << file << ":\n" << compile.err;
    }
  }
}

// A loop under a #pragma, or one a jump from outside can enter, is no site and still
// compiles: the pragma keeps its loop (and a collapse(2) nest its two loops, the loop inside
// them a site), the jump does not bypass a scope declaration. A pragma continued over two
// lines, a _Pragma operator and a pragma with comments before its loop lost every probe of
// the file ("compiled without vcmon probes"), and so did the collapse(2) nest.
TEST(InstrumentOutput, LoopsUnderPragmasOrEnteredByJumpsAreLeftAlone) {
  const CommandResult tables =
      run_instrument("--list-tables inputs/loops_left_alone.c -- -fopenmp");
  ASSERT_EQ(tables.exit_code, 0) << tables.err;
  EXPECT_EQ(tables.out, "PC inputs/loops_left_alone.c:26:5 inputs/loops_left_alone.c:57:3 "
                        "inputs/loops_left_alone.c:7:13\n"
                        "PL inputs/loops_left_alone.c:26:5 inputs/loops_left_alone.c:46:7\n"
                        "PL inputs/loops_left_alone.c:26:5 inputs/loops_left_alone.c:58:3\n");
  const TempDir out;
  ASSERT_EQ(run_instrument("-o " + out.str() + " inputs/loops_left_alone.c -- -fopenmp").exit_code,
            0);
  const CommandResult compile =
      run_command("mpicc -fopenmp -Wall -Wextra -Werror " + kProbeIncludes + " -c '" +
                  (out.path() / "loops_left_alone.c").string() + "' -o '" +
                  (out.path() / "x.o").string() + "'");
  EXPECT_EQ(compile.exit_code, 0) << compile.err;
}

// A directive a macro expands to (`PFOR`, `PRAGMA(omp ...)` of `#define PRAGMA(x) _Pragma(#x)`,
// defined in the file or a header) keeps its loop as a #pragma line does: the loops are no
// sites, the loop inside the collapse(2) nest and the one in the parallel block are. Its
// statement was probed, the probe became the directive's statement and GCC rejected the copy.
TEST(InstrumentOutput, LoopsUnderDirectivesFromMacrosAreLeftAlone) {
  const CommandResult tables = run_instrument("--list-tables inputs/macro_pragmas.c -- -fopenmp");
  ASSERT_EQ(tables.exit_code, 0) << tables.err;
  EXPECT_EQ(tables.out, "PL inputs/macro_pragmas.c:10:5 inputs/macro_pragmas.c:21:7\n"
                        "PL inputs/macro_pragmas.c:10:5 inputs/macro_pragmas.c:27:5\n"
                        "PL inputs/macro_pragmas.c:10:5 inputs/macro_pragmas.c:30:3\n");
  const TempDir out;
  ASSERT_EQ(run_instrument("-o " + out.str() + " inputs/macro_pragmas.c -- -fopenmp").exit_code, 0);
  const std::string copy = read_text(out.path() / "macro_pragmas.c");
  for (const char* kept : {"  PFOR\n  for (int i = 0; i < 100; i++)\n",
                           "  PRAGMA(omp parallel for reduction(+ : sum))\n  for (int i = 0;",
                           "  OMP(parallel for collapse(2) reduction(+ : sum))\n  for (int i = 0;",
                           "  OMP(parallel reduction(+ : sum))\n  {\n"}) {
    EXPECT_NE(copy.find(kept), std::string::npos) << kept << "\nnot in:\n" << copy;
  }
  const CommandResult compile = run_command(
      "mpicc -fopenmp -Wall -Wextra -Werror " + kProbeIncludes + " -iquote inputs -c '" +
      (out.path() / "macro_pragmas.c").string() + "' -o '" + (out.path() / "x.o").string() + "'");
  EXPECT_EQ(compile.exit_code, 0) << compile.err;
}

// Only a pragma the compiler will act on keeps its loop as written: one that a conditional leaves
// out or one of OpenMP without OpenMP binds nothing. Left alone, HPCCG's matrix-vector loop (after
// `#ifdef USING_OMP`, `#pragma omp parallel for`, `#endif`) had its inner loop timed per row:
// the CG solver took 3.6 times as long, and its virtual time with it.
TEST(InstrumentOutput, PragmasTheCompilerIgnoresLeaveLoopsInstrumented) {
  const std::string source = "inputs/conditional_pragmas.c";
  const std::string outer = "PL " + source + ":4:6 " + source + ":8:3\n";
  const std::string inner_of_outer = "LL " + source + ":8:3 " + source + ":9:5\n";
  const std::string omp = "PL " + source + ":4:6 " + source + ":12:3\n";
  const std::string inner = "PL " + source + ":4:6 " + source + ":9:5\n";
  const std::string operators =
      "PL " + source + ":4:6 " + source + ":19:3\n" + "PL " + source + ":4:6 " + source + ":22:3\n";
  for (const auto& [flags, expected] : std::vector<std::pair<std::string, std::string>>{
           {"", outer + omp + operators + inner_of_outer},
           {"-fopenmp", outer + inner_of_outer},
           {"-fopenmp -DUSING_OMP", inner}}) {
    const CommandResult tables = run_instrument("--list-tables " + source + " -- " + flags);
    ASSERT_EQ(tables.exit_code, 0) << flags << ": " << tables.err;
    EXPECT_EQ(tables.out, expected) << flags;
    const TempDir out;
    ASSERT_EQ(run_instrument("-o " + out.str() + " " + source + " -- " + flags).exit_code, 0);
    // `#pragma GCC ivdep` binds the loop after it in every build: GCC rejects anything between.
    const CommandResult compile =
        run_command("mpicc " + flags + " -Wall -Wextra -Werror -Wno-unknown-pragmas " +
                    kProbeIncludes + " -c '" + (out.path() / "conditional_pragmas.c").string() +
                    "' -o '" + (out.path() / "x.o").string() + "'");
    EXPECT_EQ(compile.exit_code, 0) << flags << ": " << compile.err;
  }
}

TEST(InstrumentOutput, C89CodeStaysStrictC89) {
  const TempDir out;
  ASSERT_EQ(run_instrument("-o " + out.str() + " inputs/c89_style.c -- -std=c89").exit_code, 0);
  for (const char* file : {"c89_style.c", "c89_style.c.vcmon-tables.c"}) {
    const CommandResult compile = run_command(
        "mpicc -std=c89 -pedantic-errors -Wall -Wextra -Wdeclaration-after-statement -Werror " +
        kProbeIncludes + " -c '" + (out.path() / file).string() + "' -o '" +
        (out.path() / (std::string(file) + ".o")).string() + "'");
    EXPECT_EQ(compile.exit_code, 0) << file << ":\n" << compile.err;
  }
}

TEST(InstrumentOutput, EmbeddedTablesMakeOneFile) {
  const TempDir out;
  ASSERT_EQ(run_instrument("--embed-tables -o " + out.str() + " fig12.c").exit_code, 0);
  EXPECT_FALSE(fs::exists(out.path() / "fig12.c.vcmon-tables.c"));
  const std::string copy = read_text(out.path() / "fig12.c");
  EXPECT_NE(copy.find("vcmon_register_unit("), std::string::npos);
  const CommandResult compile = run_command("mpicc -Wall -Wextra -Werror " + kProbeIncludes +
                                            " -c '" + (out.path() / "fig12.c").string() + "' -o '" +
                                            (out.path() / "fig12.o").string() + "'");
  EXPECT_EQ(compile.exit_code, 0) << compile.err;
}

TEST(InstrumentOutput, RefusesAnInstrumentedFile) {
  const TempDir out, again;
  ASSERT_EQ(run_instrument("-o " + out.str() + " fig12.c").exit_code, 0);
  for (const char* name : {"fig12.c", "fig12.c.vcmon-tables.c"}) {
    const CommandResult r =
        run_instrument("-o " + again.str() + " '" + (out.path() / name).string() + "'");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("was written by vcmon-instrument"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(fs::is_empty(again.path()));
}

TEST(InstrumentOutput, NeverWritesOverAnInput) {
  const TempDir dir;
  fs::copy_file(VCMON_TEST_SOURCE_DIR "/fig12.c", dir.path() / "fig12.c");
  const std::string before = read_text(dir.path() / "fig12.c");
  const CommandResult r = run_instrument("-o . fig12.c", dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("it is the input"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(dir.path() / "fig12.c"), before);
  EXPECT_FALSE(fs::exists(dir.path() / "fig12.c.vcmon-tables.c"));
}

TEST(InstrumentOutput, NeverOverwritesAFileItDidNotWrite) {
  const TempDir out;
  { std::ofstream(out.path() / "fig12.c.vcmon-tables.c") << "user data\n"; }
  const CommandResult r = run_instrument("-o " + out.str() + " fig12.c");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("refusing to overwrite"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(out.path() / "fig12.c.vcmon-tables.c"), "user data\n");
  EXPECT_FALSE(fs::exists(out.path() / "fig12.c"));
}

} // namespace
} // namespace vcmon::preprocessor::test
