// Selection files through the real vcmon-instrument on real sources (Clang gives the
// parameter types): a select.tau as a TAU user writes it, signatures of C++ overloads, and the
// warnings for rules that matched nothing in the whole run.
#include "ToolRun.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace vcmon::preprocessor::test {
namespace {

void write(const TempDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir.path() / name) << text;
}

// The PL rows of a --list-tables listing: which procedures have loop sites.
std::string loop_rows(const std::string& listing) {
  std::istringstream in(listing);
  std::string rows;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("PL ")) {
      rows += line + "\n";
    }
  }
  return rows;
}

const char* const kSolver = R"(typedef double real;

static void leaf(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] += 1.0;
}

static void init_grid(real *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = 0.0;
}

void compute_flux(real *x, int n) {
  for (int i = 0; i < n; ++i)
    leaf(x, n);
}

double bar(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += i;
  return s;
}

int main(int argc, char **argv) {
  double x[4];
  init_grid(x, 4);
  for (int i = 0; i < argc; ++i)
    compute_flux(x, 4);
  (void)argv;
  return (int)bar(3);
}
)";

TEST(SelectionTool, TauSelectFile) {
  const TempDir dir;
  write(dir, "solver.c", kSolver);
  write(dir, "select.tau",
        R"(# select.tau: selective instrumentation (tau_cc.sh -optTauSelectFile=select.tau)
BEGIN_EXCLUDE_LIST
void leaf(double *, int) C
"#init_#"
END_EXCLUDE_LIST

BEGIN_FILE_EXCLUDE_LIST
*.so
END_FILE_EXCLUDE_LIST

BEGIN_INSTRUMENT_SECTION
# time the loops of main and of the flux routine only
loops file="solver.c" routine="int main(int, char **) C"
loops routine="void compute_flux(double *, int) C"
memory file="solver.c" routine="main"
END_INSTRUMENT_SECTION
)");
  const CommandResult all = run_instrument("--probe-all --list-tables solver.c", dir.path());
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(loop_rows(all.out), "PL solver.c:3:13 solver.c:4:3\n"
                                "PL solver.c:8:13 solver.c:9:3\n"
                                "PL solver.c:13:6 solver.c:14:3\n"
                                "PL solver.c:18:8 solver.c:20:3\n"
                                "PL solver.c:25:5 solver.c:28:3\n");

  const CommandResult r =
      run_instrument("--probe-all --list-tables --selection=select.tau solver.c", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // leaf and init_grid left out; bar still a site (main's call of it resolves), without loops;
  // compute_flux's `real *` matches `double *` desugared.
  EXPECT_EQ(loop_rows(r.out), "PL solver.c:13:6 solver.c:14:3\n"
                              "PL solver.c:25:5 solver.c:28:3\n");
  EXPECT_NE(r.out.find("PC solver.c:25:5 solver.c:31:15 solver.c:18:8\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("solver.c:3:13"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("solver.c:8:13"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "vcmon-instrument: warning: select.tau:8: rule '*.so' matched nothing\n"
                   "vcmon-instrument: warning: select.tau:15: TAU's 'memory' request is not "
                   "supported by vcmon; line ignored\n");
}

TEST(SelectionTool, SignaturesTellOverloadsApart) {
  const TempDir dir;
  write(dir, "sig.cpp", R"(struct Less {
  bool operator()(int a, int b) const {
    for (int i = 0; i < a; ++i) b += i;
    return a < b;
  }
};
void foo(double *x, int n) {
  for (int i = 0; i < n; ++i) x[i] = 0;
}
void foo(float *x, int n) {
  for (int i = 0; i < n; ++i) x[i] = 0;
}
int main() {
  double d[2];
  float f[2];
  foo(d, 2);
  foo(f, 2);
  return Less{}(1, 2) ? 0 : 1;
}
)");
  write(dir, "sel",
        "BEGIN_EXCLUDE_LIST\n"
        "void foo(float*,int)\n"
        "bool Less::operator()(int, int) const\n"
        "END_EXCLUDE_LIST\n");
  const CommandResult r =
      run_instrument("--probe-all --list-tables --selection=sel sig.cpp -- -std=c++20", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(loop_rows(r.out), "PL sig.cpp:7:6 sig.cpp:8:3\n");
  EXPECT_EQ(r.err, "");
}

TEST(SelectionTool, WarnsOfRulesThatMatchedNothingInTheWholeRun) {
  const TempDir dir;
  write(dir, "a.c",
        "void helper_b(int n);\n"
        "int main(void) {\n"
        "  for (int i = 0; i < 3; ++i)\n"
        "    helper_b(i);\n"
        "  return 0;\n"
        "}\n");
  write(dir, "b.c",
        "void helper_b(int n) {\n"
        "  for (int i = 0; i < n; ++i)\n"
        "    ;\n"
        "}\n");
  write(dir, "sel",
        "BEGIN_EXCLUDE_LIST\n"
        "helper_b\n"
        "no_such_routine\n"
        "END_EXCLUDE_LIST\n"
        "BEGIN_FILE_INCLUDE_LIST\n"
        "a.c\n"
        "b.c\n"
        "c.c\n"
        "END_FILE_INCLUDE_LIST\n"
        "BEGIN_INSTRUMENT_SECTION\n"
        "loops file=\"b.c\" routine=\"main\"\n"
        "END_INSTRUMENT_SECTION\n");
  const CommandResult r =
      run_instrument("--probe-all --list-tables --selection=sel a.c b.c", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // helper_b matched in the second file: no warning for it. main has no loop site: the
  // loops line names main of b.c only.
  EXPECT_EQ(r.err, "vcmon-instrument: warning: sel:3: rule 'no_such_routine' matched nothing\n"
                   "vcmon-instrument: warning: sel:8: rule 'c.c' matched nothing\n"
                   "vcmon-instrument: warning: sel:11: rule 'loops file=\"b.c\" "
                   "routine=\"main\"' matched nothing\n");
  EXPECT_EQ(loop_rows(r.out), "");
}

} // namespace
} // namespace vcmon::preprocessor::test
