// vcmon-mpicc without linking (no libvcmon needed): objects named as mpicc names them and
// instrumented, dependency files naming the original, compile errors at the original line,
// preprocessing passed straight through, instrumenter options (-vcmon-*, VCMON_INSTRUMENT_FLAGS)
// and -show.
#include "ToolRun.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

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

// A unit vcmon cannot instrument but the plain compiler builds (a GCC nested function):
// compiled plainly, one warning naming the file and the reason; VCMON_STRICT=1 stops.
TEST(Wrapper, UnitVcmonCannotInstrumentIsCompiledPlainWithOneWarning) {
  const TempDir out;
  const std::string object = out.str() + "/nested_function.o";
  const CommandResult r =
      run_command(kWrapper + " -c inputs/nested_function.c -o '" + object + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("vcmon-mpicc: warning: inputs/nested_function.c compiled without vcmon "
                       "probes: "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("nested_function.c:5:21: error: function definition is not allowed here"),
            std::string::npos)
      << r.err;
  const CommandResult symbols = run_command("nm '" + object + "'");
  EXPECT_NE(symbols.out.find(" T sum_of_squares"), std::string::npos) << symbols.out;
  EXPECT_EQ(symbols.out.find("vcmon_register_unit"), std::string::npos) << symbols.out;
}

// An OpenMP unit (#include <omp.h>, -fopenmp) is instrumented: vcmon-instrument parses it with
// Clang's omp.h (libomp-16-dev), the compiler builds the copy with its own.
TEST(Wrapper, OpenMpUnitIsInstrumented) {
  const TempDir out;
  const std::string object = out.str() + "/openmp_unit.o";
  const CommandResult r =
      run_command(kWrapper + " -fopenmp -O1 -c inputs/openmp_unit.c -o '" + object + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const CommandResult symbols = run_command("nm '" + object + "'");
  EXPECT_NE(symbols.out.find("U vcmon_register_unit"), std::string::npos) << symbols.out;
  EXPECT_NE(symbols.out.find("U vcmon_proc_scope"), std::string::npos) << symbols.out;
  EXPECT_NE(symbols.out.find("U GOMP_parallel"), std::string::npos) << symbols.out;
}

// Loops under directives from macros (`PFOR`, `PRAGMA(omp ...)`) through vcmon-mpicc -fopenmp:
// instrumented, no warning, the loop of the parallel block timed. The unit fell back to plain
// compilation ("compiled without vcmon probes").
TEST(Wrapper, OpenMpDirectivesFromMacrosKeepTheUnitInstrumented) {
  const TempDir out;
  const std::string object = out.str() + "/macro_pragmas.o";
  const CommandResult r =
      run_command(kWrapper + " -fopenmp -O1 -c inputs/macro_pragmas.c -o '" + object + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const CommandResult symbols = run_command("nm '" + object + "'");
  EXPECT_NE(symbols.out.find("U vcmon_register_unit"), std::string::npos) << symbols.out;
  EXPECT_NE(symbols.out.find("U vcmon_loop_enter"), std::string::npos) << symbols.out;
  EXPECT_NE(symbols.out.find("U GOMP_parallel"), std::string::npos) << symbols.out;
}

TEST(Wrapper, OldCThatGccOnlyWarnsAboutIsInstrumented) {
  const TempDir out;
  const std::string object = out.str() + "/legacy_c.o";
  const CommandResult r = run_command(kWrapper + " -c inputs/legacy_c.c -o '" + object + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("without vcmon probes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[-Wimplicit-int]"), std::string::npos) << r.err; // GCC's own, kept
  const CommandResult symbols = run_command("nm '" + object + "'");
  EXPECT_NE(symbols.out.find("U vcmon_register_unit"), std::string::npos) << symbols.out;
  EXPECT_NE(symbols.out.find("U vcmon_loop_enter"), std::string::npos) << symbols.out;
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

// The symbols a compile of fig12.c with FLAGS (and ENV before the wrapper) refers to.
std::string fig12_symbols(const std::string& flags, const std::string& env = "") {
  const TempDir dir;
  fs::copy_file(VCMON_TEST_SOURCE_DIR "/fig12.c", dir.path() / "fig12.c");
  const CommandResult r =
      run_command(env + " " + kWrapper + " -O1 " + flags + " -c fig12.c", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return run_command("nm fig12.o", dir.path()).out;
}

// The unit base symbol (vcmon_unit_base_...) in `nm` output, with its type letter.
std::string unit_base_symbol(const std::string& symbols) {
  const std::size_t at = symbols.find("vcmon_unit_base_");
  if (at == std::string::npos || at < 2) {
    return "";
  }
  return symbols.substr(at - 2, symbols.find('\n', at) - (at - 2));
}

// One source built twice with other macros (a float and a double variant) is two units: the
// two objects link into one program. The same macros give the same names (stable builds).
// The base is hidden, so a shared library's probes never use another library's.
TEST(Wrapper, OneSourceCompiledWithOtherMacrosIsAnotherUnit) {
  const TempDir dir;
  fs::copy_file(VCMON_TEST_SOURCE_DIR "/fig12.c", dir.path() / "fig12.c");
  const auto base_with = [&](const std::string& flags) {
    const CommandResult r = run_command(kWrapper + " -c fig12.c " + flags, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return unit_base_symbol(run_command("nm fig12.o", dir.path()).out);
  };
  const std::string floats = base_with("-DREAL=float");
  ASSERT_FALSE(floats.empty());
  EXPECT_NE(floats, base_with("-DREAL=double"));
  EXPECT_NE(floats, base_with(""));
  EXPECT_EQ(floats, base_with("-DREAL=float"));

  const CommandResult table = run_command("readelf -sW fig12.o", dir.path());
  const std::size_t at = table.out.find("vcmon_unit_base_");
  ASSERT_NE(at, std::string::npos) << table.out;
  const std::size_t line = table.out.rfind('\n', at);
  EXPECT_NE(table.out.substr(line, at - line).find("HIDDEN"), std::string::npos) << table.out;
}

// -vcmon-OPTION[=VALUE] is vcmon-instrument's --OPTION[=VALUE] and never reaches the compiler
// (which would reject it); VCMON_INSTRUMENT_FLAGS gives the same options for every compile.
TEST(Wrapper, InstrumenterOptionsChangeWhatIsProbed) {
  const std::string all = fig12_symbols("");
  ASSERT_NE(all.find("U vcmon_loop_enter"), std::string::npos) << all;
  ASSERT_NE(all.find("U vcmon_call_scope"), std::string::npos) << all;
  const std::string no_loops = fig12_symbols("-vcmon-no-loops");
  EXPECT_EQ(no_loops.find("U vcmon_loop_enter"), std::string::npos) << no_loops;
  EXPECT_NE(no_loops.find("U vcmon_call_scope"), std::string::npos) << no_loops;
  const std::string mpi_only = fig12_symbols("", "VCMON_INSTRUMENT_FLAGS='--mpi-only --no-loops'");
  EXPECT_EQ(mpi_only.find("U vcmon_loop_enter"), std::string::npos) << mpi_only;
  EXPECT_EQ(mpi_only.find("U vcmon_call_scope"), std::string::npos) << mpi_only;
  EXPECT_NE(mpi_only.find("U vcmon_comm_scope"), std::string::npos) << mpi_only;
}

// A selection file through -vcmon-selection=FILE (a path relative to where the compiler runs):
// excluding p3 takes its loops (fig12.c's only ones) and communication statements along. A
// selection file that cannot be read is an error, not a reason to compile without probes.
TEST(Wrapper, SelectionFileThroughTheWrapper) {
  const std::string excluded =
      fig12_symbols("-vcmon-selection='" VCMON_TEST_SOURCE_DIR "/inputs/exclude_p3.sel'");
  EXPECT_EQ(excluded.find("U vcmon_loop_enter"), std::string::npos) << excluded;
  EXPECT_EQ(excluded.find("U vcmon_comm_scope"), std::string::npos) << excluded;
  EXPECT_NE(excluded.find("U vcmon_proc_scope"), std::string::npos) << excluded;
  // A rule matching nothing in this unit (it names another unit's procedure) is not news about
  // the build: no message (fig12_symbols wants none).
  const TempDir sel;
  std::ofstream(sel.path() / "other.sel")
      << "BEGIN_EXCLUDE_LIST\nanother_units_procedure\nEND_EXCLUDE_LIST\n";
  const std::string other = fig12_symbols("-vcmon-selection='" + sel.str() + "/other.sel'");
  EXPECT_NE(other.find("U vcmon_loop_enter"), std::string::npos) << other;
  const TempDir out;
  const CommandResult bad =
      run_command(kWrapper + " -vcmon-selection=no_such.sel -c fig12.c -o '" + out.str() + "/x.o'");
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_EQ(bad.err.find("compiled without vcmon probes"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("no_such.sel"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(out.path() / "x.o"));
}

// An unknown or malformed vcmon option is a usage error naming it, before anything runs.
TEST(Wrapper, UnknownVcmonOptionIsAnError) {
  const std::string error = "vcmon-mpicc: error: ";
  for (const auto& [command, message] :
       {std::pair{kWrapper + " -vcmon-no-such-thing -c fig12.c",
                  error + "unknown vcmon option '-vcmon-no-such-thing' (known: --selection=FILE"},
        std::pair{kWrapper + " -vcmon-output-dir=x -c fig12.c",
                  error + "unknown vcmon option '-vcmon-output-dir=x'"},
        std::pair{kWrapper + " -vcmon-selection -c fig12.c",
                  error + "'-vcmon-selection' needs a value: -vcmon-selection=..."},
        std::pair{kWrapper + " -vcmon-no-loops=1 -c fig12.c",
                  error + "'-vcmon-no-loops=1' takes no value"},
        std::pair{"VCMON_INSTRUMENT_FLAGS='--no-loops --bogus' " + kWrapper + " -c fig12.c",
                  error + "unknown vcmon option '--bogus' in VCMON_INSTRUMENT_FLAGS"},
        std::pair{"VCMON_INSTRUMENT_FLAGS='no-loops' " + kWrapper + " -c fig12.c",
                  error + "'no-loops' in VCMON_INSTRUMENT_FLAGS is not an option"}}) {
    SCOPED_TRACE(command);
    const TempDir out;
    const CommandResult r = run_command(command + " -o '" + out.str() + "/x.o'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out.path() / "x.o"));
  }
  // A bad value is vcmon-instrument's usage error, passed on (not a fallback to plain).
  const TempDir out;
  const CommandResult r =
      run_command(kWrapper + " -vcmon-min-lines=many -c fig12.c -o '" + out.str() + "/x.o'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("min-lines"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("compiled without vcmon probes"), std::string::npos) << r.err;
}

// -show prints the steps (instrument, compile the copy, link with libvcmon) and runs nothing.
// VCMON_LIBDIR and TMPDIR fix the paths the steps name (no libvcmon is needed to show them).
TEST(Wrapper, ShowPrintsTheStepsWithoutRunningThem) {
  const TempDir dir;
  fs::copy_file(VCMON_TEST_SOURCE_DIR "/fig12.c", dir.path() / "fig12.c");
  const std::string env =
      "VCMON_LIBDIR=/opt/vcmon-test/lib TMPDIR=/scratch VCMON_INSTRUMENT_FLAGS=--probe-all ";
  const std::string work = "/scratch/vcmon-wrapper.XXXXXX";
  for (const std::string show : {"-show", "-showme"}) {
    SCOPED_TRACE(show);
    const CommandResult r = run_command(
        env + kWrapper + " " + show + " -O2 -DN=3 -vcmon-no-loops fig12.c -o app -lm", dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    ASSERT_EQ(count_lines(r.out), 3u) << r.out;
    const std::string instrument = r.out.substr(0, r.out.find('\n'));
    EXPECT_TRUE(instrument.ends_with("/vcmon-instrument --embed-tables --output-dir " + work +
                                     "/src0 --probe-all --no-loops fig12.c -- -w -DN=3"))
        << instrument;
    const std::string rest = r.out.substr(instrument.size() + 1);
    const std::string compile = rest.substr(0, rest.find('\n'));
    EXPECT_EQ(compile.rfind("mpicc -I", 0), 0u) << compile;
    EXPECT_TRUE(
        compile.ends_with(" -iquote . -O2 -DN=3 -c " + work + "/src0/fig12.c -o " + work + "/0.o"))
        << compile;
    EXPECT_EQ(rest.substr(compile.size() + 1),
              "mpicc -O2 -DN=3 " + work +
                  "/0.o -o app -lm -L/opt/vcmon-test/lib -Wl,-rpath,/opt/vcmon-test/lib "
                  "-Wl,--no-as-needed -lvcmon -Wl,--as-needed\n");
    // Nothing was built.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
  }
  // A compile with no source to instrument is one step; a word with a blank is quoted.
  const CommandResult c = run_command(kWrapper + " -show -c x.s -o 'my x.o'", dir.path());
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out, "mpicc -c x.s -o 'my x.o'\n");
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
