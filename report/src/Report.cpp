#include "vcmon/report/Report.hpp"

#include "CommSummary.hpp"
#include "ContextMerge.hpp"
#include "MpiSummary.hpp"
#include "RecordIndex.hpp"
#include "TreeBuilder.hpp"
#include "TreeFilter.hpp"

#include "vcmon/tables/ProfileReader.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <iterator>
#include <limits>
#include <span>
#include <thread>

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
    c.folded_contexts += records->counters.folded_contexts;
    c.forced_decisions += records->counters.forced_decisions;
  }
  return header;
}

// `contexts`: the selected ranks' calling contexts, merged; empty for a profile without them.
Report assemble(const tables::Profile& profile, const ReportOptions& options,
                const ContextMerge& contexts) {
  const RecordIndex index(profile, options.rank);
  Report report;
  report.options = options;
  report.header = make_header(profile, index);
  // A partial profile's open activations (main, at least) are charged to the per-site records
  // only, not to their contexts (docs/report.md, "The tree"): its tree stays the per-site one.
  report.header.contexts = !contexts.empty() && !profile.meta.partial;

  TreeBuilder builder(profile.graph, index);
  const ReportTree full = report.header.contexts ? builder.build(contexts) : builder.build();
  report.header.tree_truncated = builder.truncated();
  report.hot_path = find_hot_path(full);
  report.tree = filter_tree(full, options);
  report.sites = builder.site_totals();
  std::stable_sort(
      report.sites.begin(), report.sites.end(),
      [](const ReportNode& a, const ReportNode& b) { return a.time.total > b.time.total; });
  std::erase_if(report.sites,
                [&](const ReportNode& site) { return site.percent < options.threshold_percent; });

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

// A contiguous block of the wanted ranks, read by one thread.
struct RankBlock {
  std::span<const std::size_t> positions; // in the rank index, in rank order
  ContextMerge contexts;
  std::vector<tables::RankRecords> ranks; // their records but the contexts
  std::exception_ptr error;               // what the block's first failing rank threw
};

// Reads and merges `block`'s ranks in order. It stops at its first failing rank, and before a
// rank after `first_failed` (the position of the first failing rank found so far by any
// block), which could not change the error reported: the first failing rank's in rank order,
// as when the ranks are read one by one.
void read_block(const tables::ProfileReader& reader, RankBlock& block,
                std::atomic<std::size_t>& first_failed) {
  block.ranks.reserve(block.positions.size());
  for (const std::size_t position : block.positions) {
    if (position > first_failed.load(std::memory_order_relaxed)) {
      return;
    }
    try {
      // The contexts are merged as they are decoded, a piece at a time, never held. A problem
      // the merge finds is thrown after the reader's own about the rank, as when reading first.
      block.contexts.begin_rank(reader.rank_at(position), reader.graph().size());
      block.ranks.push_back(
          reader.read_rank_at(position, [&](std::span<const tables::ContextRecord> piece) {
            block.contexts.add_contexts(piece);
          }));
      block.contexts.end_rank();
    } catch (...) {
      block.error = std::current_exception();
      std::size_t seen = first_failed.load(std::memory_order_relaxed);
      while (position < seen && !first_failed.compare_exchange_weak(seen, position)) {
      }
      return;
    }
  }
}

} // namespace

Report build_report(const tables::Profile& profile, const ReportOptions& options) {
  ContextMerge contexts;
  for (const auto& records : profile.ranks) {
    if (!options.rank || *options.rank == records.rank) {
      contexts.add_rank(records.rank, records.contexts, profile.graph.size());
    }
  }
  return assemble(profile, options, contexts);
}

Report build_report(const tables::ProfileReader& reader, const ReportOptions& options) {
  std::vector<std::size_t> wanted; // positions in the rank index, in rank order
  for (std::size_t i = 0; i < reader.rank_count(); ++i) {
    if (!options.rank || *options.rank == reader.rank_at(i)) {
      wanted.push_back(i);
    }
  }
  if (options.rank && wanted.empty()) {
    throw rank_not_in_profile(*options.rank, reader.rank_count());
  }
  // Reading, checking and decoding a rank's section is most of the work, merging its contexts
  // the rest, and ranks are independent: each thread reads a contiguous block of the ranks into
  // its own merge, and the blocks' merges are absorbed in block order, which gives the merge of
  // the ranks added one by one.
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                      std::max<std::size_t>(wanted.size(), 1));
  std::vector<RankBlock> blocks(workers);
  std::atomic<std::size_t> first_failed{std::numeric_limits<std::size_t>::max()}; // none yet
  {
    std::vector<std::jthread> threads;
    for (std::size_t w = 0; w < workers; ++w) {
      const std::size_t begin = wanted.size() * w / workers;
      const std::size_t end = wanted.size() * (w + 1) / workers;
      blocks[w].positions = std::span(wanted).subspan(begin, end - begin);
      threads.emplace_back(read_block, std::cref(reader), std::ref(blocks[w]),
                           std::ref(first_failed));
    }
  }
  tables::Profile profile{reader.meta(), reader.graph(), {}};
  profile.ranks.reserve(wanted.size());
  // The first block's merge is where the others go: absorbed, its nodes would be hashed again.
  ContextMerge contexts = std::move(blocks.front().contexts);
  for (RankBlock& block : blocks) {
    // Every block before the first that failed was read whole: its error is the first rank's.
    if (block.error) {
      std::rethrow_exception(block.error);
    }
    if (&block != &blocks.front()) {
      contexts.absorb(block.contexts);
      block.contexts = {};
    }
    std::move(block.ranks.begin(), block.ranks.end(), std::back_inserter(profile.ranks));
  }
  return assemble(profile, options, contexts);
}

} // namespace vcmon::report
