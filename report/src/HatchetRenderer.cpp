#include "vcmon/report/HatchetRenderer.hpp"

#include "vcmon/report/ExportTree.hpp"

#include <utility>
#include <vector>

namespace vcmon::report {

using json = nlohmann::ordered_json;

json HatchetRenderer::to_json(const Report& report) const {
  // Nanoseconds, signed: Hatchet shows a negative exclusive time as it is, as the report does.
  const ExportTree tree(report, {.unit_ns = 1, .clamp_negative = false});
  const auto nodes = tree.nodes();
  // Built from the leaves up (children follow their parent), so deep trees need no recursion.
  std::vector<json> built(nodes.size());
  for (std::size_t i = nodes.size(); i-- > 0;) {
    const ExportNode& e = nodes[i];
    // Every node has every metric: the literal reader takes the metric names from the roots,
    // and one missing elsewhere would be NaN in the dataframe.
    json node = {
        {"frame", {{"name", e.name}, {"type", e.type}, {"file", e.file}, {"line", e.line}}},
        {"metrics",
         {{"time (inc)", e.inclusive},
          {"time", e.exclusive},
          {"count", e.count},
          {"bytes (inc)", e.bytes_inclusive},
          {"bytes", e.bytes_exclusive}}},
        {"children", json::array()}};
    auto& children = node["children"];
    for (const auto child : e.children) {
      children.push_back(std::move(built[child]));
    }
    built[i] = std::move(node);
  }
  json roots = json::array();
  for (const auto root : tree.roots()) {
    roots.push_back(std::move(built[root]));
  }
  return roots;
}

void HatchetRenderer::render(const Report& report, std::ostream& out) const {
  // Names come from user sources: invalid UTF-8 is replaced rather than refused.
  out << to_json(report).dump(1, ' ', false, json::error_handler_t::replace) << '\n';
}

} // namespace vcmon::report
