// What libvcmon exports, read from its dynamic symbol table (nm -D): a wrapper for every MPI
// function of vcmon/tables/MpiFunctions.hpp and no other MPI function, the vcmon_ ABI,
// sigaction and signal, and nothing of the C++ inside.
#include "vcmon/tables/MpiFunctions.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

namespace {

std::set<std::string> exported_symbols() {
  std::set<std::string> symbols;
  const std::string command = "nm -D --defined-only '" VCMON_RUNTIME_LIBRARY "'";
  std::FILE* nm = ::popen(command.c_str(), "r");
  if (nm == nullptr) {
    return symbols;
  }
  char line[1024];
  while (std::fgets(line, sizeof line, nm) != nullptr) {
    std::string text(line);
    text.erase(text.find_last_not_of("\n") + 1);
    const auto name = text.rfind(' ');
    if (name != std::string::npos) {
      symbols.insert(text.substr(name + 1));
    }
  }
  EXPECT_EQ(::pclose(nm), 0) << command;
  return symbols;
}

std::set<std::string> specified_functions() {
  std::set<std::string> names;
#define VCMON_NAMED(NAME, ...) names.insert("MPI_" #NAME);
#define VCMON_WITH_LARGE_COUNT(NAME) VCMON_NAMED(NAME) VCMON_NAMED(NAME##_c)
#define VCMON_WITH_NONBLOCKING(NAME, lower)                                                        \
  VCMON_NAMED(NAME) VCMON_NAMED(I##lower) VCMON_NAMED(NAME##_init)
#define VCMON_LARGE_COUNT_FORMS(NAME, lower)                                                       \
  VCMON_NAMED(NAME##_c) VCMON_NAMED(I##lower##_c) VCMON_NAMED(NAME##_init_c)
  VCMON_MPI_POINT_TO_POINT(VCMON_WITH_LARGE_COUNT)
  VCMON_MPI_PROBES(VCMON_NAMED)
  VCMON_MPI_STARTS(VCMON_NAMED)
  VCMON_MPI_COMPLETION(VCMON_NAMED)
  VCMON_MPI_COLLECTIVES(VCMON_WITH_NONBLOCKING)
  VCMON_MPI_COUNTED_COLLECTIVES(VCMON_LARGE_COUNT_FORMS)
  VCMON_MPI_LIFECYCLE(VCMON_NAMED)
  VCMON_MPI_MANAGEMENT(VCMON_NAMED)
  VCMON_MPI_LOCAL_OBJECTS(VCMON_NAMED)
  VCMON_MPI_UNRECORDED(VCMON_NAMED)
#undef VCMON_NAMED
#undef VCMON_WITH_LARGE_COUNT
#undef VCMON_WITH_NONBLOCKING
#undef VCMON_LARGE_COUNT_FORMS
  return names;
}

TEST(ExportedSymbols, ExactlyTheSpecifiedMpiFunctionsAreWrapped) {
  const std::set<std::string> exported = exported_symbols();
  const std::set<std::string> specified = specified_functions();
  for (const std::string& name : specified) {
    EXPECT_TRUE(exported.contains(name)) << name << " is specified but libvcmon has no wrapper";
  }
  for (const std::string& name : exported) {
    if (name.starts_with("MPI_")) {
      EXPECT_TRUE(specified.contains(name))
          << name << " is wrapped but not in vcmon/tables/MpiFunctions.hpp";
    }
  }
}

// sigaction and signal show the program the dispositions it would see unmonitored
// (docs/runtime.md, "Signals").
TEST(ExportedSymbols, OnlyMpiFunctionsTheVcmonAbiAndTheSignalDispositions) {
  const std::set<std::string> exported = exported_symbols();
  ASSERT_FALSE(exported.empty());
  EXPECT_TRUE(exported.contains("vcmon_proc_enter"));
  EXPECT_TRUE(exported.contains("sigaction"));
  EXPECT_TRUE(exported.contains("signal"));
  for (const std::string& name : exported) {
    EXPECT_TRUE(name.starts_with("MPI_") || name.starts_with("vcmon_") || name == "sigaction" ||
                name == "signal")
        << name;
  }
}

} // namespace
