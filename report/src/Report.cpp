#include "vcmon/report/Report.hpp"

#include "CommSummary.hpp"
#include "MpiSummary.hpp"
#include "RecordIndex.hpp"
#include "TreeBuilder.hpp"
#include "TreeFilter.hpp"

#include "vcmon/tables/JobSummary.hpp"
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

ReportHeader make_header(const tables::RunMetadata& meta, const tables::JobSummary& summary) {
  ReportHeader header;
  header.command = meta.command;
  header.ranks = meta.ranks;
  header.ranks_reported = static_cast<std::int32_t>(summary.ranks.size());
  header.hosts = meta.hosts;
  header.start_unix_ns = meta.start_unix_ns;
  header.end_unix_ns = meta.end_unix_ns;
  header.clock_source = meta.clock.source;
  header.partial = meta.partial;
  header.partial_reason = meta.partial_reason;
  header.activation_depth = meta.activation_depth;
  for (const auto& rank : summary.ranks) {
    header.program_ns += rank.application_ns;
  }
  header.virtual_ns = summary.virtual_ns;
  header.real_ns = summary.real_ns;
  header.intrusion_ns = summary.intrusion_ns;
  header.real_total_ns = summary.real_total_ns;
  header.counters = summary.counters;
  return header;
}

// Whether the report's tree is the summary's calling contexts (docs/report.md, "The tree"). A
// partial profile's open activations (main, at least) are charged to the per-site records
// only, not to their contexts: its tree stays the per-site one.
bool tree_of_contexts(const tables::RunMetadata& meta, bool has_contexts) {
  return has_contexts && !meta.partial;
}
bool tree_of_contexts(const tables::RunMetadata& meta, const tables::JobSummary& summary) {
  return tree_of_contexts(meta, !summary.contexts.empty());
}

// `summary`: the selected ranks'; `index`: their records by site, for a tree of per-site
// records (not tree_of_contexts) only; `world_ranks`: the matrix's width.
Report assemble(const tables::RunMetadata& meta, const tables::ProgramGraph& graph,
                const tables::JobSummary& summary, const RecordIndex* index,
                std::int32_t world_ranks, const ReportOptions& options) {
  Report report;
  report.options = options;
  report.header = make_header(meta, summary);
  report.header.contexts = tree_of_contexts(meta, summary);

  TreeBuilder builder(graph, summary, index);
  const ReportTree full = report.header.contexts ? builder.build_contexts() : builder.build();
  report.header.tree_truncated = builder.truncated();
  report.hot_path = find_hot_path(full);
  report.tree = filter_tree(full, options);
  report.sites = builder.site_totals();
  std::stable_sort(
      report.sites.begin(), report.sites.end(),
      [](const ReportNode& a, const ReportNode& b) { return a.time.total > b.time.total; });
  std::erase_if(report.sites,
                [&](const ReportNode& site) { return site.percent < options.threshold_percent; });

  std::vector<std::int32_t> ranks;
  for (const auto& rank : summary.ranks) {
    ranks.push_back(rank.rank);
  }
  report.statements = summarize_statements(graph, summary, ranks, report.header.program_ns);
  report.time_split = split_time(summary);
  report.mpi_functions = summarize_mpi_functions(report.statements, report.time_split);
  report.message_sizes = order_by_bytes(report.statements);
  std::erase_if(report.statements, [&](const CommStatement& statement) {
    return statement.percent < options.threshold_percent;
  });
  report.matrix = build_matrix(summary, world_ranks);
  report.folded = folded_procedures(graph);
  return report;
}

// A contiguous block of the wanted ranks, read by one thread.
struct RankBlock {
  RankBlock(const tables::ProgramGraph& graph, std::int32_t world_ranks)
      : reduction(graph, world_ranks) {}
  std::span<const std::size_t> positions; // in the rank index, in rank order
  tables::SummaryReduction reduction;
  std::vector<tables::RankRecords> ranks; // their records but the contexts, when held
  std::exception_ptr error;               // what the block's first failing rank threw
};

// Reads and reduces `block`'s ranks in order, holding their records when `hold`. It stops at
// its first failing rank, and before a rank after `first_failed` (the position of the first
// failing rank found so far by any block), which could not change the error reported: the
// first failing rank's in rank order, as when the ranks are read one by one.
void read_block(const tables::ProfileReader& reader, RankBlock& block, bool hold,
                std::atomic<std::size_t>& first_failed) {
  for (const std::size_t position : block.positions) {
    if (position > first_failed.load(std::memory_order_relaxed)) {
      return;
    }
    try {
      // The contexts are merged as they are decoded, a piece at a time, never held. A problem
      // the merge finds is thrown after the reader's own about the rank, as when reading first.
      block.reduction.begin_contexts(reader.rank_at(position));
      tables::RankRecords records =
          reader.read_rank_at(position, [&](std::span<const tables::ContextRecord> piece) {
            block.reduction.add_contexts(piece);
          });
      if (auto problem = block.reduction.end_contexts()) {
        throw ReportError(*problem);
      }
      if (auto problem = block.reduction.add_records(records)) {
        throw ReportError(*problem);
      }
      if (hold) {
        block.ranks.push_back(std::move(records));
      }
    } catch (...) {
      block.error = std::current_exception();
      std::size_t seen = first_failed.load(std::memory_order_relaxed);
      while (position < seen && !first_failed.compare_exchange_weak(seen, position)) {
      }
      return;
    }
  }
}

// The wanted ranks (positions in the rank index, in rank order) reduced, and their records
// when `hold`.
struct ReadRanks {
  tables::SummaryReduction reduction;
  std::vector<tables::RankRecords> ranks;
};

