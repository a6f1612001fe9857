#include "OutputFiles.hpp"

#include "TablesSource.hpp"

#include <llvm/Support/Errc.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace vcmon::preprocessor {

std::optional<std::string> prepare_output_dir(const std::string& dir) {
  if (llvm::sys::fs::exists(dir) && !llvm::sys::fs::is_directory(dir)) {
    return "output directory '" + dir + "' is not a directory";
  }
  if (const std::error_code error = llvm::sys::fs::create_directories(dir)) {
    return "cannot create output directory '" + dir + "': " + error.message();
  }
  if (const std::error_code error = llvm::sys::fs::access(dir, llvm::sys::fs::AccessMode::Write)) {
    return "cannot write to output directory '" + dir + "': " + error.message();
  }
  return std::nullopt;
}

std::optional<std::string> check_output_path(const std::string& path,
                                             const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    bool same = false;
    if (!llvm::sys::fs::equivalent(path, input, same) && same) {
      return "refusing to write '" + path + "': it is the input '" + input + "'";
    }
  }
  if (!llvm::sys::fs::exists(path)) {
    return std::nullopt;
  }
  auto existing = llvm::MemoryBuffer::getFile(path);
  if (!existing || !(*existing)->getBuffer().startswith(kGeneratedMarker)) {
    return "refusing to overwrite '" + path + "': vcmon-instrument did not write it";
  }
  return std::nullopt;
}

std::optional<std::string> write_output(const OutputFile& file) {
  llvm::Error error = llvm::writeToOutput(file.path, [&](llvm::raw_ostream& out) {
    out << file.text;
    return llvm::Error::success();
  });
  if (error) {
    return "cannot write '" + file.path + "': " + llvm::toString(std::move(error));
  }
  return std::nullopt;
}

} // namespace vcmon::preprocessor
