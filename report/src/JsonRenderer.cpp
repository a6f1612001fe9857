#include "vcmon/report/JsonRenderer.hpp"

#include <fmt/format.h>

namespace vcmon::report {
namespace {

using nlohmann::json;

json position(const tables::SourcePos& pos) {
  return {{"file", pos.file}, {"line", pos.line}, {"column", pos.column}};
}

json stats(const RankStats& s) {
  return {{"total_ns", s.total}, {"min_ns", s.min},        {"mean_ns", s.mean},
          {"max_ns", s.max},     {"max_rank", s.max_rank}, {"imbalance", s.imbalance()}};
}

json node_json(const ReportNode& node) {
  json j = {{"id", node.id},
            {"kind", to_string(node.kind)},
            {"name", node.name},
            {"site", node.site == tables::kNoSite ? json(nullptr) : json(node.site)},
            {"position", position(node.pos)},
            {"call_position", node.call_pos ? position(*node.call_pos) : json(nullptr)},
            {"time", stats(node.time)},
            {"count", node.count},
            {"percent", node.percent},
            {"counted_ns", node.counted_ns},
            {"self_ns", node.self_ns},
            {"recursive", node.recursive},
            {"apportioned", node.apportioned},
            {"children", json::array()}};
  if (node.kind == NodeKind::Loop) {
    j["iterations"] = node.iterations;
  }
  if (node.kind == NodeKind::Partner) {
    j["partner"] = node.partner;
  }
  if (node.comm) {
    j["comm"] = {{"transmission_ns", node.comm->transmission_ns},
                 {"sync_delay_ns", node.comm->sync_delay_ns},
                 {"bytes", node.comm->bytes}};
  }
  return j;
}

json subtree(const ReportTree& tree, std::uint32_t index) {
  const auto& node = tree.node(index);
  json j = node_json(node);
  for (const auto child : node.children) {
    j["children"].push_back(subtree(tree, child));
  }
  return j;
}

json header_json(const ReportHeader& h) {
  const auto& c = h.counters;
  return {{"command", h.command},
          {"ranks", h.ranks},
          {"ranks_reported", h.ranks_reported},
          {"hosts", h.hosts},
          {"start_unix_ns", h.start_unix_ns},
          {"end_unix_ns", h.end_unix_ns},
          {"clock_source", h.clock_source},
          {"program_ns", h.program_ns},
          {"virtual_ns", h.virtual_ns},
          {"real_ns", h.real_ns},
          {"intrusion_ns", h.intrusion_ns},
          {"real_total_ns", h.real_total_ns},
          {"partial", h.partial},
          {"partial_reason", h.partial_reason},
          {"tree_truncated", h.tree_truncated},
          {"activation_depth", h.activation_depth},
          {"counters",
           {{"probe_events", c.probe_events},
            {"wildcard_decisions", c.wildcard_decisions},
            {"cycle_breaks", c.cycle_breaks},
            {"control_messages", c.control_messages},
            {"safety_wait_ns", c.safety_wait_ns},
            {"folded_activations", c.folded_activations},
            {"forced_decisions", c.forced_decisions}}}};
}

json filters_json(const ReportOptions& o) {
  return {
      {"rank", o.rank ? json(*o.rank) : json(nullptr)},
      {"depth", o.depth ? json(*o.depth) : json(nullptr)},
      {"threshold_percent", o.threshold_percent},
      {"site", o.site ? json(fmt::format("{}:{}", o.site->file, o.site->line)) : json(nullptr)}};
}

} // namespace

json JsonRenderer::to_json(const Report& report) const {
  json j = {{"schema", "vcmon-report"},
            {"version", kReportSchemaVersion},
            {"header", header_json(report.header)},
            {"filters", filters_json(report.options)},
            {"hot_path", json::array()},
            {"tree", report.tree.empty() ? json(nullptr) : subtree(report.tree, 0)},
            {"statements", json::array()},
            {"matrix", {{"ranks", report.matrix.ranks}, {"cells", json::array()}}}};
  for (const auto& step : report.hot_path) {
    j["hot_path"].push_back(node_json(step));
  }
  for (const auto& s : report.statements) {
    j["statements"].push_back({{"site", s.site},
                               {"name", s.name},
                               {"position", position(s.pos)},
                               {"time", stats(s.time)},
                               {"transmission_ns", s.transmission_ns},
                               {"sync_delay_ns", s.sync_delay_ns},
                               {"bytes", s.bytes},
                               {"count", s.count},
                               {"partners", s.partners},
                               {"percent", s.percent}});
  }
  auto& cells = j["matrix"]["cells"];
  for (const auto& cell : report.matrix.cells) {
    cells.push_back({{"rank", cell.rank},
                     {"partner", cell.partner},
                     {"messages", cell.messages},
                     {"bytes", cell.bytes},
                     {"transmission_ns", cell.transmission_ns},
                     {"sync_delay_ns", cell.sync_delay_ns}});
  }
  return j;
}

void JsonRenderer::render(const Report& report, std::ostream& out) const {
  // Names come from user sources: invalid UTF-8 is replaced rather than refused.
  out << to_json(report).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

} // namespace vcmon::report
