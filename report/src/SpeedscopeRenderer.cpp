#include "vcmon/report/SpeedscopeRenderer.hpp"

#include "vcmon/report/ExportTree.hpp"

#include <fmt/format.h>
#include <map>
#include <tuple>
#include <vector>

namespace vcmon::report {

using json = nlohmann::ordered_json;

json SpeedscopeRenderer::to_json(const Report& report) const {
  // Weights cannot be negative: a negative exclusive time (a broken profile) is written as 0.
  const ExportTree tree(report, {.unit_ns = 1, .clamp_negative = true});
  const ReportHeader& h = report.header;
  const std::string program = h.command.empty() ? std::string("program") : h.command;
  const std::string ranks =
      report.options.rank
          ? fmt::format("rank {}", *report.options.rank)
          : fmt::format("mean over {} rank{}", h.ranks_reported, h.ranks_reported == 1 ? "" : "s");
  const std::string name = fmt::format("{} (vcmon virtual time, {})", program, ranks);

  // One frame per name and position, shared by every path through it, so the sandwich view
  // gathers a procedure's time from all its callers.
  json frames = json::array();
  std::map<std::tuple<std::string, std::string, std::uint32_t>, std::size_t> frame_index;
  json samples = json::array();
  json weights = json::array();
  std::int64_t total = 0;
  std::vector<std::size_t> path;
  for (const ExportNode& e : tree.nodes()) {
    const auto [found, inserted] =
        frame_index.try_emplace(std::make_tuple(e.name, e.file, e.line), frames.size());
    if (inserted) {
      json frame = {{"name", e.name}};
      if (!e.file.empty()) {
        frame["file"] = e.file;
      }
      if (e.line > 0) {
        frame["line"] = e.line;
      }
      frames.push_back(std::move(frame));
    }
    path.resize(e.depth);
    path.push_back(found->second);
    if (e.exclusive > 0) {
      samples.push_back(path);
      weights.push_back(e.exclusive);
      total += e.exclusive;
    }
  }
  json profile = {{"type", "sampled"},
                  {"name", name},
                  {"unit", "nanoseconds"},
                  {"startValue", 0},
                  {"endValue", total},
                  {"samples", std::move(samples)},
                  {"weights", std::move(weights)}};
  return {{"$schema", kSpeedscopeSchema},
          {"name", name},
          {"exporter", "vcmon-report"},
          {"activeProfileIndex", 0},
          {"shared", {{"frames", std::move(frames)}}},
          {"profiles", json::array({std::move(profile)})}};
}

void SpeedscopeRenderer::render(const Report& report, std::ostream& out) const {
  // Names come from user sources: invalid UTF-8 is replaced rather than refused.
  out << to_json(report).dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
}

} // namespace vcmon::report
