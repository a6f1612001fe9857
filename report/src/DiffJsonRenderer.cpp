#include "vcmon/report/DiffJsonRenderer.hpp"

namespace vcmon::report {
namespace {

using nlohmann::ordered_json;

ordered_json value_json(const DiffValue& v) {
  const auto ratio = v.ratio();
  return {{"a", v.a},
          {"b", v.b},
          {"delta", v.delta()},
          {"ratio", ratio ? ordered_json(*ratio) : ordered_json(nullptr)}};
}

ordered_json run_json(const std::string& name, const ReportHeader& h) {
  return {{"profile", name},
          {"command", h.command},
          {"ranks", h.ranks},
          {"ranks_reported", h.ranks_reported},
          {"program_mean_ns", h.ranks_reported > 0 ? h.program_ns / h.ranks_reported : 0.0}};
}

} // namespace

ordered_json DiffJsonRenderer::to_json(const ReportDiff& diff) const {
  ordered_json j;
  j["diff_version"] = kDiffSchemaVersion;
  j["a"] = run_json(diff.name_a, diff.header_a);
  j["b"] = run_json(diff.name_b, diff.header_b);
  j["order"] = diff.options.order == DiffOrder::Self ? "self" : "inclusive";
  j["depth"] = diff.options.depth ? ordered_json(*diff.options.depth) : ordered_json(nullptr);
  j["threshold_percent"] = diff.options.threshold_percent;
  auto& nodes = j["nodes"] = ordered_json::array();
  for (const auto& node : diff.nodes) {
    ordered_json n = {{"path", node.path},
                      {"kind", to_string(node.kind)},
                      {"name", node.name},
                      {"depth", node.depth},
                      {"presence", to_string(node.presence)},
                      {"inclusive_ns", value_json(node.inclusive_ns)},
                      {"self_ns", value_json(node.self_ns)},
                      {"count", value_json(node.count)},
                      {"percent_a", node.percent_a},
                      {"percent_b", node.percent_b}};
    if (node.transmission_ns) {
      n["transmission_ns"] = value_json(*node.transmission_ns);
    }
    if (node.sync_delay_ns) {
      n["sync_delay_ns"] = value_json(*node.sync_delay_ns);
    }
    nodes.push_back(std::move(n));
  }
  auto& statements = j["statements"] = ordered_json::array();
  for (const auto& s : diff.statements) {
    statements.push_back(
        {{"name", s.name},
         {"position", {{"file", s.pos.file}, {"line", s.pos.line}, {"column", s.pos.column}}},
         {"presence", to_string(s.presence)},
         {"time_ns", value_json(s.time_ns)},
         {"transmission_ns", value_json(s.transmission_ns)},
         {"sync_delay_ns", value_json(s.sync_delay_ns)},
         {"count", value_json(s.count)}});
  }
  return j;
}

void DiffJsonRenderer::render(const ReportDiff& diff, std::ostream& out) const {
  // Names come from user sources: invalid UTF-8 is replaced rather than refused.
  out << to_json(diff).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

} // namespace vcmon::report
