#include "ParseFlags.hpp"

#include "MpiIncludePath.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace vcmon::preprocessor {

namespace {

// The major version in "llvm-16", "16" or "14.0.6" (0 if none): the newest runtime wins.
unsigned version_of(llvm::StringRef name) {
  name.consume_front("llvm-");
  unsigned version = 0;
  return name.consumeInteger(10, version) ? 0 : version;
}

// The subdirectories of `dir`, newest version first.
std::vector<std::string> versioned_subdirs(const std::string& dir, llvm::StringRef prefix) {
  std::vector<std::string> found;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(dir, error), end; it != end && !error;
       it.increment(error)) {
    const llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name.startswith(prefix) && version_of(name) > 0) {
      found.push_back(it->path());
    }
  }
  std::sort(found.begin(), found.end(), [](const std::string& a, const std::string& b) {
    return version_of(llvm::sys::path::filename(a)) > version_of(llvm::sys::path::filename(b));
  });
  return found;
}

bool has_omp_h(const std::string& include_dir) {
  llvm::SmallString<256> header(include_dir);
  llvm::sys::path::append(header, "omp.h");
  return llvm::sys::fs::exists(header);
}

} // namespace

std::optional<std::string> openmp_include_dir(const std::string& resource_dir,
                                              const std::string& llvm_root) {
  llvm::SmallString<256> own(resource_dir);
  llvm::sys::path::append(own, "include");
  if (has_omp_h(std::string(own))) {
    return std::nullopt; // Clang searches its resource directory anyway
  }
  for (const std::string& llvm : versioned_subdirs(llvm_root, "llvm-")) {
    llvm::SmallString<256> clang_dir(llvm);
    llvm::sys::path::append(clang_dir, "lib", "clang");
    for (const std::string& version : versioned_subdirs(std::string(clang_dir), "")) {
      llvm::SmallString<256> include(version);
      llvm::sys::path::append(include, "include");
      if (has_omp_h(std::string(include))) {
        return std::string(include);
      }
    }
  }
  return std::nullopt;
}

bool enables_openmp(const std::vector<std::string>& args) {
  bool enabled = false;
  for (const std::string& arg : args) {
    const llvm::StringRef flag(arg);
    if (flag == "-fopenmp" || flag.startswith("-fopenmp=")) {
      enabled = true;
    } else if (flag == "-fno-openmp") {
      enabled = false;
    }
  }
  return enabled;
}

std::vector<std::string> openmp_parse_args(std::vector<std::string> args,
                                           const std::string& resource_dir,
                                           const std::string& llvm_root) {
  if (!enables_openmp(args)) {
    return args;
  }
  bool defined = false;
  std::vector<std::string> adjusted;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const llvm::StringRef flag(args[i]);
    if (flag == "-fopenmp" || flag.startswith("-fopenmp=") || flag == "-fno-openmp" ||
        flag == "-fopenmp-simd") {
      continue;
    }
    defined = defined || flag.startswith("-D_OPENMP") || flag.startswith("-U_OPENMP") ||
              ((flag == "-D" || flag == "-U") && i + 1 < args.size() &&
               llvm::StringRef(args[i + 1]).startswith("_OPENMP"));
    adjusted.push_back(args[i]);
  }
  // Before a "--" that ends the flags, as the insert adjuster places its own.
  auto end = std::find(adjusted.begin(), adjusted.end(), "--");
  if (!defined) {
    // OpenMP 4.5, as GCC 12 (what mpicc runs) defines it. Not Clang's 5.0: Clang's omp.h then
    // defines functions in `declare variant` blocks, which need OpenMP semantics.
    end = adjusted.insert(end, "-D_OPENMP=201511") + 1;
  }
  if (auto dir = openmp_include_dir(resource_dir, llvm_root)) {
    adjusted.insert(end, {"-idirafter", *dir}); // last: after every directory the user gave
  }
  return adjusted;
}

clang::tooling::ArgumentsAdjuster parse_flags_adjuster() {
  clang::tooling::CommandLineArguments extra = mpi_include_flags();
  extra.push_back("-resource-dir=" VCMON_CLANG_RESOURCE_DIR);
  extra.push_back("-Qunused-arguments");
  // Old C that GCC takes with a warning, and Clang 16 rejects by default: parsed as the compiler
  // that builds the unit takes it, not left unprobed (MPICH's own examples call sleep() with no
  // <unistd.h>). The user's -Werror=... still fails the compile that follows.
  for (const char* lenient :
       {"-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
        "-Wno-error=int-conversion", "-Wno-error=incompatible-function-pointer-types"}) {
    extra.push_back(lenient);
  }
  auto common =
      clang::tooling::getInsertArgumentAdjuster(extra, clang::tooling::ArgumentInsertPosition::END);
  // With -fopenmp, Clang would turn each `#pragma omp` into an outlined region, and the
  // collector's rules for code after a #pragma line (docs/instrument.md) are about the text.
  auto openmp = [](const clang::tooling::CommandLineArguments& args, llvm::StringRef) {
    return openmp_parse_args(args, VCMON_CLANG_RESOURCE_DIR);
  };
  return clang::tooling::combineAdjusters(common, openmp);
}

} // namespace vcmon::preprocessor
