#include "mpi/requests/PostedWildcards.hpp"

#include "mpi/layer/CallerCounters.hpp"
#include "mpi/layer/ProgramErrorHandlers.hpp"
#include "mpi/requests/Receipt.hpp"

#include <algorithm>
#include <optional>

namespace vcmon::runtime::mpi {
namespace {

// The source whose message a receive that completed with `error` and `status` took, if it took
// one.
std::optional<int> taken_from(int error, const MPI_Status& status) {
  return Receipt::consumed_request(error, status) ? std::optional<int>(status.MPI_SOURCE)
                                                  : std::nullopt;
}

} // namespace

void PostedWildcards::posting(MPI_Request handle, TrackedRequest& request) {
  if (CallerCounters::concurrent_callers()) {
    return;
  }
  stamps_.hold_back(*request.shadow, request.tag, request.stamp);
  request.wildcard_slot = static_cast<std::uint32_t>(entries_.size());
  entries_.push_back({handle, &request, false, std::nullopt, MPI_ANY_TAG});
}

void PostedWildcards::matched(TrackedRequest& request, int error, const MPI_Status& status) {
  const std::uint32_t slot = request.wildcard_slot;
  if (slot == TrackedRequest::kNoWildcardSlot) {
    return;
  }
  Entry& entry = entries_[slot];
  entry.known = true;
  entry.source = taken_from(error, status);
  entry.tag = status.MPI_TAG;
}

void PostedWildcards::completed(TrackedRequest& request, int error, const MPI_Status& status) {
  if (CallerCounters::concurrent_callers()) {
    return; // never marked, and another thread may be filing its claim
  }
  // Out of the entries before it settles: polling, it settles the others (settle_matched),
  // among them those it waits for, which the same call may have completed (matched).
  remove(request);
  // Still a marker, also when forgotten before an MPI_Request_free that failed.
  if (request.stamp.state == PostedStamp::State::Wildcard) {
    stamps_.settle_in_turn(*request.shadow, request.stamp, taken_from(error, status),
                           status.MPI_TAG);
  }
}

bool PostedWildcards::settle_matched() {
  if (settling_ || entries_.empty()) {
    return false;
  }
  settling_ = true;
  bool settled = false;
  // A round over at most kPerRound entries from where the last one stopped: thousands may be
  // posted at once (tests/transparency/many_wildcards.c), and every waiting poll calls this.
  std::size_t left = std::min(entries_.size(), kPerRound);
  while (left-- > 0 && !entries_.empty()) {
    next_ = next_ < entries_.size() ? next_ : 0;
    Entry& entry = entries_[next_];
    if (!entry.known) {
      int flag = 0;
      MPI_Status status{};
      int error = MPI_SUCCESS;
      {
        const ProgramErrorHandlers::Look look; // the program sees its errors when it completes it
        error = PMPI_Request_get_status(entry.handle, &flag, &status);
      }
      if (flag != 0) {
        entry.known = true;
        entry.source = taken_from(error, status);
        entry.tag = status.MPI_TAG;
      }
    }
    TrackedRequest& request = *entry.request;
    if (entry.known && stamps_.settle(*request.shadow, request.stamp, entry.source, entry.tag)) {
      remove(request); // the last entry moves to next_, which is looked at next
      settled = true;
    } else {
      ++next_;
    }
  }
  settling_ = false;
  return settled;
}

void PostedWildcards::remove(TrackedRequest& request) {
  const std::uint32_t slot = request.wildcard_slot;
  if (slot == TrackedRequest::kNoWildcardSlot) {
    return;
  }
  request.wildcard_slot = TrackedRequest::kNoWildcardSlot;
  if (slot + 1 != entries_.size()) {
    entries_[slot] = entries_.back();
    entries_[slot].request->wildcard_slot = slot;
  }
  entries_.pop_back();
}

} // namespace vcmon::runtime::mpi
