// vcmon/query.h: snapshots of the records, taken with the monitor's own work charged to
// intrusion, and read-only accessors over them.
#include "vcmon/query.h"

#include "core/Log.hpp"
#include "core/Monitor.hpp"
#include "core/RecordsGather.hpp"
#include "query/LiveJob.hpp"
#include "query/RecordsExclusion.hpp"
#include "query/Snapshot.hpp"

#include <cstdio>
#include <mpi.h>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>

using vcmon::runtime::Monitor;
using vcmon::runtime::query::RecordsExclusion;
namespace tables = vcmon::tables;

namespace {

bool mpi_running() {
  int initialized = 0;
  int finalized = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

// This rank's records as a profile would show them.
tables::RankRecords local_records(Monitor& monitor) {
  tables::RankRecords records = monitor.local_rank_records(true);
  RecordsExclusion::instance().apply(records);
  return records;
}

const vcmon_snapshot::RankView* rank_view(const vcmon_snapshot* snapshot, int index) {
  if (snapshot == nullptr || index < 0 ||
      static_cast<std::size_t>(index) >= snapshot->ranks.size()) {
    return nullptr;
  }
  return &snapshot->ranks[static_cast<std::size_t>(index)];
}

template <typename Record>
std::size_t records_of(const vcmon_snapshot* snapshot, int index, const Record** out,
                       std::vector<Record> vcmon_snapshot::RankView::*member) {
  const vcmon_snapshot::RankView* view = rank_view(snapshot, index);
  if (out != nullptr) {
    *out = view != nullptr ? (view->*member).data() : nullptr;
  }
  return view != nullptr ? (view->*member).size() : 0;
}

} // namespace

extern "C" {

int vcmon_snapshot_local(vcmon_snapshot** out) {
  if (out == nullptr) {
    return VCMON_QUERY_BAD_ARGUMENT;
  }
  *out = nullptr;
  Monitor& monitor = Monitor::instance();
  if (!monitor.enabled()) {
    return VCMON_QUERY_DISABLED;
  }
  const vcmon::vclock::IntrusionScope work(monitor.clock(), monitor.action_cost_ns());
  try {
    *out = new vcmon_snapshot(monitor.profile_of({local_records(monitor)}, monitor.world_size()));
    return VCMON_QUERY_OK;
  } catch (const std::exception& error) {
    vcmon::runtime::log_line(vcmon::runtime::LogLevel::Error, "no snapshot: %s", error.what());
    return VCMON_QUERY_FAILED;
  }
}

int vcmon_snapshot_gather(int root, vcmon_snapshot** out) {
  if (out == nullptr) {
    return VCMON_QUERY_BAD_ARGUMENT;
  }
  *out = nullptr;
  Monitor& monitor = Monitor::instance();
  if (!monitor.enabled()) {
    return VCMON_QUERY_DISABLED;
  }
  if (!mpi_running()) {
    return VCMON_QUERY_NOT_RUNNING;
  }
  if (root < 0 || root >= monitor.world_size()) {
    return VCMON_QUERY_BAD_ARGUMENT;
  }
  const vcmon::vclock::IntrusionScope work(monitor.clock(), monitor.action_cost_ns());
  try {
    const std::vector<std::byte> mine = tables::encode_rank_records(local_records(monitor));
    // Each rank is decoded as it arrives, so the root never holds every rank's bytes at once.
    // A rank whose bytes do not decode is reported once all have arrived: the sink must not
    // throw while other ranks still wait for their turn.
    std::vector<tables::RankRecords> ranks(static_cast<std::size_t>(monitor.world_size()));
    std::string problem;
    vcmon::runtime::gather_each_to(root, mine, [&](int rank, std::span<const std::byte> bytes) {
      try {
        ranks[static_cast<std::size_t>(rank)] = tables::decode_rank_records(bytes);
      } catch (const std::exception& error) {
        problem = "rank " + std::to_string(rank) + ": " + error.what();
      }
    });
    if (monitor.world_rank() != root) {
      return VCMON_QUERY_OK;
    }
    if (!problem.empty()) {
      throw std::runtime_error(problem);
    }
    *out = new vcmon_snapshot(monitor.profile_of(std::move(ranks), monitor.world_size()));
    return VCMON_QUERY_OK;
  } catch (const std::exception& error) {
    vcmon::runtime::log_line(vcmon::runtime::LogLevel::Error, "rank %d: no snapshot: %s",
                             monitor.world_rank(), error.what());
    return VCMON_QUERY_FAILED;
  }
}

void vcmon_snapshot_free(vcmon_snapshot* snapshot) {
  delete snapshot;
}

int vcmon_snapshot_rank_count(const vcmon_snapshot* snapshot) {
  return snapshot != nullptr ? static_cast<int>(snapshot->ranks.size()) : 0;
}

int vcmon_snapshot_rank(const vcmon_snapshot* snapshot, int index) {
  return rank_view(snapshot, index) != nullptr
             ? snapshot->profile.ranks[static_cast<std::size_t>(index)].rank
             : -1;
}

int vcmon_snapshot_job_ranks(const vcmon_snapshot* snapshot) {
  return snapshot != nullptr ? snapshot->profile.meta.ranks : 0;
}

int vcmon_snapshot_totals(const vcmon_snapshot* snapshot, int index, vcmon_totals* out) {
  if (snapshot == nullptr || out == nullptr) {
    return VCMON_QUERY_BAD_ARGUMENT;
  }
  if (index == VCMON_ALL_RANKS) {
    *out = snapshot->job_totals;
    return VCMON_QUERY_OK;
  }
  const vcmon_snapshot::RankView* view = rank_view(snapshot, index);
  if (view == nullptr) {
    return VCMON_QUERY_BAD_ARGUMENT;
  }
  *out = view->totals;
  return VCMON_QUERY_OK;
}

size_t vcmon_snapshot_procs(const vcmon_snapshot* snapshot, int index,
                            const vcmon_proc_record** records) {
  return records_of(snapshot, index, records, &vcmon_snapshot::RankView::procs);
}

size_t vcmon_snapshot_loops(const vcmon_snapshot* snapshot, int index,
                            const vcmon_loop_record** records) {
  return records_of(snapshot, index, records, &vcmon_snapshot::RankView::loops);
}

size_t vcmon_snapshot_coms(const vcmon_snapshot* snapshot, int index,
                           const vcmon_com_record** records) {
  return records_of(snapshot, index, records, &vcmon_snapshot::RankView::coms);
}

size_t vcmon_snapshot_contexts(const vcmon_snapshot* snapshot, int index,
                               const vcmon_context_record** records) {
  return records_of(snapshot, index, records, &vcmon_snapshot::RankView::contexts);
}

size_t vcmon_snapshot_context_children(const vcmon_snapshot* snapshot, int index, size_t context,
                                       const size_t** children) {
  const vcmon_snapshot::RankView* view = rank_view(snapshot, index);
  // The top is group 0, context k group k + 1 (VCMON_NO_CONTEXT + 1 wraps to 0).
  const std::size_t group = context + 1;
  const bool known = view != nullptr && group <= view->contexts.size();
  if (children != nullptr) {
    *children = known ? view->context_children.data() + view->child_begin[group] : nullptr;
  }
  return known ? view->child_begin[group + 1] - view->child_begin[group] : 0;
}

uint64_t vcmon_snapshot_context_time(const vcmon_snapshot* snapshot, int index, size_t context) {
  const vcmon_snapshot::RankView* view = rank_view(snapshot, index);
  return view != nullptr && context < view->contexts.size() ? snapshot->context_time(*view, context)
                                                            : 0;
}

unsigned vcmon_snapshot_site_count(const vcmon_snapshot* snapshot) {
  return snapshot != nullptr ? static_cast<unsigned>(snapshot->profile.graph.size()) : 0;
}

int vcmon_snapshot_site(const vcmon_snapshot* snapshot, unsigned site, vcmon_site_info* out) {
  if (snapshot == nullptr || out == nullptr || site >= snapshot->profile.graph.size()) {
    return VCMON_QUERY_BAD_ARGUMENT;
  }
  const tables::Site& s = snapshot->profile.graph.site(site);
  *out = {static_cast<unsigned>(s.kind),
          s.pos.file.c_str(),
          s.pos.line,
          s.pos.column,
          s.name.c_str(),
          s.parent};
  return VCMON_QUERY_OK;
}

unsigned vcmon_snapshot_find_procedure(const vcmon_snapshot* snapshot, const char* name) {
  if (snapshot == nullptr || name == nullptr) {
    return VCMON_NO_SITE;
  }
  for (const tables::Site& s : snapshot->profile.graph.sites()) {
    if (s.kind == tables::SiteKind::Procedure && s.name == name) {
      return s.id;
    }
  }
  return VCMON_NO_SITE;
}

size_t vcmon_snapshot_children(const vcmon_snapshot* snapshot, unsigned site,
                               const unsigned** children) {
  const bool known = snapshot != nullptr && site < snapshot->children.size();
  if (children != nullptr) {
    *children = known ? snapshot->children[site].data() : nullptr;
  }
  return known ? snapshot->children[site].size() : 0;
}

unsigned vcmon_snapshot_callee(const vcmon_snapshot* snapshot, unsigned call) {
  if (snapshot == nullptr || call >= snapshot->profile.graph.size()) {
    return VCMON_NO_SITE;
  }
  return snapshot->profile.graph.callee_of(call);
}

uint64_t vcmon_snapshot_site_time(const vcmon_snapshot* snapshot, int index, unsigned site) {
  if (snapshot == nullptr || site >= snapshot->profile.graph.size()) {
    return 0;
  }
  if (index != VCMON_ALL_RANKS) {
    const vcmon_snapshot::RankView* view = rank_view(snapshot, index);
    return view != nullptr ? snapshot->site_time(*view, site) : 0;
  }
  std::uint64_t time = 0;
  for (const vcmon_snapshot::RankView& view : snapshot->ranks) {
    time += snapshot->site_time(view, site);
  }
  return time;
}

unsigned long long vcmon_job_id(void) {
  const std::lock_guard lock(vcmon::runtime::query::live_job_mutex());
  return vcmon::runtime::query::live_job().job_id;
}

int vcmon_publication_stats_get(vcmon_publication_stats* out) {
  if (out == nullptr) {
    return VCMON_QUERY_BAD_ARGUMENT;
  }
  const std::lock_guard lock(vcmon::runtime::query::live_job_mutex());
  const vcmon::runtime::query::LivePublisher* publisher =
      vcmon::runtime::query::live_job().publisher;
  out->publishing = publisher != nullptr ? 1 : 0;
  out->publications = publisher != nullptr ? publisher->publications() : 0;
  out->cpu_ns = publisher != nullptr ? publisher->cpu_ns() : 0;
  return VCMON_QUERY_OK;
}

} // extern "C"
