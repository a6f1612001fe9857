// The arrows inside libvcmon point one way (docs/design.md, "Inside libvcmon"): the core
// includes nothing of the PMPI layer or the query interface, the query interface nothing of the
// PMPI layer, and each concern of the PMPI layer only the concerns it depends on in
// runtime/src/mpi/CMakeLists.txt (written by CMake to VCMON_PMPI_LAYERING as
// "concern: reachable concerns").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSources = fs::path(VCMON_SOURCE_DIR) / "runtime" / "src";

// The quoted includes of `text`, as written ("mpi/stamps/StampRing.hpp").
std::vector<std::string> quoted_includes(const std::string& text) {
  std::vector<std::string> includes;
  std::istringstream lines(text);
  std::string line;
  const std::string directive = "#include \"";
  while (std::getline(lines, line)) {
    if (line.rfind(directive, 0) == 0) {
      const auto end = line.find('"', directive.size());
      if (end != std::string::npos) {
        includes.push_back(line.substr(directive.size(), end - directive.size()));
      }
    }
  }
  return includes;
}

std::string contents(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_source(const fs::path& file) {
  return file.extension() == ".cpp" || file.extension() == ".hpp";
}

// Every include of a source file under `dir` (recursively) that starts with `prefix`, as
// "file -> include".
std::vector<std::string> includes_under(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!is_source(entry.path())) {
      continue;
    }
    for (const std::string& include : quoted_includes(contents(entry.path()))) {
      if (include.rfind(prefix, 0) == 0) {
        found.push_back(fs::relative(entry.path(), kSources).string() + " -> " + include);
      }
    }
  }
  return found;
}

std::map<std::string, std::set<std::string>> layering() {
  std::map<std::string, std::set<std::string>> reachable;
  std::ifstream in(VCMON_PMPI_LAYERING);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      continue;
    }
    std::istringstream names(line.substr(colon + 1));
    std::string name;
    auto& set = reachable[line.substr(0, colon)];
    while (names >> name) {
      set.insert(name);
    }
  }
  return reachable;
}

TEST(Layering, ReadsQuotedIncludes) {
  const auto includes = quoted_includes("#include \"mpi/stamps/StampRing.hpp\"\n"
                                        "#include <mpi.h>\n"
                                        "// #include \"mpi/wrappers/PointToPoint.hpp\"\n"
                                        "#include \"core/Monitor.hpp\" // why\n");
  EXPECT_EQ(includes, (std::vector<std::string>{"mpi/stamps/StampRing.hpp", "core/Monitor.hpp"}));
}

TEST(Layering, CoreIncludesNeitherPmpiNorQuery) {
  EXPECT_EQ(includes_under(kSources / "core", "mpi/"), std::vector<std::string>{});
  EXPECT_EQ(includes_under(kSources / "core", "query/"), std::vector<std::string>{});
}

TEST(Layering, QueryIncludesNoPmpi) {
  EXPECT_EQ(includes_under(kSources / "query", "mpi/"), std::vector<std::string>{});
}

TEST(Layering, EveryPmpiSourceIsInADeclaredConcern) {
  const auto reachable = layering();
  ASSERT_GE(reachable.size(), 5u) << VCMON_PMPI_LAYERING;
  for (const auto& entry : fs::directory_iterator(kSources / "mpi")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory()) {
      EXPECT_TRUE(reachable.contains(name))
          << "runtime/src/mpi/" << name << " is not a concern of its CMakeLists.txt";
    } else {
      EXPECT_EQ(name, "CMakeLists.txt") << "runtime/src/mpi/" << name << " is in no concern";
    }
  }
}

TEST(Layering, ConcernsIncludeOnlyWhatTheyDependOn) {
  for (const auto& [concern, allowed] : layering()) {
    for (const std::string& edge : includes_under(kSources / "mpi" / concern, "mpi/")) {
      const std::string include = edge.substr(edge.find(" -> ") + 4);
      const std::string target = include.substr(4, include.find('/', 4) - 4);
      EXPECT_TRUE(allowed.contains(target))
          << edge << ": " << concern << " does not depend on " << target;
    }
  }
}

} // namespace
