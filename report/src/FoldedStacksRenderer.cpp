#include "vcmon/report/FoldedStacksRenderer.hpp"

#include "vcmon/report/ExportTree.hpp"

#include <vector>

namespace vcmon::report {

std::string FoldedStacksRenderer::frame(std::string_view name) {
  std::string text(name);
  for (char& c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == ';' || c == ' ' || byte < 0x20 || byte == 0x7f) {
      c = '_';
    }
  }
  return text;
}

void FoldedStacksRenderer::render(const Report& report, std::ostream& out) const {
  // Whole microseconds; a count cannot be negative, so a broken profile's negative exclusive
  // time is written as 0 (no line).
  const ExportTree tree(report, {.unit_ns = 1000, .clamp_negative = true});
  std::string stack;
  std::vector<std::size_t> prefix; // prefix[d]: the stack's length up to depth d
  for (const ExportNode& e : tree.nodes()) {
    prefix.resize(e.depth);
    stack.resize(e.depth == 0 ? 0 : prefix.back());
    if (e.depth > 0) {
      stack += ';';
    }
    stack += frame(e.name);
    prefix.push_back(stack.size());
    if (e.exclusive > 0) {
      out << stack << ' ' << e.exclusive << '\n';
    }
  }
}

} // namespace vcmon::report
