// The probe scheme leaves the compiled program intact (docs/instrument.md, "What is probed"):
// loops still vectorise, tiny leaves are folded, inner compute loops are counted in registers,
// and what the profile says of them is exact. Real vcmon-instrument, real GCC through mpicc,
// real ranks.
#include "ToolRun.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace vcmon::preprocessor::test {
namespace {

namespace fs = std::filesystem;

const std::string kWrapper = std::string("'") + VCMON_WRAPPER_DIR + "/vcmon-mpicc'";

// Lines of `file` that GCC reports as vectorised in `remarks` (-fopt-info-vec-optimized).
std::set<int> vectorised_lines(const std::string& remarks, const std::string& file) {
  std::set<int> lines;
  const std::regex remark(file + R"(:(\d+):\d+: optimized: loop vectorized)");
  for (std::sregex_iterator it(remarks.begin(), remarks.end(), remark), end; it != end; ++it) {
    lines.insert(std::stoi((*it)[1]));
  }
  return lines;
}

TEST(ProbeScheme, LoopsVectoriseInstrumentedAsTheyDoPlain) {
  const TempDir dir;
  fs::copy_file(VCMON_TEST_SOURCE_DIR "/inputs/vector_kernels.c", dir.path() / "kernels.c");
  const std::string flags = " -O3 -fopt-info-vec-optimized -c kernels.c -o k.o";
  const CommandResult plain = run_command("mpicc" + flags, dir.path());
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const CommandResult instrumented = run_command(kWrapper + flags, dir.path());
  ASSERT_EQ(instrumented.exit_code, 0) << instrumented.err;
  const CommandResult symbols = run_command("nm k.o", dir.path());
  ASSERT_NE(symbols.out.find("U vcmon_loop_enter"), std::string::npos) << symbols.out;

  const std::set<int> expected = {3, 9, 17}; // axpy, dot (its reduction), row_sums' inner loop
  for (const int line : expected) {
    EXPECT_TRUE(vectorised_lines(plain.err, "kernels.c").contains(line))
        << "plain mpicc no longer vectorises line " << line << ":\n"
        << plain.err;
  }
  EXPECT_EQ(vectorised_lines(instrumented.err, "kernels.c"),
            vectorised_lines(plain.err, "kernels.c"))
      << "plain:\n"
      << plain.err << "instrumented:\n"
      << instrumented.err;
}

// "line kind name" -> probing enumerator, from the tables source vcmon-instrument wrote.
std::map<std::string, std::string> probing_by_site(const fs::path& tables) {
  std::map<std::string, std::string> probing;
  const std::regex row(
      R"re(\{VCMON_SITE_(\w+), (\d+), \d+, -?\d+, "([^"]*)", "[^"]*", VCMON_PROBING_(\w+)\})re");
  const std::string text = read_text(tables);
  for (std::sregex_iterator it(text.begin(), text.end(), row), end; it != end; ++it) {
    probing[(*it)[2].str() + " " + (*it)[1].str() + " " + (*it)[3].str()] = (*it)[4];
  }
  return probing;
}

// vcmon-instrument OPTIONS inputs/INPUT, and how it probes each site of the unit.
std::map<std::string, std::string> instrumented_probing(const std::string& input,
                                                        const std::string& options = "",
                                                        const std::string& compile_flags = "") {
  const TempDir out;
  const CommandResult r =
      run_instrument(options + " --output-dir=" + out.str() + " inputs/" + input +
                     (compile_flags.empty() ? std::string() : " -- " + compile_flags));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return probing_by_site(out.path() / (input + ".vcmon-tables.c"));
}

// Every site of `expected` ("line KIND name" -> probing) is in `probing`, probed so.
void expect_probing(const std::map<std::string, std::string>& probing,
                    const std::map<std::string, std::string>& expected) {
  for (const auto& [site, want] : expected) {
    const auto found = probing.find(site);
    ASSERT_NE(found, probing.end()) << "no site " << site;
    EXPECT_EQ(found->second, want) << site;
  }
}

TEST(ProbeScheme, TinyLeavesAreFoldedAndInnerComputeLoopsCounted) {
  const auto probing = instrumented_probing("probing_rules.c");
  const std::map<std::string, std::string> expected = {
      {"6 PROCEDURE square", "FOLDED"},          // static inline one-liner
      {"7 PROCEDURE cube", "FOLDED"},            // extern, calls only a tiny leaf
      {"7 CALL square", "FOLDED"},               // a call of a folded procedure
      {"8 PROCEDURE with_loop", "TIMED"},        // has a loop and is not inline
      {"14 PROCEDURE says", "TIMED"},            // calls printf: a library call may take long
      {"15 PROCEDURE rank_of", "TIMED"},         // calls MPI
      {"20 PROCEDURE countdown", "FOLDED"},      // tiny and calls only itself
      {"21 PROCEDURE through_pointer", "TIMED"}, // calls through a pointer
      {"22 PROCEDURE sum3", "FOLDED"},           // inline, with a loop
      {"24 PROCEDURE main", "TIMED"},
      {"20 CALL countdown", "FOLDED"},
      {"27 CALL cube", "FOLDED"},
      {"27 CALL with_loop", "TIMED"},
      {"27 CALL sum3", "FOLDED"},
      {"28 LOOP for", "TIMED"},   // outermost loop of main
      {"29 LOOP for", "COUNTED"}, // nested, nothing probed inside
      {"30 LOOP for", "COUNTED"}, // its call of square is folded
      {"31 CALL square", "FOLDED"},
      {"33 LOOP for", "TIMED"}, // nested, but calls with_loop
  };
  EXPECT_EQ(probing.count("22 LOOP for"), 0u) << "a folded procedure's loop is a site";

  expect_probing(probing, expected);

  const auto every = instrumented_probing("probing_rules.c", "--probe-all");
  EXPECT_EQ(every.size(), probing.size() + 1); // and sum3's loop, a site again
  EXPECT_EQ(every.count("22 LOOP for"), 1u);
  for (const auto& [site, how] : every) {
    EXPECT_EQ(how, "TIMED") << site << " under --probe-all";
  }
}

TEST(ProbeScheme, LoopsInPragmaRegionsNeverCountIntoALoopOutside) {
  const auto probing = instrumented_probing("pragma_regions.c", "", "-fopenmp");
  const std::map<std::string, std::string> expected = {
      {"8 LOOP for", "TIMED"},
      {"11 LOOP for", "TIMED"},   // in a parallel region: its own timed loop
      {"14 LOOP for", "TIMED"},   // holds a timed loop, so cannot be counted
      {"17 LOOP for", "TIMED"},   // inside the parallel for (left alone)
      {"19 LOOP for", "COUNTED"}, // beside it, outside any region
  };
  expect_probing(probing, expected);
  EXPECT_EQ(probing.count("16 LOOP for"), 0u) << "the #pragma omp parallel for loop is a site";
}

// Without OpenMP the compiler ignores the pragmas: the same code is serial, and its loops are
// probed as any others.
TEST(ProbeScheme, WithoutOpenMpPragmaRegionsAreSerialCode) {
  const auto probing = instrumented_probing("pragma_regions.c");
  const std::map<std::string, std::string> expected = {
      {"8 LOOP for", "TIMED"},    {"11 LOOP for", "COUNTED"}, {"14 LOOP for", "COUNTED"},
      {"16 LOOP for", "COUNTED"}, {"17 LOOP for", "COUNTED"}, {"19 LOOP for", "COUNTED"},
  };
  expect_probing(probing, expected);
}

// A leaf its author declared inline folds up to 2048 AST nodes: a hydro code's per-element
// helper of six short loops (about 650 nodes; LULESH's were probed at the bound of 512 before,
// and one of them ran 3.5 times as long), not one four times its size; straight-line code of
// many statements (LULESH's `CalcElemVolume`: 40), and a tiny wrapper that calls it.
TEST(ProbeScheme, InlineLeavesFoldUpToTheirBound) {
  const auto probing = instrumented_probing("inline_kernels.c");
  const std::map<std::string, std::string> expected = {
      {"11 PROCEDURE corner_forces", "FOLDED"},
      {"45 CALL corner_forces", "FOLDED"},
      {"29 PROCEDURE big_sums", "TIMED"},
      {"31 LOOP for", "TIMED"},
      {"46 CALL big_sums", "TIMED"},
      {"53 PROCEDURE cell_volume", "FOLDED"},
      {"93 CALL cell_volume", "FOLDED"},
      {"92 PROCEDURE cell_volume_of", "FOLDED"},
      {"98 LOOP for", "TIMED"},
      {"99 CALL cell_volume_of", "FOLDED"},
  };
  expect_probing(probing, expected);
  EXPECT_EQ(probing.count("14 LOOP for"), 0u) << "a folded procedure's loops are no sites";
}

TEST(ProbeScheme, MembersDefinedInTheirClassFoldOnlyWhenTiny) {
  const auto probing = instrumented_probing("members.cpp");
  const std::map<std::string, std::string> expected = {
      {"7 PROCEDURE Grid::at", "FOLDED"},    // tiny, defined in the class
      {"8 PROCEDURE Grid::smooth", "TIMED"}, // defined in the class, with a loop
      {"9 LOOP for", "TIMED"},
      {"13 PROCEDURE twice", "FOLDED"}, // the inline keyword: loops allowed
      // A lambda with a loop: Clang calls its operator() inline, its author did not.
      {"19 PROCEDURE lambda@19:20", "TIMED"},
      {"20 LOOP range-for", "TIMED"},
      {"26 CALL smooth", "TIMED"},
      {"27 CALL twice", "FOLDED"},
      {"27 CALL at", "FOLDED"},
      {"28 CALL operator()", "TIMED"},
      {"29 PROCEDURE main::lambda@29:22", "TIMED"},
      {"30 LOOP range-for", "TIMED"},
      {"33 CALL operator()", "TIMED"},
  };
  expect_probing(probing, expected);
}

// The node of the JSON tree at `line` of kind `kind`, searched depth first.
const nlohmann::json* find_node(const nlohmann::json& node, const std::string& kind, int line) {
  if (node.value("kind", "") == kind && node["position"].value("line", 0) == line) {
    return &node;
  }
  for (const auto& child : node["children"]) {
    if (const nlohmann::json* found = find_node(child, kind, line)) {
      return found;
    }
  }
  return nullptr;
}

// inputs/INPUT built by vcmon-mpicc at -O2, run on 2 ranks: its report as JSON (null when a
// step failed, which the test is told of).
nlohmann::json report_of_run(const std::string& input) {
  const TempDir dir;
  fs::copy_file(fs::path(VCMON_TEST_SOURCE_DIR "/inputs") / input, dir.path() / "program.c");
  const CommandResult build = run_command(kWrapper + " -O2 program.c -o program", dir.path());
  EXPECT_EQ(build.exit_code, 0) << build.err;
  const CommandResult run =
      run_command("VCMON_OUTPUT=. timeout 120 '" MPIEXEC "' -n 2 ./program && '" VCMON_REPORT_TOOL
                  "' --format json program-*.vcmon > report.json",
                  dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  if (build.exit_code != 0 || run.exit_code != 0) {
    return nullptr;
  }
  return nlohmann::json::parse(read_text(dir.path() / "report.json"));
}

TEST(ProbeScheme, CountedLoopsAndFoldedProceduresAreReportedExactly) {
  const nlohmann::json report = report_of_run("probing_rules.c");
  ASSERT_FALSE(report.is_null());

  // main's outer loop runs 3 times per rank; the loop at line 29 once per outer iteration,
  // 4 iterations each; the loop at line 30 once per iteration of that, 5 iterations each.
  const nlohmann::json* middle = find_node(report["tree"], "loop", 29);
  const nlohmann::json* inner = find_node(report["tree"], "loop", 30);
  ASSERT_NE(middle, nullptr) << report["tree"].dump(1);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ((*middle)["count"], 2 * 3);
  EXPECT_EQ((*middle)["iterations"], 2 * 3 * 4);
  EXPECT_TRUE((*middle)["counted_only"]);
  EXPECT_EQ((*inner)["count"], 2 * 3 * 4);
  EXPECT_EQ((*inner)["iterations"], 2 * 3 * 4 * 5);
  EXPECT_TRUE((*inner)["counted_only"]);
  const nlohmann::json* outer = find_node(report["tree"], "loop", 28);
  ASSERT_NE(outer, nullptr);
  EXPECT_FALSE((*outer)["counted_only"]);
  EXPECT_EQ((*outer)["iterations"], 2 * 3);
  EXPECT_GT((*outer)["time"]["total_ns"].get<double>(), 0.0);

  std::set<std::string> folded;
  for (const auto& f : report["folded"]) {
    folded.insert(f["name"].get<std::string>());
  }
  EXPECT_EQ(folded, (std::set<std::string>{"square", "cube", "countdown", "sum3"}));
  EXPECT_EQ(find_node(report["tree"], "procedure", 6), nullptr) << "a folded procedure has records";
}

// A counted loop that runs once in every iteration of the loop it is in counts no executions of
// its own (OncePerIteration.hpp says why); one that a branch or a jump before it may skip does.
// Either way the profile's counts are exact.
TEST(ProbeScheme, ExecutionsAreCountedApartOnlyWhereTheEnclosingLoopMaySkipTheLoop) {
  const TempDir out;
  const CommandResult instrument =
      run_instrument("--output-dir=" + out.str() + " inputs/counted_executions.c");
  ASSERT_EQ(instrument.exit_code, 0) << instrument.err;
  const std::string copy = read_text(out.path() / "counted_executions.c");
  // The instrumented line of the loop written `header`: whether it counts its executions.
  const auto counts_executions = [&](const std::string& header) {
    const std::size_t at = copy.find(header);
    EXPECT_NE(at, std::string::npos) << header;
    const std::size_t line_start = copy.rfind('\n', at) + 1;
    const std::string line = copy.substr(line_start, copy.find('\n', at) - line_start);
    return line.find("VCMON_COUNTED_RUN") != std::string::npos;
  };
  EXPECT_FALSE(counts_executions("for (int j = 0; j < 4; ++j)")); // after a plain statement
  EXPECT_FALSE(counts_executions("for (int k = 0; k < 3; ++k)")); // first in a counted loop
  EXPECT_TRUE(counts_executions("for (int j = 0; j < 5; ++j)"));  // inside an if
  EXPECT_TRUE(counts_executions("for (int j = 0; j < 2; ++j)"));  // after an if ... continue
  EXPECT_TRUE(counts_executions("for (int j = 0; j < i; ++j)"));  // after a loop with a break

  const nlohmann::json report = report_of_run("counted_executions.c");
  ASSERT_FALSE(report.is_null());
  // The outer loop runs i = 0..4 (i = 1 continues after the loop at line 16, i = 4 breaks at
  // the end): per rank, executions and iterations of each loop by line.
  const std::map<int, std::pair<int, int>> expected = {{11, {5, 20}}, {12, {20, 60}}, {16, {3, 15}},
                                                       {21, {4, 8}},  {23, {4, 16}},  {27, {4, 9}}};
  for (const auto& [line, counts] : expected) {
    const nlohmann::json* loop = find_node(report["tree"], "loop", line);
    ASSERT_NE(loop, nullptr) << "line " << line << "\n" << report["tree"].dump(1);
    EXPECT_TRUE((*loop)["counted_only"]) << "line " << line;
    EXPECT_EQ((*loop)["count"], 2 * counts.first) << "line " << line;
    EXPECT_EQ((*loop)["iterations"], 2 * counts.second) << "line " << line;
  }
}

} // namespace
} // namespace vcmon::preprocessor::test
