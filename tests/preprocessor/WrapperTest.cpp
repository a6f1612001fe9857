// vcmon-mpicc without linking (no libvcmon needed): objects named as mpicc names them and
// instrumented, dependency files naming the original, compile errors at the original line,
// preprocessing passed straight through.
#include "ToolRun.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <tuple>

namespace vcmon::preprocessor::test {
namespace {

namespace fs = std::filesystem;

const std::string kWrapper = std::string("'") + VCMON_WRAPPER_DIR + "/vcmon-mpicc'";

TEST(Wrapper, CompileOnlyWritesTheInstrumentedObjectWhereMpiccWould) {
  const TempDir dir;
  fs::copy_file(VCMON_TEST_SOURCE_DIR "/fig12.c", dir.path() / "fig12.c");
  const CommandResult r = run_command(kWrapper + " -O1 -c fig12.c", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::exists(dir.path() / "fig12.o"));
  const CommandResult symbols = run_command("nm fig12.o", dir.path());
  EXPECT_NE(symbols.out.find("U vcmon_register_unit"), std::string::npos) << symbols.out;
  EXPECT_NE(symbols.out.find("U vcmon_proc_scope"), std::string::npos) << symbols.out;
  // Nothing else is left beside the source: the instrumented copy lived in a temporary dir.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 2);
}

TEST(Wrapper, DependencyFileNamesTheOriginalSource) {
  const TempDir dir;
  fs::copy_file(VCMON_TEST_SOURCE_DIR "/fig12.c", dir.path() / "fig12.c");
  const CommandResult r = run_command(kWrapper + " -MD -c fig12.c -o out.o", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string deps = read_text(dir.path() / "out.d");
  EXPECT_NE(deps.find("out.o: fig12.c"), std::string::npos) << deps;
  EXPECT_EQ(deps.find("vcmon-wrapper."), std::string::npos) << deps;
}

TEST(Wrapper, CompileErrorNamesTheOriginalFileAndLine) {
  const TempDir out;
  const CommandResult r =
      run_command(kWrapper + " -c inputs/bad_syntax.c -o '" + out.str() + "/x.o'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("inputs/bad_syntax.c:4:"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out.path() / "x.o"));
}

// A source the plain compiler also rejects: its messages, not a fallback's warning.
TEST(Wrapper, CompileErrorIsNotAFallback) {
  const TempDir out;
  const CommandResult r =
      run_command(kWrapper + " -c inputs/bad_syntax.c -o '" + out.str() + "/x.o'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.find("compiled without vcmon probes"), std::string::npos) << r.err;
}

// Units vcmon cannot instrument but the plain compiler builds (a GCC nested function, GCC's
// omp.h): compiled plainly, one warning naming the file and the reason; VCMON_STRICT=1 stops.
TEST(Wrapper, UnitVcmonCannotInstrumentIsCompiledPlainWithOneWarning) {
  const TempDir out;
  for (const auto& [unit, flags, reason] :
       {std::tuple{"nested_function", "", "function definition is not allowed here"},
        std::tuple{"openmp_unit", "-fopenmp", "'omp.h' file not found"}}) {
    SCOPED_TRACE(unit);
    const std::string object = out.str() + "/" + unit + ".o";
    const CommandResult r =
        run_command(kWrapper + " " + flags + " -c inputs/" + unit + ".c -o '" + object + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(std::string("vcmon-mpicc: warning: inputs/") + unit +
                         ".c compiled without vcmon probes"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    const CommandResult symbols = run_command("nm '" + object + "'");
    EXPECT_NE(symbols.out.find(" T "), std::string::npos) << symbols.out;
    EXPECT_EQ(symbols.out.find("vcmon_register_unit"), std::string::npos) << symbols.out;
  }
}

TEST(Wrapper, StrictMakesAUnitVcmonCannotInstrumentAnError) {
  const TempDir out;
  const CommandResult r = run_command("VCMON_STRICT=1 " + kWrapper +
                                      " -c inputs/nested_function.c -o '" + out.str() + "/x.o'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("inputs/nested_function.c could not be instrumented (VCMON_STRICT=1)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(out.path() / "x.o"));
}

// The compiler's version first (build tools read its first line), then vcmon's, which is also
// what vcmon-instrument --version says.
TEST(Wrapper, VersionGivesTheCompilersThenVcmons) {
  const CommandResult wrapper = run_command(kWrapper + " --version");
  ASSERT_EQ(wrapper.exit_code, 0) << wrapper.err;
  const CommandResult compiler = run_command("mpicc --version");
  EXPECT_EQ(wrapper.out.substr(0, wrapper.out.find('\n')),
            compiler.out.substr(0, compiler.out.find('\n')));
  const CommandResult instrument = run_instrument("--version");
  ASSERT_EQ(instrument.exit_code, 0) << instrument.err;
  ASSERT_EQ(instrument.out.rfind("vcmon-instrument: vcmon ", 0), 0u) << instrument.out;
  const std::string vcmon_line = instrument.out.substr(std::string("vcmon-instrument: ").size());
  EXPECT_TRUE(wrapper.out.ends_with("vcmon-mpicc: " + vcmon_line)) << wrapper.out;
}

TEST(Wrapper, PreprocessingGoesStraightToTheCompiler) {
  const CommandResult r = run_command(kWrapper + " -E fig12.c");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("MPI_Bcast"), std::string::npos);
  EXPECT_EQ(r.out.find("vcmon_proc_scope"), std::string::npos);
}

TEST(Wrapper, MissingSourceIsOneLine) {
  const CommandResult r = run_command(kWrapper + " -c no_such_file.c");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("no such file: 'no_such_file.c'"), std::string::npos) << r.err;
}

} // namespace
} // namespace vcmon::preprocessor::test
