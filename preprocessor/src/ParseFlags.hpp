// The flags every parse gets beyond the user's: Clang's builtin headers, MPI's include path
// (as mpicc would give it), OpenMP's view of a -fopenmp unit, and silence about flags a parse
// does not use (-c, -l, ...).
#pragma once

#include <clang/Tooling/ArgumentsAdjusters.h>

#include <optional>
#include <string>
#include <vector>

namespace vcmon::preprocessor {

clang::tooling::ArgumentsAdjuster parse_flags_adjuster();

// Whether compiler arguments turn OpenMP on (-fopenmp, -fopenmp=LIB, not -fno-openmp after it).
bool enables_openmp(const std::vector<std::string>& args);

// The arguments of a parse of a unit that `args` compile with OpenMP. The unit is parsed as its
// text reads without OpenMP semantics: -fopenmp (and -fopenmp-simd) are dropped, so that
// `#pragma omp` lines stay lines before a statement (the rules for code after a #pragma line
// apply, docs/instrument.md) rather than becoming outlined regions, while `_OPENMP` is defined
// as GCC 12's -fopenmp defines it (unless the flags define it) and `omp.h` is found: in
// Clang's resource directory `resource_dir`, else in another Clang's (openmp_include_dir).
// Arguments without OpenMP come back as they are.
std::vector<std::string> openmp_parse_args(std::vector<std::string> args,
                                           const std::string& resource_dir,
                                           const std::string& llvm_root = "/usr/lib");

// Where a parse of an OpenMP unit finds omp.h when Clang's own resource directory
// `resource_dir` lacks it: the include directory of another Clang's OpenMP runtime under
// `llvm_root` (LLVM_ROOT/llvm-N/lib/clang/N/include/omp.h, as Debian's libomp-N-dev installs
// it; the newest first). GCC's omp.h is no substitute: Clang rejects its attributes. Nothing
// (nullopt) when the resource directory has it or no Clang's libomp is installed.
std::optional<std::string> openmp_include_dir(const std::string& resource_dir,
                                              const std::string& llvm_root = "/usr/lib");

} // namespace vcmon::preprocessor
