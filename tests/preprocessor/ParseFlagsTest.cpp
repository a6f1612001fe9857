// How a -fopenmp unit is parsed: without OpenMP semantics, with _OPENMP defined, and omp.h from
// Clang's resource directory, else from another Clang's libomp.
#include "ParseFlags.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace vcmon::preprocessor {
namespace {

namespace fs = std::filesystem;

class FakeLlvmRoot : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "vcmon-parseflags-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }

  // ROOT/llvm-N/lib/clang/N[SUFFIX]/include, with omp.h if `with_omp` (Clang 15 and older name
  // the directory by the full version: 14.0.6).
  std::string clang_include(int version, bool with_omp, const std::string& suffix = "") {
    const fs::path include = root_ / ("llvm-" + std::to_string(version)) / "lib" / "clang" /
                             (std::to_string(version) + suffix) / "include";
    fs::create_directories(include);
    if (with_omp) {
      std::ofstream(include / "omp.h") << "/* omp.h */\n";
    }
    return include.string();
  }
  std::string resource(int version) const {
    return (root_ / ("llvm-" + std::to_string(version)) / "lib" / "clang" / std::to_string(version))
        .string();
  }

  fs::path root_;
};

TEST_F(FakeLlvmRoot, ResourceDirectoryWithOmpNeedsNothing) {
  clang_include(16, true);
  clang_include(14, true);
  EXPECT_EQ(openmp_include_dir(resource(16), root_.string()), std::nullopt);
}

TEST_F(FakeLlvmRoot, AnotherClangsLibompServesNewestFirst) {
  clang_include(16, false);
  clang_include(9, true, ".0.1");
  const std::string fourteen = clang_include(14, true, ".0.6");
  clang_include(15, false);
  EXPECT_EQ(openmp_include_dir(resource(16), root_.string()), fourteen);
}

TEST_F(FakeLlvmRoot, OpenmpUnitIsParsedAsTextWithOpenmpDefined) {
  clang_include(16, false);
  const std::string fourteen = clang_include(14, true);
  EXPECT_EQ(
      openmp_parse_args({"tool", "-O2", "-fopenmp", "-fopenmp-simd", "x.c"}, resource(16),
                        root_.string()),
      (std::vector<std::string>{"tool", "-O2", "x.c", "-D_OPENMP=201511", "-idirafter", fourteen}));
  // Before "--"; a definition of the user's kept.
  EXPECT_EQ(
      openmp_parse_args({"tool", "-fopenmp=libgomp", "-D_OPENMP=201408", "--", "x.c"}, resource(16),
                        root_.string()),
      (std::vector<std::string>{"tool", "-D_OPENMP=201408", "-idirafter", fourteen, "--", "x.c"}));
  EXPECT_EQ(openmp_parse_args({"tool", "-fopenmp", "-D", "_OPENMP=1", "x.c"}, resource(16),
                              root_.string()),
            (std::vector<std::string>{"tool", "-D", "_OPENMP=1", "x.c", "-idirafter", fourteen}));
}

TEST_F(FakeLlvmRoot, NoOpenmpNoChange) {
  clang_include(16, true);
  const std::vector<std::string> args{"tool", "-O2", "-fopenmp", "-fno-openmp", "x.c"};
  EXPECT_EQ(openmp_parse_args(args, resource(16), root_.string()), args);
  // With Clang's own omp.h nothing is added but the macro.
  EXPECT_EQ(openmp_parse_args({"tool", "-fopenmp", "x.c"}, resource(16), root_.string()),
            (std::vector<std::string>{"tool", "x.c", "-D_OPENMP=201511"}));
}

TEST_F(FakeLlvmRoot, NoLibompAnywhere) {
  clang_include(16, false);
  clang_include(14, false);
  fs::create_directories(root_ / "x86_64-linux-gnu");
  EXPECT_EQ(openmp_include_dir(resource(16), root_.string()), std::nullopt);
  EXPECT_EQ(openmp_include_dir(resource(16), (root_ / "missing").string()), std::nullopt);
}

TEST(EnablesOpenmp, FlagsInOrder) {
  EXPECT_TRUE(enables_openmp({"clang", "-O2", "-fopenmp", "x.c"}));
  EXPECT_TRUE(enables_openmp({"-fopenmp=libomp"}));
  EXPECT_FALSE(enables_openmp({"-fopenmp", "-fno-openmp"}));
  EXPECT_TRUE(enables_openmp({"-fno-openmp", "-fopenmp"}));
  EXPECT_FALSE(enables_openmp({"-fopenmp-simd", "-fopenmp-version=50"}));
  EXPECT_FALSE(enables_openmp({}));
}

} // namespace
} // namespace vcmon::preprocessor
