// Text insertions into one source buffer, applied in a fixed order so that output is
// byte-identical for the same input and nested constructs nest properly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vcmon::preprocessor {

class SourceEdits {
public:
  // `order` ranks constructs in pre-order (an enclosing construct has a smaller order than
  // what it encloses). At one offset, closing text comes before opening text; closings run
  // innermost first, openings outermost first.
  void open(std::uint32_t offset, std::uint64_t order, std::string text);
  void close(std::uint32_t offset, std::uint64_t order, std::string text);

  // The buffer with every insertion made; offsets must lie within it.
  std::string apply(std::string_view source) const;

private:
  struct Edit {
    std::uint32_t offset;
    bool opening;
    std::uint64_t order;
    std::string text;
  };
  std::vector<Edit> edits_;
};

} // namespace vcmon::preprocessor
