#include "vcmon/report/JsonRenderer.hpp"

#include <fmt/format.h>

namespace vcmon::report {
namespace {

using nlohmann::json;

json position(const tables::SourcePos& pos) {
  return {{"file", pos.file}, {"line", pos.line}, {"column", pos.column}};
}

json stats(const RankStats& s) {
  return {{"total_ns", s.total},
          {"min_ns", s.min},
          {"mean_ns", s.mean},
          {"max_ns", s.max},
          {"max_rank", s.max_rank},
          {"imbalance", s.imbalance()},
          {"imbalance_ranks", s.imbalance_ranks}};
}

json comm_json(const CommBreakdown& c) {
  return {{"transmission_ns", c.transmission_ns},
          {"sync_delay_ns", c.sync_delay_ns},
          {"bytes", c.bytes}};
}

// `ranks`: the reported ranks, the divisor of the per-rank means.
json node_json(const ReportNode& node, std::size_t ranks) {
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
            {"self_mean_ns", node.self_mean_ns},
            {"recursive", node.recursive},
            {"outside_main", node.outside_main},
            {"apportioned", node.apportioned},
            {"counted_only", node.counted_only},
            {"untimed", node.untimed},
            {"folded_activations", node.folded},
            {"partners_elsewhere", node.partners_elsewhere},
            {"children", json::array()}};
  if (node.kind == NodeKind::Loop) {
    j["iterations"] = node.iterations;
  }
  if (node.kind == NodeKind::Partner) {
    j["partner"] = node.partner;
  }
  if (node.comm) {
    j["comm"] = comm_json(*node.comm);
    j["comm_mean"] = comm_json(node.comm->mean_over(ranks));
  }
  return j;
}

json subtree(const ReportTree& tree, std::uint32_t index, std::size_t ranks) {
  const auto& node = tree.node(index);
  json j = node_json(node, ranks);
  for (const auto child : node.children) {
    j["children"].push_back(subtree(tree, child, ranks));
  }
  return j;
}

json time_split_json(const TimeSplit& split) {
  json ranks = json::array();
  for (const auto& rank : split.ranks) {
    ranks.push_back({{"rank", rank.rank},
                     {"application_ns", rank.application_ns},
                     {"mpi_ns", rank.mpi_ns},
                     {"mpi_percent", rank.mpi_percent()}});
  }
  const auto& p = split.mpi_percent;
  return {{"ranks", std::move(ranks)},
          {"application", stats(split.application)},
          {"mpi", stats(split.mpi)},
          {"mpi_percent", {{"min", p.min}, {"mean", p.mean}, {"max", p.max}}}};
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
          {"tree_source", h.contexts ? "contexts" : "sites"},
          {"activation_depth", h.activation_depth},
          {"counters",
           {{"probe_events", c.probe_events},
            {"wildcard_decisions", c.wildcard_decisions},
            {"cycle_breaks", c.cycle_breaks},
            {"control_messages", c.control_messages},
            {"safety_wait_ns", c.safety_wait_ns},
            {"folded_activations", c.folded_activations},
            {"folded_contexts", c.folded_contexts},
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
  const auto ranks = static_cast<std::size_t>(report.header.ranks_reported);
  json j = {{"schema", "vcmon-report"},
            {"version", kReportSchemaVersion},
            {"header", header_json(report.header)},
            {"filters", filters_json(report.options)},
            {"time_split", time_split_json(report.time_split)},
            {"mpi_functions", json::array()},
            {"hot_path", json::array()},
            {"tree", report.tree.empty() ? json(nullptr) : subtree(report.tree, 0, ranks)},
            {"sites", json::array()},
            {"statements", json::array()},
            {"message_sizes", json::array()},
            {"folded", json::array()},
            {"matrix", {{"ranks", report.matrix.ranks}, {"cells", json::array()}}}};
  for (const auto& f : report.mpi_functions) {
    j["mpi_functions"].push_back({{"name", f.name},
                                  {"sites", f.sites},
                                  {"count", f.count},
                                  {"time_ns", f.time_ns},
                                  {"mpi_percent", f.mpi_percent},
                                  {"application_percent", f.application_percent}});
  }
  for (const auto& step : report.hot_path) {
    j["hot_path"].push_back(node_json(step, ranks));
  }
  for (const auto& site : report.sites) {
    j["sites"].push_back(node_json(site, ranks));
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
  for (const auto& m : report.message_sizes) {
    json sizes = {{"site", m.site},
                  {"name", m.name},
                  {"position", position(m.pos)},
                  {"count", m.count},
                  {"bytes", m.bytes},
                  {"mean_bytes", m.mean_bytes()},
                  {"sizes_recorded", m.sizes_recorded()},
                  {"messages", m.sizes.messages()},
                  {"min_bytes", m.sizes.min_bytes},
                  {"max_bytes", m.sizes.max_bytes},
                  {"size_classes", m.sizes.classes}};
    j["message_sizes"].push_back(std::move(sizes));
  }
  for (const auto& f : report.folded) {
    j["folded"].push_back({{"site", f.site},
                           {"name", f.name},
                           {"position", position(f.pos)},
                           {"call_sites", f.call_sites}});
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
