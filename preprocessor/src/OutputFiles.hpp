// Where vcmon-instrument writes, and the checks that keep it from touching anything else:
// never an input, never a file it did not write itself, nothing at all unless every input
// succeeded (the caller writes only then), each file replaced atomically.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace vcmon::preprocessor {

struct OutputFile {
  std::string path;
  std::string text;
};

// Creates the directory if needed; a message naming the problem when it is not a writable
// directory.
std::optional<std::string> prepare_output_dir(const std::string& dir);

// A message when `path` is one of `inputs` or an existing file vcmon-instrument did not write.
std::optional<std::string> check_output_path(const std::string& path,
                                             const std::vector<std::string>& inputs);

// Writes through a temporary file renamed into place; a message on failure.
std::optional<std::string> write_output(const OutputFile& file);

} // namespace vcmon::preprocessor
