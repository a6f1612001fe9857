#include "vcmon/report/Report.hpp"

#include "CommSummary.hpp"
#include "MpiSummary.hpp"
#include "RecordIndex.hpp"
#include "TreeBuilder.hpp"
#include "TreeFilter.hpp"

#include <algorithm>

namespace vcmon::report {
namespace {

ReportHeader make_header(const tables::Profile& profile, const RecordIndex& index) {
  ReportHeader header;
  const auto& meta = profile.meta;
  header.command = meta.command;
  header.ranks = meta.ranks;
  header.ranks_reported = static_cast<std::int32_t>(index.ranks().size());
  header.hosts = meta.hosts;
  header.start_unix_ns = meta.start_unix_ns;
  header.end_unix_ns = meta.end_unix_ns;
  header.clock_source = meta.clock.source;
  header.partial = meta.partial;
  header.partial_reason = meta.partial_reason;
  header.activation_depth = meta.activation_depth;
  for (const double t : index.program_time()) {
    header.program_ns += t;
  }
  for (const auto* records : index.rank_records()) {
    header.virtual_ns = std::max(header.virtual_ns, records->virtual_ns);
    header.real_ns = std::max(header.real_ns, records->real_ns);
    header.intrusion_ns += records->intrusion_ns;
    header.real_total_ns += records->real_ns;
    auto& c = header.counters;
    c.probe_events += records->counters.probe_events;
    c.wildcard_decisions += records->counters.wildcard_decisions;
    c.cycle_breaks += records->counters.cycle_breaks;
    c.control_messages += records->counters.control_messages;
    c.safety_wait_ns += records->counters.safety_wait_ns;
    c.folded_activations += records->counters.folded_activations;
    c.forced_decisions += records->counters.forced_decisions;
  }
  return header;
}

} // namespace

Report build_report(const tables::Profile& profile, const ReportOptions& options) {
  const RecordIndex index(profile, options.rank);
  Report report;
  report.options = options;
  report.header = make_header(profile, index);

  TreeBuilder builder(profile.graph, index);
  const ReportTree full = builder.build();
  report.header.tree_truncated = builder.truncated();
  report.hot_path = find_hot_path(full);
  report.tree = filter_tree(full, options);

  report.statements = summarize_statements(profile.graph, index, report.header.program_ns);
  report.time_split = split_time(index);
  report.mpi_functions = summarize_mpi_functions(report.statements, report.time_split);
  report.message_sizes = order_by_bytes(report.statements);
  std::erase_if(report.statements, [&](const CommStatement& statement) {
    return statement.percent < options.threshold_percent;
  });
  report.matrix = build_matrix(profile.graph, index);
  report.folded = folded_procedures(profile.graph);
  return report;
}

} // namespace vcmon::report
