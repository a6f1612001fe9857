#include "ParseFlags.hpp"

#include "MpiIncludePath.hpp"

namespace vcmon::preprocessor {

clang::tooling::ArgumentsAdjuster parse_flags_adjuster() {
  clang::tooling::CommandLineArguments extra = mpi_include_flags();
  extra.push_back("-resource-dir=" VCMON_CLANG_RESOURCE_DIR);
  extra.push_back("-Qunused-arguments");
  return clang::tooling::getInsertArgumentAdjuster(extra,
                                                   clang::tooling::ArgumentInsertPosition::END);
}

} // namespace vcmon::preprocessor