ReadRanks read_ranks(const tables::ProfileReader& reader, std::span<const std::size_t> wanted,
                     bool hold) {
  // Reading, checking and decoding a rank's section is most of the work, reducing it the rest,
  // and ranks are independent: each thread reads a contiguous block of the ranks into its own
  // reduction, and the blocks' reductions are absorbed in block order, which gives the
  // reduction of the ranks added one by one.
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                      std::max<std::size_t>(wanted.size(), 1));
  std::vector<RankBlock> blocks;
  blocks.reserve(workers);
  std::atomic<std::size_t> first_failed{std::numeric_limits<std::size_t>::max()}; // none yet
  {
    std::vector<std::jthread> threads;
    for (std::size_t w = 0; w < workers; ++w) {
      const std::size_t begin = wanted.size() * w / workers;
      const std::size_t end = wanted.size() * (w + 1) / workers;
      RankBlock& block = blocks.emplace_back(reader.graph(), reader.meta().ranks);
      block.positions = wanted.subspan(begin, end - begin);
      threads.emplace_back(read_block, std::cref(reader), std::ref(block), hold,
                           std::ref(first_failed));
    }
  }
  // The first block's reduction is where the others go: absorbed, its contexts would be
  // hashed again.
  ReadRanks read{std::move(blocks.front().reduction), {}};
  read.ranks.reserve(hold ? wanted.size() : 0);
  for (RankBlock& block : blocks) {
    // Every block before the first that failed was read whole: its error is the first rank's.
    if (block.error) {
      std::rethrow_exception(block.error);
    }
    if (&block != &blocks.front()) {
      read.reduction.absorb(std::move(block.reduction));
    }
    std::move(block.ranks.begin(), block.ranks.end(), std::back_inserter(read.ranks));
  }
  return read;
}

} // namespace

Report build_report(const tables::Profile& profile, const ReportOptions& options) {
  std::int32_t world_ranks = std::max<std::int32_t>(profile.meta.ranks, 0);
  std::vector<const tables::RankRecords*> selected;
  for (const auto& records : profile.ranks) {
    world_ranks = std::max(world_ranks, records.rank + 1);
    if (!options.rank || *options.rank == records.rank) {
      selected.push_back(&records);
    }
  }
  tables::SummaryReduction reduction(profile.graph, world_ranks);
  // Every rank's contexts before any rank's other records: a problem in the contexts is
  // reported first, as it always was.
  for (const auto* records : selected) {
    reduction.begin_contexts(records->rank);
    reduction.add_contexts(records->contexts);
    if (auto problem = reduction.end_contexts()) {
      throw ReportError(*problem);
    }
  }
  if (options.rank && selected.empty()) {
    throw rank_not_in_profile(*options.rank, profile.ranks.size());
  }
  for (const auto* records : selected) {
    if (auto problem = reduction.add_records(*records)) {
      throw ReportError(*problem);
    }
  }
  const auto needed = reduction.other_partners_needed();
  reduction.begin_other_partners(needed);
  for (const auto* records : selected) {
    reduction.add_other_partners(*records);
  }
  const tables::JobSummary summary = std::move(reduction).whole_job();
  if (tree_of_contexts(profile.meta, summary)) {
    return assemble(profile.meta, profile.graph, summary, nullptr, world_ranks, options);
  }
  const RecordIndex index(profile, options.rank);
  return assemble(profile.meta, profile.graph, summary, &index, world_ranks, options);
}

Report build_report(const tables::ProfileReader& reader, const ReportOptions& options) {
  const tables::RunMetadata& meta = reader.meta();
  if (options.use_summary && !options.rank && reader.has_summary()) {
    // The whole job's view, reduced in the job: no rank's section is read.
    const tables::JobSummary summary = reader.read_summary().value();
    if (tree_of_contexts(meta, summary)) {
      return assemble(meta, reader.graph(), summary, nullptr, meta.ranks, options);
    }
  }
  std::vector<std::size_t> wanted; // positions in the rank index, in rank order
  for (std::size_t i = 0; i < reader.rank_count(); ++i) {
    if (!options.rank || *options.rank == reader.rank_at(i)) {
      wanted.push_back(i);
    }
  }
  if (options.rank && wanted.empty()) {
    throw rank_not_in_profile(*options.rank, reader.rank_count());
  }
  // The per-site tree needs the ranks' records by site: a partial profile, or one written
  // before calling contexts, gets it; a profile whose ranks have no context at all is read
  // again for it.
  bool hold = meta.partial || reader.version() < 6;
  ReadRanks read = read_ranks(reader, wanted, hold);
  if (!hold && !tree_of_contexts(meta, read.reduction.has_contexts())) {
    hold = true;
    read = read_ranks(reader, wanted, hold);
  }
  const auto needed = read.reduction.other_partners_needed();
  read.reduction.begin_other_partners(needed);
  if (!needed.empty()) {
    // The other partners' time per rank needs the partners listed, known once every rank is in.
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      read.reduction.add_other_partners(
          hold ? read.ranks[i]
               : reader.read_rank_at(wanted[i], [](std::span<const tables::ContextRecord>) {}));
    }
  }
  const tables::JobSummary summary = std::move(read.reduction).whole_job();
  if (!hold) {
    return assemble(meta, reader.graph(), summary, nullptr, meta.ranks, options);
  }
  const tables::Profile profile{meta, reader.graph(), std::move(read.ranks)};
  const RecordIndex index(profile, options.rank);
  return assemble(meta, reader.graph(), summary, &index, meta.ranks, options);
}

} // namespace vcmon::report
