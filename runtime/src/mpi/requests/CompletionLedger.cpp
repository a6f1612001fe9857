#include "mpi/requests/CompletionLedger.hpp"

#include "vcmon/tables/Records.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

CompletionLedger& CompletionLedger::open(tables::SiteId site) {
  static thread_local CompletionLedger ledger;
  ledger.site_ = site;
  ledger.pending_ = false;
  ledger.entries_.clear();
  return ledger;
}

void CompletionLedger::charge(Monitor& monitor, std::uint64_t call_vt, std::uint64_t end_vt) {
  end_vt = std::max(end_vt, call_vt);
  if (entries_.empty()) {
    if (pending_) {
      return; // the call's record comes with its pending request
    }
    monitor.record_com(site_, tables::ComRecord::kCollective, end_vt - call_vt, 0, 0, false);
    return;
  }
  // Timed requests first, in the order their partners became ready, else in completion order
  // (std::sort: a stable sort may allocate).
  if (entries_.size() > 1) {
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      if (a.timed != b.timed) {
        return a.timed;
      }
      return a.timed && a.ready_vt != b.ready_vt ? a.ready_vt < b.ready_vt : a.order < b.order;
    });
  }
  const auto last_timed = std::find_if(entries_.rbegin(), entries_.rend(),
                                       [](const Entry& entry) { return entry.timed; });
  const Entry* completing = last_timed != entries_.rend() ? &*last_timed : &entries_.front();
  std::uint64_t cursor = call_vt;
  for (const Entry& entry : entries_) {
    std::uint64_t sync = 0;
    if (entry.timed) {
      const std::uint64_t ready = std::min(std::max(entry.ready_vt, cursor), end_vt);
      sync = ready - cursor;
      cursor = ready;
    }
    const std::uint64_t transmission = &entry == completing ? end_vt - cursor : 0;
    monitor.record_com(site_, entry.partner, transmission, sync, 0, false);
  }
}

} // namespace vcmon::runtime::mpi
