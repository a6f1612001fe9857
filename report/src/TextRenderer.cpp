#include "vcmon/report/TextRenderer.hpp"

#include "Units.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <map>
#include <string>

namespace vcmon::report {
namespace {

// Pairs listed in the text matrix; JSON and HTML carry all of them.
constexpr std::size_t kMatrixPairs = 32;
// Up to this many ranks the matrix is also drawn as a grid.
constexpr std::int32_t kGridRanks = 16;
// Ranks listed one by one in the time split; beyond, only min/mean/max (JSON and HTML list all).
constexpr std::size_t kListedRanks = 32;

std::string position(const tables::SourcePos& pos) {
  return pos.file.empty() ? std::string() : fmt::format("{}:{}", pos.file, pos.line);
}

// `ranks`: the reported ranks, over which the statement's transmission, sync and bytes are
// averaged like the time columns.
std::string label(const ReportNode& node, std::size_t ranks) {
  std::string text = node.name;
  if (node.kind != NodeKind::Program && node.kind != NodeKind::Partner) {
    text += fmt::format("  {}", position(node.pos));
  }
  if (node.call_pos) {
    text += fmt::format("  called at {}", position(*node.call_pos));
  }
  if (node.kind == NodeKind::Loop && node.count > 0) {
    text += fmt::format("  ({} iterations{})", format_count(node.iterations),
                        node.counted_only ? "; counted: time in the enclosing loop" : "");
  }
  if (node.comm) {
    const CommBreakdown mean = node.comm->mean_over(ranks);
    text += fmt::format("  [mean transmit {}, sync {}, {}]", format_duration(mean.transmission_ns),
                        format_duration(mean.sync_delay_ns), format_bytes(mean.bytes));
  }
  if (node.untimed > 0) {
    text += fmt::format("  [throttled: time of {} of {} calls, the rest in the caller]",
                        format_count(node.count - node.untimed), format_count(node.count));
  }
  if (node.recursive) {
    text += "  [recursive: time already in the enclosing activation]";
  }
  if (node.outside_main) {
    text += "  [outside main: beside or inside main, not added to the program]";
  }
  if (node.folded > 0) {
    text += fmt::format("  [{} activations folded in: no context of their own, time here]",
                        format_count(node.folded));
  }
  if (node.partners_elsewhere) {
    text += "  [several contexts: partners in the statements section]";
  }
  if (node.apportioned) {
    text += "  ~";
  }
  return text;
}

std::string stats_columns(const ReportNode& node) {
  const auto& t = node.time;
  return fmt::format("{:>6.1f}% {:>10} {:>10} {:>10} {:>5.2f} {:>5} {:>10} {:>10}", node.percent,
                     format_duration(t.mean), format_duration(t.min), format_duration(t.max),
                     t.imbalance(), t.max_rank, format_duration(node.self_mean_ns),
                     format_count(node.count));
}

void header(const Report& report, std::ostream& out) {
  const auto& h = report.header;
  fmt::print(out, "vcmon report\n");
  fmt::print(out, "  command        {}\n", h.command.empty() ? "(unknown)" : h.command);
  fmt::print(out, "  ranks          {} ({} in this report) on {} host{}: {}\n", h.ranks,
             h.ranks_reported, h.hosts.size(), h.hosts.size() == 1 ? "" : "s",
             fmt::join(h.hosts, ", "));
  fmt::print(out, "  start          {}\n", format_utc(h.start_unix_ns));
  fmt::print(out, "  end            {}\n", format_utc(h.end_unix_ns));
  fmt::print(out, "  virtual time   {} (longest rank)\n", format_duration(double(h.virtual_ns)));
  fmt::print(out, "  real time      {} (longest rank)\n", format_duration(double(h.real_ns)));
  const double share =
      h.real_total_ns > 0 ? 100.0 * double(h.intrusion_ns) / double(h.real_total_ns) : 0.0;
  fmt::print(out, "  intrusion      {} over all ranks ({:.2f}% of real time)\n",
             format_duration(double(h.intrusion_ns)), share);
  fmt::print(out, "  clock          {}\n", h.clock_source.empty() ? "(unknown)" : h.clock_source);
  const auto& c = h.counters;
  fmt::print(out,
             "  monitor        {} probe events, {} wildcard decisions, {} cycle breaks, {} "
             "control messages, {} safety wait\n",
             c.probe_events, c.wildcard_decisions, c.cycle_breaks, c.control_messages,
             format_duration(double(c.safety_wait_ns)));
  if (h.partial) {
    fmt::print(out, "  PARTIAL PROFILE: {}\n",
               h.partial_reason.empty() ? "the run did not finish normally" : h.partial_reason);
  }
  if (c.folded_activations > 0) {
    fmt::print(out,
               "  FOLDED: {} activations beyond depth {} were folded (counted; their time is "
               "in the deepest activation held)\n",
               c.folded_activations, h.activation_depth);
  }
  if (c.folded_contexts > 0) {
    fmt::print(out,
               "  FOLDED CONTEXTS: {} activations got no calling context of their own (beyond "
               "VCMON_MAX_CONTEXTS or the activation stack): counted, their time in their "
               "caller's context\n",
               c.folded_contexts);
  }
  if (c.forced_decisions > 0) {
    fmt::print(out,
               "  FORCED: {} wildcard decisions did not wait for ranks stuck in MPI calls that "
               "could not answer (the message taken may differ from an unmonitored run)\n",
               c.forced_decisions);
  }
  if (h.tree_truncated) {
    fmt::print(out, "  TREE TRUNCATED: too many call paths; narrow it with --site\n");
  }
  const auto& o = report.options;
  std::vector<std::string> filters;
  if (o.rank) {
    filters.push_back(fmt::format("rank {}", *o.rank));
  }
  if (o.depth) {
    filters.push_back(fmt::format("depth {}", *o.depth));
  }
  if (o.threshold_percent > 0) {
    filters.push_back(fmt::format("threshold {}%", o.threshold_percent));
  }
  if (o.site) {
    filters.push_back(fmt::format("site {}:{}", o.site->file, o.site->line));
  }
  if (!filters.empty()) {
    fmt::print(out, "  filters        {}\n", fmt::join(filters, ", "));
  }
}

void time_split(const Report& report, std::ostream& out) {
  const auto& split = report.time_split;
  fmt::print(out, "\nTime per rank (application: the program's total; MPI: the rank's "
                  "communication records, transmission + sync delay)\n");
  fmt::print(out, "  {:>6} {:>12} {:>12} {:>8}\n", "rank", "application", "MPI", "MPI%");
  auto row = [&](const std::string& name, double application, double mpi, double percent) {
    fmt::print(out, "  {:>6} {:>12} {:>12} {:>7.2f}%\n", name, format_duration(application),
               format_duration(mpi), percent);
  };
  if (split.ranks.size() <= kListedRanks) {
    for (const auto& rank : split.ranks) {
      row(fmt::to_string(rank.rank), rank.application_ns, rank.mpi_ns, rank.mpi_percent());
    }
  } else {
    fmt::print(out, "  ... {} ranks (see --format json or html)\n", split.ranks.size());
  }
  row("min", split.application.min, split.mpi.min, split.mpi_percent.min);
  row("mean", split.application.mean, split.mpi.mean, split.mpi_percent.mean);
  row("max", split.application.max, split.mpi.max, split.mpi_percent.max);
}

void mpi_functions(const Report& report, std::ostream& out) {
  fmt::print(out, "\nMPI functions by aggregate time (summed over call sites and ranks; MPI% and "
                  "app% of the time summed over the ranks)\n");
  if (report.mpi_functions.empty()) {
    fmt::print(out, "  none\n");
    return;
  }
  fmt::print(out, "  {:>10} {:>7} {:>7} {:>10} {:>6}  {}\n", "time", "MPI%", "app%", "count",
             "sites", "function");
  for (const auto& f : report.mpi_functions) {
    fmt::print(out, "  {:>10} {:>6.1f}% {:>6.2f}% {:>10} {:>6}  {}\n", format_duration(f.time_ns),
               f.mpi_percent, f.application_percent, f.count, f.sites, f.name);
  }
}

void hot_path(const Report& report, std::ostream& out) {
  const auto ranks = static_cast<std::size_t>(report.header.ranks_reported);
  fmt::print(out, "\nHot path (from the program, the costliest child at each level; mean over "
                  "the ranks)\n");
  for (std::size_t i = 0; i < report.hot_path.size(); ++i) {
    const auto& step = report.hot_path[i];
    fmt::print(out, "  {:>6.1f}% {:>10}  {}{}{}\n", step.percent, format_duration(step.time.mean),
               std::string(2 * i, ' '), label(step, ranks),
               i + 1 == report.hot_path.size() && i > 0 ? "   <== tune here" : "");
  }
}

void tree_lines(const ReportTree& tree, std::uint32_t index, const std::string& prefix, bool last,
                bool root, std::size_t ranks, std::ostream& out) {
  const auto& node = tree.node(index);
  const std::string branch = root ? "" : (last ? "└─ " : "├─ ");
  fmt::print(out, "  {}  {}{}{}\n", stats_columns(node), prefix, branch, label(node, ranks));
  const std::string inner = root ? prefix : prefix + (last ? "   " : "│  ");
  for (std::size_t i = 0; i < node.children.size(); ++i) {
    tree_lines(tree, node.children[i], inner, i + 1 == node.children.size(), false, ranks, out);
  }
}

void columns_header(std::ostream& out) {
  fmt::print(out, "  {:>7} {:>10} {:>10} {:>10} {:>5} {:>5} {:>10} {:>10}  {}\n", "%total", "mean",
             "min", "max", "imb", "max@", "self", "count(sum)", "site");
}

void tree(const Report& report, std::ostream& out) {
  const auto ranks = report.header.ranks_reported;
  fmt::print(out,
             "\nTop-down profile, {} (virtual time over {} rank{}: mean, min and max of the "
             "inclusive time, self = mean exclusive time;\n  imb = max/mean, for a partner over "
             "the ranks holding its records; count summed over the ranks; labels show means{})\n",
             report.header.contexts ? "calling contexts merged by path, exact"
                                    : "per-site records (no calling contexts in the profile)",
             ranks, ranks == 1 ? "" : "s",
             report.header.contexts ? "" : "; ~ = split among call sites");
  columns_header(out);
  if (!report.tree.empty()) {
    tree_lines(report.tree, 0, "", true, true, static_cast<std::size_t>(ranks), out);
  }
}

void sites(const Report& report, std::ostream& out) {
  const auto ranks = static_cast<std::size_t>(report.header.ranks_reported);
  fmt::print(out, "\nPer-site totals (each procedure by its call site, loop and statement over "
                  "every calling context, costliest first; self: not per site)\n");
  if (report.sites.empty()) {
    fmt::print(out, "  none\n");
    return;
  }
  columns_header(out);
  for (const auto& site : report.sites) {
    fmt::print(out, "  {}  {}\n", stats_columns(site), label(site, ranks));
  }
}

void statements(const Report& report, std::ostream& out) {
  fmt::print(out, "\nCommunication statements (all contexts, summed over the ranks; total = "
                  "transmission + sync delay)\n");
  if (report.statements.empty()) {
    fmt::print(out, "  none\n");
    return;
  }
  fmt::print(out, "  {:>7} {:>10} {:>10} {:>10} {:>6} {:>11} {:>10} {:>8}  {}\n", "%total", "total",
             "transmit", "sync", "sync%", "bytes", "count", "partners", "statement");
  for (const auto& s : report.statements) {
    const double sync_share = s.time.total > 0 ? 100.0 * double(s.sync_delay_ns) / s.time.total : 0;
    fmt::print(out, "  {:>6.1f}% {:>10} {:>10} {:>10} {:>5.1f}% {:>11} {:>10} {:>8}  {}  {}\n",
               s.percent, format_duration(s.time.total), format_duration(double(s.transmission_ns)),
               format_duration(double(s.sync_delay_ns)), sync_share, format_bytes(double(s.bytes)),
               s.count, s.partners, s.name, position(s.pos));
  }
}

void message_sizes(const Report& report, std::ostream& out) {
  fmt::print(out, "\nMessage sizes per call site (summed over the ranks; mean = bytes / messages; "
                  "sizes: messages per size class)\n");
  if (report.message_sizes.empty()) {
    fmt::print(out, "  no bytes moved\n");
    return;
  }
  fmt::print(out, "  {:>10} {:>11} {:>11} {:>11} {:>11}  {}\n", "messages", "bytes", "mean", "min",
             "max", "statement");
  for (const auto& s : report.message_sizes) {
    const bool recorded = s.sizes_recorded();
    fmt::print(out, "  {:>10} {:>11} {:>11} {:>11} {:>11}  {}  {}\n",
               recorded ? s.sizes.messages() : s.count, format_bytes(double(s.bytes)),
               format_bytes(s.mean_bytes()),
               recorded ? format_bytes(double(s.sizes.min_bytes)) : "-",
               recorded ? format_bytes(double(s.sizes.max_bytes)) : "-", s.name, position(s.pos));
    std::string sizes;
    for (std::size_t c = 0; c < s.sizes.classes.size(); ++c) {
      if (s.sizes.classes[c] > 0) {
        sizes += fmt::format("{}{} x{}", sizes.empty() ? "" : ", ", format_size_class(c),
                             s.sizes.classes[c]);
      }
    }
    fmt::print(out, "  {:>58}  sizes: {}\n", "",
               recorded ? sizes : "not recorded (a profile before format 3)");
  }
}

void folded(const Report& report, std::ostream& out) {
  if (report.folded.empty()) {
    return;
  }
  fmt::print(out, "\nFolded into their callers (tiny or inline leaf procedures, not probed: their "
                  "time is their callers'; vcmon-instrument --probe-all probes them)\n");
  for (const auto& f : report.folded) {
    fmt::print(out, "  {}  {}  ({} folded call site{})\n", f.name, position(f.pos), f.call_sites,
               f.call_sites == 1 ? "" : "s");
  }
}

void matrix(const Report& report, std::ostream& out) {
  const auto& m = report.matrix;
  fmt::print(out, "\nCommunication matrix (row: rank holding the records, column: partner)\n");
  if (m.cells.empty()) {
    fmt::print(out, "  no point-to-point communication\n");
    return;
  }
  if (m.ranks <= kGridRanks) {
    fmt::print(out, "  messages {:>6}", "");
    for (std::int32_t c = 0; c < m.ranks; ++c) {
      fmt::print(out, " {:>8}", fmt::format("to {}", c));
    }
    std::map<std::pair<std::int32_t, std::int32_t>, std::uint64_t> messages;
    for (const auto& cell : m.cells) {
      messages[{cell.rank, cell.partner}] = cell.messages;
    }
    for (std::int32_t r = 0; r < m.ranks; ++r) {
      fmt::print(out, "\n  rank {:>4}      ", r);
      for (std::int32_t c = 0; c < m.ranks; ++c) {
        const auto found = messages.find({r, c});
        fmt::print(out, " {:>8}", found == messages.end() ? "." : fmt::to_string(found->second));
      }
    }
    fmt::print(out, "\n");
  }
  std::vector<CommCell> heaviest = m.cells;
  std::sort(heaviest.begin(), heaviest.end(),
            [](const auto& a, const auto& b) { return a.time_ns() > b.time_ns(); });
  const auto shown = std::min(heaviest.size(), kMatrixPairs);
  fmt::print(out, "  {:>6} {:>7} {:>10} {:>11} {:>10} {:>10} {:>10}\n", "rank", "partner",
             "messages", "bytes", "time", "transmit", "sync");
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& cell = heaviest[i];
    fmt::print(
        out, "  {:>6} {:>7} {:>10} {:>11} {:>10} {:>10} {:>10}\n", cell.rank, cell.partner,
        cell.messages, format_bytes(double(cell.bytes)), format_duration(double(cell.time_ns())),
        format_duration(double(cell.transmission_ns)), format_duration(double(cell.sync_delay_ns)));
  }
  if (heaviest.size() > shown) {
    fmt::print(out, "  ... {} more pairs (see --format json or html)\n", heaviest.size() - shown);
  }
}

} // namespace

void TextRenderer::render(const Report& report, std::ostream& out) const {
  header(report, out);
  time_split(report, out);
  mpi_functions(report, out);
  hot_path(report, out);
  tree(report, out);
  sites(report, out);
  folded(report, out);
  statements(report, out);
  message_sizes(report, out);
  matrix(report, out);
}

} // namespace vcmon::report
