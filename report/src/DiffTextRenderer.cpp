#include "vcmon/report/DiffTextRenderer.hpp"

#include "Units.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace vcmon::report {
namespace {

std::string signed_duration(double ns) {
  return ns > 0 ? "+" + format_duration(ns) : format_duration(ns);
}

std::string ratio_text(const DiffValue& v) {
  const auto ratio = v.ratio();
  return ratio ? fmt::format("{:.2f}x", *ratio) : std::string("new");
}

std::string count_text(double count) {
  return fmt::format("{:.6g}", count);
}

double program_mean(const ReportHeader& h) {
  return h.ranks_reported > 0 ? h.program_ns / h.ranks_reported : 0.0;
}

std::string run_text(const std::string& name, const ReportHeader& h) {
  return fmt::format("{} ({}, {} of {} ranks)", name, h.command.empty() ? "?" : h.command,
                     h.ranks_reported, h.ranks);
}

std::string marker(DiffPresence presence) {
  return presence == DiffPresence::Both ? std::string()
                                        : fmt::format("  [{}]", to_string(presence));
}

} // namespace

void DiffTextRenderer::render(const ReportDiff& diff, std::ostream& out) const {
  fmt::print(out, "Comparing A = {}\n     with B = {}\n", run_text(diff.name_a, diff.header_a),
             run_text(diff.name_b, diff.header_b));
  fmt::print(out, "Times and counts are means over each run's reported ranks; delta = B - A, "
                  "ratio = B / A (new: A is 0).\n");
  const DiffValue program{program_mean(diff.header_a), program_mean(diff.header_b)};
  fmt::print(out, "Program: A {}, B {}, delta {}, ratio {}\n", format_duration(program.a),
             format_duration(program.b), signed_duration(program.delta()), ratio_text(program));

  fmt::print(out,
             "\nTree nodes by |delta| of {} time (nodes matched by their path: "
             "procedure@call site > loop@line > statement@line > partner)\n",
             diff.options.order == DiffOrder::Self ? "self" : "inclusive");
  fmt::print(out, "  {:>10} {:>10} {:>11} {:>7} {:>10} {:>10} {:>11} {:>9} {:>9}  {}\n", "A", "B",
             "delta", "ratio", "self A", "self B", "self delta", "count A", "count B", "node");
  for (const auto& node : diff.nodes) {
    std::string extra;
    if (node.transmission_ns && node.sync_delay_ns) {
      extra =
          fmt::format("  [transmit {}, sync {}]", signed_duration(node.transmission_ns->delta()),
                      signed_duration(node.sync_delay_ns->delta()));
    }
    fmt::print(out, "  {:>10} {:>10} {:>11} {:>7} {:>10} {:>10} {:>11} {:>9} {:>9}  {}{}{}\n",
               format_duration(node.inclusive_ns.a), format_duration(node.inclusive_ns.b),
               signed_duration(node.inclusive_ns.delta()), ratio_text(node.inclusive_ns),
               format_duration(node.self_ns.a), format_duration(node.self_ns.b),
               signed_duration(node.self_ns.delta()), count_text(node.count.a),
               count_text(node.count.b), node.path_text(), extra, marker(node.presence));
  }

  fmt::print(out, "\nCommunication statements by |delta| of time (transmission + sync delay, "
                  "over every context)\n");
  fmt::print(out, "  {:>10} {:>10} {:>11} {:>7} {:>11} {:>11} {:>9} {:>9}  {}\n", "A", "B", "delta",
             "ratio", "transmit d", "sync d", "count A", "count B", "statement");
  for (const auto& s : diff.statements) {
    fmt::print(out, "  {:>10} {:>10} {:>11} {:>7} {:>11} {:>11} {:>9} {:>9}  {} {}:{}{}\n",
               format_duration(s.time_ns.a), format_duration(s.time_ns.b),
               signed_duration(s.time_ns.delta()), ratio_text(s.time_ns),
               signed_duration(s.transmission_ns.delta()), signed_duration(s.sync_delay_ns.delta()),
               count_text(s.count.a), count_text(s.count.b), s.name, s.pos.file, s.pos.line,
               marker(s.presence));
  }
}

} // namespace vcmon::report
