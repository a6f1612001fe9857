#include "MpiIncludePath.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>

#include <optional>

namespace vcmon::preprocessor {

std::vector<std::string> mpi_include_flags() {
  std::vector<std::string> flags;
  const auto mpicc = llvm::sys::findProgramByName("mpicc");
  if (!mpicc) {
    return flags;
  }
  llvm::SmallString<128> output;
  if (llvm::sys::fs::createTemporaryFile("vcmon-mpicc-show", "txt", output)) {
    return flags;
  }
  const llvm::StringRef args[] = {*mpicc, "-show"};
  const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), output.str(),
                                                      llvm::StringRef("")};
  const int status = llvm::sys::ExecuteAndWait(*mpicc, args, std::nullopt, redirects);
  auto text = llvm::MemoryBuffer::getFile(output);
  llvm::sys::fs::remove(output);
  if (status != 0 || !text) {
    return flags;
  }
  llvm::SmallVector<llvm::StringRef, 16> words;
  (*text)->getBuffer().split(words, ' ', -1, false);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const llvm::StringRef word = words[i].trim();
    if (word == "-I" && i + 1 < words.size()) {
      flags.insert(flags.end(), {"-isystem", words[++i].trim().str()});
    } else if (word.startswith("-I")) {
      flags.insert(flags.end(), {"-isystem", word.drop_front(2).str()});
    }
  }
  return flags;
}

} // namespace vcmon::preprocessor
