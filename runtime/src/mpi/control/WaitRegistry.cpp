#include "mpi/control/WaitRegistry.hpp"

#include "mpi/layer/CallerCounters.hpp"

#include <algorithm>
#include <sched.h>

namespace vcmon::runtime::mpi {
namespace {

// The slot the calling thread's wait holds: per thread, since a thread waits in one call at a
// time (and the process has one registry).
thread_local int own_slot = -1;

// A slot pinned for reading: its call, if any, stays valid while the pin lives.
template <typename Slot> class Pin {
public:
  explicit Pin(Slot& slot) : slot_(slot) {
    // Sequentially consistent on both sides: either the owner sees this reader and waits, or
    // this reader sees the call gone.
    slot_.readers.fetch_add(1, std::memory_order_seq_cst);
    call_ = slot_.call.load(std::memory_order_seq_cst);
  }
  ~Pin() { slot_.readers.fetch_sub(1, std::memory_order_seq_cst); }
  Pin(const Pin&) = delete;
  Pin& operator=(const Pin&) = delete;
  const BlockedCall* call() const { return call_; }

private:
  Slot& slot_;
  const BlockedCall* call_;
};

} // namespace

WaitRegistry::Registration::Registration(WaitRegistry& registry, const BlockedCall& call)
    : registry_(registry), slot_(-1) {
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (registry_.slot(i).claimed.compare_exchange_strong(expected, true,
                                                          std::memory_order_acquire)) {
      slot_ = i;
      break;
    }
  }
  if (slot_ < 0) {
    return;
  }
  own_slot = slot_;
  registry_.slot(slot_).call.store(&call, std::memory_order_seq_cst);
  registry_.changes_.fetch_add(1, std::memory_order_acq_rel);
  registry_.waiting_.fetch_add(1, std::memory_order_acq_rel);
}

WaitRegistry::Registration::~Registration() {
  if (slot_ < 0) {
    return;
  }
  Slot& slot = registry_.slot(slot_);
  registry_.waiting_.fetch_sub(1, std::memory_order_acq_rel);
  registry_.changes_.fetch_add(1, std::memory_order_acq_rel);
  slot.call.store(nullptr, std::memory_order_seq_cst);
  while (slot.readers.load(std::memory_order_seq_cst) != 0) {
    sched_yield();
  }
  own_slot = -1;
  slot.claimed.store(false, std::memory_order_release);
}

const BlockedCall* WaitRegistry::own_call() const {
  return own_slot >= 0
             ? slots_[static_cast<std::size_t>(own_slot)].call.load(std::memory_order_relaxed)
             : nullptr;
}

bool WaitRegistry::describe(int threads, deadlock::ProcessState& state, WaitPlace* place) const {
  if (waiting_.load(std::memory_order_acquire) < std::max(threads, 1)) {
    return false;
  }
  int described = 0;
  deadlock::ProcessState combined;
  WaitPlace first_place;
  bool message_wait = true;
  for (int i = 0; i < kSlots; ++i) {
    Slot& slot = this->slot(i);
    if (!slot.claimed.load(std::memory_order_acquire)) {
      continue;
    }
    const Pin pin(slot);
    if (pin.call() == nullptr) {
      continue;
    }
    // The waiting thread may look at what only it writes (an inbox), unless other threads may
    // write it too (they file stamps under a lock this reader does not hold).
    const bool own = i == own_slot && !CallerCounters::concurrent_callers();
    if (own && pin.call()->satisfied()) {
      return false; // it resumes at its next poll
    }
    deadlock::ProcessState one;
    one.rank = state.rank;
    pin.call()->describe(one, own);
    if (!one.blocked()) {
      return false;
    }
    message_wait = message_wait && pin.call()->waits_for_message();
    if (described++ == 0) {
      combined = one;
      first_place = pin.call()->place();
      continue;
    }
    // Several threads: the process can send once any of them resumes.
    combined.activity = deadlock::Activity::BlockedAny;
    combined.collective.reset();
    combined.clock_ns = std::min(combined.clock_ns, one.clock_ns);
    combined.waits_on.insert(combined.waits_on.end(), one.waits_on.begin(), one.waits_on.end());
    if (one.present_arrival_ns) {
      combined.present_arrival_ns =
          std::min(combined.present_arrival_ns.value_or(deadlock::kNever), *one.present_arrival_ns);
    }
  }
  if (described < std::max(threads, 1)) {
    return false; // a thread left its wait meanwhile
  }
  std::sort(combined.waits_on.begin(), combined.waits_on.end());
  combined.waits_on.erase(std::unique(combined.waits_on.begin(), combined.waits_on.end()),
                          combined.waits_on.end());
  combined.rank = state.rank;
  state = combined;
  if (place != nullptr) {
    *place = first_place;
    place->message_wait = message_wait;
  }
  return true;
}

} // namespace vcmon::runtime::mpi
